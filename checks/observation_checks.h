// The checks of the observation judgement (SPEC O-1..O-3, seed 004): plain functions over one case
// (action, contract, snapshot, previous?), the judgement a rule table gave it and the table asked
// again on variants of the case (ObservationUnderTest), each returning a
// violation value (never aborting). The fuzz target `fuzz_observation` and `deskcheck mutate-rules`
// (harness/observation_mutation.h) both call these: a property is never written twice.
//
// They decide from the case and seed 004 alone: the oracle `seed_expectation` is the seed's ten
// conditions and its outcome per order, written here again, not read from the tool's rows; field
// names are the seed's, looked up here. The table under test is only ever *run* (on the case, and
// on variants of it that must be judged alike), so a mutated table is judged like the shipped one.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/observation.h"

namespace deskcheck::props {

// One observation situation, owning its parts.
struct ObservationCase {
    ObservedAction action;
    ObservationContract contract;
    ObservationSnapshot snapshot;
    std::optional<ObservationSnapshot> previous;
    ObservationInput input() const { return {action, contract, snapshot, previous ? &*previous : nullptr}; }
    friend bool operator==(const ObservationCase&, const ObservationCase&) = default;
};

using ObservationTable = std::span<const ObservationRule>;

// The rule table under test, as the checks use it: its rows as data (each row's order, reason,
// outcome and SPEC ids, and the condition it applies by, asked by observation_decided_by_a_row),
// and the tool's judgement of any case the checks make up (the harness's: model/observation.h
// assess_observation over these rows, harness/observation_cases.h under_test). The checks never
// link the tool: they ask it.
struct ObservationUnderTest {
    ObservationTable table;
    std::function<ObservationJudgement(const ObservationCase&)> judge;
};

// Seed 004's snapshot fields, in its order.
inline constexpr std::array<std::string_view, 9> seed_field_names{"observedAt", "source",    "correlationId",
                                                                  "target",     "state",     "evidenceStatus",
                                                                  "freshness",  "fingerprint", "effectStatus"};

struct ObservationViolation {
    std::string property;     // the check's name
    std::string explanation;  // what it saw, one line
};

// What seed 004 says of a case: the order of the first condition that holds, and that order's
// outcome and reason code (the seed's "判断顺序" table).
struct SeedExpectation {
    std::uint8_t order = 0;
    ObservationOutcome outcome = ObservationOutcome::NeedsEvidence;
    std::string_view reason;
};
SeedExpectation seed_expectation(const ObservationCase& c);

// The seed's outcome and reason of an order (1..10).
SeedExpectation seed_row(std::uint8_t order);

// ---- the checks, each named by what it promises -------------------------------------------------

// O-1: some row decides (the judgement is total), and the judgement is that row's: its order,
// outcome, reason and SPEC ids, with exactly the rows tried before it listed as passed.
std::optional<ObservationViolation> observation_decided_by_a_row(const ObservationCase& c, const ObservationJudgement& j,
                                                                 const ObservationUnderTest& tool);
// O-1: the same case judged twice gives the same judgement.
std::optional<ObservationViolation> observation_deterministic(const ObservationCase& c, const ObservationJudgement& j,
                                                              const ObservationUnderTest& tool);
// O-1 rule 1: a required field not carried gives needs_evidence / snapshot_fields_missing whatever
// else is wrong, naming exactly the fields not carried, in contract order.
std::optional<ObservationViolation> observation_missing_fields_named(const ObservationCase& c,
                                                                     const ObservationJudgement& j, const ObservationUnderTest& tool);
// O-1, O-3: observed only for a snapshot of this correlation and target, observed evidence, fresh,
// effect not unknown, in the expected (and known) state, not the unadvanced copy of the previous one.
std::optional<ObservationViolation> observation_never_observed_without_evidence(const ObservationCase& c,
                                                                                const ObservationJudgement& j,
                                                                                const ObservationUnderTest& tool);
// O-1, O-2: a previous snapshot of another correlation, target or fingerprint judges like none at
// all; observedAt and source, once carried, change nothing.
std::optional<ObservationViolation> observation_irrelevant_changes_change_nothing(const ObservationCase& c,
                                                                                  const ObservationJudgement& j,
                                                                                  const ObservationUnderTest& tool);
// O-1, O-2: the oracle. The first of the seed's ten conditions that holds decides, with the seed's
// outcome and reason for it.
std::optional<ObservationViolation> observation_follows_the_seed_order(const ObservationCase& c,
                                                                       const ObservationJudgement& j,
                                                                       const ObservationUnderTest& tool);

using ObservationCheckFn = std::optional<ObservationViolation> (*)(const ObservationCase&, const ObservationJudgement&,
                                                                    const ObservationUnderTest&);
struct ObservationCheck {
    std::string_view name;
    std::string_view spec;
    ObservationCheckFn fn;
};
// Every check, in the order they are tried (the oracle last: the others name the promise broken).
std::span<const ObservationCheck> observation_checks();

// The case and its judgement, for people (several lines).
std::string describe_observation(const ObservationCase& c, const ObservationJudgement& j);
// The case alone, on one line.
std::string observation_case_line(const ObservationCase& c);

}  // namespace deskcheck::props
