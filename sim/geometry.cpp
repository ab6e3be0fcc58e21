#include "sim/geometry.h"

#include <cassert>
#include <limits>

namespace deskcheck::sim {

const Monitor& primary_monitor(const std::vector<Monitor>& monitors) {
    assert(!monitors.empty());
    for (const auto& m : monitors)
        if (m.primary) return m;
    return monitors.front();
}

const Monitor& monitor_of(const std::vector<Monitor>& monitors, const Rect& window_bounds) {
    assert(!monitors.empty());
    const Point top_left{window_bounds.left, window_bounds.top};
    for (const auto& m : monitors)
        if (m.bounds.contains(top_left)) return m;
    return primary_monitor(monitors);
}

std::uint32_t window_dpi(DpiAwareness awareness, std::uint32_t monitor_dpi, std::uint32_t system_dpi) {
    switch (awareness) {
        case DpiAwareness::Unaware: return 96;
        case DpiAwareness::System: return system_dpi;
        case DpiAwareness::PerMonitor: return monitor_dpi;
    }
    return monitor_dpi;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    assert(b > 0);
    const std::int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

namespace {

std::int32_t clamp32(std::int64_t v) {
    constexpr auto lo = static_cast<std::int64_t>(std::numeric_limits<std::int32_t>::min());
    constexpr auto hi = static_cast<std::int64_t>(std::numeric_limits<std::int32_t>::max());
    return static_cast<std::int32_t>(v < lo ? lo : (v > hi ? hi : v));
}

std::int64_t scale(std::int64_t v, std::uint32_t num, std::uint32_t den) {
    assert(den > 0);
    return floor_div(v * static_cast<std::int64_t>(num), static_cast<std::int64_t>(den));
}

}  // namespace

Point to_client(Point physical, Point top_left, std::uint32_t wdpi, std::uint32_t mdpi) {
    assert(wdpi > 0);
    assert(mdpi > 0);
    const std::int64_t dx = static_cast<std::int64_t>(physical.x) - top_left.x;
    const std::int64_t dy = static_cast<std::int64_t>(physical.y) - top_left.y;
    return Point{clamp32(scale(dx, wdpi, mdpi)), clamp32(scale(dy, wdpi, mdpi))};
}

Point to_screen(Point client, Point top_left, std::uint32_t wdpi, std::uint32_t mdpi) {
    assert(wdpi > 0);
    assert(mdpi > 0);
    return Point{clamp32(top_left.x + scale(client.x, mdpi, wdpi)),
                 clamp32(top_left.y + scale(client.y, mdpi, wdpi))};
}

}  // namespace deskcheck::sim
