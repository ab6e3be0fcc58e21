// RapidCheck's source of scenarios, and the glue between the plain checks and RapidCheck
// properties (RC_DISCARD for CannotJudge, RC_FAIL with the explanation for Violated, RC_CLASSIFY
// for what a case exercised). The `_rc` suffix keeps this out of the plain checks library: only
// the test executables link RapidCheck (DESIGN "Folders").
//
// RapidCheck generates a choice vector (sim/choices.h) and the one builder (sim/build.h) turns it
// into a scenario; RapidCheck shrinks the vector (harness/choice_shrink.h: shorter, blocks
// removed or zeroed, answers smaller), so every shrink step is a valid, simpler scenario.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <rapidcheck.h>

#include "checks/checks.h"
#include "harness/choice_shrink.h"
#include "harness/coverage.h"
#include "harness/run.h"
#include "sim/build.h"
#include "sim/scenario.h"

namespace deskcheck::sim {
// RapidCheck prints a picked Scenario as its canonical JSON (sim/scenario_json.h), so every
// counterexample RapidCheck reports is a file `deskcheck replay` can read (DESIGN
// "Counterexamples"). Found by argument-dependent lookup.
void showValue(const Scenario& scenario, std::ostream& os);
}  // namespace deskcheck::sim

namespace deskcheck::props::rcgen {

struct GenOptions {
    sim::BuildOptions build = sim::property_build_options();
    std::string rules = "current";  // written into the scenario
};

// Numbers uniform at every size (a choice source must not narrow with RapidCheck's size, or the
// rarer answers would stay out of all but the last cases), as many as the builder reads.
rc::Gen<ChoiceVector> choice_vectors(const sim::BuildOptions& build);
rc::Gen<sim::Scenario> scenarios(const GenOptions& options = {});

// Inside a property: RC_CLASSIFY each of classified_tags (harness/coverage.h).
void classify(const sim::Scenario& scenario, const RunResult& run);

// Inside a property: CannotJudge -> RC_DISCARD(reason) (too many make RapidCheck give up: STYLE
// 7); Violated -> RC_LOG the explanation and the trace, then fail with the explanation (RapidCheck
// shows logs and the scenario JSON for the minimal case only). Holds -> returns.
void require_holds(const CheckResult& result, const RunResult& run);

// Runs `check` (by its name in all_checks()) on one scenario: the property body in one line.
void property_holds(std::string_view check, const sim::Scenario& scenario, const RunOptions& options);

}  // namespace deskcheck::props::rcgen
