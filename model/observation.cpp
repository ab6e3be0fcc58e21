#include "model/observation.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace deskcheck {

std::string_view to_string(ObservationOutcome o) {
    switch (o) {
        case ObservationOutcome::Observed: return "observed";
        case ObservationOutcome::NotObserved: return "not_observed";
        case ObservationOutcome::NeedsEvidence: return "needs_evidence";
        case ObservationOutcome::Blocked: return "blocked";
    }
    return "?";
}

namespace {

constexpr std::array<std::string_view, snapshot_field_count> field_names{
    "observedAt", "source", "correlationId", "target", "state", "evidenceStatus", "freshness", "fingerprint",
    "effectStatus"};

template <typename Snap>
auto* field_of(Snap& s, std::string_view name) {
    using Field = decltype(&s.source);
    const std::array<Field, snapshot_field_count> fields{&s.observed_at, &s.source, &s.correlation_id,
                                                         &s.target, &s.state, &s.evidence_status,
                                                         &s.freshness, &s.fingerprint, &s.effect_status};
    for (std::size_t i = 0; i < snapshot_field_count; ++i) {
        if (field_names[i] == name) return fields[i];
    }
    return static_cast<Field>(nullptr);
}

// O-1, as seed 004's reference does it: a required field holding "" is missing, as null and absence
// are. (The difference between unreadable and "" lives in the UI readings, V-2, not here.)
bool carried(const ObservationSnapshot& s, std::string_view name) {
    const auto* f = snapshot_field(s, name);
    return f != nullptr && f->has_value() && !(*f)->empty();
}

bool is(const std::optional<std::string>& field, std::string_view value) {
    return field.has_value() && *field == value;
}

// ---- the ten conditions, in the seed's order ----------------------------------------------------

bool fields_missing(const ObservationInput& in) {
    return std::any_of(in.contract.required_fields.begin(), in.contract.required_fields.end(),
                       [&](const std::string& f) { return !carried(in.snapshot, f); });
}
bool correlation_differs(const ObservationInput& in) { return !is(in.snapshot.correlation_id, in.action.correlation_id); }
bool target_differs(const ObservationInput& in) { return !is(in.snapshot.target, in.action.target); }
bool evidence_not_observed(const ObservationInput& in) { return !is(in.snapshot.evidence_status, "observed"); }
bool not_fresh(const ObservationInput& in) { return !is(in.snapshot.freshness, "fresh"); }
bool effect_unknown(const ObservationInput& in) { return is(in.snapshot.effect_status, "unknown"); }
// Only a previous snapshot of the same correlation and the same target says "not advanced": the
// same fingerprint from another action or another target is no evidence about this one.
bool not_advanced(const ObservationInput& in) {
    if (in.previous == nullptr) return false;
    const ObservationSnapshot& p = *in.previous;
    const ObservationSnapshot& s = in.snapshot;
    if (!s.correlation_id || p.correlation_id != s.correlation_id) return false;
    if (!s.target || p.target != s.target) return false;
    return s.fingerprint.has_value() && p.fingerprint == s.fingerprint;
}
bool state_unrecognized(const ObservationInput& in) {
    if (!in.snapshot.state) return true;
    const auto& known = in.contract.known_states;
    return std::find(known.begin(), known.end(), *in.snapshot.state) == known.end();
}
bool state_not_expected(const ObservationInput& in) { return !is(in.snapshot.state, in.action.expected_state); }
bool otherwise(const ObservationInput&) { return true; }

using O = ObservationOutcome;

constexpr std::array<ObservationRule, observation_rule_count> rows{{
    {1, "snapshot_fields_missing", "a field the contract requires is not carried, or holds \"\"", O::NeedsEvidence,
     "that a real collector, the UI or a log was checked", "O-1", fields_missing},
    {2, "correlation_mismatch", "the snapshot's correlationId is not the action's", O::Blocked,
     "that the target did not change, or that the other action failed", "O-1", correlation_differs},
    {3, "target_mismatch", "the snapshot's target is not the action's", O::Blocked,
     "that the action's own target was observed again", "O-1", target_differs},
    {4, "snapshot_not_confirmed", "evidenceStatus is not \"observed\" (inferred, summarised, guessed)", O::NeedsEvidence,
     "that a summary, a guess or model text can stand in for an observation", "O-1", evidence_not_observed},
    {5, "snapshot_not_fresh", "freshness is not \"fresh\" (decided by the caller; no clock here)", O::NeedsEvidence,
     "any timeout, clock, TTL or cache policy", "O-1", not_fresh},
    {6, "effect_unknown_requires_stop_or_escalation", "effectStatus is \"unknown\"", O::Blocked,
     "that a retry is safe, or that the target did not change (stop or escalate; never re-send, B-2)", "O-1 O-3 B-2",
     effect_unknown},
    {7, "snapshot_not_advanced",
     "the previous snapshot of the same correlationId and target has the same fingerprint", O::NeedsEvidence,
     "that the same snapshot is never valid: only that evidence of progress after the action is missing", "O-1 O-2",
     not_advanced},
    {8, "unrecognized_observed_state", "the state is not one of the contract's known states", O::Blocked,
     "the unknown state's cause, whether it is retryable, or whether it means success", "O-1", state_unrecognized},
    {9, "expected_state_not_observed", "the state is known but is not the expected state", O::NotObserved,
     "a failure, a page error, or that an immediate retry is due", "O-1 O-3", state_not_expected},
    {10, "expected_state_observed", "otherwise: carried, correlated, on target, observed, fresh, advanced, expected",
     O::Observed, "that the workflow, the business task or an external system is done (observed is not accepted)",
     "O-1 O-3", otherwise},
}};

}  // namespace

std::span<const std::string_view> snapshot_field_names() { return field_names; }

const std::optional<std::string>* snapshot_field(const ObservationSnapshot& s, std::string_view name) {
    return field_of(s, name);
}
std::optional<std::string>* snapshot_field(ObservationSnapshot& s, std::string_view name) { return field_of(s, name); }

std::span<const ObservationRule> observation_rules() { return rows; }

ObservationJudgement assess_observation(std::span<const ObservationRule> table, const ObservationInput& in) {
    ObservationJudgement j;
    j.reason = no_rule_holds;
    for (const ObservationRule& row : table) {
        if (!row.applies(in)) {
            j.rules_passed.emplace_back(row.reason);
            continue;
        }
        j.outcome = row.outcome;
        j.reason = row.reason;
        j.order = row.order;
        j.spec = row.spec;
        break;
    }
    if (j.order == 1) {
        for (const auto& f : in.contract.required_fields) {
            if (!carried(in.snapshot, f)) j.missing_fields.push_back(f);
        }
    }
    return j;
}

ObservationJudgement assess_observation_snapshot(const ObservationInput& in) {
    ObservationJudgement j = assess_observation(rows, in);
    assert(j.order >= 1 && j.order <= observation_rule_count);  // the last row always holds
    assert(j.rules_passed.size() + 1 == j.order);
    assert(j.order != 1 || !j.missing_fields.empty());
    return j;
}

ObservationContract seed_observation_contract() {
    return ObservationContract{"chapter-15-v1",
                               {"observedAt", "source", "correlationId", "target", "state", "evidenceStatus",
                                "freshness", "fingerprint"},
                               {"submitted", "pending", "error"}};
}

}  // namespace deskcheck
