#include "sim/scaled_scenario.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "sim/largest_scenario.h"
#include "sim/validate.h"

namespace deskcheck::sim {
namespace {

constexpr std::size_t base_steps = 2;
constexpr std::size_t base_events = 4;
constexpr std::size_t base_controls = 4;
constexpr std::size_t base_text = text_length_max / 16;

// Grid cell `n` below the edit: buttons and toggles, 16 to a row.
Control grid_control(std::size_t n) {
    const auto column = static_cast<std::int32_t>(n % 16);
    const auto row = static_cast<std::int32_t>(n / 16);
    const ControlKind kind = n % 2 == 0 ? ControlKind::Button : ControlKind::Toggle;
    return plain_control(static_cast<ElementId>(10 + n), kind, n % 2 == 0 ? "Button" : "CheckBox", rect(10 + column * 48, 80 + row * 24, 40, 16));
}

}  // namespace

std::string_view to_string(ScalingDimension d) {
    switch (d) {
        case ScalingDimension::Steps: return "steps";
        case ScalingDimension::Events: return "events";
        case ScalingDimension::Controls: return "controls";
        case ScalingDimension::Text: return "text";
    }
    return "?";
}

std::size_t scaled_amount(ScalingDimension d, std::uint32_t factor) {
    switch (d) {
        case ScalingDimension::Steps: return base_steps * factor;
        case ScalingDimension::Events: return base_events * factor;
        case ScalingDimension::Controls: return std::min(base_controls * factor, controls_per_window_max - 1);  // the edit is one
        case ScalingDimension::Text: return base_text * factor;
    }
    return 0;
}

Scenario scaled_scenario(ScalingDimension d, std::uint32_t factor) {
    assert(factor >= 1 && factor <= 16);
    const auto amount = [&](ScalingDimension which, std::size_t base) { return which == d ? scaled_amount(d, factor) : base; };
    const std::size_t text = amount(ScalingDimension::Text, base_text);
    Scenario s;
    s.seed = 0x5ca1eULL;
    s.monitors.push_back(Monitor{1, rect(0, 0, 2560, 1440), 96, true});
    Window w;
    w.id = 1;
    w.pid = 100;
    w.bounds = rect(0, 0, 1600, 900);
    w.class_name = "Notepad";
    w.title = "scaled";
    Control edit = plain_control(1, ControlKind::Edit, "Edit", rect(10, 10, 1500, 30));
    edit.value = growth_text("initial value", text);
    edit.selection = Selection{static_cast<std::int64_t>(edit.value.size()), 0};
    w.controls.push_back(edit);
    for (std::size_t n = 0; n < amount(ScalingDimension::Controls, base_controls); ++n) {
        w.controls.push_back(grid_control(n));
    }
    s.windows.push_back(w);
    App a;
    a.pid = 100;
    a.name = "notes";
    a.latency_ms_max = 20;
    s.apps.push_back(a);
    s.foreground = 1;
    for (std::size_t i = 0; i < amount(ScalingDimension::Events, base_events); ++i) {
        Event e;
        e.at_ms = static_cast<TimeMs>(5 * i);
        e.kind = EventKind::UserTypes;
        e.text = growth_text("user " + std::to_string(i), text);
        s.events.push_back(e);
    }
    // Pairs of Ctrl+A and typing: each pair replaces the value, so that more steps is more steps of
    // the same size (typing that appended would make each step's reads longer than the last).
    for (std::size_t i = 0; i < amount(ScalingDimension::Steps, base_steps); ++i) {
        Step step;
        step.kind = i % 2 == 0 ? StepKind::Hotkey : StepKind::Type;
        step.window = 1;
        step.control = 1;
        if (i % 2 == 0) step.keys = "ctrl+a";
        else step.text = growth_text("step " + std::to_string(i), text);
        s.steps.push_back(step);
    }
    assert(!validate(s));
    return s;
}

}  // namespace deskcheck::sim
