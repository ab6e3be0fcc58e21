// One run, end to end (DESIGN): scenario -> Sim -> Tool (snapshot, batch or single actions) ->
// ground truth + trace + the tool's report. Plain C++: the RapidCheck properties, the fuzz targets,
// `deskcheck run/replay/nightly/bench` all go through here.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checks/history.h"
#include "model/tool.h"
#include "model/write.h"
#include "sim/mutation_names.h"
#include "sim/scenario.h"
#include "sim/sim.h"

namespace deskcheck::props {

inline constexpr TimeMs quiet_limit_ms_default = 30'000;

struct RunOptions {
    const RuleSet* rules = nullptr;  // nullptr: the scenario's "rules"
    ToolConfig tool;
    Mutation mutation = Mutation::None;  // a negative proof's deliberate bug (harness/mutations.h)
    TimeMs quiet_limit_ms = quiet_limit_ms_default;  // after the run, let pending effects land
    // W-2: an agent that acts on the tool's answers. When the run stops at a step whose answer is
    // a not_done (Absent, or an error before anything was delivered), it retries that step once as
    // a single action; it never retries an Unknown (without an idempotency key) or an error after
    // delivery.
    bool agent_retries = false;
    // Keep the run's trace (sim::Trace). Off in campaigns, fuzzing and the benchmark, where nobody
    // reads it: a counterexample is replayed with it on. The checks never read the trace except
    // `deterministic`, which turns it on for its own two runs.
    bool trace = true;
};


// A run as the harness keeps it: the history the checks judge, with the desktop it ran on and the
// tool's configuration (neither of which a check reads).
struct RunResult : History {
    ToolConfig config;                       // the tool's configuration in this run
    std::unique_ptr<sim::Sim> sim;           // the desktop after the run (ground truth, trace, true state)

    const sim::Trace& trace() const { return sim->trace(); }
};

RunResult run_scenario(const sim::Scenario& scenario, const RunOptions& options = {});

// The agent's side of a run: a snapshot of every window the steps name (refs mapped back to the
// scenario's controls), then one Request per step (index = step; launch steps become Observe).
// `refs_handed`, when given, adds the number of refs the snapshots handed out.
std::vector<Request> agent_requests(Tool& tool, Desktop& desk, const sim::Scenario& scenario,
                                    std::uint64_t* refs_handed = nullptr);

// `count` scenarios generated from `seed`, run under each rule set (current, then published) with
// the W-2 agent's retries, each handed to `visit`: the claim table's proofs and their tests.
void for_each_generated_run(std::uint64_t seed, std::uint32_t count, bool trace,
                            const std::function<void(const sim::Scenario&, RunResult&)>& visit);

// The true state of `control` (none: only the window-level facts) on the simulator now.
TrueState true_state(const sim::Sim& sim, WindowId window, std::optional<ElementId> control);

// The rule set a scenario names, or `current` when the name is unknown.
const RuleSet& rules_for(const sim::Scenario& scenario);
// The rule set of that name, or nullptr: the harness's own lookup over the sets the model lists,
// never the tool's find_rules (a bug there would hand the checks the same wrong set, and with it
// the promises they read as data).
const RuleSet* rules_named(std::string_view name);

}  // namespace deskcheck::props
