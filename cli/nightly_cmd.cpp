// deskcheck nightly [--minutes M] [--jobs N] [--json] [--rules R] [--out DIR] [--seed S]
//                   [--fuzz-build DIR] [--mutation NAME (self-tests)]
// The main CI job (README "For CI owners"): a property campaign from a fresh seed (the date and the
// git commit: varied, yet reproducible), each fuzz target under libFuzzer for its share of the
// budget, new inputs merged into corpus/<target>/, every crash converted and shrunk into
// corpus/regressions/, a sample of runs replayed twice (S-1), and a summary.
// Exit codes by class (libFuzzer's own are 1, 70-72, 77, none reused):
//   0 clean, 2 bad usage, 3 a property violation found, 4 a fuzz crash that is not a property
//   violation (sanitizer, timeout, fuzz_verdict / fuzz_locator invariant), 5 infrastructure error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/fuzz_commands.h"
#include "cli/fuzz_support.h"
#include "cli/nightly_support.h"
#include "cli/report.h"
#include "fuzz/judge_run.h"
#include "fuzz/scenario_bytes.h"
#include "properties/shrink.h"
#include "properties/campaign.h"
#include "sim/validate.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int exit_property_violation = 3;
constexpr int exit_fuzz_crash = 4;
constexpr int exit_infrastructure = 5;

constexpr std::uint64_t minutes_default = 2;
constexpr std::uint64_t minutes_max = 24 * 60;
constexpr std::uint64_t jobs_max = 64;
constexpr std::uint32_t first_round_cases = 200;
constexpr std::uint32_t round_cases_max = 20'000;
constexpr std::uint32_t rounds_max = 1000;
constexpr std::size_t determinism_sample_cases = 16;
constexpr std::size_t determinism_sample_inputs = 16;

// The budget's shares, in percent: the campaign, then each fuzz target (same order as targets).
constexpr std::uint32_t campaign_share_pct = 25;
struct TargetShare {
    const char* name;
    std::uint32_t pct;
};
constexpr TargetShare target_shares[] = {
    {"fuzz_batch", 30}, {"fuzz_scenario_json", 15}, {"fuzz_verdict", 15}, {"fuzz_locator", 15}};

// Verdicts and coverage tags a campaign should reach (a kind never reached is a warning, STYLE 10).
constexpr const char* expected_verdicts[] = {"Confirmed", "Absent", "Unknown"};
constexpr const char* expected_tags[] = {
    "user_typing", "user_click", "window_to_front", "popup", "tree_reorder", "control_removed", "occluder",
    "borrow", "app_took_foreground", "another_window_took_foreground", "foreground_refused", "stale_read",
    "unreadable_read", "delivery_exception", "delivery_error", "latency_overrun", "dpi_stretched_click",
    "dependency_observed", "waited_for_user", "agent_retry", "batch_stopped"};

constexpr const char* nightly_help =
    "usage: deskcheck nightly [--minutes M] [--jobs N] [--json] [--rules published|current] [--out DIR]\n"
    "                         [--seed S] [--fuzz-build DIR]\n"
    "  The main CI job: a property campaign (25% of the budget) and each fuzz target under libFuzzer\n"
    "  (fuzz_batch 30%, the others 15% each), new inputs merged into corpus/<target>/, every crash\n"
    "  converted into a shrunk counterexample in DIR (default corpus/regressions), a sample of runs\n"
    "  replayed twice (S-1), and a summary (text, or --json). Progress goes to stderr.\n"
    "  --minutes M      total budget (default 2)        --jobs N   libFuzzer -fork=N (default 1)\n"
    "  --seed S         reuse a nightly's seed (default: from today's date and the git commit)\n"
    "  --fuzz-build DIR the fuzz preset's tree (default build/fuzz; make it with\n"
    "                   cmake --preset fuzz && cmake --build --preset fuzz)\n"
    "exit: 0 clean, 2 bad usage, 3 property violation found, 4 fuzz crash found (not a property),\n"
    "      5 infrastructure error\n";

struct Settings {
    std::uint64_t seed = 0;
    std::string date;
    std::string commit;
    bool seed_given = false;
    std::uint32_t budget_s = 0;
    std::uint32_t jobs = 1;
    bool json = false;
    std::string rules = "current";
    Mutation mutation = Mutation::None;
    fs::path checkout;
    fs::path out;
    fs::path fuzz_build;
    fs::path work;
};

