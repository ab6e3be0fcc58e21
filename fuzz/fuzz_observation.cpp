// fuzz_observation: bytes -> (action, contract, snapshot, previous snapshot?) ->
// assess_observation_snapshot(). Invariants (SPEC O-1..O-3), each following from the rule order:
//   - the judgement is total and deterministic; the deciding row exists, is the row of its order,
//     and every row before it is listed as passed;
//   - a required field not carried gives needs_evidence / snapshot_fields_missing whatever else is
//     wrong, and names exactly the fields not carried;
//   - a snapshot of another correlation id is never observed (blocked once every field is there);
//     nor one of another target;
//   - a stale or unconfirmed snapshot, or one whose effect is unknown, is never observed;
//   - a previous snapshot of another correlation or another target never changes the outcome, nor
//     one with another fingerprint, nor none at all;
//   - fields the rules do not read (observedAt, source) never change the outcome once carried;
//   - observed only when every earlier rule passed: an oracle written here, not sharing code with
//     the rule table, recomputes the deciding order from the ten conditions of the seed.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/fuzzed_data_provider.h"
#include "properties/judge_run.h"
#include "model/observation.h"

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

struct Case {
    ObservedAction action;
    ObservationContract contract;
    ObservationSnapshot snapshot;
    std::optional<ObservationSnapshot> previous;
};

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

std::string show(const std::optional<std::string>& v) { return v ? "\"" + *v + "\"" : "(not carried)"; }

std::string show_snapshot(const ObservationSnapshot& s) {
    std::string out = "{";
    for (const auto name : snapshot_field_names()) out += " " + std::string(name) + "=" + show(*snapshot_field(s, name));
    return out + " }";
}

std::string describe(const Case& c, const ObservationJudgement& j) {
    std::string out = "action {correlationId=\"" + c.action.correlation_id + "\" target=\"" + c.action.target +
                      "\" expectedState=\"" + c.action.expected_state + "\"}\n  contract required [";
    for (const auto& f : c.contract.required_fields) out += " " + f;
    out += " ] known [";
    for (const auto& s : c.contract.known_states) out += " \"" + s + "\"";
    out += " ]\n  snapshot " + show_snapshot(c.snapshot) + "\n  previous " +
           (c.previous ? show_snapshot(*c.previous) : std::string("(none)"));
    out += "\n  -> " + std::string(to_string(j.outcome)) + " / " + j.reason + " (rule " + std::to_string(j.order) + ")";
    return out;
}

ObservationJudgement assess(const Case& c, const ObservationSnapshot& snapshot, const ObservationSnapshot* previous) {
    return assess_observation_snapshot({c.action, c.contract, snapshot, previous});
}

bool eq(const std::optional<std::string>& a, std::string_view b) { return a.has_value() && *a == b; }

// The oracle: the seed's ten conditions, written again from the seed's table (not from the rows).
std::uint8_t expected_order(const Case& c) {
    const ObservationSnapshot& s = c.snapshot;
    for (const auto& f : c.contract.required_fields) {
        const auto* field = snapshot_field(s, f);
        if (field == nullptr || !field->has_value()) return 1;
    }
    if (!eq(s.correlation_id, c.action.correlation_id)) return 2;
    if (!eq(s.target, c.action.target)) return 3;
    if (!eq(s.evidence_status, "observed")) return 4;
    if (!eq(s.freshness, "fresh")) return 5;
    if (eq(s.effect_status, "unknown")) return 6;
    if (c.previous && c.previous->correlation_id == s.correlation_id && c.previous->target == s.target &&
        s.fingerprint && c.previous->fingerprint == s.fingerprint) {
        return 7;
    }
    bool known = false;
    for (const auto& k : c.contract.known_states) known = known || eq(s.state, k);
    if (!known) return 8;
    if (!eq(s.state, c.action.expected_state)) return 9;
    return 10;
}

