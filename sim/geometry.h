// Monitors and DPI (S-2, E-6): pure functions over scenario values.
//
// Rounding (documented once, used everywhere): both directions use floor division in 64-bit
// integers, so a client point and a physical point round-trip exactly whenever the physical
// offset from the window's top-left is a multiple of monitor_dpi / gcd(monitor_dpi, window_dpi)
// (at 144 dpi for an unaware window: multiples of 3 physical pixels).
#pragma once

#include <cstdint>
#include <vector>

#include "model/desktop.h"
#include "sim/scenario.h"

namespace deskcheck::sim {

// The monitor a window is on: the first listed monitor containing its top-left, else the primary.
// `monitors` is non-empty and has exactly one primary (validate()).
const Monitor& monitor_of(const std::vector<Monitor>& monitors, const Rect& window_bounds);
const Monitor& primary_monitor(const std::vector<Monitor>& monitors);

// The DPI a window believes it runs at: PerMonitor -> its monitor's, System -> the primary's,
// Unaware -> 96.
std::uint32_t window_dpi(DpiAwareness awareness, std::uint32_t monitor_dpi, std::uint32_t system_dpi);

// floor(a / b) for b > 0.
std::int64_t floor_div(std::int64_t a, std::int64_t b);

// E-6: the client point (the window's own coordinate space) of a physical screen point:
// logical = floor((physical - top_left) * window_dpi / monitor_dpi).
Point to_client(Point physical, Point top_left, std::uint32_t window_dpi, std::uint32_t monitor_dpi);
// And back: physical = top_left + floor(logical * monitor_dpi / window_dpi).
Point to_screen(Point client, Point top_left, std::uint32_t window_dpi, std::uint32_t monitor_dpi);

}  // namespace deskcheck::sim
