// Judging an observation snapshot (SPEC O-1..O-3, seed 004's assessObservationSnapshot).
//
// A pure function of (action, contract, snapshot, previous snapshot?): ten rules tried in order,
// the first whose condition holds decides. The rules are rows of data (order, reason, condition,
// outcome, what it does not mean, SPEC IDs, predicate), printed by `deskcheck rules --observation`,
// so the printed table cannot drift from the code. No clock: freshness is decided by the caller
// and passed in as a snapshot field. `observed` is not `accepted` (O-3): the judgement never says
// that a task or workflow is done, and blocked / needs_evidence / not_observed never license a
// re-send (B-2).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace deskcheck {

enum class ObservationOutcome : std::uint8_t { Observed, NotObserved, NeedsEvidence, Blocked };
std::string_view to_string(ObservationOutcome o);

// What the action promised to bring about, and which observation belongs to it.
struct ObservedAction {
    std::string correlation_id;
    std::string target;
    std::string expected_state;
    friend bool operator==(const ObservedAction&, const ObservedAction&) = default;
};

// What a snapshot must carry (field names as in `snapshot_field_names`) and which states exist.
struct ObservationContract {
    std::string version;
    std::vector<std::string> required_fields;
    std::vector<std::string> known_states;
    friend bool operator==(const ObservationContract&, const ObservationContract&) = default;
};

// One snapshot. Every field is optional: std::nullopt means "not carried". A required field holding
// "" counts as missing too (seed 004's reference), so a collector never makes one up (V-2).
// `evidence_status` is "observed" only for a state really read; `freshness` "fresh" only when the
// caller's own policy says so; `effect_status` "unknown" when the action's effect is in doubt.
struct ObservationSnapshot {
    std::optional<std::string> observed_at;
    std::optional<std::string> source;
    std::optional<std::string> correlation_id;
    std::optional<std::string> target;
    std::optional<std::string> state;
    std::optional<std::string> evidence_status;
    std::optional<std::string> freshness;
    std::optional<std::string> fingerprint;
    std::optional<std::string> effect_status;
    friend bool operator==(const ObservationSnapshot&, const ObservationSnapshot&) = default;
};

// The snapshot's field names as a contract names them (the seed's camelCase), in this order.
inline constexpr std::size_t snapshot_field_count = 9;
std::span<const std::string_view> snapshot_field_names();
// The field of that name; nullopt when not carried or when no field has that name.
const std::optional<std::string>* snapshot_field(const ObservationSnapshot& s, std::string_view name);
std::optional<std::string>* snapshot_field(ObservationSnapshot& s, std::string_view name);

struct ObservationInput {
    const ObservedAction& action;
    const ObservationContract& contract;
    const ObservationSnapshot& snapshot;
    const ObservationSnapshot* previous = nullptr;  // the previous snapshot, if any
};

// One row of the observation rule table.
struct ObservationRule {
    std::uint8_t order;             // 1..10: the seed's order
    std::string_view reason;        // the seed's reason code, e.g. "snapshot_fields_missing"
    std::string_view condition;     // the sentence printed in the table
    ObservationOutcome outcome;
    std::string_view does_not_mean; // what may NOT be concluded from it (the seed's last column)
    std::string_view spec;
    bool (*holds)(const ObservationInput&);
    bool negated = false;           // a rule mutation's negated condition (never set in the shipped table)
    // Whether the row's condition holds (negated: whether it does not).
    bool applies(const ObservationInput& in) const { return holds(in) != negated; }
};

inline constexpr std::size_t observation_rule_count = 10;
// The ten rows in their order.
std::span<const ObservationRule> observation_rules();

struct ObservationJudgement {
    ObservationOutcome outcome = ObservationOutcome::NeedsEvidence;
    std::string reason;       // the deciding row's reason code
    std::uint8_t order = 0;   // the deciding row's order (1..10)
    std::string spec;
    std::vector<std::string> missing_fields;  // rule 1: the required fields not carried, in contract order
    std::vector<std::string> rules_passed;    // reasons of the rows tried before the deciding one
    friend bool operator==(const ObservationJudgement&, const ObservationJudgement&) = default;
};

// O-1: tries the ten rows in order; the first that holds decides. Total: the last row always holds.
ObservationJudgement assess_observation_snapshot(const ObservationInput& input);

// The same judgement by any table of rows (a rule mutation's, harness/observation_mutation.h):
// the first row that applies decides; `missing_fields` is filled when that row is the order-1 row.
// A table none of whose rows applies decides nothing: order 0, reason `no_rule_holds` (only a
// mutated table can do that; the shipped one always ends with "otherwise").
inline constexpr std::string_view no_rule_holds = "no_rule_holds";
ObservationJudgement assess_observation(std::span<const ObservationRule> rows, const ObservationInput& input);

// The seed's teaching contract (version chapter-15-v1, eight required fields, three known states).
ObservationContract seed_observation_contract();

}  // namespace deskcheck
