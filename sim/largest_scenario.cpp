#include "sim/largest_scenario.h"

#include <cassert>

#include "sim/scenario_json.h"
#include "sim/validate.h"

namespace deskcheck::sim {
namespace {

constexpr std::int32_t window_width = 1600;
constexpr std::int32_t window_height = 900;
constexpr std::int32_t cell_width = 24;   // filler controls: a grid of small cells
constexpr std::int32_t cell_height = 12;
constexpr std::int32_t grid_top = 120;    // below the edit, the feed and the post button

Rect window_bounds(std::size_t index) {
    // Staggered over the primary monitor, window 1 on top at the origin.
    const auto offset = static_cast<std::int32_t>(index) * 40;
    return rect(offset, offset, window_width, window_height);
}

// The first window: the growing edit, a feed and the post button that posts into it.
Window first_window() {
    Window w;
    w.id = largest_scenario_window;
    w.pid = 100;
    w.bounds = window_bounds(0);
    w.class_name = "Notepad";
    w.title = "largest";
    Control edit = plain_control(largest_scenario_edit, ControlKind::Edit, "Edit", rect(10, 10, 1500, 30));
    edit.value = growth_text("initial value", text_length_max);
    edit.selection = Selection{static_cast<std::int64_t>(edit.value.size()), 0};  // the caret at the end
    w.controls.push_back(edit);
    w.controls.push_back(plain_control(2, ControlKind::Feed, "Text", rect(10, 50, 1500, 30)));
    Control post = plain_control(3, ControlKind::PostButton, "Button", rect(10, 90, 100, 20));
    post.feed = 2;
    post.comment = growth_text("comment", text_length_max);
    w.controls.push_back(post);
    return w;
}

Scenario skeleton() {
    Scenario s;
    s.seed = 0x1a49e57ULL;
    for (std::uint32_t m = 0; m < monitors_max; ++m) {
        const auto left = static_cast<std::int32_t>(m) * 2560;
        s.monitors.push_back(Monitor{m + 1, rect(left, 0, 2560, 1440), 96, m == 0});
    }
    s.windows.push_back(first_window());
    for (std::size_t i = 1; i < windows_max; ++i) {
        Window w;
        w.id = static_cast<WindowId>(i + 1);
        w.pid = static_cast<ProcessId>(100 + i);
        w.bounds = window_bounds(i);
        w.class_name = "Filler";
        w.title = "w" + std::to_string(i + 1);
        s.windows.push_back(w);
    }
    for (std::size_t i = 0; i < windows_max; ++i) {
        App a;
        a.pid = static_cast<ProcessId>(100 + i);
        a.name = "app" + std::to_string(i + 1);
        a.latency_ms_max = 20;
        s.apps.push_back(a);
    }
    s.foreground = largest_scenario_window;
    // The user types first (the value is at its largest for every step's reads), one text a ms.
    for (std::size_t i = 0; i < user_events_max; ++i) {
        Event e;
        e.at_ms = static_cast<TimeMs>(i);
        e.kind = EventKind::UserTypes;
        e.text = growth_text("user " + std::to_string(i), text_length_max);
        s.events.push_back(e);
    }
    // App events that leave the edit where it is: the front window comes to the front again.
    for (std::size_t i = 0; i < app_events_max; ++i) {
        Event e;
        e.at_ms = static_cast<TimeMs>(100 + 10 * i);
        e.kind = EventKind::WindowToFront;
        e.window = largest_scenario_window;
        s.events.push_back(e);
    }
    for (std::size_t i = 0; i < steps_max; ++i) {
        Step step;
        step.kind = StepKind::Type;
        step.window = largest_scenario_window;
        step.control = largest_scenario_edit;
        step.text = growth_text("step " + std::to_string(i), text_length_max);
        s.steps.push_back(step);
    }
    return s;
}

// Filler control number `n` (0-based) of window `wi`: buttons and toggles in a grid.
Control filler(std::size_t wi, std::size_t n, ElementId id) {
    const auto column = static_cast<std::int32_t>(n % 60);
    const auto row = static_cast<std::int32_t>(n / 60);
    const Rect bounds = window_bounds(wi);
    const Rect r = rect(bounds.left + 10 + column * cell_width, bounds.top + grid_top + row * (cell_height + 4),
                        cell_width - 4, cell_height);
    return n % 2 == 0 ? plain_control(id, ControlKind::Button, "Button", r) : plain_control(id, ControlKind::Toggle, "CheckBox", r);
}

// The skeleton with `count` filler controls, spread over the windows (window 1 first), each
// window holding at most controls_per_window_max.
Scenario with_fillers(Scenario s, std::size_t count) {
    ElementId next_id = 100;
    for (std::size_t wi = 0; wi < s.windows.size() && count > 0; ++wi) {
        auto& controls = s.windows[wi].controls;
        std::size_t n = 0;
        while (controls.size() < controls_per_window_max && count > 0) {
            controls.push_back(filler(wi, n++, next_id++));
            --count;
        }
    }
    return s;
}

std::size_t canonical_bytes(const Scenario& s) { return encode_scenario_text(s).size(); }

}  // namespace

Rect rect(std::int32_t left, std::int32_t top, std::int32_t width, std::int32_t height) {
    return Rect{left, top, left + width, top + height};
}

Control plain_control(ElementId id, ControlKind kind, std::string role, Rect bounds) {
    Control c;
    c.id = id;
    c.kind = kind;
    c.role = std::move(role);
    c.name = "c" + std::to_string(id);
    c.bounds = bounds;
    return c;
}

std::string growth_text(const std::string& tag, std::size_t bytes) {
    // "tag é line N\x01 " repeated: ASCII, a two-byte code point and a control byte per line.
    std::string out;
    out.reserve(bytes);
    for (std::size_t line = 0; out.size() < bytes; ++line) {
        std::string piece = "<" + tag + " \xc3\xa9 line " + std::to_string(line) + (line % 8 == 7 ? "\x01" : "") + "> ";
        if (out.size() + piece.size() > bytes) piece.assign(bytes - out.size(), '.');
        out += piece;
    }
    assert(out.size() == bytes);
    return out;
}

Scenario largest_valid_scenario() {
    const Scenario base = skeleton();
    std::size_t room = 0;
    for (const auto& w : base.windows) room += controls_per_window_max - w.controls.size();
    // The most filler controls whose canonical text still fits (binary search: sizes only grow).
    std::size_t low = 0;
    std::size_t high = room;
    if (canonical_bytes(with_fillers(base, high)) > scenario_text_bytes_max) {
        while (low < high) {
            const std::size_t mid = low + (high - low + 1) / 2;
            if (canonical_bytes(with_fillers(base, mid)) <= scenario_text_bytes_max) low = mid;
            else high = mid - 1;
        }
    } else {
        low = room;
    }
    Scenario out = with_fillers(base, low);
    assert(!validate(out));
    return out;
}

}  // namespace deskcheck::sim
