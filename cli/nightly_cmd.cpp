// deskcheck nightly [--minutes M] [--jobs N] [--json] [--rules R] [--out DIR] [--seed S]
//                   [--fuzz-build DIR] [--mutation NAME (self-tests)]
// The main CI job (README "For CI owners"): a property campaign from a fresh seed (the date and the
// git commit: varied, yet reproducible), each fuzz target under libFuzzer for its share of the
// budget, new inputs merged into corpus/<target>/, every crash converted and shrunk into
// corpus/regressions/, a sample of runs replayed twice (S-1), and a summary.
// Exit codes by class (libFuzzer's own are 1, 70-72, 77, none reused):
//   0 clean, 2 bad usage, 3 a property violation found, 4 a fuzz crash that is not a property
//   violation (sanitizer, timeout, fuzz_verdict / fuzz_locator / fuzz_observation invariant), 5 infrastructure error.
#include <algorithm>
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
constexpr std::size_t crashes_converted_max = 50;  // per target and night (-fork keeps going after a crash)

// The budget's shares, in percent: the campaign, then each fuzz target (same order as targets).
constexpr std::uint32_t campaign_share_pct = 25;
struct TargetShare {
    const char* name;
    std::uint32_t pct;
};
constexpr TargetShare target_shares[] = {
    {"fuzz_batch", 30}, {"fuzz_scenario_json", 15}, {"fuzz_verdict", 10}, {"fuzz_locator", 10}, {"fuzz_observation", 10}};
constexpr std::uint32_t shares_total_pct() {
    std::uint32_t total = campaign_share_pct;
    for (const auto& t : target_shares) total += t.pct;
    return total;
}
static_assert(shares_total_pct() == 100, "the campaign and the fuzz targets share the whole budget");

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
    "  (fuzz_batch 30%, fuzz_scenario_json 15%, fuzz_verdict, fuzz_locator, fuzz_observation 10% each),\n"
    "  new inputs merged into corpus/<target>/, every crash converted into a shrunk counterexample in DIR (default corpus/regressions) with its timeline\n"
    "  page next to it (FILE.html, see deskcheck replay --html), a sample of runs replayed twice (S-1),\n"
    "  and a summary (text, or --json) listing each finding's replay command and page. Progress goes\n"
    "  to stderr.\n"
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
    std::string page;     // the timeline page next to `file` ("" when none was written)
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

