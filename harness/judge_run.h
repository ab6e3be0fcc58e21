// What the scenario fuzz targets (and `deskcheck convert`, `deskcheck nightly`) do with a decoded
// scenario: run it with the fuzz run options and judge it with the checks of checks/checks.h —
// a property is never written twice (DESIGN "Folders"). No state: every call stands alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "checks/checks.h"
#include "harness/run.h"
#include "sim/scenario.h"

namespace deskcheck::props {

// The runs of fuzz_batch and fuzz_scenario_json: the `current` rules whatever the scenario names
// (the properties must hold for `current`; `published` is expected to break them, D-1..D-3), the
// W-2 agent on, the tool as specified (no mutation).
RunOptions fuzz_run_options();

enum class Determinism : std::uint8_t {
    Skip,   // judge one run only
    Check,  // also run the `deterministic` check (two more runs, S-1)
};

// Whether an input is one of the 1-in-`determinism_sample` whose runs are repeated to check S-1
// (a hash of the bytes: the same input always gets the same answer, no state).
inline constexpr std::uint32_t determinism_sample = 16;
Determinism determinism_for(const std::uint8_t* data, std::size_t size);

// Runs `scenario` under `options` and every check of all_checks() in order; the first Violated
// check decides. CannotJudge is not a violation (STYLE 7).
std::optional<Violation> first_violation(const sim::Scenario& scenario, const RunOptions& options,
                                                Determinism determinism);

// The report a fuzz target prints before it aborts: the property, the step, the explanation and the
// scenario as JSON (with the run options), then the command that turns the crash into a
// counterexample. Returned as text so the CLI can show the same report.
std::string violation_report(std::string_view target, const Violation& violation,
                             const sim::Scenario& scenario);

// Prints violation_report() on stderr and aborts: libFuzzer saves the input as a crash file, the
// standalone replay program dies with SIGABRT, ctest marks the test failed.
[[noreturn]] void report_and_abort(std::string_view target, const Violation& violation,
                                   const sim::Scenario& scenario);

// An invariant of a target broke (not a property of checks/checks.h: the codec, the verdict
// rules, the locator). Prints `what` and the details on stderr and aborts.
[[noreturn]] void invariant_broken(std::string_view target, std::string_view what, std::string_view details);

}  // namespace deskcheck::props