struct Finding {
    std::string source;   // "campaign", "fuzz_batch crash", "determinism sample", ...
    std::string property;
    std::string summary;
    std::string file;     // counterexample JSON, or the kept crash file
    std::string replay;   // the one command that reproduces it
    bool is_property = true;
};

struct Round {
    std::uint64_t seed = 0;
    std::uint32_t cases = 0;
    double seconds = 0;
};

struct Summary {
    std::vector<Round> rounds;
    props::CampaignResult campaign;  // totals over the rounds
    double campaign_seconds = 0;
    std::string fuzz_skipped;
    std::vector<FuzzRun> fuzz;
    std::size_t determinism_replayed = 0;
    std::vector<Finding> findings;
    std::vector<std::string> warnings;
    std::vector<std::string> infra_errors;
};

void progress(const std::string& line) { std::cerr << "nightly: " << line << std::endl; }

std::string hex(std::uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// ---- the seed -----------------------------------------------------------------------------------

std::string today_utc() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

std::string git_commit(const fs::path& checkout) {
    const std::string cmd = "git -C " + shell_quoted(checkout.string()) + " rev-parse HEAD 2>/dev/null";
    std::FILE* pipe = popen(cmd.c_str(), "r");
    if (pipe == nullptr) return "unknown";
    char buf[64] = {};
    const bool got = std::fgets(buf, sizeof buf, pipe) != nullptr;
    pclose(pipe);
    std::string out = got ? std::string(buf) : "unknown";
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out.empty() ? "unknown" : out;
}

std::uint64_t seed_of(const std::string& date, const std::string& commit) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a, then one splitmix round
    for (char c : date + " " + commit) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return props::case_seed(h, 0);
}

// ---- options ------------------------------------------------------------------------------------

std::optional<Settings> parse(Args& args) {
    Settings s;
    const auto minutes = args.number("--minutes");
    const auto jobs = args.number("--jobs");
    const auto seed = args.number("--seed");
    if (minutes && (*minutes == 0 || *minutes > minutes_max)) args.fail("--minutes must lie in 1.." + std::to_string(minutes_max));
    if (jobs && (*jobs == 0 || *jobs > jobs_max)) args.fail("--jobs must lie in 1.." + std::to_string(jobs_max));
    if (const auto r = args.option("--rules")) {
        if (find_rules(*r) == nullptr) args.fail("unknown rule set '" + *r + "' (expected published or current)");
        else s.rules = *r;
    }
    if (const auto m = args.option("--mutation")) {
        const auto mut = mutation_named(*m);
        if (!mut) args.fail("unknown mutation '" + *m + "'");
        else s.mutation = *mut;
    }
    if (!args.ok()) return std::nullopt;
    s.budget_s = static_cast<std::uint32_t>(minutes.value_or(minutes_default) * 60);
    s.jobs = static_cast<std::uint32_t>(jobs.value_or(1));
    s.json = args.flag("--json");
    s.checkout = find_checkout(fs::current_path()).value_or(fs::current_path());
    s.out = args.option("--out").value_or((s.checkout / "corpus" / "regressions").string());
    s.fuzz_build = args.option("--fuzz-build").value_or((s.checkout / "build" / "fuzz").string());
    s.date = today_utc();
    s.commit = git_commit(s.checkout);
    s.seed_given = seed.has_value();
    s.seed = seed.value_or(seed_of(s.date, s.commit));
    s.work = s.checkout / "build" / "nightly" / hex(s.seed);
    return s;
}

std::uint32_t share_s(const Settings& s, std::uint32_t pct) { return std::max<std::uint32_t>(1, s.budget_s * pct / 100); }

std::string run_command(const Settings& s, const Round& r) {
    std::string cmd = "deskcheck run --seed " + std::to_string(r.seed) + " --cases " + std::to_string(r.cases) +
                      " --rules " + s.rules;
    if (s.mutation != Mutation::None) cmd += " --mutation " + std::string(to_string(s.mutation));
    return cmd;
}

// Self-tests (another rule set, a planted mutation) write their counterexamples next to the logs,
// not into corpus/regressions/: they reproduce only with the same --rules / --mutation.
fs::path default_out(const Settings& s) {
    const bool self_test = s.rules != "current" || s.mutation != Mutation::None;
    return self_test ? s.work / "counterexamples" : s.checkout / "corpus" / "regressions";
}

std::string replay_command(const Settings& s, const std::string& file) {
    std::string cmd = "deskcheck replay " + file;
    if (s.mutation != Mutation::None) cmd += " --mutation " + std::string(to_string(s.mutation));
    return cmd;
}

