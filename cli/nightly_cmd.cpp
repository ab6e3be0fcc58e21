// deskcheck nightly [--minutes M] [--jobs N] [--json] [--rules R] [--out DIR] [--seed S]
//                   [--fuzz-build DIR] [--no-fuzz] [--campaign-cases N] [--wait]
//                   [--mutate-rules-cases N] [--mutate-rules-baseline FILE] [--mutation NAME (self-tests)]
// The main CI job (docs/nightly-and-ci.md): a property campaign (and one under the published rules) from a fresh seed (the date and the
// git commit: varied, yet reproducible), each fuzz target under libFuzzer for its share of the
// work, `deskcheck mutate-rules` over every rule table (surviving mutations not explained in
// corpus/mutate-rules/explained.json are warnings), new inputs merged into corpus/<target>/, every crash converted and shrunk into
// corpus/regressions/, a sample of runs replayed twice (S-1), and a summary.
// The work is counted from --minutes (campaign cases, libFuzzer runs), never measured by the clock:
// the same seed on the same checkout does the same night. The clock only stops a part that runs
// far over its share. One nightly per checkout at a time (a lock in build/nightly/). SIGINT and
// SIGTERM stop it at the next boundary: the children are stopped, what they found is merged, the
// summary so far is printed marked "interrupted".
// Exit codes by class (libFuzzer's own are 1, 70-72, 77, none reused):
//   0 clean, 2 bad usage, 3 a property violation found, 4 a fuzz crash that is not a property
//   violation (sanitizer, timeout, fuzz_verdict / fuzz_locator / fuzz_observation invariant), 5 infrastructure
//   error, 6 another nightly runs in this checkout, 130 / 143 interrupted by SIGINT / SIGTERM.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "harness/deterministic.h"
#include "cli/files.h"
#include "cli/interrupt.h"
#include "cli/mutate_rules.h"
#include "cli/fuzz_commands.h"
#include "cli/fuzz_support.h"
#include "cli/nightly_support.h"
#include "cli/report.h"
#include "harness/judge_run.h"
#include "sim/build.h"
#include "harness/shrink.h"
#include "harness/campaign.h"
#include "harness/r0_campaign.h"
#include "sim/validate.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int exit_property_violation = 3;
constexpr int exit_fuzz_crash = 4;
constexpr int exit_another_nightly = 6;

constexpr std::uint64_t minutes_default = 2;
constexpr std::uint64_t minutes_max = 24 * 60;
constexpr std::uint64_t jobs_max = 64;
constexpr std::uint32_t first_round_cases = 200;
constexpr std::uint32_t round_cases_max = 20'000;
constexpr std::uint32_t rounds_max = 1000;
constexpr std::uint64_t campaign_cases_max = 100'000'000;
constexpr std::size_t determinism_sample_cases = 16;
constexpr std::size_t determinism_sample_inputs = 16;
constexpr std::size_t crashes_converted_max = 50;  // per target and night (-fork keeps going after a crash)
constexpr std::size_t corpus_input_bytes_max = 1 << 20;
constexpr auto lock_poll = std::chrono::milliseconds(200);

