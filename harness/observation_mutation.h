// Mutation testing of the observation rules (seed 004; `deskcheck mutate-rules --rules observation`):
// change one row of the ten, run the observation checks (harness/observation_cases.h) on
// generated cases judged by the mutated table, and see whether one notices.
//
// The mutations of a row: its outcome replaced by each other outcome; the row removed; moved one
// place earlier or later (the ten rows are one ordered list, so "later" of a row and "earlier" of
// the next are the same table: `observation_duplicate_of` names the first); its condition negated.
// A mutant is a value (`MutatedObservationRules` owns its rows); nothing is rebuilt.
//
// Equivalence: a mutant that judges every case of the catalogue — seed 004's twelve-case matrix and
// the generated cases of the run — exactly like the original (the same outcome, reason, order and
// missing fields; the rows passed are the table's trace, not its decision) is equivalent. A mutant is killed by a check the original does not violate on
// the same case.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/observation.h"
#include "harness/observation_cases.h"

namespace deskcheck::props {

enum class ObservationMutationKind : std::uint8_t { Outcome, Remove, Earlier, Later, Negate };

struct ObservationMutation {
    std::size_t row = 0;  // index into the original table
    ObservationMutationKind kind = ObservationMutationKind::Remove;
    ObservationOutcome outcome = ObservationOutcome::Observed;  // Outcome: the replacement
};

// The rule set's name in mutation ids and `--rules`.
inline constexpr std::string_view observation_rules_name = "observation";

// "to-observed", "to-not_observed", "to-needs_evidence", "to-blocked", "remove", "earlier",
// "later", "negate".
std::string observation_operation_name(const ObservationMutation& m);
// "observation:<row reason>:<operation>", e.g. "observation:snapshot_not_fresh:to-blocked".
std::string observation_mutation_id(ObservationTable table, const ObservationMutation& m);
// nullopt when the id names no mutation of the table.
std::optional<ObservationMutation> parse_observation_mutation(ObservationTable table, std::string_view id);

// Every mutation of every row, row by row, in the order of the operation names above.
std::vector<ObservationMutation> enumerate_observation_mutations(ObservationTable table);
// For an "earlier" that repeats the previous row's "later": that mutation's index.
std::optional<std::size_t> observation_duplicate_of(std::span<const ObservationMutation> mutations, std::size_t index);

class MutatedObservationRules {
public:
    MutatedObservationRules(ObservationTable original, const ObservationMutation& mutation);
    ObservationTable table() const { return rows_; }
    const ObservationMutation& mutation() const { return mutation_; }

private:
    ObservationMutation mutation_;
    std::vector<ObservationRule> rows_;
};

// The cases a run judges: `cases` generated from `seed`, the original's judgement and violations on
// each (computed once, shared by every mutant), and seed 004's matrix.
class ObservationRun {
public:
    ObservationRun(ObservationTable original, std::uint64_t seed, std::uint32_t cases);
    ObservationTable original() const { return original_; }
    std::uint64_t seed() const { return seed_; }
    std::span<const ObservationCase> cases() const { return cases_; }
    const ObservationJudgement& original_judgement(std::size_t i) const { return judgements_[i]; }
    const std::set<std::string>& original_violations(std::size_t i) const { return violations_[i]; }
    std::span<const LabelledObservationCase> matrix() const { return matrix_; }

private:
    ObservationTable original_;
    std::uint64_t seed_ = 0;
    std::vector<ObservationCase> cases_;
    std::vector<ObservationJudgement> judgements_;
    std::vector<std::set<std::string>> violations_;
    std::vector<LabelledObservationCase> matrix_;
};

struct ObservationKill {
    std::string property;
    std::uint32_t cases = 0;        // the killing case's index + 1
    ObservationCase counterexample; // shrunk when asked
    std::string explanation;        // the violation on it
    std::uint32_t shrink_attempts = 0;
};

// A situation where the mutant decides differently.
struct ObservationDifference {
    std::string label;              // the matrix row's name, or "generated case N"
    ObservationCase c;
    ObservationJudgement original;
    ObservationJudgement mutant;
};

enum class ObservationMutantOutcome : std::uint8_t { Killed, Survived, Equivalent };

struct ObservationMutantResult {
    ObservationMutantOutcome outcome = ObservationMutantOutcome::Survived;
    std::optional<ObservationKill> kill;
    std::optional<ObservationDifference> difference;  // for a survivor: the situation the checks never judged
};

// Bound on the shrink of a kill's case.
inline constexpr std::uint32_t observation_shrink_attempts_max = 200;

// The mutant on every case of the run in order, stopped at the first kill; then, for a survivor,
// the matrix and the cases for a difference (none: equivalent).
ObservationMutantResult judge_observation_mutant(const ObservationRun& run, ObservationTable mutant, bool shrink);

// Greedy shrink of `c` (fewer fields, shorter lists, texts from the pools) while `still_violates`
// holds, at most observation_shrink_attempts_max candidates; the attempts made.
std::uint32_t shrink_observation_case(ObservationCase& c, const std::function<bool(const ObservationCase&)>& still_violates);

// Whether `table` still violates `property` on `c` while `original` does not (what a replay asks).
bool observation_kill_reproduces(const ObservationCase& c, ObservationTable table, ObservationTable original,
                                 std::string_view property);

}  // namespace deskcheck::props
