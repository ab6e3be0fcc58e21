// S-1, judged by the harness: the same scenario run twice gives byte-identical traces and reports.
// Not a check of checks/ (it judges no history: it runs the scenario itself), but it has its row in
// the checks' table (checks/checks.h all_checks, with no function), and run_check runs it by name.
#pragma once

#include <string>

#include "checks/checks.h"
#include "harness/report_print.h"
#include "harness/run.h"
#include "sim/scenario.h"

namespace deskcheck::props {

CheckResult deterministic(const sim::Scenario& scenario, const RunOptions& options);

// Runs one check by name over a finished run (deterministic: runs the scenario twice more).
CheckResult run_check(const NamedCheck& check, const sim::Scenario& scenario, const RunResult& run,
                      const RunOptions& options);

}  // namespace deskcheck::props
