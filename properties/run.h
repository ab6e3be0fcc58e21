// One run, end to end (DESIGN): scenario -> Sim -> Tool (snapshot, batch or single actions) ->
// ground truth + trace + the tool's report. Plain C++: the RapidCheck properties, the fuzz targets,
// `deskcheck run/replay/nightly/bench` all go through here.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/tool.h"
#include "sim/scenario.h"
#include "sim/sim.h"

namespace deskcheck::props {

inline constexpr TimeMs quiet_limit_ms_default = 30'000;

struct RunOptions {
    const RuleSet* rules = nullptr;  // nullptr: the scenario's "rules"
    ToolConfig tool;                 // mutation: a negative proof's deliberate bug
    TimeMs quiet_limit_ms = quiet_limit_ms_default;  // after the run, let pending effects land
};

struct RunResult {
    std::string rules;                       // the rule set's name
    bool batch_mode = true;
    std::vector<Request> requests;           // index = scenario step (launch steps: kind Observe, unused)
    std::vector<std::optional<ElementId>> targets;  // the scenario control each step is about
    std::vector<StepReport> steps;           // what the tool reported, in order of execution
    std::vector<BatchReport> batches;        // one per batch segment (a launch step splits a batch)
    std::vector<LaunchReport> launches;
    std::optional<std::uint32_t> stopped_at; // the scenario step that stopped the run (B-1)
    WindowId foreground_at_start = no_window;
    TimeMs ended_ms = 0;                     // virtual time when the tool returned
    std::unique_ptr<sim::Sim> sim;           // the desktop after the run (ground truth, trace, true state)

    const sim::GroundTruth& truth() const { return sim->truth(); }
    const sim::Trace& trace() const { return sim->trace(); }
};

RunResult run_scenario(const sim::Scenario& scenario, const RunOptions& options = {});

// The rule set a scenario names, or `current` when the name is unknown.
const RuleSet& rules_for(const sim::Scenario& scenario);

}  // namespace deskcheck::props
