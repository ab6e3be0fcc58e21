// The one rule by which a counterexample's recorded outcome is held against a replay (S-1: a
// counterexample replays to the same outcome). `deskcheck replay`, `deskcheck judge-snapshot` and
// the regression tests (tests/regression_tests.cpp, one test per corpus file) all ask it here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.h"
#include "checks/observation_checks.h"
#include "sim/scenario_json.h"

namespace deskcheck::props {

// One property's result on a run.
struct PropertyOutcome {
    std::string property;
    CheckResult result;
};

struct RecordedOutcome {
    bool reproduced = false;
    // When not reproduced: what the run did instead, one line per property concerned.
    std::string why;
};

// A scenario counterexample (header `outcome`):
//   "violated": the header's property is violated on the run as recorded (the file's rules, the
//               tool without a mutation), at the header's step when it names one;
//   "holds":    the header's property holds and no property is violated (a fixed bug stays fixed).
// `as_recorded` holds every property's result on that run. When the header names a tool mutation,
// `with_mutation` is the header property's result with it (the recorded bug put back), which must be
// violated, at the header's step when it names one. Any other `outcome` is not reproduced.
RecordedOutcome recorded_outcome(const sim::CounterexampleHeader& header, const std::vector<PropertyOutcome>& as_recorded,
                                 const std::optional<CheckResult>& with_mutation);

// An observation counterexample (`mutate-rules --rules observation`): its property is among the
// observation checks' violations of the snapshot, judged by the table the file names.
RecordedOutcome recorded_observation_outcome(std::string_view property, const std::vector<ObservationViolation>& violations);

// One line for a check's result: "violated at step 2: ...", "cannot judge: ...", "holds".
std::string described(const CheckResult& r);

}  // namespace deskcheck::props
