// fuzz_r0: bytes -> the choice list of the R0 fixture builder (sim/r0_generate.h: one decision
// per 32-bit little-endian word) -> a fixture with a failure at a step or an operation -> the undo
// tool -> failure_leaves_nothing (harness/r0_check.h, SPEC R-1..R-7). Empty input: -1.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/judge_run.h"
#include "harness/r0_campaign.h"

namespace {

constexpr std::size_t choices_max = 256;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    std::vector<std::uint32_t> choices;
    for (std::size_t i = 0; i + 4 <= size && choices.size() < choices_max; i += 4) {
        choices.push_back(static_cast<std::uint32_t>(data[i]) | static_cast<std::uint32_t>(data[i + 1]) << 8 |
                          static_cast<std::uint32_t>(data[i + 2]) << 16 | static_cast<std::uint32_t>(data[i + 3]) << 24);
    }
    const deskcheck::r0::R0CaseResult r = deskcheck::r0::run_r0_case(choices, nullptr);
    if (r.violation) deskcheck::props::invariant_broken("fuzz_r0", "failure_leaves_nothing (R-1..R-7)", *r.violation + " | " + deskcheck::r0::describe_case(r));
    return 0;
}
