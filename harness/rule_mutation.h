// Mutation testing of the verdict rules (`deskcheck mutate-rules`): change one row of a rule set,
// run the campaign on the mutated set, and see whether a property notices.
//
// A rule set is data, so a mutant is a value: `MutatedRules` owns its rows (and the sentence of a
// negated condition) and hands out a `RuleSet` that any run takes through `RunOptions::rules`; no
// rebuild. The row text (ids, conditions, SPEC ids) and the predicates stay those of the original
// set, which must outlive its mutants (the shipped sets are static).
//
// The mutations of one row: its verdict replaced by each other verdict; the row removed; the row
// moved one place earlier and one later among the rows of its action kind (only those are tried
// for an action, so only their order matters); its condition negated. Moving row i later is the
// same set as moving the next row of its kind earlier: both are listed (a person reads the table by
// row), and `duplicate_of` names the first so it runs once and counts once.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/verdict.h"
#include "harness/campaign.h"

namespace deskcheck::props {

enum class RuleMutationKind : std::uint8_t { Verdict, Remove, Earlier, Later, Negate };

struct RuleMutation {
    std::size_t row = 0;                       // index into the original set's rows
    RuleMutationKind kind = RuleMutationKind::Remove;
    Verdict verdict = Verdict::Unknown;        // Verdict: the replacement
};

// The operation's spelling: "to-Confirmed", "to-Absent", "to-Unknown", "remove", "earlier",
// "later", "negate".
std::string operation_name(const RuleMutation& m);
// "<rule set>:<row id>:<operation>", e.g. "current:select_all.covers:to-Absent": what
// `deskcheck replay FILE --rule-mutation ID` takes.
std::string mutation_id(const RuleSet& rules, const RuleMutation& m);
// nullopt when the id does not name a mutation `enumerate_mutations(rules)` lists.
std::optional<RuleMutation> parse_mutation(const RuleSet& rules, std::string_view id);
// The rule set an id names (its first field), looked up with find_rules; nullptr when unknown.
const RuleSet* rules_of_mutation_id(std::string_view id);

// Every mutation of every row, row by row, in the order of `operation_name` above. A row's
// verdict mutations are the two other verdicts; a move exists only when the row has a neighbour of
// its kind on that side.
std::vector<RuleMutation> enumerate_mutations(const RuleSet& rules);
// For a move that repeats an earlier one in the list (row i+1 earlier == row i later): its index.
std::optional<std::size_t> duplicate_of(const RuleSet& rules, std::span<const RuleMutation> mutations,
                                        std::size_t index);

class MutatedRules {
public:
    MutatedRules(const RuleSet& original, const RuleMutation& mutation);
    MutatedRules(const MutatedRules& other);
    MutatedRules& operator=(const MutatedRules& other);
    MutatedRules(MutatedRules&& other) noexcept;
    MutatedRules& operator=(MutatedRules&& other) noexcept;
    ~MutatedRules() = default;

    // Named as the original (a scenario file names the set it mutates); `rules` are the mutated rows.
    const RuleSet& rules() const { return set_; }
    const RuleMutation& mutation() const { return mutation_; }

private:
    void rebind();
    RuleMutation mutation_;
    std::vector<Rule> rows_;
    std::string negated_condition_;  // "not (<condition>)" of a negated row
    RuleSet set_;
};

// The first situation (index into `situations`) where the two sets give different verdicts;
// nullopt: they judge all of them alike (an equivalent mutant, as far as the situations show).
std::optional<std::size_t> first_difference(const RuleSet& a, const RuleSet& b, std::span<const Situation> situations);

// Every situation (indices into `situations`) where the two sets give different verdicts.
std::vector<std::size_t> differences(const RuleSet& a, const RuleSet& b, std::span<const Situation> situations);

// What the original set violates on each case of a campaign (per case index: property names),
// computed when first asked. A mutant is killed only by a violation the original does not show on
// the same case: under `published` the known debts D-1..D-3 are violations of the original too.
class OriginalViolations {
public:
    OriginalViolations(const RuleSet& original, const CampaignOptions& options);
    const std::set<std::string>& on_case(std::uint32_t index);
    const RuleSet& original() const { return original_; }
    std::uint32_t cases_run() const { return static_cast<std::uint32_t>(by_case_.size()); }

private:
    const RuleSet& original_;
    CampaignOptions options_;
    std::map<std::uint32_t, std::set<std::string>> by_case_;
};

// How soon each row of a rule set decides a case of the campaign (the reach of its mutants): per row,
// the indices of the first `hits` cases in which a step of the original set was decided by that row,
// over at most `cases` cases (the scan stops once every row has its hits). A mutation of a row can
// only show where the row (or, moved or removed, its neighbour) decides, so a rare row's mutants
// need the campaign to run until it has decided a few times.
struct RowReach {
    std::vector<std::vector<std::uint32_t>> hits;  // per row, ascending case indices
    std::uint32_t scanned = 0;                      // cases run
};
RowReach row_reach(const RuleSet& rules, const CampaignOptions& options, std::uint32_t cases, std::uint32_t hits);

// The cases a mutant of row `row` runs: `base`, or up to the case of the row's last recorded hit when
// that is further (the row decides rarely); never beyond what the reach scanned.
std::uint32_t reach_budget(const RowReach& reach, std::size_t row, std::uint32_t base);

struct Kill {
    std::string property;
    std::uint32_t cases = 0;    // the killing case's index + 1: how many cases the campaign needed
    Counterexample counterexample;  // shrunk; its summary names the mutation
};

// Bound on the shrink of a mutant's counterexample: a run of both sets has hundreds of kills.
inline constexpr std::uint32_t mutant_shrink_attempts_max = 400;

// The campaign of `options` (seed, cases, generator, agent, shrink; its `rules` is ignored) on
// `mutant`, stopped at the first case where a property is violated that the original set does not
// violate on that case. nullopt: the mutant survived every case.
std::optional<Kill> first_kill(const RuleSet& mutant, std::string_view mutation_label, const CampaignOptions& options,
                               OriginalViolations& original);

}  // namespace deskcheck::props
