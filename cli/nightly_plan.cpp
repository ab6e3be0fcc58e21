// The night's plan: the settings (options, a seed from the date and the commit, the budget counted as work) and the header.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "harness/run.h"
#include "cli/args.h"
#include "cli/files.h"
#include "cli/fuzz_support.h"
#include "cli/interrupt.h"
#include "cli/nightly_parts.h"
#include "cli/nightly_support.h"
#include "cli/report.h"
#include "harness/campaign.h"
#include "model/verdict.h"

namespace deskcheck::cli::nightly {
namespace {

constexpr std::uint64_t minutes_default = 2;
constexpr std::uint64_t minutes_max = 24 * 60;
constexpr std::uint64_t jobs_max = 64;
constexpr std::uint64_t campaign_cases_max = 100'000'000;

}  // namespace

// ---- the seed -----------------------------------------------------------------------------------

namespace {

// The wall clock, formatted in UTC (the night's date and the summary's times; never in a trace).
std::string utc_now(const char* format) {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

}  // namespace

std::string today_utc() { return utc_now("%Y-%m-%d"); }

std::string now_utc_time() { return utc_now("%H:%M:%SZ"); }

namespace {

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

}  // namespace

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
        if (props::rules_named(*r) == nullptr) args.fail("unknown rule set '" + printable(*r, 60) + "' (expected published or current)");
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
    s.jobs = static_cast<std::uint32_t>(jobs.value_or(std::clamp<std::uint64_t>(std::thread::hardware_concurrency(), 1, jobs_max)));
    s.json = args.flag("--json");
    s.no_fuzz = args.flag("--no-fuzz");
    s.fuzz_counted = args.flag("--fuzz-counted");
    s.wait_for_lock = args.flag("--wait");
    // Without --campaign-cases both campaigns fill their share of the budget (0: by time); with it,
    // the count, and the published campaign's in the ratio of their shares.
    s.campaign_cases = campaign_cases.value_or(0);
    s.published_cases = campaign_cases ? std::max<std::uint64_t>(1, s.campaign_cases * published_share_pct / campaign_share_pct) : 0;
    s.mutate_rules_by_time = !mutate_cases.has_value();
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
std::uint64_t runs_of(const Settings& s, const TargetShare& t) {
    return s.fuzz_counted ? std::uint64_t{share_s(s, t.pct)} * t.execs_per_s : 0;
}

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
        << " s: campaign " << (s.campaign_cases == 0 ? std::to_string(share_s(s, campaign_share_pct)) + " s (filled by time)" : std::to_string(s.campaign_cases) + " cases")
        << (!runs_published_part(s)     ? std::string()
            : s.published_cases == 0 ? ", published campaign " + std::to_string(share_s(s, published_share_pct)) + " s (filled by time)"
                                     : ", published campaign " + std::to_string(s.published_cases) + " cases")
        << ", mutate-rules " << s.mutate_rules_cases
        << " cases per mutant";
    for (const auto& t : target_shares) {
        out << ", " << t.name << " " << (s.fuzz_counted ? std::to_string(runs_of(s, t)) + " runs" : std::to_string(share_s(s, t.pct)) + " s");
    }
    out << " (the clock stops a part at twice its share); jobs " << s.jobs << "\n  fuzz build "
        << (s.no_fuzz ? std::string("not used (--no-fuzz)") : s.fuzz_build.string()) << "; counterexamples to "
        << s.out.string() << "; logs in " << s.work.string() << "\n";
    out.flush();
}

}  // namespace deskcheck::cli::nightly
