// The night's mutation testing: mutate-rules over every rule table, and a sample of tools/mutate-model.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
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
