// Small builders for hand-made scenarios in the tests. Every scenario starts from `desk()`:
// one 1920x1080 monitor at 96 dpi, no windows.
#pragma once

#include <string>

#include "sim/scenario.h"

namespace deskcheck::testing {

inline sim::Scenario desk(std::uint32_t dpi = 96) {
    sim::Scenario s;
    s.seed = 7;
    s.monitors.push_back(sim::Monitor{1, Rect{0, 0, 1920, 1080}, dpi, true});
    return s;
}

inline sim::App& app(sim::Scenario& s, ProcessId pid, TimeMs latency_min, TimeMs latency_max) {
    sim::App a;
    a.pid = pid;
    a.name = "app" + std::to_string(pid);
    a.latency_ms_min = latency_min;
    a.latency_ms_max = latency_max;
    s.apps.push_back(a);
    return s.apps.back();
}

inline sim::Window& window(sim::Scenario& s, WindowId id, ProcessId pid, Rect bounds,
                           Framework fw = Framework::Win32, DpiAwareness aw = DpiAwareness::PerMonitor) {
    sim::Window w;
    w.id = id;
    w.pid = pid;
    w.bounds = bounds;
    w.framework = fw;
    w.awareness = aw;
    w.class_name = fw == Framework::Wpf ? "HwndWrapper" : "Notepad";
    w.title = "window " + std::to_string(id);
    s.windows.push_back(w);
    return s.windows.back();
}

inline sim::Control& control(sim::Window& w, ElementId id, sim::ControlKind kind, Rect bounds,
                             std::string name = "") {
    sim::Control c;
    c.id = id;
    c.kind = kind;
    c.bounds = bounds;
    c.name = name.empty() ? "control " + std::to_string(id) : name;
    c.automation_id = "ctl" + std::to_string(id);
    const bool classic = w.framework == Framework::Win32 || w.framework == Framework::WinForms;
    switch (kind) {
        case sim::ControlKind::Edit: c.role = "Edit"; c.own_handle = classic; break;
        case sim::ControlKind::Toggle: c.role = "CheckBox"; break;
        case sim::ControlKind::Expander: c.role = "TreeItem"; break;
        case sim::ControlKind::ListItem: c.role = "ListItem"; break;
        case sim::ControlKind::Button:
        case sim::ControlKind::SubmitButton:
        case sim::ControlKind::PostButton: c.role = "Button"; c.own_handle = classic; break;
        case sim::ControlKind::Feed: c.role = "Text"; break;
        case sim::ControlKind::Group: c.role = "Group"; break;
    }
    w.controls.push_back(c);
    return w.controls.back();
}

}  // namespace deskcheck::testing
