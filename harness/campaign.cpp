#include "harness/campaign.h"
#include "harness/deterministic.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <set>

#include "model/marks.h"
#include "harness/choice_shrink.h"
#include "harness/shrink.h"
#include "sim/trace.h"

namespace deskcheck::props {

std::uint64_t case_seed(std::uint64_t campaign_seed, std::uint32_t index) {
    std::uint64_t z = campaign_seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(index) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

namespace {

std::uint64_t fnv1a(std::uint64_t hash, const std::string& text) {
    for (const unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
}

// What a case did, as one number: the trace (every effect, read and move) and the tool's report.
std::uint64_t case_digest(const RunResult& run) {
    return fnv1a(fnv1a(0xcbf29ce484222325ULL, sim::to_text(run.trace())), report_fingerprint(run));
}

bool selected(const CampaignOptions& o, std::string_view name) {
    return o.properties.empty() || std::find(o.properties.begin(), o.properties.end(), name) != o.properties.end();
}

inline constexpr std::uint32_t deterministic_every = 4;  // the determinism check runs a case twice more

void count_verdicts(const RunResult& run, std::map<std::string, std::uint32_t>& verdicts) {
    for (const auto& s : run.steps) {
        std::string key = s.result.verdict ? std::string(to_string(*s.result.verdict))
                                           : "error:" + std::string(to_string(s.result.error->kind));
        ++verdicts[key];
        if (s.result.verdict) ++verdicts[std::string(to_string(s.kind)) + "/" + key];
    }
}

std::string summary_of(const Counterexample& c) {
    return c.property + " violated at step " + (c.violation.step ? std::to_string(*c.violation.step) : "-") + ": " +
           c.violation.explanation;
}

}  // namespace

std::optional<std::string> known_debt(const NamedCheck& check, const sim::Scenario& scenario, const Violation& v,
                                      const RunOptions& published) {
    if (published.rules == nullptr || published.rules->name != "published") return std::nullopt;
    std::optional<std::string> debt;
    for (const char* d : {"D-1", "D-2", "D-3"}) {
        if (v.explanation.find(d) == std::string::npos) continue;
        if (debt) return std::nullopt;  // names two debts: not one of them for sure
        debt = d;
    }
    if (!debt) return std::nullopt;
    RunOptions fixed = published;
    fixed.rules = &current_rules();
    sim::Scenario again = scenario;
    again.rules = "current";
    const RunResult run = run_scenario(again, fixed);
    if (run_check(check, again, run, fixed).status == CheckStatus::Violated) return std::nullopt;
    return debt;
}

namespace {

// The shrink keeps a finding: under `published`, a smaller scenario that shows only a known debt
// is not the bug that was found.
StillFails still_a_finding(const NamedCheck& check, const RunOptions& given) {
    RunOptions options = given;
    options.trace = false;
    return [&check, options](const sim::Scenario& s) {
        const RunResult run = run_scenario(s, options);
        const CheckResult r = run_check(check, s, run, options);
        return r.status == CheckStatus::Violated && !known_debt(check, s, *r.violation, options);
    };
}

// Which of two shrunk scenarios is smaller: fewer windows, steps and events, then fewer controls
// (a control is the cheapest thing to read in a counterexample).
std::uint32_t total_size(const sim::Scenario& s) {
    const ScenarioSize z = size_of(s);
    return (z.windows + z.steps + z.events) * 1000 + z.controls;
}

}  // namespace

void shrink_counterexample(Counterexample& c, const StillFails& still, const ShrinkOptions& options,
                           const NamedCheck& check, const RunOptions& ro, const sim::BuildOptions* build) {
    ShrinkOptions half = options;
    half.attempts_max = build != nullptr ? options.attempts_max / 2 : options.attempts_max;
    const ShrinkResult direct = shrink_scenario(c.scenario, still, half);
    c.shrink_attempts = direct.attempts;
    sim::Scenario best = direct.scenario;
    if (build != nullptr && !direct.stopped) {
        // Also the builder's answers for this case (a quarter of the attempts), then the scenario
        // shrinker on that (a quarter): two routes to a small case; the smaller one is kept.
        ShrinkOptions quarter = options;
        quarter.attempts_max = options.attempts_max / 4;
        const ChoiceVector answers = recorded_choices(sim::Prng(c.case_seed), *build);
        const ChoiceShrinkResult by_choices = shrink_choices(answers, *build, c.scenario.rules, still, quarter);
        c.shrink_attempts += by_choices.attempts;
        if (by_choices.accepted > 0 && !by_choices.stopped) {
            const ShrinkResult then = shrink_scenario(by_choices.scenario, still, quarter);
            c.shrink_attempts += then.attempts;
            if (total_size(then.scenario) < total_size(best)) best = then.scenario;
        }
    }
    c.scenario = std::move(best);
    const RunResult again = run_scenario(c.scenario, ro);
    const CheckResult r = run_check(check, c.scenario, again, ro);
    if (r.violation) c.violation = *r.violation;
}

namespace {

RunOptions campaign_run_options(const CampaignOptions& o) {
    const RuleSet* rules = rules_named(o.rules);
    RunOptions ro;
    ro.rules = rules != nullptr ? rules : &current_rules();
    ro.tool = o.tool;
    ro.mutation = o.mutation;
    ro.agent_retries = o.agent_retries;
    ro.trace = o.digests;  // nobody reads a campaign run's trace but a digest; counterexamples are replayed with it
    return ro;
}

// One property's result on one case, counted into its stats; a violation that is no known debt
// becomes a counterexample (shrunk when asked) until the property has its share. True: violated.
bool judge_case(const CampaignOptions& o, const RunOptions& ro, const sim::Scenario& scenario, const RunResult& run, std::uint64_t cs,
                PropertyStats& stats, std::map<std::string, std::uint32_t>& found, CampaignResult& out, CaseDigest& digest) {
    const NamedCheck* check = find_check(stats.name);
    assert(check != nullptr);
    const CheckResult r = run_check(*check, scenario, run, ro);
    digest.judged = digest.judged || r.status == CheckStatus::Violated || (r.status == CheckStatus::Holds && r.judged > 0);
    ++stats.cases;
    if (r.status == CheckStatus::Holds) ++stats.holds;
    if (r.status == CheckStatus::Holds && r.not_judged_items > 0) ++stats.why_partly_not_judged[r.why_partly_not_judged];
    if (r.status == CheckStatus::CannotJudge) {
        ++stats.cannot_judge;
        ++stats.why_not_judged[r.why_not_judged];
    }
    if (r.status != CheckStatus::Violated) return false;
    if (const auto debt = known_debt(*check, scenario, *r.violation, ro)) {
        ++stats.known_debts[*debt];
        return false;
    }
    ++stats.violated;
    if (found[stats.name] >= o.counterexamples_max || o.counterexample_known.count(stats.name) != 0) return true;
    ++found[stats.name];
    Counterexample c;
    c.property = stats.name;
    c.case_seed = cs;
    c.original_size = size_of(scenario);
    c.scenario = scenario;
    c.violation = *r.violation;
    if (o.shrink) {
        ShrinkOptions so;
        so.stop = o.stop;
        shrink_counterexample(c, still_a_finding(*check, ro), so, *check, ro, &o.build);
    }
    c.shrunk_size = size_of(c.scenario);
    c.summary = summary_of(c);
    out.counterexamples.push_back(std::move(c));
    return true;
}

}  // namespace

CampaignResult run_campaign(const CampaignOptions& o) {
    CampaignResult out;
    out.seed = o.seed;
    out.rules = o.rules;
    const RunOptions ro = campaign_run_options(o);
    for (const auto& c : all_checks()) {
        if (selected(o, c.name)) {
            PropertyStats stats;
            stats.name = std::string(c.name);
            stats.spec = std::string(c.spec);
            out.properties.push_back(std::move(stats));
        }
    }
    std::map<std::string, std::uint32_t> found;
    std::array<std::uint64_t, mark_count> marks_before{};
    for (std::size_t m = 0; m < mark_count; ++m) marks_before[m] = marks::hits(static_cast<Mark>(m));
    assert(o.first_case <= std::numeric_limits<std::uint32_t>::max() - o.cases);
    for (std::uint32_t n = 0; n < o.cases; ++n) {
        const std::uint32_t i = o.first_case + n;
        if (o.stop && o.stop()) {
            out.stopped = true;
            break;
        }
        const std::uint64_t cs = case_seed(o.seed, i);
        sim::Prng rng(cs);
        sim::Scenario scenario = sim::build_scenario_from_prng(rng, o.build);
        scenario.rules = std::string(ro.rules->name);
        const RunResult run = run_scenario(scenario, ro);
        ++out.cases;
        count_verdicts(run, out.verdicts);
        for (const auto& tag : coverage_tags(scenario, run)) ++out.coverage[tag];
        CaseDigest digest;
        if (o.digests) digest = CaseDigest{i, cs, case_digest(run), false};
        bool violated_here = false;
        for (auto& stats : out.properties) {
            if (find_check(stats.name)->fn == nullptr && i % deterministic_every != 0) continue;
            violated_here = judge_case(o, ro, scenario, run, cs, stats, found, out, digest) || violated_here;
        }
        if (o.digests) out.digests.push_back(digest);
        if (o.progress) o.progress(n + 1, o.cases);
        if (violated_here && o.stop_at_first_violation) break;
    }
    if (marks::enabled) {
        for (std::size_t m = 0; m < mark_count; ++m) {
            const auto mark = static_cast<Mark>(m);
            out.marks[std::string(to_string(mark))] = marks::hits(mark) - marks_before[m];
        }
    }
    return out;
}

sim::ScenarioDocument counterexample_document(const Counterexample& c, const std::string& rules, Mutation mutation,
                                              const std::string& outcome) {
    sim::ScenarioDocument doc;
    doc.scenario = c.scenario;
    doc.scenario.rules = rules;
    sim::CounterexampleHeader h;
    h.property = c.property;
    h.rules = rules;
    h.seed = c.case_seed;
    h.summary = c.summary;
    if (c.violation.step) h.step = static_cast<std::int32_t>(*c.violation.step);
    h.expected_outcome = outcome;
    if (mutation != Mutation::None) h.mutation = mutation;
    doc.counterexample = h;
    return doc;
}

}  // namespace deskcheck::props
