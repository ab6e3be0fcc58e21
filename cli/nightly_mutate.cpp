// The night's mutation testing: mutate-rules over every rule table, and a sample of tools/mutate-model.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/interrupt.h"
#include "cli/mutate_rules.h"
#include "cli/nightly_parts.h"
#include "cli/nightly_support.h"

namespace deskcheck::cli::nightly {

// ---- mutate-rules -------------------------------------------------------------------------------

namespace {

// Each round after the first runs the unexplained survivors again, on a fresh stream of cases (its
// own seed) with this many times the cases of the round before, until the share's deadline.
constexpr std::uint32_t survivor_round_factor = 4;

std::string set_of(const std::string& id) { return id.substr(0, id.find(':')); }
std::string row_of(const std::string& id) {
    const std::string set = set_of(id);
    return id.substr(set.size() + 1, id.rfind(':') - set.size() - 1);
}

std::string mutate_rules_command(const std::string& id, std::uint64_t seed, std::uint32_t cases) {
    return "deskcheck mutate-rules --rules " + set_of(id) + " --row " + row_of(id) + " --seed " + std::to_string(seed) +
           " --cases " + std::to_string(cases);
}

// A later round's kills replace the survivors' outcomes in the night's reports (and their twins').
// Returns how many it killed.
std::size_t merge_round(std::vector<SetReport>& night, const std::vector<SetReport>& round, const MutateRound& r) {
    std::size_t killed = 0;
    for (const SetReport& later : round) {
        for (SetReport& set : night) {
            if (set.name != later.name) continue;
            for (const MutantReport& k : later.mutants) {
                if (!k.selected || k.same_as || k.outcome != MutantOutcome::Killed) continue;
                for (std::size_t i = 0; i < set.mutants.size(); ++i) {
                    MutantReport& m = set.mutants[i];
                    if (m.id != k.id || m.outcome != MutantOutcome::Survived) continue;
                    for (MutantReport& twin : set.mutants) {
                        if (&twin != &m && twin.same_as != i) continue;
                        twin.outcome = MutantOutcome::Killed;
                        twin.property = k.property;
                        twin.cases = k.cases;
                        twin.budget = k.budget;
                        twin.replay = mutate_rules_command(k.id, r.seed, r.cases);
                        twin.situation.reset();
                    }
                    ++set.killed;
                    --set.survived;
                    ++killed;
                    progress("mutate-rules: " + k.id + " killed in round " + std::to_string(r.index) + " by " + k.property + " at case " +
                             std::to_string(k.cases) + " (" + mutate_rules_command(k.id, r.seed, r.cases) + ")");
                }
            }
        }
    }
    return killed;
}

// The cases each survivor ran, over every round, and the last round that ran it.
struct SurvivorRuns {
    std::uint32_t rounds = 0;
    std::uint64_t cases = 0;
    std::uint64_t seed = 0;
    std::uint32_t round_cases = 0;
};

void count_runs(const std::vector<SetReport>& reports, const MutateRound& r, std::map<std::string, SurvivorRuns>& runs) {
    for (const SetReport& set : reports) {
        for (const MutantReport& m : set.mutants) {
            if (!m.selected || m.same_as || m.outcome == MutantOutcome::NotRun || m.outcome == MutantOutcome::Equivalent) continue;
            SurvivorRuns& ran = runs[m.id];
            ++ran.rounds;
            ran.cases += std::max(m.budget, r.cases);
            ran.seed = r.seed;
            ran.round_cases = r.cases;
        }
    }
}

MutateSettings first_round(const Settings& s, const std::function<bool()>& stop) {
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
    m.stop = stop;
    return m;
}

// Cases a thread ran per second in the first round (every mutant to its kill or its budget).
double cases_per_thread_second(const std::vector<SetReport>& reports, const MutateRound& r, std::uint32_t jobs) {
    double cases = 0;
    for (const SetReport& set : reports) {
        for (const MutantReport& m : set.mutants) {
            if (!m.selected || m.same_as) continue;
            if (m.outcome == MutantOutcome::Killed) cases += m.cases;
            if (m.outcome == MutantOutcome::Survived) cases += m.budget;
        }
    }
    return r.seconds > 0 ? cases / (r.seconds * std::max<std::uint32_t>(1, jobs)) : 0;
}

// Rounds 2, 3, ...: the survivors the baseline does not explain, until the share's deadline. A
// running mutant is not stopped, so a round's cases are what one thread can do in the time left (at
// the first round's rate), and no round starts that could not grow.
void survivor_rounds(const Settings& s, const MutateSettings& first, const ExplainedSurvivors& baseline, Clock::time_point deadline,
                     Summary& out, std::map<std::string, SurvivorRuns>& runs) {
    std::vector<std::string> pending = unexplained(surviving_ids(out.mutate), baseline);
    const double rate = cases_per_thread_second(out.mutate, out.mutate_rounds.front(), first.jobs);
    std::uint32_t cases = first.cases;
    for (std::uint32_t index = 2; !pending.empty() && !interrupted() && Clock::now() < deadline; ++index) {
        const auto began = Clock::now();
        const double left_s = std::chrono::duration<double>(deadline - began).count();
        const auto fits = static_cast<std::uint64_t>(std::max(0.0, left_s * rate));
        const std::uint64_t next = std::min<std::uint64_t>({std::uint64_t{cases} * survivor_round_factor, fits, mutate_rules_cases_max});
        if (next <= cases) break;  // the time left holds no bigger round
        MutateSettings m = first;
        m.only = pending;
        m.sets.clear();
        for (const auto& set : mutable_rule_sets()) {
            if (std::any_of(pending.begin(), pending.end(), [&](const std::string& id) { return set_of(id) == set; })) m.sets.push_back(set);
        }
        cases = static_cast<std::uint32_t>(next);
        m.cases = cases;
        m.seed = props::case_seed(s.seed, 3000 + index);
        m.stop = [deadline] { return Clock::now() >= deadline || interrupted(); };
        progress("mutate-rules: round " + std::to_string(index) + ": " + std::to_string(pending.size()) +
                 " unexplained survivors again, seed " + std::to_string(m.seed) + ", " + std::to_string(cases) + " cases each");
        const auto reports = run_mutate_rules(m);
        MutateRound round;
        round.index = index;
        round.seed = m.seed;
        round.cases = cases;
        round.mutants = pending.size();
        round.ids = pending;
        round.killed = merge_round(out.mutate, reports, round);
        for (const auto& set : reports) round.not_run += set.not_run;
        round.seconds = std::chrono::duration<double>(Clock::now() - began).count();
        count_runs(reports, round, runs);
        out.mutate_rounds.push_back(round);
        pending = unexplained(surviving_ids(out.mutate), baseline);
    }
}

}  // namespace

// `deskcheck mutate-rules` over every rule table, on the night's seed, for its share of the work
// (cases per mutant; no shrinking: the night lists survivors, it keeps no kills). Without
// --mutate-rules-cases the unexplained survivors then get the rest of the share, round after round
// with more cases (four times, or what the time left holds) on a fresh seed: a rare row a short first round misses is killed on a
// faster machine. A surviving mutation the baseline does not explain is a warning naming it: a
// weakened check shows up the night it lands. Survivors never change the exit code
// (docs/nightly-and-ci.md).
void run_mutate_rules_part(const Settings& s, Summary& out) {
    const auto began = Clock::now();
    const auto clock_stop = began + std::chrono::seconds(clock_stop_s(s, mutate_rules_share_pct));
    bool out_of_time = false;
    const MutateSettings m = first_round(s, [&] {
        if (Clock::now() >= clock_stop) out_of_time = true;
        return out_of_time || interrupted();
    });
    progress("mutate-rules: every rule table, " + std::to_string(m.cases) + " cases per mutant");
    out.mutate = run_mutate_rules(m);
    MutateRound first;
    first.seed = m.seed;
    first.cases = m.cases;
    first.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    for (const auto& r : out.mutate) {
        first.mutants += r.distinct;
        first.killed += r.killed;
        first.not_run += r.not_run;
    }
    out.mutate_rounds.push_back(first);
    std::map<std::string, SurvivorRuns> runs;
    count_runs(out.mutate, first, runs);
    const ExplainedSurvivors baseline = read_explained_survivors(s.mutate_rules_baseline);
    if (!baseline.error.empty()) out.warnings.push_back("mutate-rules baseline not read, so no survivor counts as explained: " + baseline.error);
    if (s.mutate_rules_by_time && !out_of_time) {
        survivor_rounds(s, m, baseline, began + std::chrono::seconds(share_s(s, mutate_rules_share_pct)), out, runs);
    }
    out.mutate_seconds = std::chrono::duration<double>(Clock::now() - began).count();
    const auto survivors = surviving_ids(out.mutate);
    out.mutate_unexplained = unexplained(survivors, baseline);
    for (const auto& id : survivors) {
        if (baseline.reasons.count(id) != 0) out.mutate_explained.push_back(id);
    }
    for (const auto& id : out.mutate_unexplained) {
        const SurvivorRuns ran = runs[id];
        out.warnings.push_back("rule mutation " + id + " survived " + std::to_string(ran.cases) + " cases" +
                               (ran.rounds > 1 ? " in " + std::to_string(ran.rounds) + " rounds" : std::string()) +
                               " and is not explained in " + s.mutate_rules_baseline.string() + ": no check notices that change (" +
                               mutate_rules_command(id, ran.seed == 0 ? s.seed : ran.seed, ran.round_cases == 0 ? m.cases : ran.round_cases) + ")");
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

}  // namespace deskcheck::cli::nightly
