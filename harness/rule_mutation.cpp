#include "harness/run.h"
#include "harness/rule_mutation.h"
#include "harness/deterministic.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "harness/shrink.h"

namespace deskcheck::props {
namespace {

constexpr std::array<Verdict, 3> every_verdict{Verdict::Confirmed, Verdict::Absent, Verdict::Unknown};

// The index of the nearest row of the same action kind before (step -1) or after (step +1) `row`.
std::optional<std::size_t> neighbour_of_kind(std::span<const Rule> rows, std::size_t row, int step) {
    assert(row < rows.size());
    const ActionKind kind = rows[row].kind;
    std::size_t i = row;
    while (true) {
        if (step < 0 && i == 0) return std::nullopt;
        if (step > 0 && i + 1 >= rows.size()) return std::nullopt;
        i = step < 0 ? i - 1 : i + 1;
        if (rows[i].kind == kind) return i;
    }
}

// The mutations of one row, in table order.
void row_mutations(const RuleSet& rules, std::size_t row, std::vector<RuleMutation>& out) {
    for (Verdict v : every_verdict) {
        if (v != rules.rules[row].verdict) out.push_back({row, RuleMutationKind::Verdict, v});
    }
    out.push_back({row, RuleMutationKind::Remove, Verdict::Unknown});
    if (neighbour_of_kind(rules.rules, row, -1)) out.push_back({row, RuleMutationKind::Earlier, Verdict::Unknown});
    if (neighbour_of_kind(rules.rules, row, +1)) out.push_back({row, RuleMutationKind::Later, Verdict::Unknown});
    out.push_back({row, RuleMutationKind::Negate, Verdict::Unknown});
}

// The checks a mutant's campaign runs: the campaign's selection, without `deterministic` — a rule
// row cannot make a run nondeterministic, and that check runs every fourth scenario twice more.
std::vector<const NamedCheck*> mutant_checks(const CampaignOptions& o) {
    std::vector<const NamedCheck*> out;
    for (const auto& c : all_checks()) {
        if (c.fn == nullptr) continue;
        if (!o.properties.empty() && std::find(o.properties.begin(), o.properties.end(), c.name) == o.properties.end()) {
            continue;
        }
        out.push_back(&c);
    }
    return out;
}

RunOptions run_options_for(const RuleSet& rules, const CampaignOptions& o) {
    RunOptions ro;
    ro.rules = &rules;
    ro.tool = o.tool;
    ro.mutation = o.mutation;
    ro.agent_retries = o.agent_retries;
    ro.trace = false;
    return ro;
}

sim::Scenario case_scenario(const CampaignOptions& o, std::uint32_t index, const RuleSet& rules) {
    sim::Prng rng(case_seed(o.seed, index));
    sim::Scenario scenario = sim::build_scenario_from_prng(rng, o.build);
    scenario.rules = std::string(rules.name);
    return scenario;
}

bool violates(const NamedCheck& check, const sim::Scenario& s, const RunOptions& ro) {
    const RunResult run = run_scenario(s, ro);
    return run_check(check, s, run, ro).status == CheckStatus::Violated;
}

// A mutant's violation that is one of published's known debts (D-1..D-3) is no kill, even where the
// original shows no violation on that case: a mutant that lets a batch run on past a step the
// original stopped at meets the debt at a later step the original never reached.
bool violates_beyond_debts(const NamedCheck& check, const sim::Scenario& s, const RunOptions& ro) {
    const RunResult run = run_scenario(s, ro);
    const CheckResult r = run_check(check, s, run, ro);
    return r.status == CheckStatus::Violated && !known_debt(check, s, *r.violation, ro);
}

}  // namespace

std::string operation_name(const RuleMutation& m) {
    switch (m.kind) {
        case RuleMutationKind::Verdict: return "to-" + std::string(to_string(m.verdict));
        case RuleMutationKind::Remove: return "remove";
        case RuleMutationKind::Earlier: return "earlier";
        case RuleMutationKind::Later: return "later";
        case RuleMutationKind::Negate: return "negate";
    }
    return "?";
}

std::string mutation_id(const RuleSet& rules, const RuleMutation& m) {
    assert(m.row < rules.rules.size());
    return std::string(rules.name) + ":" + std::string(rules.rules[m.row].id) + ":" + operation_name(m);
}

const RuleSet* rules_of_mutation_id(std::string_view id) {
    const auto colon = id.find(':');
    if (colon == std::string_view::npos) return nullptr;
    return rules_named(id.substr(0, colon));
}

std::optional<RuleMutation> parse_mutation(const RuleSet& rules, std::string_view id) {
    for (const RuleMutation& m : enumerate_mutations(rules)) {
        if (mutation_id(rules, m) == id) return m;
    }
    return std::nullopt;
}

std::vector<RuleMutation> enumerate_mutations(const RuleSet& rules) {
    std::vector<RuleMutation> out;
    out.reserve(rules.rules.size() * 6);
    for (std::size_t row = 0; row < rules.rules.size(); ++row) row_mutations(rules, row, out);
    return out;
}

std::optional<std::size_t> duplicate_of(const RuleSet& rules, std::span<const RuleMutation> mutations,
                                        std::size_t index) {
    assert(index < mutations.size());
    const RuleMutation& m = mutations[index];
    if (m.kind != RuleMutationKind::Earlier) return std::nullopt;
    // Row r earlier swaps r with its previous row p of the kind: the same set as "p later".
    const auto previous = neighbour_of_kind(rules.rules, m.row, -1);
    assert(previous.has_value());
    for (std::size_t i = 0; i < index; ++i) {
        if (mutations[i].kind == RuleMutationKind::Later && mutations[i].row == *previous) return i;
    }
    return std::nullopt;
}

MutatedRules::MutatedRules(const RuleSet& original, const RuleMutation& mutation)
    : mutation_(mutation), rows_(original.rules.begin(), original.rules.end()), set_(original) {
    assert(mutation.row < rows_.size());
    const std::size_t r = mutation.row;
    switch (mutation.kind) {
        case RuleMutationKind::Verdict:
            assert(mutation.verdict != rows_[r].verdict);
            rows_[r].verdict = mutation.verdict;
            break;
        case RuleMutationKind::Remove: rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(r)); break;
        case RuleMutationKind::Earlier:
        case RuleMutationKind::Later: {
            const auto other = neighbour_of_kind(original.rules, r, mutation.kind == RuleMutationKind::Earlier ? -1 : +1);
            assert(other.has_value());
            std::swap(rows_[r], rows_[*other]);
            break;
        }
        case RuleMutationKind::Negate:
            rows_[r].negated = !rows_[r].negated;
            negated_condition_ = "not (" + std::string(rows_[r].condition) + ")";
            break;
    }
    rebind();
}

