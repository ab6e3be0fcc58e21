// The one scenario builder: every decision (how many windows, which control kind, is this fault
// kind on, which step) is asked of a choice source (sim/choices.h) — the seeded PRNG, libFuzzer's
// bytes or RapidCheck's choice vector. An answer of 0 is always the simplest: one monitor, one
// window of one control, no faults, no events, one step, the shortest text. So an exhausted byte
// input or a zeroed choice vector builds the smallest desktop, and every shrink of the choices is
// a valid, simpler scenario.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/choices.h"
#include "sim/prng.h"
#include "sim/scenario.h"

namespace deskcheck::sim {

struct BuildOptions {
    std::uint32_t windows_max = 4;      // visible windows, >= 1
    std::uint32_t controls_max = 6;     // per window, >= 1
    std::uint32_t steps_max = 8;        // >= 1 (a launch step may replace one)
    bool swarm_faults = true;           // STYLE 4: whole fault kinds on or off per scenario
    bool user = true;                   // a user who types/clicks (S-5)
    bool hostile_events = true;         // windows to front, popups, reorders, occluders
    bool unreadable = true;             // unreadable and intermittently unreadable controls (S-3)
    bool ref_of_other_window = true;    // E-3 steps: a ref of one window sent with another as target
    // What the PRNG population (whose shares the campaign was tuned on) leaves out and the fuzzer
    // and RapidCheck draw as well: a launchable app and launch steps (F-8), observe steps (B-3),
    // hotkeys that promise nothing (ctrl+v, enter, shift+tab), free texts.
    bool extras = false;
    // Rare steps (the PRNG population too): a launchable app and launch steps (F-8), observe steps
    // (B-3), at rates low enough not to crowd out the other kinds (extras draws them more often).
    bool rare_steps = true;
};

// The options of each source's population, in one place.
BuildOptions campaign_build_options();  // PRNG: run, nightly, bench, mutate-rules
BuildOptions fuzz_build_options();      // libFuzzer bytes: fuzz_batch, convert
BuildOptions property_build_options();  // RapidCheck choice vectors: the property and negative tests

// A valid scenario (it passes validate()) from the answers of `choices`. Deterministic in them.
Scenario build_scenario(Choices& choices, const BuildOptions& options = campaign_build_options());

// The sources, spelled out.
Scenario build_scenario_from_prng(Prng& rng, const BuildOptions& options = campaign_build_options());
// fuzz_batch's decoding: inputs longer than this many bytes are not read past it.
inline constexpr std::size_t bytes_input_max = 4096;
Scenario build_scenario_from_bytes(const std::uint8_t* data, std::size_t size,
                                   const BuildOptions& options = fuzz_build_options());
Scenario build_scenario_from_vector(const std::vector<std::uint32_t>& values,
                                    const BuildOptions& options = property_build_options());

// Shared with hand-written scenarios (tests): the UIA role a control kind shows, a framework's
// window class, a rectangle's centre, where control `index` of `count` sits in `window`.
std::string_view role_of(ControlKind kind);
std::string_view class_name_of(Framework framework);
Point center_of(const Rect& r);
Rect control_slot(const Rect& window, std::uint32_t index, std::uint32_t count);

}  // namespace deskcheck::sim
