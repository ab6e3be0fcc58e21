// Our own PRNG (STYLE 2): splitmix64 seeding + xoshiro256**, integer and ratio draws only.
// Passed explicitly; never a global, never seeded from a clock. std::*_distribution differs
// between standard libraries, so it is never used.
#pragma once

#include <cassert>
#include <cstdint>

namespace deskcheck::sim {

class Prng {
public:
    explicit Prng(std::uint64_t seed) {
        std::uint64_t x = seed;
        for (auto& s : state_) s = splitmix(x);
    }

    std::uint64_t next() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    // Uniform in [0, bound) without modulo bias (Lemire's method). bound > 0.
    std::uint64_t below(std::uint64_t bound) {
        assert(bound > 0);
        const std::uint64_t threshold = (0 - bound) % bound;
        for (;;) {
            const std::uint64_t r = next();
            if (r >= threshold) return r % bound;
        }
    }

    // Uniform in [lo, hi], inclusive. lo <= hi.
    std::int64_t between(std::int64_t lo, std::int64_t hi) {
        assert(lo <= hi);
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
        return span == 0 ? static_cast<std::int64_t>(next()) : lo + static_cast<std::int64_t>(below(span));
    }

    // True with probability permille / 1000.
    bool chance(std::uint32_t permille) {
        assert(permille <= 1000);
        return below(1000) < permille;
    }

    // An independent stream (for a sub-component), deterministic given this one's state.
    Prng split() { return Prng(next()); }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitmix(std::uint64_t& x) {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint64_t state_[4]{};
};

}  // namespace deskcheck::sim