void keep_counterexamples(const Settings& s, const props::CampaignResult& r, Summary& out) {
    for (const auto& c : r.counterexamples) {
        const bool known = std::any_of(out.findings.begin(), out.findings.end(),
                                       [&](const Finding& f) { return f.source == "campaign" && f.property == c.property; });
        if (known) continue;  // one counterexample per property per night
        const std::string file = write_counterexample(c, s.rules, s.out);
        out.findings.push_back({"campaign", c.property, c.summary, file, replay_command(s, file), true,
                                write_page(file, s.mutation, replay_command(s, file), out)});
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
    if (target == "fuzz_batch" || target == "fuzz_scenario_json") {
        const Conversion c = convert_crash(crash, s.out, fuzz_properties(out));
        if (c.violated && c.file.empty()) return;  // this property is already reported tonight
        if (c.violated) {
            out.findings.push_back({target + " crash", c.property, c.summary, c.file, "deskcheck replay " + c.file, true,
                                    write_page(c.file, Mutation::None, "deskcheck replay " + c.file, out)});
            progress(target + ": crash converted: " + c.summary + " -> " + c.file);
            return;
        }
    }
    std::error_code ec;
    fs::create_directories(s.work / "crashes", ec);
    const fs::path kept = s.work / "crashes" / (target + "-" + crash.filename().string());
    fs::copy_file(crash, kept, fs::copy_options::skip_existing, ec);
    const std::string kind = crash.filename().string().substr(0, crash.filename().string().find('-'));
    const fs::path log = s.work / target / "fuzz.log";
    const std::string why = reported_property(log, target).empty()
                                ? "a sanitizer report, a timeout, or an invariant of the target"
                                : "the fuzz binary reported " + reported_property(log, target) +
                                      " but this deskcheck does not reproduce it: is the fuzz build from another commit?";
    out.findings.push_back({target + " " + kind, "", "libFuzzer " + kind + " that is not a property violation here (" +
                            why + "); see " + log.string(),
                            kept.string(), (s.fuzz_build / "fuzz" / target).string() + " " + kept.string(), false, ""});
    progress(target + ": " + kind + " kept as " + kept.string());
}

void run_one_target(const Settings& s, const TargetShare& t, std::uint32_t index, Summary& out) {
    FuzzPlan plan;
    plan.target = t.name;
    plan.binary = s.fuzz_build / "fuzz" / t.name;
    plan.corpus = s.checkout / "corpus" / t.name;
    plan.options_file = s.checkout / "fuzz" / (std::string(t.name) + ".options");
    plan.work = s.work / t.name;
    plan.seconds = share_s(s, t.pct);
    plan.jobs = s.jobs;
    plan.seed = static_cast<std::uint32_t>(props::case_seed(s.seed, 1000 + index) % 0xffff'fffeULL) + 1;
    std::error_code ec;
    fs::remove_all(plan.work, ec);
    fs::create_directories(plan.corpus, ec);
    progress(std::string(t.name) + ": fuzzing for " + std::to_string(plan.seconds) + " s (libFuzzer -seed=" +
             std::to_string(plan.seed) + (s.jobs > 1 ? ", -fork=" + std::to_string(s.jobs) : "") + ")");
    FuzzRun run = run_fuzz_target(plan);
    if (!run.infra_error.empty()) out.infra_errors.push_back(std::string(t.name) + ": " + run.infra_error);
    for (std::size_t i = 0; i < run.crashes.size() && i < crashes_converted_max; ++i) keep_crash(s, t.name, run.crashes[i], out);
    progress(std::string(t.name) + ": " + std::to_string(run.execs) + " runs, " + std::to_string(run.execs_per_second) +
             " exec/s, cov " + std::to_string(run.cov) + ", ft " + std::to_string(run.ft) + ", +" +
             std::to_string(run.corpus_added) + " corpus inputs, " + std::to_string(run.crashes.size()) + " crashes");
    fs::remove_all(plan.work / "corpus", ec);  // merged back already; logs and artifacts stay
    fs::remove_all(plan.work / "merged", ec);
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
    std::vector<std::string> missing;
    for (const auto& t : target_shares) {
        if (!fs::exists(s.fuzz_build / "fuzz" / t.name)) missing.push_back(t.name);
    }
    if (missing.size() == std::size(target_shares)) {
        out.fuzz_skipped = "no fuzz build in " + s.fuzz_build.string() + "; make it with: " + fuzz_build_command();
        progress(out.fuzz_skipped);
        return;
    }
    for (const auto& m : missing) out.warnings.push_back("fuzz target " + m + " not built in " + s.fuzz_build.string());
    warn_if_stale(s, out);
    std::uint32_t index = 0;
    for (const auto& t : target_shares) {
        if (std::find(missing.begin(), missing.end(), t.name) == missing.end()) run_one_target(s, t, index, out);
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
    const std::string file = write_counterexample(c, std::string(ro.rules->name), s.out);
    out.findings.push_back({"determinism sample", c.property, c.summary, file, replay_command(s, file), true,
                            write_page(file, s.mutation, replay_command(s, file), out)});
}

// Replays twice: the first cases of the first campaign round, and a spread of fuzz_batch's corpus.
void run_determinism_part(const Settings& s, Summary& out) {
    props::RunOptions ro;
    ro.rules = find_rules(s.rules);
    ro.tool.mutation = s.mutation;
    ro.agent_retries = true;
    const std::uint64_t round_seed = out.rounds.empty() ? s.seed : out.rounds.front().seed;
    for (std::uint32_t i = 0; i < determinism_sample_cases; ++i) {
        sim::Prng rng(props::case_seed(round_seed, i));
        sim::Scenario scenario = sim::generate_scenario(rng);
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
    for (std::size_t i = 0; i < inputs.size(); i += stride) {
        std::ifstream in(inputs[i], std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const sim::Scenario scenario = fuzz::scenario_from_bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        if (sim::validate(scenario).has_value()) continue;
        check_deterministic(s, scenario, fuzz::fuzz_run_options(), "corpus/fuzz_batch/" + inputs[i].filename().string(), out);
    }
    progress("determinism: " + std::to_string(out.determinism_replayed) + " scenarios replayed twice");
}

// ---- summary ------------------------------------------------------------------------------------

void add_coverage_warnings(Summary& out) {
    for (const char* v : expected_verdicts) {
        if (out.campaign.verdicts.count(v) == 0) out.warnings.push_back(std::string("verdict ") + v + " never reached");
    }
    for (const char* tag : expected_tags) {
        if (out.campaign.coverage.count(tag) == 0) out.warnings.push_back(std::string("coverage tag ") + tag + " never reached");
    }
    for (const auto& p : out.campaign.properties) {
        if (p.gave_up()) out.warnings.push_back("property " + p.name + " gave up: could not judge most cases");
        else if (p.blind_spot()) {
            out.warnings.push_back("property " + p.name + " could not judge " + std::to_string(p.not_judged_permille()) +
                                   " per mille of cases (more than 1 %)");
        }
    }
}

int exit_code_of(const Summary& out) {
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
        default: return "?";
    }
}

void print_campaign(const Settings& s, const Summary& out, std::ostream& o) {
    const double rate = out.campaign_seconds > 0 ? out.campaign.cases / out.campaign_seconds : 0;
    o << "\nproperty campaign: " << out.campaign.cases << " cases in " << out.rounds.size() << " rounds, "
      << std::fixed << std::setprecision(1) << out.campaign_seconds << " s (" << std::setprecision(0) << rate
      << " cases/s)\n";
    for (const auto& r : out.rounds) o << "  " << run_command(s, r) << "\n";
    o << "  " << std::left << std::setw(30) << "PROPERTY" << std::right << std::setw(8) << "cases" << std::setw(8)
      << "holds" << std::setw(10) << "violated" << std::setw(12) << "not judged\n";
    for (const auto& p : out.campaign.properties) {
        o << "  " << std::left << std::setw(30) << p.name << std::right << std::setw(8) << p.cases << std::setw(8)
          << p.holds << std::setw(10) << p.violated << std::setw(11) << p.cannot_judge << "\n";
    }
    o << "  verdicts:";
    for (const auto& [k, v] : out.campaign.verdicts) {
        if (k.find('/') == std::string::npos) o << " " << k << " " << v << ";";
    }
    o << "\n  coverage:";
    for (const auto& [k, v] : out.campaign.coverage) o << " " << k << " " << v << ";";
    o << "\n";
}

void print_fuzz(const Summary& out, std::ostream& o) {
    o << "\nfuzzing:";
    if (!out.fuzz_skipped.empty()) {
        o << " skipped — " << out.fuzz_skipped << "\n";
        return;
    }
    o << "\n  " << std::left << std::setw(20) << "TARGET" << std::right << std::setw(8) << "seconds" << std::setw(11)
      << "runs" << std::setw(9) << "exec/s" << std::setw(7) << "cov" << std::setw(8) << "ft" << std::setw(9) << "corpus"
      << std::setw(6) << "new" << std::setw(9) << "crashes" << std::setw(9) << "RSS MB\n";
    for (const auto& r : out.fuzz) {
        o << "  " << std::left << std::setw(20) << r.target << std::right << std::setw(8) << std::setprecision(0)
          << r.seconds << std::setw(11) << r.execs << std::setw(9) << r.execs_per_second << std::setw(7) << r.cov
          << std::setw(8) << r.ft << std::setw(9) << r.corpus_before << std::setw(6) << r.corpus_added << std::setw(9)
          << r.crashes.size() << std::setw(8) << r.peak_rss_mb << "\n";
    }
}

void print_summary(const Settings& s, const Summary& out, int code, std::ostream& o) {
    print_campaign(s, out, o);
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
        if (!r.infra_error.empty()) t["infra_error"] = r.infra_error;
        j["targets"].push_back(t);
    }
    return j;
}

nlohmann::ordered_json summary_json(const Settings& s, const Summary& out, int code) {
    nlohmann::ordered_json j{{"seed", s.seed}, {"seed_from", s.seed_given ? "--seed" : "date+commit"}, {"date", s.date},
                             {"commit", s.commit}, {"rules", s.rules}, {"mutation", to_string(s.mutation)},
                             {"budget_seconds", s.budget_s}, {"jobs", s.jobs}, {"out", s.out.string()},
                             {"logs", s.work.string()}};
    j["campaign"] = campaign_json(out.campaign, {}, out.campaign_seconds);
    j["campaign"].erase("counterexamples");
    j["campaign"]["rounds"] = nlohmann::ordered_json::array();
    for (const auto& r : out.rounds) {
        j["campaign"]["rounds"].push_back({{"seed", r.seed}, {"cases", r.cases}, {"seconds", r.seconds}, {"reproduce", run_command(s, r)}});
    }
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

}  // namespace

int cmd_nightly(const Argv& argv) {
    Args args("nightly", argv, {"--json", "--help"},
              {"--minutes", "--jobs", "--rules", "--out", "--seed", "--fuzz-build", "--mutation"});
    if (args.flag("--help")) {
        std::cout << nightly_help;
        return exit_ok;
    }
    if (args.ok() && !args.positional().empty()) args.fail("unexpected argument '" + args.positional().front() + "'");
    auto settings = args.ok() ? parse(args) : std::nullopt;
    if (!settings) return usage_error("nightly", args.error());
    Settings& s = *settings;
    if (s.out.empty()) s.out = default_out(s);
    std::error_code ec;
    fs::create_directories(s.work, ec);
    print_header(s, s.json ? std::cerr : std::cout);
    Summary out;
    if (ec) out.infra_errors.push_back("cannot create " + s.work.string() + ": " + ec.message());
    run_campaign_part(s, out);
    run_fuzz_part(s, out);
    run_determinism_part(s, out);
    add_coverage_warnings(out);
    const int code = exit_code_of(out);
    if (s.json) std::cout << summary_json(s, out, code).dump(2) << "\n";
    else print_summary(s, out, code, std::cout);
    return code;
}

}  // namespace deskcheck::cli