MutatedRules::MutatedRules(const MutatedRules& other)
    : mutation_(other.mutation_), rows_(other.rows_), negated_condition_(other.negated_condition_), set_(other.set_) {
    rebind();
}

MutatedRules& MutatedRules::operator=(const MutatedRules& other) {
    if (this == &other) return *this;
    mutation_ = other.mutation_;
    rows_ = other.rows_;
    negated_condition_ = other.negated_condition_;
    set_ = other.set_;
    rebind();
    return *this;
}

MutatedRules::MutatedRules(MutatedRules&& other) noexcept
    : mutation_(other.mutation_),
      rows_(std::move(other.rows_)),
      negated_condition_(std::move(other.negated_condition_)),
      set_(other.set_) {
    rebind();
}

MutatedRules& MutatedRules::operator=(MutatedRules&& other) noexcept {
    mutation_ = other.mutation_;
    rows_ = std::move(other.rows_);
    negated_condition_ = std::move(other.negated_condition_);
    set_ = other.set_;
    rebind();
    return *this;
}

// Points the set at this object's rows and the negated row at this object's sentence.
void MutatedRules::rebind() {
    set_.rules = rows_;
    if (mutation_.kind == RuleMutationKind::Negate) rows_[mutation_.row].condition = negated_condition_;
}

std::optional<std::size_t> first_difference(const RuleSet& a, const RuleSet& b, std::span<const Situation> situations) {
    for (std::size_t i = 0; i < situations.size(); ++i) {
        if (verdict_of(a, situations[i]) != verdict_of(b, situations[i])) return i;
    }
    return std::nullopt;
}

std::vector<std::size_t> differences(const RuleSet& a, const RuleSet& b, std::span<const Situation> situations) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < situations.size(); ++i) {
        if (verdict_of(a, situations[i]) != verdict_of(b, situations[i])) out.push_back(i);
    }
    return out;
}

