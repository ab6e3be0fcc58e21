// Fuzzer bytes -> Scenario: the decoding fuzz_batch uses, and `deskcheck convert` replays.
//
// The bytes answer, one by one, the questions sim::generate_scenario asks of its PRNG (how many
// monitors, which DPI, which control kind, is the fault kind on, which step...), through our
// FuzzedDataProvider: integers from the end of the input, strings from the front. A small mutation
// therefore changes one answer and the rest of the desktop stays as it was, and an exhausted input
// answers "the minimum, off, the first choice" — so short inputs decode to small desktops.
// Beyond the generator, the bytes may also ask for what it never draws: launchable apps and launch
// steps (F-8), observe steps (B-3), hotkeys it does not use (paste, enter, shift+tab), free texts;
// and like the generator, now and then a ref of one window used with another as target (E-3).
//
// Most decodings pass sim::validate() by construction; the caller still validates and rejects the
// rest (a fuzz target returns -1 for them). The result is a pure function of the bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/scenario.h"

namespace deskcheck::fuzz {

// Bounds of a decoded scenario (the nightly's population: small desktops, short batches).
inline constexpr std::uint32_t bytes_windows_max = 4;
inline constexpr std::uint32_t bytes_controls_max = 6;
inline constexpr std::uint32_t bytes_steps_max = 8;
inline constexpr std::size_t bytes_text_length_max = 16;
// Longer inputs are not read past this many bytes (libFuzzer's -max_len in fuzz_batch.options).
inline constexpr std::size_t bytes_input_max = 4096;

sim::Scenario scenario_from_bytes(const std::uint8_t* data, std::size_t size);

}  // namespace deskcheck::fuzz
