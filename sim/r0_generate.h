// Generated R0 fixtures: one builder reading every decision from a choice source (a PRNG, fuzzer
// bytes, or RapidCheck's vector), so that shrinking the choices towards zeros and fewer of them
// gives a smaller fixture (fewer steps, files, windows). Small on purpose: a few folders, files,
// windows of each framework, up to r0_generated_steps_max steps, other programs writing meanwhile.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/prng.h"
#include "sim/r0_world.h"

namespace deskcheck::sim {

inline constexpr std::uint32_t r0_generated_steps_max = 6;

class R0Choices {
public:
    virtual ~R0Choices() = default;
    // A number in [0, bound); bound > 0. 0 is always the simplest answer.
    virtual std::uint32_t pick(std::uint32_t bound) = 0;
};

class R0PrngChoices final : public R0Choices {
public:
    explicit R0PrngChoices(Prng& rng) : rng_(rng) {}
    std::uint32_t pick(std::uint32_t bound) override { return static_cast<std::uint32_t>(rng_.below(bound)); }

private:
    Prng& rng_;
};

// Reads a fixed list; past its end every answer is 0.
class R0ListChoices final : public R0Choices {
public:
    explicit R0ListChoices(const std::vector<std::uint32_t>& values) : values_(values) {}
    std::uint32_t pick(std::uint32_t bound) override { return pos_ < values_.size() ? values_[pos_++] % bound : 0; }

private:
    const std::vector<std::uint32_t>& values_;
    std::size_t pos_ = 0;
};

// Where a generated case fails: after step k's post-check, or at operation n with a fault kind.
struct R0FailurePoint {
    bool at_operation = false;
    std::uint32_t step = 1;  // !at_operation: 1..steps
    OpFault fault;           // at_operation
};

R0Fixture generate_r0_fixture(R0Choices& choices);
R0FailurePoint generate_r0_failure(R0Choices& choices, const R0Fixture& fixture, std::size_t normal_ops);

}  // namespace deskcheck::sim
