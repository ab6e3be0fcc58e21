#include "harness/observation_mutation.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <functional>

namespace deskcheck::props {
namespace {

using O = ObservationOutcome;
constexpr std::array<O, 4> every_outcome{O::Observed, O::NotObserved, O::NeedsEvidence, O::Blocked};

ObservationJudgement judge(const ObservationCase& c, ObservationTable table) { return assess_observation(table, c.input()); }

// Judged alike: the same decision (outcome, reason, order, missing fields). The rows passed are the
// table's trace, not part of the decision: a row that never decides may go without a difference.
bool same_decision(const ObservationJudgement& a, const ObservationJudgement& b) {
    return a.outcome == b.outcome && a.reason == b.reason && a.order == b.order && a.missing_fields == b.missing_fields;
}

// Whether `table` violates `property` on `c`.
bool violates(const ObservationCase& c, ObservationTable table, std::string_view property) {
    const ObservationUnderTest tool = under_test(table);
    const ObservationJudgement j = tool.judge(c);
    for (const ObservationCheck& check : observation_checks()) {
        if (check.name == property) return check.fn(c, j, tool).has_value();
    }
    return false;
}

// The simpler cases one edit away, simplest edits first: no previous snapshot, a field not
// carried, a requirement or a known state fewer.
std::vector<ObservationCase> simpler_cases(const ObservationCase& c) {
    std::vector<ObservationCase> out;
    if (c.previous) {
        out.push_back(c);
        out.back().previous.reset();
    }
    const auto fields = [](ObservationSnapshot& s) {
        return std::array<std::optional<std::string>*, 9>{&s.observed_at, &s.source, &s.correlation_id,
                                                          &s.target, &s.state, &s.evidence_status,
                                                          &s.freshness, &s.fingerprint, &s.effect_status};
    };
    for (std::size_t f = 0; f < 9; ++f) {
        ObservationCase d = c;
        if (!fields(d.snapshot)[f]->has_value()) continue;
        fields(d.snapshot)[f]->reset();
        out.push_back(std::move(d));
    }
    for (std::size_t f = 0; c.previous && f < 9; ++f) {
        ObservationCase d = c;
        if (!fields(*d.previous)[f]->has_value()) continue;
        fields(*d.previous)[f]->reset();
        out.push_back(std::move(d));
    }
    for (std::size_t i = 0; i < c.contract.required_fields.size(); ++i) {
        out.push_back(c);
        out.back().contract.required_fields.erase(out.back().contract.required_fields.begin() + static_cast<std::ptrdiff_t>(i));
    }
    for (std::size_t i = 0; i < c.contract.known_states.size(); ++i) {
        out.push_back(c);
        out.back().contract.known_states.erase(out.back().contract.known_states.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return out;
}

// Greedy: takes the first simpler case that still kills, until none does or the attempts run out.
std::uint32_t shrink_case(ObservationCase& c, const std::function<bool(const ObservationCase&)>& still_kills) {
    std::uint32_t attempts = 0;
    bool progressed = true;
    while (progressed && attempts < observation_shrink_attempts_max) {
        progressed = false;
        for (ObservationCase& candidate : simpler_cases(c)) {
            if (attempts >= observation_shrink_attempts_max) break;
            ++attempts;
            if (!still_kills(candidate)) continue;
            c = std::move(candidate);
            progressed = true;
            break;
        }
    }
    return attempts;
}

std::optional<ObservationDifference> first_difference(const ObservationRun& run, ObservationTable mutant) {
    for (const LabelledObservationCase& m : run.matrix()) {
        const ObservationJudgement was = judge(m.c, run.original());
        const ObservationJudgement now = judge(m.c, mutant);
        if (!same_decision(was, now)) return ObservationDifference{"seed 004 matrix: " + m.label, m.c, was, now};
    }
    for (std::size_t i = 0; i < run.cases().size(); ++i) {
        const ObservationJudgement now = judge(run.cases()[i], mutant);
        if (!same_decision(run.original_judgement(i), now)) {
            return ObservationDifference{"generated case " + std::to_string(i + 1) + " of seed " + std::to_string(run.seed()),
                                         run.cases()[i], run.original_judgement(i), now};
        }
    }
    return std::nullopt;
}

}  // namespace

std::string observation_operation_name(const ObservationMutation& m) {
    switch (m.kind) {
        case ObservationMutationKind::Outcome: return "to-" + std::string(to_string(m.outcome));
        case ObservationMutationKind::Remove: return "remove";
        case ObservationMutationKind::Earlier: return "earlier";
        case ObservationMutationKind::Later: return "later";
        case ObservationMutationKind::Negate: return "negate";
    }
    return "?";
}

std::string observation_mutation_id(ObservationTable table, const ObservationMutation& m) {
    assert(m.row < table.size());
    return std::string(observation_rules_name) + ":" + std::string(table[m.row].reason) + ":" + observation_operation_name(m);
}

std::optional<ObservationMutation> parse_observation_mutation(ObservationTable table, std::string_view id) {
    for (const ObservationMutation& m : enumerate_observation_mutations(table)) {
        if (observation_mutation_id(table, m) == id) return m;
    }
    return std::nullopt;
}

std::vector<ObservationMutation> enumerate_observation_mutations(ObservationTable table) {
    std::vector<ObservationMutation> out;
    for (std::size_t row = 0; row < table.size(); ++row) {
        for (O o : every_outcome) {
            if (o != table[row].outcome) out.push_back({row, ObservationMutationKind::Outcome, o});
        }
        out.push_back({row, ObservationMutationKind::Remove, O::Observed});
        if (row > 0) out.push_back({row, ObservationMutationKind::Earlier, O::Observed});
        if (row + 1 < table.size()) out.push_back({row, ObservationMutationKind::Later, O::Observed});
        out.push_back({row, ObservationMutationKind::Negate, O::Observed});
    }
    return out;
}

std::optional<std::size_t> observation_duplicate_of(std::span<const ObservationMutation> mutations, std::size_t index) {
    assert(index < mutations.size());
    const ObservationMutation& m = mutations[index];
    if (m.kind != ObservationMutationKind::Earlier) return std::nullopt;
    assert(m.row > 0);
    for (std::size_t i = 0; i < index; ++i) {
        if (mutations[i].kind == ObservationMutationKind::Later && mutations[i].row + 1 == m.row) return i;
    }
    return std::nullopt;
}

MutatedObservationRules::MutatedObservationRules(ObservationTable original, const ObservationMutation& mutation)
    : mutation_(mutation), rows_(original.begin(), original.end()) {
    assert(mutation.row < rows_.size());
    const std::size_t r = mutation.row;
    switch (mutation.kind) {
        case ObservationMutationKind::Outcome:
            assert(mutation.outcome != rows_[r].outcome);
            rows_[r].outcome = mutation.outcome;
            break;
        case ObservationMutationKind::Remove: rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(r)); break;
        case ObservationMutationKind::Earlier:
            assert(r > 0);
            std::swap(rows_[r], rows_[r - 1]);
            break;
        case ObservationMutationKind::Later:
            assert(r + 1 < rows_.size());
            std::swap(rows_[r], rows_[r + 1]);
            break;
        case ObservationMutationKind::Negate: rows_[r].negated = !rows_[r].negated; break;
    }
}

ObservationRun::ObservationRun(ObservationTable original, std::uint64_t seed, std::uint32_t cases)
    : original_(original), seed_(seed), matrix_(seed_observation_matrix()) {
    cases_.reserve(cases);
    judgements_.reserve(cases);
    violations_.reserve(cases);
    for (std::uint32_t i = 0; i < cases; ++i) {
        cases_.push_back(observation_case(seed, i));
        judgements_.push_back(judge(cases_.back(), original));
        std::set<std::string> names;
        for (const auto& v : observation_violations(cases_.back(), original)) names.insert(v.property);
        violations_.push_back(std::move(names));
    }
    assert(cases_.size() == judgements_.size());
    assert(cases_.size() == violations_.size());
}

std::uint32_t shrink_observation_case(ObservationCase& c, const std::function<bool(const ObservationCase&)>& still_violates) {
    return shrink_case(c, still_violates);
}

bool observation_kill_reproduces(const ObservationCase& c, ObservationTable table, ObservationTable original,
                                 std::string_view property) {
    return violates(c, table, property) && !violates(c, original, property);
}

ObservationMutantResult judge_observation_mutant(const ObservationRun& run, ObservationTable mutant, bool shrink) {
    ObservationMutantResult r;
    r.difference = first_difference(run, mutant);
    if (!r.difference) {
        r.outcome = ObservationMutantOutcome::Equivalent;
        return r;
    }
    for (std::size_t i = 0; i < run.cases().size(); ++i) {
        const ObservationCase& c = run.cases()[i];
        for (const ObservationViolation& v : observation_violations(c, mutant)) {
            if (run.original_violations(i).count(v.property) != 0) continue;
            ObservationKill kill;
            kill.property = v.property;
            kill.cases = static_cast<std::uint32_t>(i + 1);
            kill.counterexample = c;
            if (shrink) {
                kill.shrink_attempts = shrink_case(kill.counterexample, [&](const ObservationCase& candidate) {
                    return observation_kill_reproduces(candidate, mutant, run.original(), kill.property);
                });
            }
            for (const ObservationViolation& w : observation_violations(kill.counterexample, mutant)) {
                if (w.property == kill.property) kill.explanation = w.explanation;
            }
            assert(!kill.explanation.empty());
            r.outcome = ObservationMutantOutcome::Killed;
            r.kill = std::move(kill);
            r.difference.reset();
            return r;
        }
    }
    r.outcome = ObservationMutantOutcome::Survived;
    return r;
}

}  // namespace deskcheck::props
