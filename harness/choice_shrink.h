// Shrinking a choice vector (sim/choices.h), Hypothesis-style: the candidates are simpler vectors
// — shorter (the rest answered 0), with a block of answers removed, with a block zeroed, with one
// answer made smaller — and the one builder (sim/build.h) turns each into a valid scenario, so
// no candidate needs repairing. Shared by RapidCheck's shrink of the property suite's choice
// vectors (harness/generators_rc.cpp) and the campaign's shrink of a PRNG case (its answers
// recorded by sim::RecordingChoices), which then goes on with the scenario shrinker (shrink.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/shrink.h"
#include "sim/build.h"

namespace deskcheck::props {

using ChoiceVector = std::vector<std::uint32_t>;

// The candidates simpler than one vector, in a fixed order, simplest kinds first, enumerated
// lazily by slot: at(i) is nullopt where slot i gives nothing new (a zero block already zero).
class ChoiceShrinks {
public:
    explicit ChoiceShrinks(ChoiceVector values);
    std::size_t size() const { return slots_; }
    std::optional<ChoiceVector> at(std::size_t slot) const;

private:
    std::optional<ChoiceVector> truncated(std::size_t k) const;
    std::optional<ChoiceVector> without_block(std::size_t k) const;
    std::optional<ChoiceVector> zero_block(std::size_t k) const;
    std::optional<ChoiceVector> smaller_answer(std::size_t k) const;

    ChoiceVector values_;
    std::vector<std::size_t> lengths_;  // truncation lengths, shortest first
    std::size_t slots_ = 0;
};

// The answers `build_scenario_from_prng(rng, options)` reads, as a choice vector that rebuilds the
// same scenario (build_scenario_from_vector).
ChoiceVector recorded_choices(sim::Prng rng, const sim::BuildOptions& options);

struct ChoiceShrinkResult {
    ChoiceVector values;         // always a failing vector: the input, or a candidate that failed
    sim::Scenario scenario;      // built from `values`
    std::uint32_t attempts = 0;
    std::uint32_t accepted = 0;
    bool stopped = false;
};

// Greedy: the first candidate whose scenario (built with `build`, named `rules`) still fails is
// kept and the search restarts from it, until no candidate fails or `options.attempts_max`
// candidates were tried.
ChoiceShrinkResult shrink_choices(const ChoiceVector& failing, const sim::BuildOptions& build, const std::string& rules,
                                  const StillFails& still_fails, const ShrinkOptions& options);

}  // namespace deskcheck::props
