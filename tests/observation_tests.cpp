// Judging an observation snapshot (SPEC O-1..O-3): the ten rules and seed 004's twelve-case matrix.
// Every test name starts with the SPEC ID it pins (`grep -rn O2_ tests/`).
#include <boost/test/unit_test.hpp>

#include <array>
#include <string>

#include "model/observation.h"

using namespace deskcheck;

namespace {

using O = ObservationOutcome;

ObservedAction seed_action() { return {"ui-click-1", "submit-status", "submitted"}; }

// The seed's example snapshot: every required field, fresh, observed, matching.
ObservationSnapshot seed_snapshot() {
    ObservationSnapshot s;
    s.observed_at = "step-2";
    s.source = "ui_state_assertion";
    s.correlation_id = "ui-click-1";
    s.target = "submit-status";
    s.state = "submitted";
    s.evidence_status = "observed";
    s.freshness = "fresh";
    s.fingerprint = "status-submitted";
    return s;
}

struct MatrixCase {
    const char* path;  // the seed matrix's row
    ObservationSnapshot snapshot;
    std::optional<ObservationSnapshot> previous;
    O outcome;
    const char* reason;
};

ObservationSnapshot with(ObservationSnapshot s, void (*change)(ObservationSnapshot&)) {
    change(s);
    return s;
}

// Seed 004's test matrix, row by row, in its order.
const std::array<MatrixCase, 12> matrix{
    MatrixCase{"fresh match", seed_snapshot(), std::nullopt, O::Observed, "expected_state_observed"},
    MatrixCase{"correlation mismatch", with(seed_snapshot(), [](ObservationSnapshot& s) { s.correlation_id = "ui-click-2"; }),
               std::nullopt, O::Blocked, "correlation_mismatch"},
    MatrixCase{"target mismatch", with(seed_snapshot(), [](ObservationSnapshot& s) { s.target = "other-status"; }), std::nullopt,
               O::Blocked, "target_mismatch"},
    MatrixCase{"field missing", with(seed_snapshot(), [](ObservationSnapshot& s) { s.source.reset(); }), std::nullopt,
               O::NeedsEvidence, "snapshot_fields_missing"},
    MatrixCase{"stale snapshot", with(seed_snapshot(), [](ObservationSnapshot& s) { s.freshness = "stale"; }), std::nullopt,
               O::NeedsEvidence, "snapshot_not_fresh"},
    MatrixCase{"inferred label", with(seed_snapshot(), [](ObservationSnapshot& s) { s.evidence_status = "inferred"; }), std::nullopt,
               O::NeedsEvidence, "snapshot_not_confirmed"},
    MatrixCase{"unknown effect", with(seed_snapshot(), [](ObservationSnapshot& s) { s.effect_status = "unknown"; }), std::nullopt,
               O::Blocked, "effect_unknown_requires_stop_or_escalation"},
    MatrixCase{"not advanced", seed_snapshot(), with(seed_snapshot(), [](ObservationSnapshot& s) { s.observed_at = "step-1"; }),
               O::NeedsEvidence, "snapshot_not_advanced"},
    MatrixCase{"same fingerprint, another action", seed_snapshot(),
               with(seed_snapshot(), [](ObservationSnapshot& s) { s.correlation_id = "ui-click-0"; s.observed_at = "step-1"; }),
               O::Observed, "expected_state_observed"},
    MatrixCase{"same fingerprint, another target", seed_snapshot(),
               with(seed_snapshot(), [](ObservationSnapshot& s) { s.target = "other-status"; s.observed_at = "step-1"; }),
               O::Observed, "expected_state_observed"},
    MatrixCase{"known, not matching", with(seed_snapshot(), [](ObservationSnapshot& s) { s.state = "pending"; s.fingerprint = "status-pending"; }),
               std::nullopt, O::NotObserved, "expected_state_not_observed"},
    MatrixCase{"unknown state", with(seed_snapshot(), [](ObservationSnapshot& s) { s.state = "redirected"; s.fingerprint = "status-redirected"; }),
               std::nullopt, O::Blocked, "unrecognized_observed_state"},
};

ObservationJudgement assess(const ObservationSnapshot& snapshot, const std::optional<ObservationSnapshot>& previous,
                            const ObservedAction& action = seed_action(),
                            const ObservationContract& contract = seed_observation_contract()) {
    return assess_observation_snapshot({action, contract, snapshot, previous ? &*previous : nullptr});
}

void check_case(std::size_t i) {
    const MatrixCase& c = matrix.at(i);
    BOOST_TEST_CONTEXT("seed 004 matrix row " << i + 1 << ": " << c.path) {
        const auto j = assess(c.snapshot, c.previous);
        BOOST_TEST(to_string(j.outcome) == to_string(c.outcome));
        BOOST_TEST(j.reason == c.reason);
    }
}

}  // namespace