void print_header(const Settings& s, std::ostream& out) {
    out << "deskcheck nightly: seed " << s.seed << " (" << hex(s.seed) << ", "
        << (s.seed_given ? "given with --seed" : "from date " + s.date + " and commit " + s.commit.substr(0, 12)) << ")\n"
        << "  drawn: rules " << s.rules << ", tool mutation " << to_string(s.mutation) << ", budget " << s.budget_s
        << " s: campaign " << share_s(s, campaign_share_pct) << " s";
    for (const auto& t : target_shares) out << ", " << t.name << " " << share_s(s, t.pct) << " s";
    out << "; jobs " << s.jobs << "\n  fuzz build " << s.fuzz_build.string() << "; counterexamples to " << s.out.string()
        << "; logs in " << s.work.string() << "\n";
    out.flush();
}

// ---- the property campaign ----------------------------------------------------------------------

void add_stats(props::PropertyStats& total, const props::PropertyStats& p) {
    total.cases += p.cases;
    total.holds += p.holds;
    total.violated += p.violated;
    total.cannot_judge += p.cannot_judge;
    for (const auto& [why, n] : p.why_not_judged) total.why_not_judged[why] += n;
}

void add_campaign(props::CampaignResult& total, const props::CampaignResult& r) {
    total.cases += r.cases;
    for (const auto& p : r.properties) {
        auto it = std::find_if(total.properties.begin(), total.properties.end(),
                               [&](const props::PropertyStats& q) { return q.name == p.name; });
        if (it == total.properties.end()) {
            total.properties.push_back(props::PropertyStats{p.name, p.spec, 0, 0, 0, 0, {}});
            it = total.properties.end() - 1;
        }
        add_stats(*it, p);
    }
    for (const auto& [k, v] : r.verdicts) total.verdicts[k] += v;
    for (const auto& [k, v] : r.coverage) total.coverage[k] += v;
}

void keep_counterexamples(const Settings& s, const props::CampaignResult& r, Summary& out) {
    for (const auto& c : r.counterexamples) {
        const bool known = std::any_of(out.findings.begin(), out.findings.end(),
                                       [&](const Finding& f) { return f.source == "campaign" && f.property == c.property; });
        if (known) continue;  // one counterexample per property per night
        const std::string file = write_counterexample(c, s.rules, s.out);
        out.findings.push_back({"campaign", c.property, c.summary, file, replay_command(s, file), true});
        progress("campaign: " + c.summary + " -> " + file);
    }
}

props::CampaignOptions campaign_options(const Settings& s, const Round& round) {
    props::CampaignOptions o;
    o.seed = round.seed;
    o.cases = round.cases;
    o.rules = s.rules;
    o.tool.mutation = s.mutation;
    o.agent_retries = true;
    o.shrink = true;
    return o;
}

// Rounds of generated cases until the campaign's share of the budget is spent; each round has its
// own seed (reproduce it with `deskcheck run --seed ... --cases ...`).
void run_campaign_part(const Settings& s, Summary& out) {
    const double budget_s = share_s(s, campaign_share_pct);
    const auto began = Clock::now();
    out.campaign.seed = s.seed;
    out.campaign.rules = s.rules;
    std::uint32_t cases = first_round_cases;
    for (std::uint32_t r = 0; r < rounds_max; ++r) {
        Round round{props::case_seed(s.seed, r + 1), cases, 0};
        const auto t0 = Clock::now();
        const props::CampaignResult result = props::run_campaign(campaign_options(s, round));
        round.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        add_campaign(out.campaign, result);
        keep_counterexamples(s, result, out);
        out.rounds.push_back(round);
        progress("campaign round " + std::to_string(r + 1) + ": " + std::to_string(round.cases) + " cases in " +
                 std::to_string(round.seconds).substr(0, 5) + " s (" + run_command(s, round) + ")");
        const double left_s = budget_s - std::chrono::duration<double>(Clock::now() - began).count();
        const double per_case_s = round.seconds / std::max<std::uint32_t>(1, round.cases);
        if (left_s <= per_case_s * 50) break;
        cases = static_cast<std::uint32_t>(std::clamp(left_s * 0.9 / std::max(per_case_s, 1e-7), 50.0, double(round_cases_max)));
    }
    out.campaign_seconds = std::chrono::duration<double>(Clock::now() - began).count();
}

}  // namespace
}  // namespace deskcheck::cli
