// fuzz_observation: bytes -> (action, contract, snapshot, previous snapshot?) ->
// assess_observation_snapshot(), then every check of properties/observation_checks.h (SPEC
// O-1..O-3) on the shipped table: the judgement is total and its deciding row's; deterministic; a
// missing required field gives needs_evidence naming exactly the fields not carried; never observed
// without the evidence the seed asks for; a previous snapshot of another correlation, target or
// fingerprint, and observedAt / source, change nothing; and the oracle written from seed 004 (not
// from the rows) gives the same order, outcome and reason. The checks are shared with
// `deskcheck mutate-rules --rules observation`: a property is never written twice.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/fuzzed_data_provider.h"
#include "properties/judge_run.h"
#include "model/observation.h"
#include "properties/observation_checks.h"

namespace {

using namespace deskcheck;
using fuzz::FuzzedDataProvider;

constexpr std::string_view target = "fuzz_observation";
constexpr std::size_t text_length_max = 24;
constexpr std::size_t known_states_max = 6;
// Small pools, so that equal and different values are both common.
constexpr std::array<std::string_view, 4> correlations{"c1", "c2", "", "ui-click-1"};
constexpr std::array<std::string_view, 3> targets{"t1", "t2", "submit-status"};
constexpr std::array<std::string_view, 6> states{"submitted", "pending", "error", "redirected", "", "posted"};
constexpr std::array<std::string_view, 4> evidence{"observed", "inferred", "summarised", "Observed"};
constexpr std::array<std::string_view, 4> freshness{"fresh", "stale", "unknown", "fresh "};
constexpr std::array<std::string_view, 4> effects{"unknown", "known", "done", ""};
constexpr std::array<std::string_view, 4> fingerprints{"f1", "f2", "status-submitted", ""};

using Case = props::ObservationCase;

// Raw bytes: fuzz_observation.dict holds the seed's vocabulary ("observed", "fresh", ...), so a
// free text that spells a pool value, or almost does, is reached by mutation.
std::string free_text(FuzzedDataProvider& fdp) { return fdp.ConsumeRandomLengthString(text_length_max); }

template <std::size_t N>
std::string pick(FuzzedDataProvider& fdp, const std::array<std::string_view, N>& pool) {
    if (fdp.ConsumeIntegralInRange(0, 7) == 0) return free_text(fdp);
    return std::string(fdp.PickValueInArray(pool));
}

// A field: not carried (about one time in six), else a value from its pool.
template <std::size_t N>
std::optional<std::string> draw_field(FuzzedDataProvider& fdp, const std::array<std::string_view, N>& pool) {
    if (fdp.ConsumeIntegralInRange(0, 5) == 0) return std::nullopt;
    return pick(fdp, pool);
}

ObservationContract draw_contract(FuzzedDataProvider& fdp) {
    ObservationContract c;
    c.version = fdp.ConsumeBool() ? "chapter-15-v1" : free_text(fdp);
    const auto names = snapshot_field_names();
    const auto mask = fdp.ConsumeIntegral<std::uint16_t>();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if ((mask >> i) & 1U) c.required_fields.emplace_back(names[i]);
    }
    if (fdp.ConsumeIntegralInRange(0, 15) == 0) c.required_fields.emplace_back("noSuchField");  // never carried
    const auto known = fdp.ConsumeIntegralInRange<std::size_t>(0, known_states_max);
    for (std::size_t i = 0; i < known; ++i) c.known_states.push_back(pick(fdp, states));
    return c;
}

ObservationSnapshot draw_snapshot(FuzzedDataProvider& fdp, const ObservedAction& action) {
    ObservationSnapshot s;
    s.observed_at = draw_field(fdp, std::array<std::string_view, 2>{"step-1", "step-2"});
    s.source = draw_field(fdp, std::array<std::string_view, 2>{"ui_state_assertion", "feed_read"});
    // Mostly the action's own correlation and target, so that the later rules are reached.
    s.correlation_id = fdp.ConsumeIntegralInRange(0, 3) != 0 ? std::optional(action.correlation_id) : draw_field(fdp, correlations);
    s.target = fdp.ConsumeIntegralInRange(0, 3) != 0 ? std::optional(action.target) : draw_field(fdp, targets);
    s.state = fdp.ConsumeBool() ? std::optional(action.expected_state) : draw_field(fdp, states);
    s.evidence_status = draw_field(fdp, evidence);
    s.freshness = draw_field(fdp, freshness);
    s.fingerprint = draw_field(fdp, fingerprints);
    s.effect_status = fdp.ConsumeBool() ? std::nullopt : draw_field(fdp, effects);
    return s;
}

std::optional<ObservationSnapshot> draw_previous(FuzzedDataProvider& fdp, const Case& c) {
    switch (fdp.ConsumeIntegralInRange(0, 3)) {
        case 0: return std::nullopt;
        case 1: return draw_snapshot(fdp, c.action);
        default: break;
    }
    ObservationSnapshot p = c.snapshot;  // the same snapshot, perhaps of another action or target
    if (fdp.ConsumeBool()) p.correlation_id = draw_field(fdp, correlations);
    if (fdp.ConsumeBool()) p.target = draw_field(fdp, targets);
    if (fdp.ConsumeBool()) p.fingerprint = draw_field(fdp, fingerprints);
    return p;
}

Case draw_case(FuzzedDataProvider& fdp) {
    Case c;
    c.action.correlation_id = pick(fdp, correlations);
    c.action.target = pick(fdp, targets);
    c.action.expected_state = pick(fdp, states);
    c.contract = draw_contract(fdp);
    c.snapshot = draw_snapshot(fdp, c.action);
    c.previous = draw_previous(fdp, c);
    return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    FuzzedDataProvider fdp(data, size);
    const Case c = draw_case(fdp);
    const ObservationJudgement j = assess_observation_snapshot(c.input());
    for (const props::ObservationCheck& check : props::observation_checks()) {
        if (const auto v = check.fn(c, j, observation_rules())) {
            props::invariant_broken(target, v->property + ": " + v->explanation, props::describe_observation(c, j));
        }
    }
    return 0;
}