// ---- O-2: the twelve rows of seed 004's matrix, one test each ----------------------------------

BOOST_AUTO_TEST_CASE(O2_fresh_matching_snapshot_is_observed) { check_case(0); }
BOOST_AUTO_TEST_CASE(O2_another_correlation_id_is_blocked) { check_case(1); }
BOOST_AUTO_TEST_CASE(O2_another_target_is_blocked) { check_case(2); }
BOOST_AUTO_TEST_CASE(O2_missing_source_needs_evidence) { check_case(3); }
BOOST_AUTO_TEST_CASE(O2_stale_snapshot_needs_evidence) { check_case(4); }
BOOST_AUTO_TEST_CASE(O2_inferred_evidence_needs_evidence) { check_case(5); }
BOOST_AUTO_TEST_CASE(O2_unknown_effect_is_blocked) { check_case(6); }
BOOST_AUTO_TEST_CASE(O2_same_fingerprint_same_action_and_target_is_not_advanced) { check_case(7); }
BOOST_AUTO_TEST_CASE(O2_same_fingerprint_from_another_action_is_not_not_advanced) { check_case(8); }
BOOST_AUTO_TEST_CASE(O2_same_fingerprint_from_another_target_is_not_not_advanced) { check_case(9); }
BOOST_AUTO_TEST_CASE(O2_known_state_pending_is_not_observed) { check_case(10); }
BOOST_AUTO_TEST_CASE(O2_unknown_state_redirected_is_blocked) { check_case(11); }

BOOST_AUTO_TEST_CASE(O2_seed_matrix_table) {
    for (std::size_t i = 0; i < matrix.size(); ++i) check_case(i);
}