void check_table(const Case& c, const ObservationJudgement& j) {
    const auto rows = observation_rules();
    if (j.order < 1 || j.order > rows.size()) props::invariant_broken(target, "a row decides (the judgement is total)", describe(c, j));
    const ObservationRule& row = rows[j.order - 1U];
    if (row.order != j.order || row.reason != j.reason || row.outcome != j.outcome || row.spec != j.spec) {
        props::invariant_broken(target, "the judgement is its deciding row's", describe(c, j));
    }
    if (j.rules_passed.size() + 1U != j.order) props::invariant_broken(target, "every earlier row is listed as passed", describe(c, j));
    for (std::size_t i = 0; i < j.rules_passed.size(); ++i) {
        if (j.rules_passed[i] != rows[i].reason) props::invariant_broken(target, "the rows passed are in order", describe(c, j));
    }
}

void check_missing_fields(const Case& c, const ObservationJudgement& j) {
    std::vector<std::string> missing;
    for (const auto& f : c.contract.required_fields) {
        const auto* field = snapshot_field(c.snapshot, f);
        if (field == nullptr || !field->has_value()) missing.push_back(f);
    }
    if (missing.empty()) return;
    if (j.outcome != ObservationOutcome::NeedsEvidence || j.reason != "snapshot_fields_missing") {
        props::invariant_broken(target, "a missing required field gives needs_evidence whatever else is wrong", describe(c, j));
    }
    if (j.missing_fields != missing) props::invariant_broken(target, "the missing fields are named, in contract order", describe(c, j));
}

void check_never_observed(const Case& c, const ObservationJudgement& j) {
    if (j.outcome != ObservationOutcome::Observed) return;
    const ObservationSnapshot& s = c.snapshot;
    if (!eq(s.correlation_id, c.action.correlation_id)) props::invariant_broken(target, "another correlation is never observed", describe(c, j));
    if (!eq(s.target, c.action.target)) props::invariant_broken(target, "another target is never observed", describe(c, j));
    if (!eq(s.evidence_status, "observed")) props::invariant_broken(target, "an unconfirmed snapshot is never observed", describe(c, j));
    if (!eq(s.freshness, "fresh")) props::invariant_broken(target, "a stale snapshot is never observed", describe(c, j));
    if (eq(s.effect_status, "unknown")) props::invariant_broken(target, "an unknown effect is never observed", describe(c, j));
    if (!eq(s.state, c.action.expected_state)) props::invariant_broken(target, "observed only on the expected state", describe(c, j));
}

// Changes that must not change the outcome.
void check_irrelevant(const Case& c, const ObservationJudgement& j) {
    const ObservationSnapshot& s = c.snapshot;
    const bool other_action = c.previous && (c.previous->correlation_id != s.correlation_id || c.previous->target != s.target);
    const bool other_print = c.previous && c.previous->fingerprint != s.fingerprint;
    if (other_action || other_print) {
        if (!(assess(c, s, nullptr) == j)) {
            props::invariant_broken(target, "a previous snapshot of another correlation, target or fingerprint changes nothing",
                                   describe(c, j));
        }
    }
    ObservationSnapshot renamed = s;
    if (renamed.observed_at) renamed.observed_at = *renamed.observed_at + "'";
    if (renamed.source) renamed.source = *renamed.source + "'";
    if (!(assess(c, renamed, c.previous ? &*c.previous : nullptr) == j)) {
        props::invariant_broken(target, "observedAt and source, once carried, change nothing", describe(c, j));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    FuzzedDataProvider fdp(data, size);
    const Case c = draw_case(fdp);
    const ObservationSnapshot* previous = c.previous ? &*c.previous : nullptr;
    const ObservationJudgement j = assess(c, c.snapshot, previous);
    if (!(assess(c, c.snapshot, previous) == j)) props::invariant_broken(target, "the judgement is deterministic", describe(c, j));
    check_table(c, j);
    if (j.order != expected_order(c)) {
        props::invariant_broken(target, "the first condition of the seed's order decides (oracle: rule " +
                                           std::to_string(expected_order(c)) + ")", describe(c, j));
    }
    check_missing_fields(c, j);
    check_never_observed(c, j);
    check_irrelevant(c, j);
    return 0;
}
