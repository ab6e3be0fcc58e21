// Scenario generation from our PRNG: used by the determinism test, the fuzz targets (through a
// byte-driven source) and the benchmark. RapidCheck generators live in properties/.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/prng.h"
#include "sim/scenario.h"

namespace deskcheck::sim {

struct GenerateOptions {
    std::uint32_t windows_max = 4;      // visible windows, >= 1
    std::uint32_t controls_max = 6;     // per window, >= 1
    std::uint32_t steps_max = 8;        // >= 1
    bool swarm_faults = true;           // STYLE 4: whole fault kinds on or off per scenario
    bool user = true;                   // a user who types/clicks (S-5)
    bool hostile_events = true;         // windows to front, popups, reorders, occluders
};

// Shared by every scenario builder (this generator, the fuzz decoder, the RapidCheck generators):
// the UIA role a control kind shows, a framework's window class, a rectangle's centre.
std::string_view role_of(ControlKind kind);
std::string_view class_name_of(Framework framework);
Point center_of(const Rect& r);
// Where control `index` of `count` sits in `window`: a grid of rows under the title bar.
Rect control_slot(const Rect& window, std::uint32_t index, std::uint32_t count);

// A valid scenario (it passes validate()) drawn from `rng`. Deterministic in the PRNG state.
Scenario generate_scenario(Prng& rng, const GenerateOptions& options = {});

}  // namespace deskcheck::sim
