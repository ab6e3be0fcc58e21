// fuzz_batch: bytes -> the one scenario builder (sim/build.h) answering its questions from the
// bytes -> the tool runs the batch with the `current` rules and the W-2 agent -> every check of
// checks/checks.h. A violated check
// aborts after printing the property, the explanation and the scenario JSON; `deskcheck convert`
// turns the crash file into a shrunk counterexample in corpus/regressions/.
#include <cstddef>
#include <cstdint>

#include "harness/judge_run.h"
#include "sim/build.h"
#include "sim/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace deskcheck;
    if (size > sim::bytes_input_max) return -1;
    const sim::Scenario scenario = sim::build_scenario_from_bytes(data, size);
    // The builder builds valid scenarios from any answers: an invalid one is its bug.
    if (const auto invalid = sim::validate(scenario)) {
        props::invariant_broken("fuzz_batch", "the builder built an invalid scenario", invalid->path + ": " + invalid->reason);
    }
    const auto violation =
        props::first_violation(scenario, props::fuzz_run_options(), props::determinism_for(data, size));
    if (violation) props::report_and_abort("fuzz_batch", *violation, scenario);
    return 0;
}