// The budget's shares, in percent: the campaign, then each fuzz target (same order as targets).
// Each share is turned into a count of work at a nominal rate (this machine's, docs/benchmarks.md):
// the count is the night; the clock stops a part only after clock_stop_factor times its share.
constexpr std::uint32_t campaign_share_pct = 11;
// The same campaign under the `published` rules (issue 10): its debts D-1..D-3 are known debts, any
// other violation a finding. Not run when the night already runs `published` or plants a mutation.
constexpr std::uint32_t published_share_pct = 4;
// R0 (failure_leaves_nothing over generated desktops, harness/r0_campaign.h): its own share.
constexpr std::uint32_t r0_share_pct = 5;
constexpr std::uint32_t r0_cases_per_s = 5'000;
// mutate-rules over every rule table: cases per mutant at a nominal rate (docs/verdict-rules.md, "Changing a verdict rule").
// All three tables at 20,000 cases per mutant take 5.6-8.7 s on one thread of the 2-core machine
// (`deskcheck mutate-rules --jobs 1 --no-shrink`, seeds 1-3): 2,000 per second of the share is 10 s for
// them, and the clock stops the part only at twice its share.
constexpr std::uint32_t mutate_rules_share_pct = 10;
constexpr std::uint32_t mutate_rules_cases_per_s = 2'000;
constexpr std::uint64_t mutate_rules_cases_max = 1'000'000;
// tools/mutate-model's sample (docs/mutate-model.md): outside the
// shares, after them; on by default from this budget up.
constexpr std::uint32_t mutate_model_min_budget_s = 30 * 60;
constexpr std::uint64_t mutate_model_sample_max = 100'000;
constexpr std::uint32_t campaign_cases_per_s = 4'000;
constexpr std::uint32_t clock_stop_factor = 2;
struct TargetShare {
    const char* name;
    std::uint32_t pct;
    std::uint32_t execs_per_s;  // nominal, under ASan + UBSan
};
constexpr TargetShare target_shares[] = {{"fuzz_batch", 20, 1'500},
                                         {"fuzz_scenario_json", 15, 2'200},
                                         {"fuzz_verdict", 10, 40'000},
                                         {"fuzz_locator", 10, 5'000},
                                         {"fuzz_observation", 10, 19'000},
                                         {"fuzz_journal", 5, 700}};
constexpr std::uint32_t shares_total_pct() {
    std::uint32_t total = campaign_share_pct + published_share_pct + r0_share_pct + mutate_rules_share_pct;
    for (const auto& t : target_shares) total += t.pct;
    return total;
}
static_assert(shares_total_pct() == 100, "the campaign, mutate-rules and the fuzz targets share the whole budget");

// Verdicts and coverage tags a campaign should reach (a kind never reached is a warning, STYLE 10).
constexpr const char* expected_verdicts[] = {"Confirmed", "Absent", "Unknown"};
constexpr const char* expected_tags[] = {
    "user_typing", "user_click", "window_to_front", "popup", "tree_reorder", "control_removed", "occluder",
    "borrow", "app_took_foreground", "another_window_took_foreground", "foreground_refused", "stale_read",
    "unreadable_read", "delivery_exception", "delivery_error", "latency_overrun", "dpi_stretched_click",
    "dependency_observed", "waited_for_user", "agent_retry", "reused_element_ref", "reused_focused_ref", "batch_stopped", "occluded_click", "wpf_borrow",
    "verdict_confirmed", "verdict_absent", "verdict_unknown"};

constexpr const char* nightly_help =
    "usage: deskcheck nightly [--minutes M] [--jobs N] [--json] [--rules published|current] [--out DIR]\n"
    "                         [--seed S] [--fuzz-build DIR] [--no-fuzz] [--campaign-cases N] [--wait]\n"
    "                         [--mutate-rules-cases N] [--mutate-rules-baseline FILE]\n"
    "                         [--mutate-model-sample N]\n"
    "  The main CI job: a property campaign (11% of the budget) under --rules (default current), the\n"
    "  same under the published rules (4%: its debts D-1..D-3 are known debts, any other violation a\n"
    "  finding; not with --rules published or --mutation), the R0 campaign failure_leaves_nothing\n"
    "  (5%), mutate-rules over every rule table (10%;\n"
    "  a surviving mutation not explained in FILE, default corpus/mutate-rules/explained.json, is a\n"
    "  warning) and each fuzz target under libFuzzer\n"
    "  (fuzz_batch 20%, fuzz_scenario_json 15%, fuzz_verdict, fuzz_locator, fuzz_observation 10% each,\n"
    "  fuzz_journal 5%),\n"
    "  new inputs merged into corpus/<target>/, every crash converted into a shrunk counterexample in DIR (default corpus/regressions) with its timeline\n"
    "  page next to it (FILE.html, see deskcheck replay --html), a sample of runs replayed twice (S-1),\n"
    "  and a summary (text, or --json) listing each finding's replay command and page. Progress goes\n"
    "  to stderr.\n"
    "  The work is counted from the budget (campaign cases, libFuzzer -runs), so a seed always does\n"
    "  the same night; the clock stops a part only at twice its share (then a warning says so).\n"
    "  --minutes M      nominal budget (default 2)      --jobs N   libFuzzer -fork=N and mutate-rules' threads (default 1)\n"
    "  --seed S         reuse a nightly's seed (default: from today's date and the git commit)\n"
    "  --campaign-cases N  the campaign's cases (default: from --minutes); the published campaign's\n"
    "                   are 4/11 of them\n"
    "  --mutate-rules-cases N  mutate-rules' cases per mutant (default: from --minutes)\n"
    "  --mutate-rules-baseline FILE  the explained survivors (default corpus/mutate-rules/explained.json)\n"
    "  --mutate-model-sample N  after the other parts, tools/mutate-model --sample N on the night's seed\n"
    "                   (default: a mutant per minute of budget from 30 minutes up, else 0 = not run);\n"
    "                   every survivor not explained in corpus/mutate-model/explained.json is a warning\n"
    "  --fuzz-build DIR the fuzz preset's tree (default build/fuzz; make it with\n"
    "                   cmake --preset fuzz && cmake --build --preset fuzz); without it the nightly\n"
    "                   fails (exit 5) unless --no-fuzz says to run the campaign alone\n"
    "  --wait           when another nightly runs in this checkout, wait for it (default: exit 6)\n"
    "  Ctrl-C (SIGINT) or SIGTERM: libFuzzer is stopped, the inputs it found are merged, the summary\n"
    "  so far is printed marked interrupted (exit 130 / 143).\n"
    "exit: 0 clean, 2 bad usage, 3 property violation found, 4 fuzz crash found (not a property),\n"
    "      5 infrastructure error, 6 another nightly runs in this checkout, 130 / 143 interrupted\n";

struct Settings {
    std::uint64_t seed = 0;
    std::string date;
    std::string commit;
    bool seed_given = false;
    std::uint32_t budget_s = 0;
    std::uint32_t jobs = 1;
    bool json = false;
    bool no_fuzz = false;
    bool wait_for_lock = false;
    std::uint64_t campaign_cases = 0;
    std::uint64_t published_cases = 0;  // the published rules' campaign alongside
    std::uint64_t mutate_rules_cases = 0;
    fs::path mutate_rules_baseline;
    std::uint32_t mutate_model_sample = 0;  // mutants of tools/mutate-model's sample (0: the part is not run)
    bool mutate_model_sample_given = false;
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
    std::string page;     // the timeline page next to `file` ("" when none was written)
};

struct Round {
    std::uint64_t seed = 0;
    std::uint32_t cases = 0;
    double seconds = 0;
    std::string rules;
};

// One rule set's property campaign: its rounds and their totals.
struct CampaignPart {
    std::vector<Round> rounds;
    props::CampaignResult campaign;  // totals over the rounds
    double seconds = 0;
};

struct Summary {
    CampaignPart main;               // under --rules (current by default)
    CampaignPart published;          // the published rules alongside (empty when not run)
    std::string fuzz_skipped;
    std::vector<FuzzRun> fuzz;
    std::size_t determinism_replayed = 0;
    std::vector<Finding> findings;
    std::vector<std::string> warnings;
    std::vector<std::string> infra_errors;
    int signal = 0;                      // SIGINT / SIGTERM that stopped the night, 0 when none
    std::string interrupted_during;      // the part it stopped
    std::vector<std::string> not_done;   // the parts skipped after it
    std::size_t r0_cases = 0;            // the R0 campaign's cases run
    double r0_seconds = 0;
    std::vector<SetReport> mutate;       // mutate-rules, one report per rule table
    double mutate_seconds = 0;
    std::vector<std::string> mutate_unexplained;  // surviving mutations the baseline does not explain
    std::vector<std::string> mutate_explained;    // surviving mutations it explains
    // tools/mutate-model's sample: its report (the tool's JSON), or why it was not run.
    std::optional<nlohmann::ordered_json> mutate_model;
    std::string mutate_model_skipped;
    double mutate_model_seconds = 0;
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

std::string now_utc_time() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%H:%M:%SZ", &tm);
    return buf;
}

// `git rev-parse HEAD` in the checkout (no shell); "unknown" when there is no git or no commit.
std::string git_commit(const fs::path& checkout) {
    std::string pattern = (fs::temp_directory_path() / "deskcheck-git-XXXXXX").string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) return "unknown";
    ::close(fd);
    const fs::path out(name.data());
    const ChildResult git = run_child({"git", "-C", checkout.string(), "rev-parse", "HEAD"}, checkout, out,
                                      std::chrono::seconds(10), signals_received());
    const auto text = read_input_file(out, 4096);
    std::error_code ec;
    fs::remove(out, ec);
    if (git.exit_code != 0 || !std::holds_alternative<std::string>(text)) return "unknown";
    std::string commit = std::get<std::string>(text);
    commit = commit.substr(0, commit.find('\n'));
    const bool hex_only = commit.size() >= 7 && commit.find_first_not_of("0123456789abcdef") == std::string::npos;
    return hex_only ? commit : "unknown";
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
    const auto campaign_cases = args.number("--campaign-cases");
    if (campaign_cases && (*campaign_cases == 0 || *campaign_cases > campaign_cases_max)) {
        args.fail("--campaign-cases must lie in 1.." + std::to_string(campaign_cases_max));
    }
    if (const auto r = args.option("--rules")) {
        if (find_rules(*r) == nullptr) args.fail("unknown rule set '" + printable(*r, 60) + "' (expected published or current)");
        else s.rules = *r;
    }
    if (const auto m = args.option("--mutation")) {
        const auto mut = mutation_named(*m);
        if (!mut) args.fail("unknown mutation '" + printable(*m, 60) + "' (expected one of: " + mutation_list() + ")");
        else s.mutation = *mut;
    }
    const auto mutate_cases = args.number("--mutate-rules-cases");
    if (mutate_cases && (*mutate_cases == 0 || *mutate_cases > mutate_rules_cases_max)) {
        args.fail("--mutate-rules-cases must lie in 1.." + std::to_string(mutate_rules_cases_max));
    }
    const auto mm_sample = args.number("--mutate-model-sample");
    if (mm_sample && *mm_sample > mutate_model_sample_max) {
        args.fail("--mutate-model-sample must lie in 0.." + std::to_string(mutate_model_sample_max));
    }
    if (!args.ok()) return std::nullopt;
    s.budget_s = static_cast<std::uint32_t>(minutes.value_or(minutes_default) * 60);
    // A mutant a minute of budget from 30 minutes up: the copy's first build alone takes minutes.
    s.mutate_model_sample = static_cast<std::uint32_t>(
        mm_sample.value_or(s.budget_s >= mutate_model_min_budget_s ? s.budget_s / 60 : 0));
    s.mutate_model_sample_given = mm_sample.has_value();
    s.jobs = static_cast<std::uint32_t>(jobs.value_or(1));
    s.json = args.flag("--json");
    s.no_fuzz = args.flag("--no-fuzz");
    s.wait_for_lock = args.flag("--wait");
    s.campaign_cases = campaign_cases.value_or(std::uint64_t{s.budget_s} * campaign_share_pct / 100 * campaign_cases_per_s);
    // --campaign-cases scales both campaigns in the ratio of their shares.
    s.published_cases = std::max<std::uint64_t>(1, s.campaign_cases * published_share_pct / campaign_share_pct);
    s.mutate_rules_cases = mutate_cases.value_or(
        std::min<std::uint64_t>(mutate_rules_cases_max, std::uint64_t{s.budget_s} * mutate_rules_share_pct / 100 * mutate_rules_cases_per_s));
    s.checkout = find_checkout(fs::current_path()).value_or(fs::current_path());
    s.mutate_rules_baseline = args.option("--mutate-rules-baseline")
                                  .value_or((s.checkout / "corpus" / "mutate-rules" / "explained.json").string());
    s.out = args.option("--out").value_or("");  // empty: default_out()
    s.fuzz_build = args.option("--fuzz-build").value_or((s.checkout / "build" / "fuzz").string());
    s.date = today_utc();
    s.commit = git_commit(s.checkout);
    s.seed_given = seed.has_value();
    s.seed = seed.value_or(seed_of(s.date, s.commit));
    s.work = s.checkout / "build" / "nightly" / hex(s.seed);
    return s;
}

std::uint32_t share_s(const Settings& s, std::uint32_t pct) { return std::max<std::uint32_t>(1, s.budget_s * pct / 100); }
std::uint32_t clock_stop_s(const Settings& s, std::uint32_t pct) { return share_s(s, pct) * clock_stop_factor; }
std::uint64_t runs_of(const Settings& s, const TargetShare& t) { return std::uint64_t{share_s(s, t.pct)} * t.execs_per_s; }

std::string run_command(const Settings& s, const Round& r) {
    std::string cmd = "deskcheck run --seed " + std::to_string(r.seed) + " --cases " + std::to_string(r.cases) +
                      " --rules " + r.rules;
    if (s.mutation != Mutation::None) cmd += " --mutation " + std::string(to_string(s.mutation));
    return cmd;
}

// Self-tests (another rule set, a planted mutation) write their counterexamples next to the logs,
// not into corpus/regressions/: they reproduce only with the same --rules / --mutation.
fs::path default_out(const Settings& s) {
    const bool self_test = s.rules != "current" || s.mutation != Mutation::None;
    return self_test ? s.work / "counterexamples" : s.checkout / "corpus" / "regressions";
}

// The header of a self-test's counterexample names its mutation: the file replays as it is.
std::string replay_command(const std::string& file) { return "deskcheck replay " + file; }

// The published rules run alongside the night's own (issue 10): not when it already runs them, and
// not under a planted mutation (a self-test of its own).
bool runs_published_part(const Settings& s) { return s.rules != "published" && s.mutation == Mutation::None; }

void print_header(const Settings& s, std::ostream& out) {
    out << "deskcheck nightly: seed " << s.seed << " (" << hex(s.seed) << ", "
        << (s.seed_given ? "given with --seed" : "from date " + s.date + " and commit " + s.commit.substr(0, 12)) << ")\n"
        << "  drawn: rules " << s.rules << ", tool mutation " << to_string(s.mutation) << "; budget " << s.budget_s
        << " s counted as: campaign " << s.campaign_cases << " cases"
        << (runs_published_part(s) ? ", published campaign " + std::to_string(s.published_cases) + " cases" : std::string())
        << ", mutate-rules " << s.mutate_rules_cases
        << " cases per mutant";
    for (const auto& t : target_shares) out << ", " << t.name << " " << runs_of(s, t) << " runs";
    out << " (the clock stops a part at twice its share); jobs " << s.jobs << "\n  fuzz build "
        << (s.no_fuzz ? std::string("not used (--no-fuzz)") : s.fuzz_build.string()) << "; counterexamples to "
        << s.out.string() << "; logs in " << s.work.string() << "\n";
    out.flush();
}

// ---- the property campaign ----------------------------------------------------------------------

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

// The timeline page next to a counterexample file (cli/html_timeline.h); a page that cannot be
// written is a warning, never a silent gap.
std::string write_page(const std::string& file, Mutation mutation, const std::string& replay, Summary& out) {
    const PageWritten page = write_page_for(file, replay_options(mutation), replay);
    if (!page.error.empty()) out.warnings.push_back("no timeline page for " + file + ": " + page.error);
    return page.path;
}

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

// Rounds of generated cases (200, then twice as many each round up to 20,000) until the counted
// cases are done; each round has its own seed (reproduce it with `deskcheck run --seed ...
// --cases ... --rules ...`). The clock stops it only at clock_stop_factor times its share; a
// signal at the next case. `seed_salt` keeps the published rounds' seeds apart from the main ones.
void run_campaign_rounds(const Settings& s, const std::string& rules, std::uint64_t planned, std::uint32_t share_pct,
                         std::uint64_t seed_salt, CampaignPart& part, Summary& out) {
    const auto began = Clock::now();
    const auto clock_stop = began + std::chrono::seconds(clock_stop_s(s, share_pct));
    bool out_of_time = false;
    part.campaign.seed = s.seed;
    part.campaign.rules = rules;
    const std::string label = rules == s.rules ? "property campaign" : rules + " campaign";
    std::uint64_t done = 0;
    std::uint32_t cases = first_round_cases;
    for (std::uint32_t r = 0; r < rounds_max && done < planned; ++r) {
        Round round{props::case_seed(s.seed ^ seed_salt, r + 1),
                    static_cast<std::uint32_t>(std::min<std::uint64_t>(cases, planned - done)), 0, rules};
        props::CampaignOptions o = campaign_options(s, round, out);
        o.stop = [&] {
            if (Clock::now() >= clock_stop) out_of_time = true;
            return out_of_time || interrupted();
        };
        const auto t0 = Clock::now();
        const props::CampaignResult result = props::run_campaign(o);
        round.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        round.cases = result.cases;
        add_campaign(part.campaign, result);
        part.rounds.push_back(round);
        done += round.cases;
        progress(label + " round " + std::to_string(r + 1) + ": " + std::to_string(round.cases) + " cases in " +
                 std::to_string(round.seconds).substr(0, 5) + " s (" + run_command(s, round) + ")");
        keep_counterexamples(s, round, result, out);
        if (result.stopped) break;
        cases = std::min(cases * 2, round_cases_max);
    }
    part.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    if (interrupted()) {
        out.interrupted_during = "the " + label + ", after " + std::to_string(done) + " of " + std::to_string(planned) + " cases";
    } else if (out_of_time) {
        out.warnings.push_back("the clock stopped the " + label + " after " + std::to_string(done) + " of " +
                               std::to_string(planned) + " cases (" + std::to_string(clock_stop_s(s, share_pct)) +
                               " s, twice its share): this night is shorter than its seed's; a slower machine?");
    }
}

constexpr std::uint64_t published_seed_salt = 0x9ab1'15ed'0000'0001ULL;

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

// ---- mutate-rules -------------------------------------------------------------------------------

// `deskcheck mutate-rules` over every rule table, on the night's seed, for its share of the work
// (cases per mutant; no shrinking: the night lists survivors, it keeps no kills). A surviving
// mutation the baseline does not explain is a warning naming it: a weakened check shows up the
// night it lands. Survivors never change the exit code (docs/nightly-and-ci.md).
void run_mutate_rules_part(const Settings& s, Summary& out) {
    const auto began = Clock::now();
    const auto clock_stop = began + std::chrono::seconds(clock_stop_s(s, mutate_rules_share_pct));
    bool out_of_time = false;
    MutateSettings m;
    // The observation rules first: a second's work, never left out when the clock stops the part.
    m.sets = mutable_rule_sets();
    std::stable_partition(m.sets.begin(), m.sets.end(), [](const std::string& set) { return set == "observation"; });
    m.seed = s.seed;
    m.cases = static_cast<std::uint32_t>(s.mutate_rules_cases);
    m.shrink = false;
    m.jobs = s.jobs;  // the result is the same on any number of threads
    m.out = s.work / "mutate-rules";
    m.progress = false;
    m.stop = [&] {
        if (Clock::now() >= clock_stop) out_of_time = true;
        return out_of_time || interrupted();
    };
    progress("mutate-rules: every rule table, " + std::to_string(m.cases) + " cases per mutant");
    out.mutate = run_mutate_rules(m);
    out.mutate_seconds = std::chrono::duration<double>(Clock::now() - began).count();
    const ExplainedSurvivors baseline = read_explained_survivors(s.mutate_rules_baseline);
    if (!baseline.error.empty()) out.warnings.push_back("mutate-rules baseline not read, so no survivor counts as explained: " + baseline.error);
    const auto survivors = surviving_ids(out.mutate);
    out.mutate_unexplained = unexplained(survivors, baseline);
    for (const auto& id : survivors) {
        if (baseline.reasons.count(id) != 0) out.mutate_explained.push_back(id);
    }
    for (const auto& id : out.mutate_unexplained) {
        const std::string set = id.substr(0, id.find(':'));
        const std::string row = id.substr(set.size() + 1, id.rfind(':') - set.size() - 1);
        std::uint32_t ran = m.cases;  // more where the row decides rarely (row reach)
        for (const auto& r : out.mutate) {
            for (const auto& mutant : r.mutants) ran = mutant.id == id ? std::max(ran, mutant.budget) : ran;
        }
        out.warnings.push_back("rule mutation " + id + " survived " + std::to_string(ran) + " cases and is not explained in " +
                               s.mutate_rules_baseline.string() + ": no check notices that change (deskcheck mutate-rules --rules " +
                               set + " --row " + row + " --seed " + std::to_string(s.seed) + " --cases " +
                               std::to_string(m.cases) + ")");
    }
    std::uint32_t not_run = 0;
    for (const auto& r : out.mutate) not_run += r.not_run;
    progress("mutate-rules: " + std::to_string(survivors.size()) + " surviving mutations, " +
             std::to_string(out.mutate_unexplained.size()) + " not explained");
    if (interrupted()) {
        out.interrupted_during = "mutate-rules (" + std::to_string(not_run) + " mutants not run)";
    } else if (out_of_time) {
        out.warnings.push_back("the clock stopped mutate-rules with " + std::to_string(not_run) + " mutants not run (" +
                               std::to_string(clock_stop_s(s, mutate_rules_share_pct)) +
                               " s, twice its share): this night is shorter than its seed's; a slower machine?");
    }
}

void print_mutate_rules(const Settings& s, const Summary& out, std::ostream& o) {
    if (out.mutate.empty()) return;
    o << "\nmutate-rules: seed " << s.seed << ", " << s.mutate_rules_cases << " cases per mutant, " << std::fixed
      << std::setprecision(1) << out.mutate_seconds << " s\n";
    for (const auto& r : out.mutate) {
        o << "  " << std::left << std::setw(12) << r.name << std::right << r.killed << "/" << r.non_equivalent()
          << " non-equivalent killed, " << r.survived << " survived, " << r.equivalent << " equivalent";
        if (r.not_run != 0) o << ", " << r.not_run << " not run";
        o << "\n";
    }
    o << "  surviving: " << out.mutate_explained.size() + out.mutate_unexplained.size() << ", explained in "
      << s.mutate_rules_baseline.string() << ": " << out.mutate_explained.size() << ", not explained: "
      << out.mutate_unexplained.size() << (out.mutate_unexplained.empty() ? "" : " (warnings below)") << "\n";
}

// ---- mutate-model (a sample) ---------------------------------------------------------------------

// tools/mutate-model --sample N on the night's seed, as a child in its own process group (stopped on
// SIGINT/SIGTERM with the night). Its report is kept in the night's folder; every survivor that
// corpus/mutate-model/explained.json does not explain is a warning naming the mutant and its diff.
// Survivors never change the exit code; a tool that cannot run (no libclang) is a warning too.
void run_mutate_model_part(const Settings& s, Summary& out) {
    if (s.mutate_model_sample == 0) {
        out.mutate_model_skipped = s.mutate_model_sample_given
                                       ? "not run (--mutate-model-sample 0)"
                                       : "not run (a budget under " + std::to_string(mutate_model_min_budget_s / 60) +
                                             " minutes; --mutate-model-sample N runs it)";
        return;
    }
    const fs::path tool = s.checkout / "tools" / "mutate-model";
    if (!fs::is_regular_file(tool)) {
        out.mutate_model_skipped = "not run: " + tool.string() + " is not in this checkout";
        out.warnings.push_back("mutate-model " + out.mutate_model_skipped);
        return;
    }
    const auto began = Clock::now();
    const fs::path report = s.work / "mutate-model.json";
    const fs::path log = s.work / "mutate-model.log";
    std::error_code ec;
    fs::remove(report, ec);
    progress("mutate-model: a sample of " + std::to_string(s.mutate_model_sample) + " mutants (log: " + log.string() + ")");
    const std::vector<std::string> words{"/usr/bin/python3", tool.string(), "--sample", std::to_string(s.mutate_model_sample),
                                         "--seed", std::to_string(s.seed % 2147483647), "--jobs", std::to_string(s.jobs),
                                         "--report", report.string()};
    // Past its own budget (the copy's first build included) it is stopped and said so.
    const auto deadline = std::chrono::seconds(std::max<std::uint32_t>(s.budget_s, 1800));
    const ChildResult r = run_child(words, s.checkout, log, deadline, signals_received());
    out.mutate_model_seconds = std::chrono::duration<double>(Clock::now() - began).count();
    if (interrupted()) {
        out.interrupted_during = "mutate-model";
        return;
    }
    if (!r.error.empty() || r.deadline_hit || (r.exit_code != 0 && r.exit_code != 1)) {
        out.mutate_model_skipped = "did not complete: " +
                                   (!r.error.empty() ? r.error
                                    : r.deadline_hit ? "stopped at its deadline"
                                                     : "exit " + std::to_string(r.exit_code)) +
                                   " (see " + log.string() + ")";
        out.warnings.push_back("mutate-model " + out.mutate_model_skipped);
        return;
    }
    std::ifstream in(report);
    std::stringstream text;
    text << in.rdbuf();
    try {
        out.mutate_model = nlohmann::ordered_json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        out.mutate_model_skipped = "wrote no readable report (" + report.string() + ": " + e.what() + ")";
        out.warnings.push_back("mutate-model " + out.mutate_model_skipped);
        return;
    }
    const auto& j = *out.mutate_model;
    for (const auto& sv : j.value("survivors", nlohmann::ordered_json::array())) {
        out.warnings.push_back("mutate-model: mutant #" + std::to_string(sv.value("id", 0)) + " " + sv.value("status", "") +
                               " and is not explained in corpus/mutate-model/explained.json: " +
                               sv.value("operator", "") + " in " + sv.value("function", "") + " at " +
                               sv.value("file", "") + ":" + std::to_string(sv.value("line", 0)) + " (key " +
                               sv.value("key", "") + ")");
    }
    progress("mutate-model: score " + (j.contains("score") && !j["score"].is_null() ? j["score"].dump() : "n/a") + " %, " +
             std::to_string(j.value("unexplained_survivors", 0)) + " unexplained survivors");
}

void print_mutate_model(const Settings& s, const Summary& out, std::ostream& o) {
    o << "\nmutate-model: ";
    if (!out.mutate_model) {
        o << out.mutate_model_skipped << "\n";
        return;
    }
    const auto& j = *out.mutate_model;
    o << "a sample of " << s.mutate_model_sample << " mutants, seed " << j.value("seed", 0) << ", " << std::fixed
      << std::setprecision(1) << out.mutate_model_seconds << " s; score "
      << (j.contains("score") && !j["score"].is_null() ? j["score"].dump() : std::string("n/a")) << " %; counts "
      << j.value("counts", nlohmann::ordered_json::object()).dump() << "; unexplained survivors "
      << j.value("unexplained_survivors", 0) << (j.value("unexplained_survivors", 0) > 0 ? " (warnings below)" : "") << "\n";
}

nlohmann::ordered_json mutate_model_json(const Summary& out) {
    if (!out.mutate_model) return nlohmann::ordered_json{{"run", false}, {"why", out.mutate_model_skipped}};
    const auto& j = *out.mutate_model;
    return nlohmann::ordered_json{{"run", true},
                                  {"seconds", out.mutate_model_seconds},
                                  {"seed", j.value("seed", 0)},
                                  {"sample", j.value("sample", 0)},
                                  {"score", j.contains("score") ? j["score"] : nlohmann::ordered_json(nullptr)},
                                  {"counts", j.value("counts", nlohmann::ordered_json::object())},
                                  {"unexplained_survivors", j.value("survivors", nlohmann::ordered_json::array())}};
}

nlohmann::ordered_json mutate_rules_json(const Settings& s, const Summary& out) {
    nlohmann::ordered_json j{{"seed", std::to_string(s.seed)}, {"cases", s.mutate_rules_cases}, {"seconds", out.mutate_seconds},
                             {"baseline", s.mutate_rules_baseline.string()}};
    j["rule_sets"] = nlohmann::ordered_json::array();
    for (const auto& r : out.mutate) {
        j["rule_sets"].push_back({{"rules", r.name}, {"killed", r.killed}, {"survived", r.survived},
                                  {"equivalent", r.equivalent}, {"non_equivalent", r.non_equivalent()}, {"not_run", r.not_run}});
    }
    j["explained_survivors"] = out.mutate_explained;
    j["unexplained_survivors"] = out.mutate_unexplained;
    return j;
}

// ---- fuzzing ------------------------------------------------------------------------------------

std::string fuzz_build_command() { return "cmake --preset fuzz && cmake --build --preset fuzz"; }

// The property a fuzz target's log says it saw violated ("deskcheck <target>: property P violated"),
// or "" when the log has none.
std::string reported_property(const fs::path& log, const std::string& target) {
    std::ifstream in(log);
    const std::string marker = "deskcheck " + target + ": property ";
    std::string line;
    for (std::size_t n = 0; n < 1'000'000 && std::getline(in, line); ++n) {
        const auto at = line.find(marker);
        if (at == std::string::npos) continue;
        const std::string rest = line.substr(at + marker.size());
        return rest.substr(0, rest.find(' '));
    }
    return "";
}

// Properties the fuzz targets already have a counterexample for tonight (one per property).
std::set<std::string> fuzz_properties(const Summary& out) {
    std::set<std::string> known;
    for (const auto& f : out.findings) {
        if (f.is_property && f.source != "campaign" && f.source != "determinism sample") known.insert(f.property);
    }
    return known;
}

void keep_crash(const Settings& s, const std::string& target, const fs::path& crash, Summary& out) {
    const bool scenario_target = target == "fuzz_batch" || target == "fuzz_scenario_json";
    if (scenario_target && !interrupted()) {
        const Conversion c = convert_crash(crash, s.out, fuzz_properties(out));
        if (c.violated && c.file.empty() && c.write_error.empty()) return;  // this property is already reported tonight
        if (c.violated && !c.write_error.empty()) {
            out.infra_errors.push_back(target + " crash " + crash.filename().string() + " not converted: " + c.write_error);
        } else if (c.violated) {
            out.findings.push_back({target + " crash", c.property, c.summary, c.file, replay_command(c.file), true,
                                    write_page(c.file, Mutation::None, replay_command(c.file), out)});
            progress(target + ": crash converted: " + c.summary + " -> " + c.file);
            return;
        }
    }
    std::error_code ec;
    fs::create_directories(s.work / "crashes", ec);
    const fs::path kept = s.work / "crashes" / (target + "-" + crash.filename().string());
    fs::copy_file(crash, kept, fs::copy_options::skip_existing, ec);
    if (ec) out.infra_errors.push_back("cannot keep " + crash.string() + " as " + kept.string() + ": " + ec.message());
    const fs::path& file = ec ? crash : kept;
    const std::string kind = crash.filename().string().substr(0, crash.filename().string().find('-'));
    const fs::path log = s.work / target / "fuzz.log";
    if (scenario_target && interrupted()) {
        out.findings.push_back({target + " " + kind, "", "libFuzzer " + kind + " kept, not converted (interrupted): convert it with "
                                "deskcheck convert " + file.string(), file.string(), "deskcheck convert " + file.string(), false, ""});
        progress(target + ": " + kind + " kept as " + file.string());
        return;
    }
    const std::string seen = reported_property(log, target);
    const std::string why = seen.empty() ? "a sanitizer report, a timeout, or an invariant of the target"
                                         : "the fuzz binary reported " + seen +
                                               " but this deskcheck does not reproduce it: is the fuzz build from another commit?";
    out.findings.push_back({target + " " + kind, "", "libFuzzer " + kind + " that is not a property violation here (" +
                            why + "); see " + log.string(),
                            file.string(), (s.fuzz_build / "fuzz" / target).string() + " " + file.string(), false, ""});
    progress(target + ": " + kind + " kept as " + file.string());
}

void run_one_target(const Settings& s, const TargetShare& t, std::uint32_t index, Summary& out) {
    FuzzPlan plan;
    plan.target = t.name;
    plan.binary = s.fuzz_build / "fuzz" / t.name;
    plan.corpus = s.checkout / "corpus" / t.name;
    plan.options_file = s.checkout / "fuzz" / (std::string(t.name) + ".options");
    plan.work = s.work / t.name;
    plan.runs = runs_of(s, t);
    plan.seconds_max = clock_stop_s(s, t.pct);
    plan.jobs = s.jobs;
    plan.seed = static_cast<std::uint32_t>(props::case_seed(s.seed, 1000 + index) % 0xffff'fffeULL) + 1;
    std::error_code ec;
    fs::remove_all(plan.work, ec);  // tonight's earlier run of this seed (the lock keeps others out)
    fs::create_directories(plan.corpus, ec);
    progress(std::string(t.name) + ": fuzzing " + std::to_string(plan.runs) + " runs (libFuzzer -seed=" +
             std::to_string(plan.seed) + (s.jobs > 1 ? ", -fork=" + std::to_string(s.jobs) : "") + ", clock stop " +
             std::to_string(plan.seconds_max) + " s)");
    FuzzRun run = run_fuzz_target(plan);
    if (!run.infra_error.empty()) out.infra_errors.push_back(std::string(t.name) + ": " + run.infra_error);
    if (run.stopped_by_clock) {
        out.warnings.push_back(std::string(t.name) + ": the clock stopped libFuzzer after " + std::to_string(run.execs) + " of " +
                               std::to_string(run.runs_planned) + " runs: this night is shorter than its seed's");
    }
    for (std::size_t i = 0; i < run.crashes.size() && i < crashes_converted_max; ++i) keep_crash(s, t.name, run.crashes[i], out);
    progress(std::string(t.name) + ": " + std::to_string(run.execs) + " runs, " + std::to_string(run.execs_per_second) +
             " exec/s, cov " + std::to_string(run.cov) + ", ft " + std::to_string(run.ft) + ", +" +
             std::to_string(run.corpus_added) + " corpus inputs" +
             (run.merged_by.empty() ? std::string() : " (" + run.merged_by + ")") + ", " +
             std::to_string(run.crashes.size()) + " crashes" + (run.interrupted ? ", interrupted" : ""));
    if (run.interrupted && out.interrupted_during.empty()) {
        out.interrupted_during = std::string(t.name) + " (libFuzzer stopped after " + std::to_string(run.execs) + " of " +
                                 std::to_string(run.runs_planned) + " runs; its " + std::to_string(run.corpus_added) +
                                 " new inputs kept)";
    }
    out.fuzz.push_back(std::move(run));
}

// A fuzz build older than this deskcheck may disagree with it about what a crash means.
void warn_if_stale(const Settings& s, Summary& out) {
    std::error_code ec;
    const auto self = fs::last_write_time("/proc/self/exe", ec);
    if (ec) return;
    for (const auto& t : target_shares) {
        const auto built = fs::last_write_time(s.fuzz_build / "fuzz" / t.name, ec);
        if (!ec && built < self) {
            out.warnings.push_back("the fuzz build in " + s.fuzz_build.string() + " is older than this deskcheck: "
                                   "rebuild both from one commit (" + fuzz_build_command() + ")");
            return;
        }
    }
}

void run_fuzz_part(const Settings& s, Summary& out) {
    if (s.no_fuzz) {
        out.fuzz_skipped = "--no-fuzz";
        return;
    }
    std::vector<std::string> missing;
    for (const auto& t : target_shares) {
        if (!fs::exists(s.fuzz_build / "fuzz" / t.name)) missing.push_back(t.name);
    }
    if (missing.size() == std::size(target_shares)) {
        out.fuzz_skipped = "no fuzz build in " + s.fuzz_build.string() + "; make it with: " + fuzz_build_command() +
                           " (or run the campaign alone with --no-fuzz)";
        out.infra_errors.push_back(out.fuzz_skipped);
        progress(out.fuzz_skipped);
        return;
    }
    for (const auto& m : missing) out.infra_errors.push_back("fuzz target " + m + " not built in " + s.fuzz_build.string());
    warn_if_stale(s, out);
    std::uint32_t index = 0;
    for (const auto& t : target_shares) {
        if (interrupted()) {
            out.not_done.push_back(std::string(t.name) + " (not started)");
        } else if (std::find(missing.begin(), missing.end(), t.name) == missing.end()) {
            run_one_target(s, t, index, out);
        }
        ++index;
    }
}

// ---- determinism sample (S-1) -------------------------------------------------------------------

void check_deterministic(const Settings& s, const sim::Scenario& scenario, const props::RunOptions& ro,
                         const std::string& source, Summary& out) {
    ++out.determinism_replayed;
    const props::CheckResult r = props::deterministic(scenario, ro);
    if (r.status != props::CheckStatus::Violated || !r.violation) return;
    props::Counterexample c;
    c.property = "deterministic";
    c.case_seed = scenario.seed;
    c.scenario = scenario;
    c.violation = *r.violation;
    c.original_size = c.shrunk_size = props::size_of(scenario);
    c.summary = "deterministic violated: " + r.violation->explanation + " (" + source + ")";
    const Written w = write_counterexample(c, std::string(ro.rules->name), s.out, ro.mutation, ro.agent_retries);
    if (!w.error.empty()) out.infra_errors.push_back("counterexample of deterministic not written: " + w.error);
    out.findings.push_back({"determinism sample", c.property, c.summary, w.file,
                            w.error.empty() ? replay_command(w.file) : "(not written)", true,
                            w.error.empty() ? write_page(w.file, Mutation::None, replay_command(w.file), out) : ""});
}

// Replays twice: the first cases of the first campaign round, and a spread of fuzz_batch's corpus.
void run_determinism_part(const Settings& s, Summary& out) {
    props::RunOptions ro;
    ro.rules = find_rules(s.rules);
    ro.mutation = s.mutation;
    ro.agent_retries = true;
    const std::uint64_t round_seed = out.main.rounds.empty() ? s.seed : out.main.rounds.front().seed;
    for (std::uint32_t i = 0; i < determinism_sample_cases && !interrupted(); ++i) {
        sim::Prng rng(props::case_seed(round_seed, i));
        sim::Scenario scenario = sim::build_scenario_from_prng(rng);
        scenario.rules = s.rules;
        check_deterministic(s, scenario, ro, "campaign case " + std::to_string(i), out);
    }
    std::vector<fs::path> inputs;
    std::error_code ec;
    for (fs::directory_iterator it(s.checkout / "corpus" / "fuzz_batch", ec), end; !ec && it != end; it.increment(ec)) {
        inputs.push_back(it->path());
    }
    std::sort(inputs.begin(), inputs.end());
    const std::size_t stride = std::max<std::size_t>(1, inputs.size() / determinism_sample_inputs);
    for (std::size_t i = 0; i < inputs.size() && !interrupted(); i += stride) {
        const auto read = read_input_file(inputs[i], corpus_input_bytes_max);
        if (!std::holds_alternative<std::string>(read)) continue;
        const std::string& bytes = std::get<std::string>(read);
        const sim::Scenario scenario = sim::build_scenario_from_bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        if (sim::validate(scenario).has_value()) continue;
        check_deterministic(s, scenario, props::fuzz_run_options(), "corpus/fuzz_batch/" + inputs[i].filename().string(), out);
    }
    progress("determinism: " + std::to_string(out.determinism_replayed) + " scenarios replayed twice");
    if (interrupted() && out.interrupted_during.empty()) out.interrupted_during = "the determinism sample";
}

// ---- summary ------------------------------------------------------------------------------------

void add_blind_spot_warnings(const std::string& label, const props::CampaignResult& c, Summary& out) {
    for (const auto& p : c.properties) {
        if (p.gave_up()) out.warnings.push_back(label + "property " + p.name + " gave up: could not judge most cases");
        else if (p.blind_spot()) {
            out.warnings.push_back(label + "property " + p.name + " could not judge " + std::to_string(p.not_judged_permille()) +
                                   " per mille of cases (more than 1 %)");
        }
    }
}

void add_coverage_warnings(Summary& out) {
    const props::CampaignResult& c = out.main.campaign;
    for (const char* v : expected_verdicts) {
        if (c.verdicts.count(v) == 0) out.warnings.push_back(std::string("verdict ") + v + " never reached");
    }
    for (const char* tag : expected_tags) {
        if (c.coverage.count(tag) == 0) out.warnings.push_back(std::string("coverage tag ") + tag + " never reached");
    }
    add_blind_spot_warnings("", c, out);
    if (!out.published.rounds.empty()) add_blind_spot_warnings("published campaign: ", out.published.campaign, out);
}

int exit_code_of(const Summary& out) {
    if (out.signal != 0) return exit_code_for(out.signal);
    const bool crash = std::any_of(out.findings.begin(), out.findings.end(), [](const Finding& f) { return !f.is_property; });
    if (crash) return exit_fuzz_crash;
    if (!out.findings.empty()) return exit_property_violation;
    if (!out.infra_errors.empty()) return exit_infrastructure;
    return exit_ok;
}

std::string exit_class(int code) {
    switch (code) {
        case exit_ok: return "clean";
        case exit_property_violation: return "property violation found";
        case exit_fuzz_crash: return "fuzz crash found";
        case exit_infrastructure: return "infrastructure error";
        case exit_another_nightly: return "another nightly runs in this checkout";
        case exit_interrupted_sigint: return "interrupted by SIGINT";
        case exit_interrupted_sigterm: return "interrupted by SIGTERM";
        default: return "?";
    }
}

void print_campaign(const Settings& s, const std::string& title, const CampaignPart& part, std::ostream& o) {
    const props::CampaignResult& c = part.campaign;
    const double rate = part.seconds > 0 ? c.cases / part.seconds : 0;
    o << "\n" << title << ": " << c.cases << " cases in " << part.rounds.size() << " rounds, "
      << std::fixed << std::setprecision(1) << part.seconds << " s (" << std::setprecision(0) << rate
      << " cases/s)\n";
    for (const auto& r : part.rounds) o << "  " << run_command(s, r) << "\n";
    const int name_w = property_column_width(c.properties);
    o << "  " << std::left << std::setw(name_w) << "PROPERTY" << std::right << std::setw(8) << "cases" << std::setw(8)
      << "holds" << std::setw(10) << "violated" << std::setw(12) << "not judged\n";
    for (const auto& p : c.properties) {
        o << "  " << std::left << std::setw(name_w) << p.name << std::right << std::setw(8) << p.cases << std::setw(8)
          << p.holds << std::setw(10) << p.violated << std::setw(11) << p.cannot_judge << "\n";
        for (const auto& [debt, n] : p.known_debts) {
            o << "      known debt x" << n << ": " << debt << " of the published rules (not a finding)\n";
        }
    }
    o << "  verdicts:";
    for (const auto& [k, v] : c.verdicts) {
        if (k.find('/') == std::string::npos) o << " " << k << " " << v << ";";
    }
    o << "\n  coverage:";
    for (const auto& [k, v] : c.coverage) o << " " << k << " " << v << ";";
    o << "\n";
}

void print_fuzz(const Summary& out, std::ostream& o) {
    o << "\nfuzzing:";
    if (!out.fuzz_skipped.empty()) {
        o << " skipped — " << out.fuzz_skipped << "\n";
        return;
    }
    o << "\n  " << std::left << std::setw(20) << "TARGET" << std::right << std::setw(8) << "seconds" << std::setw(11)
      << "runs" << std::setw(11) << "planned" << std::setw(9) << "exec/s" << std::setw(7) << "cov" << std::setw(8) << "ft" << std::setw(9) << "corpus"
      << std::setw(6) << "new" << std::setw(9) << "crashes" << std::setw(9) << "RSS MB\n";
    for (const auto& r : out.fuzz) {
        o << "  " << std::left << std::setw(20) << r.target << std::right << std::setw(8) << std::setprecision(0)
          << r.seconds << std::setw(11) << r.execs << std::setw(11) << r.runs_planned << std::setw(9) << r.execs_per_second << std::setw(7) << r.cov
          << std::setw(8) << r.ft << std::setw(9) << r.corpus_before << std::setw(6) << r.corpus_added << std::setw(9)
          << r.crashes.size() << std::setw(8) << r.peak_rss_mb << (r.interrupted ? "  interrupted" : "") << "\n";
        if (!r.merged_by.empty() && r.merged_by != "libFuzzer -merge=1") o << "    new inputs " << r.merged_by << "\n";
    }
}

void print_interruption(const Summary& out, std::ostream& o) {
    o << "\nINTERRUPTED by " << signal_name(out.signal) << " during "
      << (out.interrupted_during.empty() ? std::string("the night") : out.interrupted_during)
      << ": every child process stopped, the new corpus inputs found so far merged, the temporary corpus removed;"
         " below is what was done.\n";
    for (const auto& n : out.not_done) o << "  not done: " << n << "\n";
}

void print_summary(const Settings& s, const Summary& out, int code, std::ostream& o) {
    if (out.signal != 0) print_interruption(out, o);
    print_campaign(s, "property campaign", out.main, o);
    if (!out.published.rounds.empty()) print_campaign(s, "published campaign (rules published)", out.published, o);
    o << "\nr0 campaign (failure_leaves_nothing, undo_restores): " << out.r0_cases << " cases, " << std::to_string(out.r0_seconds).substr(0, 5)
      << " s\n";
    print_mutate_rules(s, out, o);
    print_mutate_model(s, out, o);
    print_fuzz(out, o);
    o << "\ndeterminism: " << out.determinism_replayed << " scenarios replayed twice\n";
    o << "\nfindings: " << (out.findings.empty() ? "none" : std::to_string(out.findings.size())) << "\n";
    for (const auto& f : out.findings) {
        o << "  [" << f.source << "] " << f.summary << "\n    " << f.replay << "\n";
        if (!f.page.empty()) o << "    timeline page: " << f.page << "\n";
    }
    for (const auto& w : out.warnings) o << "warning: " << w << "\n";
    for (const auto& e : out.infra_errors) o << "infrastructure error: " << e << "\n";
    o << "\nexit " << code << " (" << exit_class(code) << ")\n";
}

nlohmann::ordered_json fuzz_json(const Summary& out) {
    nlohmann::ordered_json j;
    j["skipped"] = out.fuzz_skipped.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(out.fuzz_skipped);
    j["targets"] = nlohmann::ordered_json::array();
    for (const auto& r : out.fuzz) {
        nlohmann::ordered_json t{{"target", r.target}, {"seconds", r.seconds}, {"runs", r.execs},
                                 {"exec_per_second", r.execs_per_second}, {"cov", r.cov}, {"ft", r.ft},
                                 {"peak_rss_mb", r.peak_rss_mb}, {"corpus_before", r.corpus_before},
                                 {"corpus_added", r.corpus_added}, {"crashes", r.crashes.size()},
                                 {"libfuzzer_exit", r.exit_code}, {"command", r.command}};
        t["runs_planned"] = r.runs_planned;
        t["interrupted"] = r.interrupted;
        t["stopped_by_clock"] = r.stopped_by_clock;
        t["merged_by"] = r.merged_by;
        if (!r.infra_error.empty()) t["infra_error"] = r.infra_error;
        j["targets"].push_back(t);
    }
    return j;
}

nlohmann::ordered_json summary_json(const Settings& s, const Summary& out, int code) {
    // Seeds are strings: a JSON number above 2^53 is rounded by most readers (jq among them).
    nlohmann::ordered_json j{{"seed", std::to_string(s.seed)}, {"seed_from", s.seed_given ? "--seed" : "date+commit"}, {"date", s.date},
                             {"commit", s.commit}, {"rules", s.rules}, {"mutation", to_string(s.mutation)},
                             {"budget_seconds", s.budget_s}, {"jobs", s.jobs}, {"out", s.out.string()},
                             {"logs", s.work.string()}, {"campaign_cases_planned", s.campaign_cases}};
    j["interrupted"] = out.signal == 0 ? nlohmann::ordered_json(nullptr)
                                       : nlohmann::ordered_json{{"signal", signal_name(out.signal)},
                                                                {"during", out.interrupted_during},
                                                                {"not_done", out.not_done}};
    const auto part_json = [&](const CampaignPart& part) {
        nlohmann::ordered_json c = campaign_json(part.campaign, {}, part.seconds);
        c.erase("counterexamples");
        c["rounds"] = nlohmann::ordered_json::array();
        for (const auto& r : part.rounds) {
            c["rounds"].push_back({{"seed", std::to_string(r.seed)}, {"cases", r.cases}, {"seconds", r.seconds}, {"reproduce", run_command(s, r)}});
        }
        return c;
    };
    j["campaign"] = part_json(out.main);
    j["published_campaign"] = out.published.rounds.empty() ? nlohmann::ordered_json(nullptr) : part_json(out.published);
    j["r0"] = {{"cases", out.r0_cases}, {"seconds", out.r0_seconds}};
    j["mutate_rules"] = mutate_rules_json(s, out);
    j["mutate_model"] = mutate_model_json(out);
    j["fuzz"] = fuzz_json(out);
    j["determinism"] = {{"replayed_twice", out.determinism_replayed}};
    j["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : out.findings) {
        j["findings"].push_back({{"source", f.source}, {"property", f.property}, {"summary", f.summary}, {"file", f.file},
                                 {"replay", f.replay}, {"property_violation", f.is_property},
                                 {"page", f.page.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(f.page)}});
    }
    j["warnings"] = out.warnings;
    j["infrastructure_errors"] = out.infra_errors;
    j["exit"] = code;
    j["exit_class"] = exit_class(code);
    return j;
}

// ---- one nightly per checkout ---------------------------------------------------------------------

// build/nightly/lock of the checkout, held (flock) for the whole night and released by the kernel
// when the process ends, however it ends. The file is never removed (removing a lock file lets a
// third process lock a new file while the second still holds the old one).
class NightlyLock {
public:
    explicit NightlyLock(fs::path file) : file_(std::move(file)) {}
    NightlyLock(const NightlyLock&) = delete;
    NightlyLock& operator=(const NightlyLock&) = delete;
    ~NightlyLock() {
        if (fd_ >= 0) ::close(fd_);
    }
    const fs::path& file() const { return file_; }

    // Opens the lock file; an error message, or "" when it is open.
    std::string open() {
        std::error_code ec;
        fs::create_directories(file_.parent_path(), ec);
        fd_ = ::open(file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
        if (fd_ < 0) return "cannot open " + file_.string() + ": " + std::strerror(errno);
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return "cannot open " + file_.string() + ": not a regular file";
        return "";
    }
    bool try_lock() { return ::flock(fd_, LOCK_EX | LOCK_NB) == 0; }
    // Says who holds it (the holder writes it right after locking).
    std::string holder() const {
        const auto text = read_input_file(file_, 4096);
        if (!std::holds_alternative<std::string>(text)) return "unknown";
        std::string t = std::get<std::string>(text);
        while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
        return t.empty() ? "unknown" : printable(t, 200);
    }
    void write_holder(const std::string& who) {
        if (::ftruncate(fd_, 0) != 0) return;
        const std::string line = who + "\n";
        if (::pwrite(fd_, line.data(), line.size(), 0) < 0) return;
    }

private:
    fs::path file_;
    int fd_ = -1;
};

// Takes the checkout's lock: exit_ok, or the exit code to stop with (after saying why).
int take_lock(const Settings& s, NightlyLock& lock) {
    if (const std::string e = lock.open(); !e.empty()) {
        std::cerr << "deskcheck nightly: " << e << "\n";
        return exit_infrastructure;
    }
    bool said = false;
    while (!lock.try_lock()) {
        if (!s.wait_for_lock) {
            std::cerr << "deskcheck nightly: another nightly is running in this checkout (" << lock.holder()
                      << "; it holds " << lock.file().string() << "). This one stops without touching anything:"
                         " run it after that one ends, or with --wait to wait for it.\n";
            return exit_another_nightly;
        }
        if (!said) {
            progress("waiting for the nightly running in this checkout to end (" + lock.holder() + "; " +
                     lock.file().string() + ")");
            said = true;
        }
        if (interrupted()) {
            std::cerr << "deskcheck nightly: interrupted by " << signal_name(interrupted_by())
                      << " while waiting for the other nightly; nothing was done\n";
            return exit_code_for(interrupted_by());
        }
        std::this_thread::sleep_for(lock_poll);
    }
    lock.write_holder("pid " + std::to_string(::getpid()) + ", seed " + hex(s.seed) + ", started " + today_utc() + " " +
                      now_utc_time());
    return exit_ok;
}

// The folders the night writes into: an error stops it before any work (exit 5).
bool prepare_folders(const Settings& s) {
    for (const auto& dir : {s.work, s.out}) {
        if (const auto e = prepare_output_dir(dir)) {
            std::cerr << "deskcheck nightly: " << e->message << "\n";
            return false;
        }
    }
    return true;
}

}  // namespace

int cmd_nightly(const Argv& argv) {
    Args args("nightly", argv, {"--json", "--help", "--no-fuzz", "--wait"},
              {"--minutes", "--jobs", "--rules", "--out", "--seed", "--fuzz-build", "--mutation", "--campaign-cases",
               "--mutate-rules-cases", "--mutate-rules-baseline", "--mutate-model-sample"});
    if (args.flag("--help")) {
        std::cout << nightly_help;
        return exit_ok;
    }
    if (args.ok() && !args.positional().empty()) args.fail("unexpected argument '" + printable(args.positional().front(), 60) + "'");
    auto settings = args.ok() ? parse(args) : std::nullopt;
    if (!settings) return usage_error("nightly", args.error());
    Settings& s = *settings;
    if (s.out.empty()) s.out = default_out(s);
    install_interrupt_handlers();
    NightlyLock lock(s.checkout / "build" / "nightly" / "lock");
    if (const int stop = take_lock(s, lock); stop != exit_ok) return stop;
    if (!prepare_folders(s)) return exit_infrastructure;
    print_header(s, s.json ? std::cerr : std::cout);
    Summary out;
    run_campaign_part(s, out);
    if (interrupted()) out.not_done.push_back("r0 campaign (not started)");
    else run_r0_part(s, out);
    if (interrupted()) out.not_done.push_back("mutate-rules (not started)");
    else run_mutate_rules_part(s, out);
    if (interrupted()) out.not_done.push_back("fuzzing (not started)");
    else run_fuzz_part(s, out);
    if (interrupted()) out.not_done.push_back("determinism sample (not started)");
    else run_determinism_part(s, out);
    if (interrupted()) out.not_done.push_back("mutate-model (not started)");
    else run_mutate_model_part(s, out);
    out.signal = interrupted_by();
    if (out.signal == 0) add_coverage_warnings(out);
    const int code = exit_code_of(out);
    if (s.json) std::cout << dump_json(summary_json(s, out, code)) << "\n";
    else print_summary(s, out, code, std::cout);
    return code;
}

}  // namespace deskcheck::cli
