// The largest valid scenario: every bound of the format at once (DESIGN "Bounded everything"), with
// texts that grow one edit's value as far as the format lets it grow. It is the input the memory
// bound is stated for (`deskcheck bench`, tests/cli/memory_bound.sh): a run over it must stay linear
// in its size. tests/data/largest-valid-scenario.json is this scenario, encoded canonically (a unit
// test keeps the two equal).
//
// What it holds: 4 monitors, 16 windows with an app each, 64 user events (each types a text of
// text_length_max bytes into the focused edit of the front window: the value grows by all of it),
// 32 app events, 32 steps (each types a text of text_length_max bytes into the same edit, which the
// tool reads before and after every step), the edit's initial value and the post button's comment
// at text_length_max, and as many further controls (up to 64 per window) as the canonical text
// has room for under scenario_text_bytes_max.
#pragma once

#include <cstddef>
#include <string>

#include "sim/scenario.h"

namespace deskcheck::sim {

// The edit every step and every user event types into (window 1).
inline constexpr WindowId largest_scenario_window = 1;
inline constexpr ElementId largest_scenario_edit = 1;

// A text of exactly `bytes` bytes (UTF-8, never cut inside a code point; printable ASCII, two-byte
// code points and the odd control byte), different for every `tag`.
std::string growth_text(const std::string& tag, std::size_t bytes);

// A rectangle from its corner and size; a control of `kind` named "c<id>" with nothing else set
// (the benchmark scenarios' building blocks, sim/scaled_scenario.h too).
Rect rect(std::int32_t left, std::int32_t top, std::int32_t width, std::int32_t height);
Control plain_control(ElementId id, ControlKind kind, std::string role, Rect bounds);

// The scenario. Deterministic: the same bytes on every call and every compiler.
Scenario largest_valid_scenario();

}  // namespace deskcheck::sim