// ---- O-1: the table and the order ----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(O1_ten_rows_in_the_seed_order) {
    const std::array<const char*, 10> reasons{
        "snapshot_fields_missing", "correlation_mismatch", "target_mismatch", "snapshot_not_confirmed",
        "snapshot_not_fresh", "effect_unknown_requires_stop_or_escalation", "snapshot_not_advanced",
        "unrecognized_observed_state", "expected_state_not_observed", "expected_state_observed"};
    const std::array<O, 10> outcomes{O::NeedsEvidence, O::Blocked, O::Blocked, O::NeedsEvidence, O::NeedsEvidence,
                                     O::Blocked, O::NeedsEvidence, O::Blocked, O::NotObserved, O::Observed};
    const auto rows = observation_rules();
    BOOST_TEST(rows.size() == 10u);
    for (std::size_t i = 0; i < rows.size() && i < reasons.size(); ++i) {
        BOOST_TEST_CONTEXT("row " << i + 1) {
            BOOST_TEST(rows[i].order == i + 1);
            BOOST_TEST(rows[i].reason == reasons[i]);
            BOOST_TEST(to_string(rows[i].outcome) == to_string(outcomes[i]));
            BOOST_TEST(rows[i].spec.find("O-1") != std::string_view::npos);
            BOOST_TEST(!rows[i].condition.empty());
            BOOST_TEST(!rows[i].does_not_mean.empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(O1_a_missing_field_wins_over_everything_else_wrong) {
    ObservationSnapshot s = seed_snapshot();
    s.fingerprint.reset();
    s.correlation_id = "other";
    s.target = "other";
    s.evidence_status = "inferred";
    s.freshness = "stale";
    s.effect_status = "unknown";
    s.state = "redirected";
    const auto j = assess(s, std::nullopt);
    BOOST_TEST(to_string(j.outcome) == "needs_evidence");
    BOOST_TEST(j.reason == "snapshot_fields_missing");
    BOOST_TEST(j.missing_fields == std::vector<std::string>{"fingerprint"});
    BOOST_TEST(j.order == 1);
}

BOOST_AUTO_TEST_CASE(O1_each_rule_decides_only_when_every_earlier_one_passed) {
    // Break rules 2..9 one more at a time, from the last one up: the earliest broken one decides.
    ObservationSnapshot s = seed_snapshot();
    const ObservationSnapshot previous = seed_snapshot();
    s.state = "pending";
    BOOST_TEST(assess(s, std::nullopt).order == 9);
    s.state = "redirected";
    BOOST_TEST(assess(s, std::nullopt).order == 8);
    BOOST_TEST(assess(s, previous).order == 7);
    s.effect_status = "unknown";
    BOOST_TEST(assess(s, previous).order == 6);
    s.freshness = "stale";
    BOOST_TEST(assess(s, previous).order == 5);
    s.evidence_status = "inferred";
    BOOST_TEST(assess(s, previous).order == 4);
    s.target = "elsewhere";
    BOOST_TEST(assess(s, previous).order == 3);
    s.correlation_id = "another";
    const auto j = assess(s, previous);
    BOOST_TEST(j.order == 2);
    BOOST_TEST(j.rules_passed == std::vector<std::string>{"snapshot_fields_missing"});
}

BOOST_AUTO_TEST_CASE(O1_a_field_the_contract_does_not_require_may_be_absent) {
    ObservationSnapshot s = seed_snapshot();
    s.observed_at.reset();
    ObservationContract c = seed_observation_contract();
    std::erase(c.required_fields, "observedAt");
    BOOST_TEST(assess(s, std::nullopt, seed_action(), c).reason == "expected_state_observed");
    // ... but an effectStatus the contract requires must be carried.
    c.required_fields.push_back("effectStatus");
    const auto j = assess(s, std::nullopt, seed_action(), c);
    BOOST_TEST(j.reason == "snapshot_fields_missing");
    BOOST_TEST(j.missing_fields == std::vector<std::string>{"effectStatus"});
}

BOOST_AUTO_TEST_CASE(O1_an_empty_string_is_missing_as_in_the_seed) {
    ObservationSnapshot s = seed_snapshot();
    s.source = "";
    const auto j = assess(s, std::nullopt);
    BOOST_TEST(j.reason == "snapshot_fields_missing");
    BOOST_TEST(j.missing_fields == std::vector<std::string>{"source"});
    // A field the contract does not require may hold "": it changes nothing.
    ObservationContract c = seed_observation_contract();
    std::erase(c.required_fields, "source");
    BOOST_TEST(assess(s, std::nullopt, seed_action(), c).reason == "expected_state_observed");
}

BOOST_AUTO_TEST_CASE(O1_a_state_the_contract_does_not_know_is_blocked_even_when_expected) {
    const ObservedAction action{"ui-click-1", "submit-status", "redirected"};
    ObservationSnapshot s = seed_snapshot();
    s.state = "redirected";
    BOOST_TEST(assess(s, std::nullopt, action).reason == "unrecognized_observed_state");
}

BOOST_AUTO_TEST_CASE(O1_a_changed_fingerprint_of_the_same_action_advances) {
    ObservationSnapshot previous = seed_snapshot();
    previous.fingerprint = "status-pending";
    previous.state = "pending";
    BOOST_TEST(assess(seed_snapshot(), previous).reason == "expected_state_observed");
}

BOOST_AUTO_TEST_CASE(O1_the_judgement_is_deterministic_and_names_the_rules_passed) {
    const auto a = assess(seed_snapshot(), std::nullopt);
    const auto b = assess(seed_snapshot(), std::nullopt);
    BOOST_TEST((a == b));
    BOOST_TEST(a.rules_passed.size() == 9u);
    BOOST_TEST(a.order == 10);
}

BOOST_AUTO_TEST_CASE(O1_snapshot_fields_are_named_as_the_contract_names_them) {
    ObservationSnapshot s;
    for (const auto name : snapshot_field_names()) {
        auto* f = snapshot_field(s, name);
        BOOST_TEST_REQUIRE(f != nullptr);
        *f = std::string(name);
    }
    BOOST_TEST(s.correlation_id.value_or("") == "correlationId");
    BOOST_TEST(s.effect_status.value_or("") == "effectStatus");
    BOOST_TEST(snapshot_field(s, "nonsense") == nullptr);
    for (const auto& f : seed_observation_contract().required_fields) BOOST_TEST(snapshot_field(s, f) != nullptr);
}
