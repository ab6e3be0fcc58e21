// The night's property campaigns (under --rules, then under the published rules) and its R0 campaign.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/interrupt.h"
#include "cli/nightly_parts.h"
#include "cli/report.h"
#include "harness/campaign.h"
#include "harness/r0_campaign.h"

namespace deskcheck::cli::nightly {

// ---- the property campaign ----------------------------------------------------------------------

namespace {

constexpr std::uint32_t first_round_cases = 200;
constexpr std::uint32_t round_cases_max = 20'000;
constexpr std::uint32_t rounds_max = 1000;

void add_stats(props::PropertyStats& total, const props::PropertyStats& p) {
    total.cases += p.cases;
    total.holds += p.holds;
    total.violated += p.violated;
    total.cannot_judge += p.cannot_judge;
    for (const auto& [why, n] : p.why_not_judged) total.why_not_judged[why] += n;
    for (const auto& [why, n] : p.why_partly_not_judged) total.why_partly_not_judged[why] += n;
    for (const auto& [debt, n] : p.known_debts) total.known_debts[debt] += n;
}

void add_campaign(props::CampaignResult& total, const props::CampaignResult& r) {
    total.cases += r.cases;
    for (const auto& p : r.properties) {
        auto it = std::find_if(total.properties.begin(), total.properties.end(),
                               [&](const props::PropertyStats& q) { return q.name == p.name; });
        if (it == total.properties.end()) {
            total.properties.push_back(props::PropertyStats{p.name, p.spec, 0, 0, 0, 0, {}, {}, {}});
            it = total.properties.end() - 1;
        }
        add_stats(*it, p);
    }
    for (const auto& [k, v] : r.verdicts) total.verdicts[k] += v;
    for (const auto& [k, v] : r.coverage) total.coverage[k] += v;
}

}  // namespace

// The timeline page next to a counterexample file (cli/html_timeline.h); a page that cannot be
// written is a warning, never a silent gap.
std::string write_page(const std::string& file, Mutation mutation, const std::string& replay, Summary& out) {
    const PageWritten page = write_page_for(file, replay_options(mutation), replay);
    if (!page.error.empty()) out.warnings.push_back("no timeline page for " + file + ": " + page.error);
    return page.path;
}

namespace {

void keep_counterexamples(const Settings& s, const Round& round, const props::CampaignResult& r, Summary& out) {
    for (const auto& c : r.counterexamples) {
        const bool known = std::any_of(out.findings.begin(), out.findings.end(),
                                       [&](const Finding& f) { return f.source == "campaign" && f.property == c.property; });
        if (known) continue;  // one counterexample per property per night
        const Written w = write_counterexample(c, round.rules, s.out, s.mutation, true);
        if (!w.error.empty()) {
            out.infra_errors.push_back("counterexample of " + c.property + " not written: " + w.error);
            out.findings.push_back({"campaign", c.property, c.summary + " (NOT written: " + w.error + ")", "",
                                    run_command(s, round), true, ""});
            progress("campaign: " + c.summary + " -> NOT written: " + w.error);
            continue;
        }
        out.findings.push_back({"campaign", c.property, c.summary, w.file, replay_command(w.file), true,
                                write_page(w.file, Mutation::None, replay_command(w.file), out)});
        progress("campaign: " + c.summary + " -> " + w.file);
    }
}

std::set<std::string> campaign_properties(const Summary& out) {
    std::set<std::string> known;
    for (const auto& f : out.findings) {
        if (f.source == "campaign") known.insert(f.property);
    }
    return known;
}

props::CampaignOptions campaign_options(const Settings& s, const Round& round, const Summary& out) {
    props::CampaignOptions o;
    o.seed = round.seed;
    o.cases = round.cases;
    o.rules = round.rules;
    o.mutation = s.mutation;
    o.agent_retries = true;
    o.shrink = true;
    o.counterexample_known = campaign_properties(out);
    return o;
}

// The sizes of the next `jobs` rounds: 200 cases, then twice as many each round up to
// round_cases_max; with a count (`planned` > 0), cut to what is left of it.
std::vector<std::uint32_t> next_round_sizes(std::uint32_t& size, std::uint32_t jobs, std::uint64_t planned, std::uint64_t done) {
    std::vector<std::uint32_t> sizes;
    for (std::uint32_t j = 0; j < jobs && (planned == 0 || done < planned); ++j) {
        const auto n = static_cast<std::uint32_t>(planned == 0 ? size : std::min<std::uint64_t>(size, planned - done));
        sizes.push_back(n);
        done += n;
        size = std::min(size * 2, round_cases_max);
    }
    return sizes;
}

// Runs the rounds on a thread each (the campaign is a pure function of its options).
std::vector<props::CampaignResult> run_rounds_in_parallel(const std::vector<props::CampaignOptions>& options) {
    std::vector<props::CampaignResult> results(options.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < options.size(); ++i) {
        threads.emplace_back([&, i] { results[i] = props::run_campaign(options[i]); });
    }
    if (!options.empty()) results[0] = props::run_campaign(options[0]);
    for (auto& t : threads) t.join();
    return results;
}

// Rounds of generated cases, `s.jobs` at a time on as many threads, each with its own seed
// (reproduce it with `deskcheck run --seed ... --cases ... --rules ...`). Without a count
// (`planned` 0) they fill the part's share of the budget: rounds start until the share's deadline
// and stop at it, so a faster build runs more cases; with one, they run until it is done, and the
// clock stops them only at clock_stop_factor times the share. A signal stops them at the next case.
// `seed_salt` keeps the published rounds' seeds apart from the main ones.
void run_campaign_rounds(const Settings& s, const std::string& rules, std::uint64_t planned, std::uint32_t share_pct,
                         std::uint64_t seed_salt, CampaignPart& part, Summary& out) {
    const auto began = Clock::now();
    const auto deadline = began + std::chrono::seconds(planned == 0 ? share_s(s, share_pct) : clock_stop_s(s, share_pct));
    std::atomic<bool> out_of_time{false};
    part.campaign.seed = s.seed;
    part.campaign.rules = rules;
    part.by_time = planned == 0;
    const std::string label = rules == s.rules ? "property campaign" : rules + " campaign";
    std::uint64_t done = 0;
    std::uint32_t size = first_round_cases;
    bool stopped = false;
    while (!stopped && part.rounds.size() < rounds_max && (planned == 0 || done < planned) && Clock::now() < deadline) {
        std::vector<Round> rounds;
        std::vector<props::CampaignOptions> options;
        for (const std::uint32_t n : next_round_sizes(size, s.jobs, planned, done)) {
            const auto index = static_cast<std::uint32_t>(part.rounds.size() + rounds.size() + 1);
            rounds.push_back({props::case_seed(s.seed ^ seed_salt, index), n, 0, rules});
            options.push_back(campaign_options(s, rounds.back(), out));
            options.back().stop = [&] {
                if (Clock::now() >= deadline) out_of_time = true;
                return out_of_time || interrupted();
            };
        }
        const auto t0 = Clock::now();
        const auto results = run_rounds_in_parallel(options);
        const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        for (std::size_t i = 0; i < results.size(); ++i) {
            Round round = rounds[i];
            round.seconds = seconds;
            round.cases = results[i].cases;
            add_campaign(part.campaign, results[i]);
            part.rounds.push_back(round);
            done += round.cases;
            progress(label + " round " + std::to_string(part.rounds.size()) + ": " + std::to_string(round.cases) + " cases in " +
                     std::to_string(round.seconds).substr(0, 5) + " s (" + run_command(s, round) + ")");
            keep_counterexamples(s, round, results[i], out);
            stopped = stopped || results[i].stopped;
        }
    }
    part.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    const std::string of_planned = planned == 0 ? "" : " of " + std::to_string(planned);
    if (interrupted()) {
        out.interrupted_during = "the " + label + ", after " + std::to_string(done) + of_planned + " cases";
    } else if (out_of_time && planned != 0) {
        out.warnings.push_back("the clock stopped the " + label + " after " + std::to_string(done) + of_planned +
                               " cases (" + std::to_string(clock_stop_s(s, share_pct)) +
                               " s, twice its share): this night is shorter than its seed's; a slower machine?");
    }
}

constexpr std::uint64_t published_seed_salt = 0x9ab1'15ed'0000'0001ULL;

}  // namespace

void run_campaign_part(const Settings& s, Summary& out) {
    run_campaign_rounds(s, s.rules, s.campaign_cases, campaign_share_pct, 0, out.main, out);
    if (interrupted()) {
        if (runs_published_part(s)) out.not_done.push_back("published campaign (not started)");
        return;
    }
    if (runs_published_part(s)) {
        run_campaign_rounds(s, "published", s.published_cases, published_share_pct, published_seed_salt, out.published, out);
    }
}

// ---- R0: what a failed run leaves behind ---------------------------------------------------------

// The R0 campaign (failure_leaves_nothing and undo_restores, R-1..R-9) on the night's seed for its
// share: a violation is a finding with the shrunk case and the command that reproduces it.
void run_r0_part(const Settings& s, Summary& out) {
    const std::size_t cases = static_cast<std::size_t>(std::uint64_t{s.budget_s} * r0_share_pct / 100 * r0_cases_per_s);
    const auto t0 = Clock::now();
    const r0::R0CampaignResult r = r0::run_r0_campaign(s.seed, std::max<std::size_t>(1, cases), nullptr);
    out.r0_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    out.r0_cases = r.cases;
    progress("r0 campaign: " + std::to_string(r.cases) + " cases in " + std::to_string(out.r0_seconds).substr(0, 5) + " s");
    if (!r.violations) return;
    const r0::R0CaseResult& c = r.shrunk ? *r.shrunk : *r.first;
    const std::string property(r0::property_of(c));
    out.findings.push_back({"r0 campaign", property,
                            property + " violated: " + c.violation.value_or("") + " — " + r0::describe_case(c), "",
                            "deskcheck r0 campaign --seed " + std::to_string(s.seed) + " --cases " + std::to_string(r.cases), true,
                            ""});
}

}  // namespace deskcheck::cli::nightly