OriginalViolations::OriginalViolations(const RuleSet& original, const CampaignOptions& options)
    : original_(original), options_(options) {}

const std::set<std::string>& OriginalViolations::on_case(std::uint32_t index) {
    if (const auto it = by_case_.find(index); it != by_case_.end()) return it->second;
    std::set<std::string>& out = by_case_[index];
    const RunOptions ro = run_options_for(original_, options_);
    const sim::Scenario scenario = case_scenario(options_, index, original_);
    const RunResult run = run_scenario(scenario, ro);
    for (const NamedCheck* check : mutant_checks(options_)) {
        if (run_check(*check, scenario, run, ro).status == CheckStatus::Violated) out.insert(std::string(check->name));
    }
    return out;
}

RowReach row_reach(const RuleSet& rules, const CampaignOptions& options, std::uint32_t cases, std::uint32_t hits) {
    RowReach reach;
    reach.hits.resize(rules.rules.size());
    std::size_t rows_done = 0;
    RunOptions ro = run_options_for(rules, options);
    ro.trace = false;
    for (std::uint32_t i = 0; i < cases && rows_done < rules.rules.size(); ++i) {
        const sim::Scenario scenario = case_scenario(options, i, rules);
        const RunResult run = run_scenario(scenario, ro);
        reach.scanned = i + 1;
        for (std::size_t r = 0; r < rules.rules.size(); ++r) {
            auto& h = reach.hits[r];
            if (h.size() >= hits || (!h.empty() && h.back() == i)) continue;
            const bool decided = std::any_of(run.steps.begin(), run.steps.end(), [&](const StepReport& step) {
                return step.result.evidence.rule == rules.rules[r].id;
            });
            if (!decided) continue;
            h.push_back(i);
            rows_done += h.size() == hits ? 1 : 0;
        }
    }
    return reach;
}

std::uint32_t reach_budget(const RowReach& reach, std::size_t row, std::uint32_t base) {
    if (row >= reach.hits.size() || reach.hits[row].empty()) return base;
    return std::max(base, std::min(reach.scanned, reach.hits[row].back() + 1));
}

std::optional<Kill> first_kill(const RuleSet& mutant, std::string_view mutation_label, const CampaignOptions& options,
                               OriginalViolations& original) {
    assert(mutant.name == original.original().name);
    const RunOptions ro = run_options_for(mutant, options);
    const RunOptions ro_original = run_options_for(original.original(), options);
    const auto checks = mutant_checks(options);
    for (std::uint32_t i = 0; i < options.cases; ++i) {
        const sim::Scenario scenario = case_scenario(options, i, mutant);
        const RunResult run = run_scenario(scenario, ro);
        for (const NamedCheck* check : checks) {
            const CheckResult r = run_check(*check, scenario, run, ro);
            if (r.status != CheckStatus::Violated) continue;
            if (original.on_case(i).count(std::string(check->name)) != 0) continue;
            if (known_debt(*check, scenario, *r.violation, ro)) continue;
            Kill kill;
            kill.property = std::string(check->name);
            kill.cases = i + 1;
            Counterexample& c = kill.counterexample;
            c.property = kill.property;
            c.case_seed = case_seed(options.seed, i);
            c.original_size = size_of(scenario);
            c.scenario = scenario;
            c.violation = *r.violation;
            if (options.shrink) {
                // Still a kill: the mutant violates the property and the original does not.
                const StillFails still_a_kill = [check, &ro, &ro_original](const sim::Scenario& s) {
                    return violates_beyond_debts(*check, s, ro) && !violates(*check, s, ro_original);
                };
                ShrinkOptions so;
                so.attempts_max = mutant_shrink_attempts_max;
                shrink_counterexample(c, still_a_kill, so, *check, ro, &options.build);
            }
            c.shrunk_size = size_of(c.scenario);
            c.summary = "rule mutation " + std::string(mutation_label) + ": " + c.property + " violated at step " +
                        (c.violation.step ? std::to_string(*c.violation.step) : "-") + ": " + c.violation.explanation;
            return kill;
        }
        if (options.progress) options.progress(i + 1, options.cases);
    }
    return std::nullopt;
}

}  // namespace deskcheck::props
