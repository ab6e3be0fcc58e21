// fuzz_observation: bytes -> (action, contract, snapshot, previous snapshot?), drawn by the one
// drawer of observation cases (props::draw_observation_case, as the campaign draws them) ->
// assess_observation_snapshot(), then every check of harness/observation_cases.h (SPEC
// O-1..O-3) on the shipped table: the judgement is total and its deciding row's; deterministic; a
// missing required field gives needs_evidence naming exactly the fields not carried; never observed
// without the evidence the seed asks for; a previous snapshot of another correlation, target or
// fingerprint, and observedAt / source, change nothing; and the oracle written from seed 004 (not
// from the rows) gives the same order, outcome and reason. The checks are shared with
// `deskcheck mutate-rules --rules observation`: a property is never written twice.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzzed_data_provider.h"
#include "harness/judge_run.h"
#include "model/observation.h"
#include "harness/observation_cases.h"
#include "sim/choices.h"

namespace {

using namespace deskcheck;
using fuzz::FuzzedDataProvider;

constexpr std::string_view target = "fuzz_observation";
constexpr std::size_t text_length_max = 24;

// The drawer's choices from the end of the input, as FuzzedDataProvider reads integers; its free
// texts from the front, raw bytes, so fuzz_observation.dict's words ("observed", "fresh", ...) and
// near misses of them are reached by mutation.
class FdpChoices final : public sim::Choices {
public:
    explicit FdpChoices(FuzzedDataProvider& fdp) : fdp_(fdp) {}
    std::uint64_t below(std::uint64_t n) override { return fdp_.ConsumeIntegralInRange<std::uint64_t>(0, n - 1); }
    bool chance(std::uint32_t permille) override { return chance_by_index(permille); }

private:
    FuzzedDataProvider& fdp_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    FuzzedDataProvider fdp(data, size);
    FdpChoices choices(fdp);
    const props::FreeText free_text = [&fdp] { return fdp.ConsumeRandomLengthString(text_length_max); };
    const props::ObservationCase c = props::draw_observation_case(choices, free_text);
    const ObservationJudgement j = assess_observation_snapshot(c.input());
    const props::ObservationUnderTest tool = props::under_test(observation_rules());
    for (const props::ObservationCheck& check : props::observation_checks()) {
        if (const auto v = check.fn(c, j, tool)) {
            props::invariant_broken(target, v->property + ": " + v->explanation, props::describe_observation(c, j));
        }
    }
    return 0;
}
