#include "harness/choice_shrink.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace deskcheck::props {
namespace {

// Block sizes for removing and zeroing, largest first (a window's or a step's answers go together).
constexpr std::array<std::size_t, 4> block_sizes{8, 4, 2, 1};
// How many smaller values each answer tries: 0, then halfway, then ever closer (binary search)
// down to steps of 2^32 / 2^12: an answer below n <= 4096 changes within that.
constexpr std::size_t smaller_tries = 12;

std::size_t block_slots(std::size_t n) {
    std::size_t slots = 0;
    for (std::size_t b : block_sizes) slots += n >= b ? n - b + 1 : 0;
    return slots;
}

// Slot k of the blocks: (start, size).
std::pair<std::size_t, std::size_t> block_at(std::size_t n, std::size_t k) {
    for (std::size_t b : block_sizes) {
        const std::size_t here = n >= b ? n - b + 1 : 0;
        if (k < here) return {k, b};
        k -= here;
    }
    assert(false);
    return {0, 0};
}

}  // namespace

ChoiceShrinks::ChoiceShrinks(ChoiceVector values) : values_(std::move(values)) {
    // Shorter vectors: 0, n/2, 3n/4, ... n-1 answers kept.
    const std::size_t n = values_.size();
    for (std::size_t cut = n; cut > 0; cut /= 2) lengths_.push_back(n - cut);
    const std::size_t blocks = block_slots(n);
    slots_ = lengths_.size() + 2 * blocks + n * smaller_tries;
}

std::optional<ChoiceVector> ChoiceShrinks::at(std::size_t slot) const {
    assert(slot < slots_);
    if (slot < lengths_.size()) return truncated(slot);
    slot -= lengths_.size();
    const std::size_t blocks = block_slots(values_.size());
    if (slot < blocks) return without_block(slot);
    slot -= blocks;
    if (slot < blocks) return zero_block(slot);
    return smaller_answer(slot - blocks);
}

std::optional<ChoiceVector> ChoiceShrinks::truncated(std::size_t k) const {
    return ChoiceVector(values_.begin(), values_.begin() + static_cast<std::ptrdiff_t>(lengths_[k]));
}

std::optional<ChoiceVector> ChoiceShrinks::without_block(std::size_t k) const {
    const auto [start, size] = block_at(values_.size(), k);
    ChoiceVector out = values_;
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(start), out.begin() + static_cast<std::ptrdiff_t>(start + size));
    return out;
}

std::optional<ChoiceVector> ChoiceShrinks::zero_block(std::size_t k) const {
    const auto [start, size] = block_at(values_.size(), k);
    const auto first = values_.begin() + static_cast<std::ptrdiff_t>(start);
    if (size == 1 || std::all_of(first, first + static_cast<std::ptrdiff_t>(size), [](std::uint32_t v) { return v == 0; })) {
        return std::nullopt;  // a single answer is the smaller_answer pass's (it tries 0 first)
    }
    ChoiceVector out = values_;
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(start), out.begin() + static_cast<std::ptrdiff_t>(start + size), 0u);
    return out;
}

// Answer i made smaller: try j of 0, v/2, 3v/4, ... (v minus ever smaller halves).
std::optional<ChoiceVector> ChoiceShrinks::smaller_answer(std::size_t k) const {
    const std::size_t i = k / smaller_tries;
    const std::size_t j = k % smaller_tries;
    const std::uint32_t v = values_[i];
    const std::uint32_t step = j == 0 ? v : v >> j;
    if (step == 0) return std::nullopt;
    ChoiceVector out = values_;
    out[i] = v - step;
    return out;
}

ChoiceVector recorded_choices(sim::Prng rng, const sim::BuildOptions& options) {
    sim::PrngChoices source(rng);
    sim::RecordingChoices recording(source);
    (void)sim::build_scenario(recording, options);
    return recording.recorded();
}

ChoiceShrinkResult shrink_choices(const ChoiceVector& failing, const sim::BuildOptions& build, const std::string& rules,
                                  const StillFails& still_fails, const ShrinkOptions& options) {
    ChoiceShrinkResult out;
    out.values = failing;
    out.scenario = sim::build_scenario_from_vector(failing, build);
    out.scenario.rules = rules;
    bool progress = true;
    while (progress && out.attempts < options.attempts_max && !out.stopped) {
        progress = false;
        const ChoiceShrinks shrinks(out.values);
        for (std::size_t slot = 0; slot < shrinks.size() && out.attempts < options.attempts_max; ++slot) {
            if (options.stop && options.stop()) {
                out.stopped = true;
                break;
            }
            std::optional<ChoiceVector> candidate = shrinks.at(slot);
            if (!candidate) continue;
            ++out.attempts;
            sim::Scenario scenario = sim::build_scenario_from_vector(*candidate, build);
            scenario.rules = rules;
            if (!still_fails(scenario)) continue;
            out.values = std::move(*candidate);
            out.scenario = std::move(scenario);
            ++out.accepted;
            progress = true;
            break;
        }
    }
    return out;
}

}  // namespace deskcheck::props
