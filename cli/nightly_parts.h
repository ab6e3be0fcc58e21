// What the parts of `deskcheck nightly` share (cli/nightly_*.cpp, the command in nightly_cmd.cpp):
// the settings of the night, the budget's shares, what it found, and each part's entry point.
// Internal to the command.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/mutate_rules.h"
#include "cli/nightly_support.h"
#include "harness/campaign.h"
#include "sim/mutation_names.h"

namespace deskcheck::cli::nightly {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The codes every command shares (cli/args.h exit_code_table): a finding is 1 as for run.
constexpr int exit_property_violation = exit_violation;
constexpr int exit_fuzz_crash = 7;
constexpr int exit_another_nightly = 6;

// The budget's shares, in percent: the campaign, then each fuzz target (same order as targets).
// The property campaigns fill their share by time (cli/nightly_campaign.cpp) unless
// --campaign-cases counts them, and so do the fuzz targets (libFuzzer -max_total_time) unless
// --fuzz-counted counts them, and mutate-rules' unexplained survivors get the rest of its share in
// later rounds (nightly_mutate.cpp) unless --mutate-rules-cases counts it; R0 and mutate-rules' first
// round are turned into a count of work at a nominal rate
// (this machine's, docs/benchmarks.md): the count is the night; the clock stops a counted part only
// after clock_stop_factor times its share.
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
constexpr std::uint32_t clock_stop_factor = 2;
struct TargetShare {
    const char* name;
    std::uint32_t pct;
    std::uint32_t execs_per_s;  // nominal, under ASan + UBSan: --fuzz-counted's -runs
};
// fuzz_batch: 1,500 exec/s alone, but 790-850 inside the two-minute nightly on 2 cores (the clock
// stopped a counted run after 18,982 and 20,518 of 36,000 runs at twice its share): 900 is what a
// night gets.
constexpr TargetShare target_shares[] = {{"fuzz_batch", 20, 900},
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

struct Settings {
    std::uint64_t seed = 0;
    std::string date;
    std::string commit;
    bool seed_given = false;
    std::uint32_t budget_s = 0;
    std::uint32_t jobs = 1;
    bool json = false;
    bool no_fuzz = false;
    bool fuzz_counted = false;  // libFuzzer -runs from the nominal rate; else each target fills its share
    bool wait_for_lock = false;
    std::uint64_t campaign_cases = 0;
    std::uint64_t published_cases = 0;  // the published rules' campaign alongside
    std::uint64_t mutate_rules_cases = 0;
    bool mutate_rules_by_time = false;  // no --mutate-rules-cases: survivors get the rest of the share
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

// A round of mutate-rules: the seed and cases per mutant it ran, how many mutants, how many it killed.
struct MutateRound {
    std::uint32_t index = 1;
    std::uint64_t seed = 0;
    std::uint32_t cases = 0;
    std::size_t mutants = 0;
    std::size_t killed = 0;
    std::size_t not_run = 0;  // left when the share's deadline came
    double seconds = 0;
    std::vector<std::string> ids;  // the mutants a later round ran (empty for the first: all of them)
};

// One rule set's property campaign: its rounds and their totals.
struct CampaignPart {
    bool by_time = false;  // filled its share of the budget (no --campaign-cases)
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
    std::vector<SetReport> mutate;       // mutate-rules, one report per rule table (later rounds merged in)
    std::vector<MutateRound> mutate_rounds;  // the first: every mutant; then the survivors, with more cases
    double mutate_seconds = 0;
    std::vector<std::string> mutate_unexplained;  // surviving mutations the baseline does not explain
    std::vector<std::string> mutate_explained;    // surviving mutations it explains
    // tools/mutate-model's sample: its report (the tool's JSON), or why it was not run.
    std::optional<nlohmann::ordered_json> mutate_model;
    std::string mutate_model_skipped;
    double mutate_model_seconds = 0;
};

inline void progress(const std::string& line) { std::cerr << "nightly: " << line << std::endl; }

inline std::string hex(std::uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// ---- what the night will do (nightly_plan.cpp) ---------------------------------------------------

std::string today_utc();
std::string now_utc_time();
std::optional<Settings> parse(Args& args);
std::uint32_t share_s(const Settings& s, std::uint32_t pct);  // a part's share of the budget, in seconds
std::uint32_t clock_stop_s(const Settings& s, std::uint32_t pct);
std::uint64_t runs_of(const Settings& s, const TargetShare& t);  // 0: the target fills its share by time
std::string run_command(const Settings& s, const Round& r);
fs::path default_out(const Settings& s);
std::string replay_command(const std::string& file);
bool runs_published_part(const Settings& s);
void print_header(const Settings& s, std::ostream& out);

// ---- the parts ------------------------------------------------------------------------------------
// cmd_nightly runs them in this order: the campaigns, R0, mutate-rules, fuzzing, the determinism
// sample, mutate-model.

// nightly_campaign.cpp; write_page also serves the fuzz and determinism parts' findings.
void run_campaign_part(const Settings& s, Summary& out);
void run_r0_part(const Settings& s, Summary& out);
std::string write_page(const std::string& file, Mutation mutation, const std::string& replay, Summary& out);
// nightly_mutate.cpp
void run_mutate_rules_part(const Settings& s, Summary& out);
void run_mutate_model_part(const Settings& s, Summary& out);
// nightly_fuzz.cpp
void run_fuzz_part(const Settings& s, Summary& out);
// nightly_determinism.cpp
void run_determinism_part(const Settings& s, Summary& out);

// ---- the summary (nightly_summary.cpp) -----------------------------------------------------------

void add_coverage_warnings(Summary& out);
int exit_code_of(const Summary& out);
void print_summary(const Settings& s, const Summary& out, int code, std::ostream& o);
nlohmann::ordered_json summary_json(const Settings& s, const Summary& out, int code);

}  // namespace deskcheck::cli::nightly
