#include "checks/observation_checks.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "checks/names.h"

namespace deskcheck::props {
namespace {

using O = ObservationOutcome;

// ---- seed 004, written again here ---------------------------------------------------------------

// The snapshot's fields by the names a contract uses (the seed's camelCase).
const std::optional<std::string>* seed_field(const ObservationSnapshot& s, std::string_view name) {
    if (name == "observedAt") return &s.observed_at;
    if (name == "source") return &s.source;
    if (name == "correlationId") return &s.correlation_id;
    if (name == "target") return &s.target;
    if (name == "state") return &s.state;
    if (name == "evidenceStatus") return &s.evidence_status;
    if (name == "freshness") return &s.freshness;
    if (name == "fingerprint") return &s.fingerprint;
    if (name == "effectStatus") return &s.effect_status;
    return nullptr;  // a name no snapshot carries
}

bool eq(const std::optional<std::string>& a, std::string_view b) { return a.has_value() && *a == b; }

std::vector<std::string> not_carried(const ObservationCase& c) {
    std::vector<std::string> out;
    for (const auto& f : c.contract.required_fields) {
        const auto* field = seed_field(c.snapshot, f);
        if (field == nullptr || !field->has_value() || (*field)->empty()) out.push_back(f);  // seed 004: "" is missing
    }
    return out;
}

// Condition 7: the previous snapshot of the same correlation and target has the same fingerprint.
bool seed_not_advanced(const ObservationCase& c) {
    const ObservationSnapshot& s = c.snapshot;
    return c.previous && c.previous->correlation_id == s.correlation_id && c.previous->target == s.target &&
           s.fingerprint && c.previous->fingerprint == s.fingerprint;
}

bool seed_known_state(const ObservationCase& c) {
    return std::any_of(c.contract.known_states.begin(), c.contract.known_states.end(),
                       [&](const std::string& k) { return eq(c.snapshot.state, k); });
}

// The seed's order table: outcome and reason per order.
constexpr std::array<SeedExpectation, 10> seed_rows{{
    {1, O::NeedsEvidence, "snapshot_fields_missing"},
    {2, O::Blocked, "correlation_mismatch"},
    {3, O::Blocked, "target_mismatch"},
    {4, O::NeedsEvidence, "snapshot_not_confirmed"},
    {5, O::NeedsEvidence, "snapshot_not_fresh"},
    {6, O::Blocked, "effect_unknown_requires_stop_or_escalation"},
    {7, O::NeedsEvidence, "snapshot_not_advanced"},
    {8, O::Blocked, "unrecognized_observed_state"},
    {9, O::NotObserved, "expected_state_not_observed"},
    {10, O::Observed, "expected_state_observed"},
}};

std::uint8_t seed_order(const ObservationCase& c) {
    const ObservationSnapshot& s = c.snapshot;
    if (!not_carried(c).empty()) return 1;
    if (!eq(s.correlation_id, c.action.correlation_id)) return 2;
    if (!eq(s.target, c.action.target)) return 3;
    if (!eq(s.evidence_status, "observed")) return 4;
    if (!eq(s.freshness, "fresh")) return 5;
    if (eq(s.effect_status, "unknown")) return 6;
    if (seed_not_advanced(c)) return 7;
    if (!seed_known_state(c)) return 8;
    if (!eq(s.state, c.action.expected_state)) return 9;
    return 10;
}

std::optional<ObservationViolation> violated(std::string_view property, std::string explanation) {
    return ObservationViolation{std::string(property), std::move(explanation)};
}

std::string outcome_line(const ObservationJudgement& j) {
    return std::string(name_of(j.outcome)) + " / " + j.reason + " (rule " + std::to_string(j.order) + ")";
}

std::string show(const std::optional<std::string>& v) { return v ? "\"" + *v + "\"" : "not carried"; }

std::string show_snapshot(const ObservationSnapshot& s) {
    std::string out = "{";
    for (const auto name : seed_field_names) {
        const auto* f = seed_field(s, name);
        if (f->has_value()) out += " " + std::string(name) + "=" + show(*f);
    }
    return out + " }";
}

}  // namespace

SeedExpectation seed_row(std::uint8_t order) {
    assert(order >= 1 && order <= seed_rows.size());
    return seed_rows[order - 1U];
}

SeedExpectation seed_expectation(const ObservationCase& c) {
    const SeedExpectation e = seed_row(seed_order(c));
    assert(e.order == seed_order(c));
    return e;
}

std::optional<ObservationViolation> observation_decided_by_a_row(const ObservationCase& c, const ObservationJudgement& j,
                                                                 const ObservationUnderTest& tool) {
    constexpr std::string_view name = "observation_decided_by_a_row";
    const ObservationTable table = tool.table;
    std::size_t deciding = table.size();
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (table[i].applies(c.input())) {
            deciding = i;
            break;
        }
    }
    if (deciding == table.size() || j.order == 0) return violated(name, "no row decides: " + outcome_line(j));
    const ObservationRule& row = table[deciding];
    if (row.order != j.order || row.reason != j.reason || row.outcome != j.outcome || row.spec != j.spec) {
        return violated(name, "the judgement " + outcome_line(j) + " is not its deciding row's (" + std::string(row.reason) + ")");
    }
    if (j.rules_passed.size() != deciding) return violated(name, "not every row tried before the deciding one is listed as passed");
    for (std::size_t i = 0; i < deciding; ++i) {
        if (j.rules_passed[i] != table[i].reason) return violated(name, "the rows passed are not listed in order");
    }
    return std::nullopt;
}

