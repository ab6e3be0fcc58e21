// The worlds fuzz_journal recovers in (fuzz/fuzz_journal.cpp) and its seeds are written from
// (fuzz/seed_writer.cpp): generated R0 fixtures from fixed PRNG seeds, so that the paths, windows
// and controls a seed journal names exist in the world its first byte selects.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/prng.h"
#include "sim/r0_generate.h"

namespace deskcheck::fuzz {

inline constexpr std::size_t journal_worlds = 8;

// World `index` (taken modulo journal_worlds): the fixture generated from PRNG seed 0x10a0 + index.
inline const sim::R0Fixture& journal_world(std::size_t index) {
    static const std::array<sim::R0Fixture, journal_worlds> worlds = [] {
        std::array<sim::R0Fixture, journal_worlds> out;
        for (std::size_t i = 0; i < journal_worlds; ++i) {
            sim::Prng rng(0x10a0 + i);
            sim::R0PrngChoices choices(rng);
            out[i] = sim::generate_r0_fixture(choices);
        }
        return out;
    }();
    return worlds[index % journal_worlds];
}

}  // namespace deskcheck::fuzz
