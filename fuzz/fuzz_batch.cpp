// fuzz_batch: bytes -> a simulated desktop and a batch (scenario_bytes.h) -> the tool runs it with
// the `current` rules and the W-2 agent -> every check of properties/checks.h. A violated check
// aborts after printing the property, the explanation and the scenario JSON; `deskcheck convert`
// turns the crash file into a shrunk counterexample in corpus/regressions/.
#include <cstddef>
#include <cstdint>

#include "fuzz/judge_run.h"
#include "fuzz/scenario_bytes.h"
#include "sim/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace deskcheck;
    if (size > fuzz::bytes_input_max) return -1;
    const sim::Scenario scenario = fuzz::scenario_from_bytes(data, size);
    if (sim::validate(scenario).has_value()) return -1;  // decodes to nothing: keep it out of the corpus
    const auto violation =
        fuzz::first_violation(scenario, fuzz::fuzz_run_options(), fuzz::determinism_for(data, size));
    if (violation) fuzz::report_and_abort("fuzz_batch", *violation, scenario);
    return 0;
}