std::optional<ObservationViolation> observation_deterministic(const ObservationCase& c, const ObservationJudgement& j,
                                                              const ObservationUnderTest& tool) {
    if (tool.judge(c) == j) return std::nullopt;
    return violated("observation_deterministic", "the same case judged twice differs");
}

std::optional<ObservationViolation> observation_missing_fields_named(const ObservationCase& c,
                                                                     const ObservationJudgement& j, const ObservationUnderTest&) {
    constexpr std::string_view name = "observation_missing_fields_named";
    const std::vector<std::string> missing = not_carried(c);
    if (missing.empty()) return std::nullopt;
    if (j.outcome != O::NeedsEvidence || j.reason != "snapshot_fields_missing") {
        return violated(name, "required field " + missing.front() + " not carried, yet " + outcome_line(j) +
                                  " (a missing field gives needs_evidence whatever else is wrong)");
    }
    if (j.missing_fields != missing) return violated(name, "the missing fields are not named exactly, in contract order");
    return std::nullopt;
}

std::optional<ObservationViolation> observation_never_observed_without_evidence(const ObservationCase& c,
                                                                                const ObservationJudgement& j,
                                                                                const ObservationUnderTest&) {
    constexpr std::string_view name = "observation_never_observed_without_evidence";
    if (j.outcome != O::Observed) return std::nullopt;
    const ObservationSnapshot& s = c.snapshot;
    if (!eq(s.correlation_id, c.action.correlation_id)) return violated(name, "a snapshot of another correlation is observed");
    if (!eq(s.target, c.action.target)) return violated(name, "a snapshot of another target is observed");
    if (!eq(s.evidence_status, "observed")) return violated(name, "an unconfirmed snapshot (evidenceStatus " + show(s.evidence_status) + ") is observed");
    if (!eq(s.freshness, "fresh")) return violated(name, "a snapshot that is not fresh (" + show(s.freshness) + ") is observed");
    if (eq(s.effect_status, "unknown")) return violated(name, "a snapshot whose effect is unknown is observed");
    if (seed_not_advanced(c)) return violated(name, "a snapshot that did not advance (same fingerprint as the previous one) is observed");
    if (!seed_known_state(c)) return violated(name, "a state the contract does not know (" + show(s.state) + ") is observed");
    if (!eq(s.state, c.action.expected_state)) return violated(name, "a state other than the expected one (" + show(s.state) + ") is observed");
    return std::nullopt;
}

