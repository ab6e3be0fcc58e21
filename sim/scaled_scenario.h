// Scenarios that grow along one dimension, for `deskcheck bench --scaling` (the cost of a run must
// grow at most linearly in its work): a base desktop — one window with an edit and a button grid,
// a batch of Ctrl+A-then-type steps, a user who types — with one dimension multiplied by 1, 4 or 16 and the
// others at their base. The largest factor reaches the format's bound in that dimension
// (sim/validate.h), so every scaled scenario is valid.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/scenario.h"

namespace deskcheck::sim {

enum class ScalingDimension : std::uint8_t { Steps, Events, Controls, Text };
inline constexpr std::array<ScalingDimension, 4> scaling_dimensions{ScalingDimension::Steps, ScalingDimension::Events,
                                                                    ScalingDimension::Controls, ScalingDimension::Text};
inline constexpr std::array<std::uint32_t, 3> scaling_factors{1, 4, 16};

std::string_view to_string(ScalingDimension d);

// The base sizes, multiplied by the factor in `d`: steps 2 (Ctrl+A, then typing), user events
// 4 (each types a text), controls 4 in the window (a grid of buttons and toggles besides the
// edit; 63 at 16x, the window's bound), texts 256 bytes (the edit's value, each step's and each event's text).
Scenario scaled_scenario(ScalingDimension d, std::uint32_t factor);

// How much of `d` the scenario holds (its steps, events, controls or text bytes of one text).
std::size_t scaled_amount(ScalingDimension d, std::uint32_t factor);

}  // namespace deskcheck::sim