std::optional<ObservationViolation> observation_irrelevant_changes_change_nothing(const ObservationCase& c,
                                                                                  const ObservationJudgement& j,
                                                                                  const ObservationUnderTest& tool) {
    constexpr std::string_view name = "observation_irrelevant_changes_change_nothing";
    const ObservationSnapshot& s = c.snapshot;
    const bool other_action = c.previous && (c.previous->correlation_id != s.correlation_id || c.previous->target != s.target);
    const bool other_print = c.previous && c.previous->fingerprint != s.fingerprint;
    if (other_action || other_print) {
        ObservationCase without = c;
        without.previous.reset();
        const ObservationJudgement w = tool.judge(without);
        if (!(w == j)) {
            return violated(name, std::string("a previous snapshot of another ") + (other_action ? "correlation or target" : "fingerprint") +
                                      " changes the judgement: " + outcome_line(j) + ", without it " + outcome_line(w));
        }
    }
    ObservationCase renamed = c;
    // Another value of a carried field ("" is not carried: seed 004).
    if (renamed.snapshot.observed_at && !renamed.snapshot.observed_at->empty()) renamed.snapshot.observed_at = *renamed.snapshot.observed_at + "'";
    if (renamed.snapshot.source && !renamed.snapshot.source->empty()) renamed.snapshot.source = *renamed.snapshot.source + "'";
    const ObservationJudgement r = tool.judge(renamed);
    if (!(r == j)) return violated(name, "another observedAt or source changes the judgement: " + outcome_line(j) + ", then " + outcome_line(r));
    return std::nullopt;
}

std::optional<ObservationViolation> observation_follows_the_seed_order(const ObservationCase& c,
                                                                       const ObservationJudgement& j, const ObservationUnderTest&) {
    const SeedExpectation e = seed_expectation(c);
    if (j.order == e.order && j.outcome == e.outcome && j.reason == e.reason) return std::nullopt;
    return violated("observation_follows_the_seed_order", "the seed says " + std::string(name_of(e.outcome)) + " / " +
                                                              std::string(e.reason) + " (rule " + std::to_string(e.order) +
                                                              "), the judgement is " + outcome_line(j));
}

std::span<const ObservationCheck> observation_checks() {
    static constexpr std::array<ObservationCheck, 6> checks{{
        {"observation_decided_by_a_row", "O-1", observation_decided_by_a_row},
        {"observation_deterministic", "O-1", observation_deterministic},
        {"observation_missing_fields_named", "O-1", observation_missing_fields_named},
        {"observation_never_observed_without_evidence", "O-1 O-3", observation_never_observed_without_evidence},
        {"observation_irrelevant_changes_change_nothing", "O-1 O-2", observation_irrelevant_changes_change_nothing},
        {"observation_follows_the_seed_order", "O-1 O-2", observation_follows_the_seed_order},
    }};
    return checks;
}

namespace {

// The case: on one line, or its parts on lines of their own for people (the contract named).
std::string case_text(const ObservationCase& c, bool lines) {
    const std::string sep = lines ? "\n  " : " ";
    std::string out = "action {correlationId=\"" + c.action.correlation_id + "\" target=\"" + c.action.target +
                      "\" expectedState=\"" + c.action.expected_state + "\"}" + sep + (lines ? "contract " : "") + "required [";
    for (const auto& f : c.contract.required_fields) out += " " + f;
    out += " ] known [";
    for (const auto& s : c.contract.known_states) out += " \"" + s + "\"";
    out += " ]" + sep + "snapshot " + show_snapshot(c.snapshot) + sep + "previous " +
           (c.previous ? show_snapshot(*c.previous) : std::string("(none)"));
    return out;
}

}  // namespace

std::string observation_case_line(const ObservationCase& c) { return case_text(c, false); }

std::string describe_observation(const ObservationCase& c, const ObservationJudgement& j) {
    return case_text(c, true) + "\n  -> " + outcome_line(j);
}

}  // namespace deskcheck::props
