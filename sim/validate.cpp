#include "sim/validate.h"

#include <cassert>
#include <map>
#include <set>
#include <utility>

namespace deskcheck::sim {
namespace {

using Check = std::optional<ValidationError>;

Check fail(std::string path, std::string reason) {
    return ValidationError{std::move(path), std::move(reason)};
}

std::string at(std::string_view base, std::size_t index) {
    return std::string(base) + "/" + std::to_string(index);
}

bool coordinate_ok(std::int32_t v) { return v >= -coordinate_limit && v <= coordinate_limit; }
bool point_ok(Point p) { return coordinate_ok(p.x) && coordinate_ok(p.y); }

Check check_point(const std::string& path, Point p) {
    if (!point_ok(p)) return fail(path, "coordinates must lie within +-" + std::to_string(coordinate_limit));
    return std::nullopt;
}

Check check_rect(const std::string& path, const Rect& r) {
    if (!point_ok({r.left, r.top}) || !point_ok({r.right, r.bottom}))
        return fail(path, "coordinates must lie within +-" + std::to_string(coordinate_limit));
    if (r.right <= r.left) return fail(path, "rect is empty: right must be greater than left");
    if (r.bottom <= r.top) return fail(path, "rect is empty: bottom must be greater than top");
    return std::nullopt;
}

Check check_permille(const std::string& path, std::uint32_t permille) {
    if (permille > 1000) return fail(path, "per-mille must be at most 1000");
    return std::nullopt;
}

Check check_text(const std::string& path, const std::string& text) {
    if (text.size() > text_length_max)
        return fail(path, "text longer than " + std::to_string(text_length_max) + " bytes");
    return std::nullopt;
}

Check check_duration(const std::string& path, TimeMs ms) {
    if (ms < 0 || ms > latency_ms_limit)
        return fail(path, "duration must lie in [0, " + std::to_string(latency_ms_limit) + "] ms");
    return std::nullopt;
}

const Window* find_window(const Scenario& s, WindowId id) {
    for (const auto& w : s.windows)
        if (w.id == id) return &w;
    return nullptr;
}

const App* find_app(const Scenario& s, ProcessId pid) {
    for (const auto& a : s.apps)
        if (a.pid == pid) return &a;
    return nullptr;
}

bool is_hidden(const Scenario& s, WindowId id) {
    for (const auto h : s.hidden)
        if (h == id) return true;
    return false;
}

// Where each control lives: control id -> (window index, control index).
using ControlIndex = std::map<ElementId, std::pair<std::size_t, std::size_t>>;

ControlIndex index_controls(const Scenario& s) {
    ControlIndex index;
    for (std::size_t wi = 0; wi < s.windows.size(); ++wi) {
        const auto& controls = s.windows[wi].controls;
        for (std::size_t ci = 0; ci < controls.size(); ++ci) index.emplace(controls[ci].id, std::pair{wi, ci});
    }
    return index;
}

bool control_in_window(const ControlIndex& index, ElementId id, std::size_t window_index) {
    const auto it = index.find(id);
    return it != index.end() && it->second.first == window_index;
}

Check check_monitors(const Scenario& s) {
    if (s.monitors.empty() || s.monitors.size() > monitors_max)
        return fail("/monitors", "between 1 and " + std::to_string(monitors_max) + " monitors");
    std::set<std::uint32_t> ids;
    std::size_t primaries = 0;
    for (std::size_t i = 0; i < s.monitors.size(); ++i) {
        const auto& m = s.monitors[i];
        const std::string path = at("/monitors", i);
        if (!ids.insert(m.id).second) return fail(path + "/id", "duplicate monitor id");
        if (m.dpi < dpi_min || m.dpi > dpi_max)
            return fail(path + "/dpi", "dpi must lie in [" + std::to_string(dpi_min) + ", " + std::to_string(dpi_max) + "]");
        if (auto e = check_rect(path + "/bounds", m.bounds)) return e;
        primaries += m.primary ? 1 : 0;
    }
    if (primaries != 1) return fail("/monitors", "exactly one monitor must be primary");
    return std::nullopt;
}

Check check_app(const Scenario& s, std::size_t i, std::set<ProcessId>& pids, std::set<std::string>& names) {
    const auto& a = s.apps[i];
    const std::string path = at("/apps", i);
    if (a.pid == 0) return fail(path + "/pid", "process ids are nonzero");
    if (!pids.insert(a.pid).second) return fail(path + "/pid", "duplicate app pid");
    if (auto e = check_text(path + "/name", a.name)) return e;
    if (!a.name.empty() && !names.insert(a.name).second) return fail(path + "/name", "duplicate app name");
    if (a.launchable && a.name.empty()) return fail(path + "/name", "a launchable app needs a name");
    if (auto e = check_duration(path + "/latency_ms_min", a.latency_ms_min)) return e;
    if (auto e = check_duration(path + "/latency_ms_max", a.latency_ms_max)) return e;
    if (a.latency_ms_min > a.latency_ms_max) return fail(path + "/latency_ms_min", "latency_ms_min exceeds latency_ms_max");
    if (auto e = check_duration(path + "/feed_latency_ms", a.feed_latency_ms)) return e;
    if (a.steals_foreground_after_ms)
        if (auto e = check_duration(path + "/steals_foreground_after_ms", *a.steals_foreground_after_ms)) return e;
    return std::nullopt;
}

Check check_apps(const Scenario& s) {
    if (s.apps.size() > windows_max) return fail("/apps", "at most " + std::to_string(windows_max) + " apps");
    std::set<ProcessId> pids;
    std::set<std::string> names;
    for (std::size_t i = 0; i < s.apps.size(); ++i)
        if (auto e = check_app(s, i, pids, names)) return e;
    return std::nullopt;
}

Check check_owner_chain(const Scenario& s, std::size_t wi) {
    const std::string path = at("/windows", wi) + "/owner";
    WindowId current = s.windows[wi].id;
    for (std::size_t hops = 0; hops <= s.windows.size(); ++hops) {
        const Window* w = find_window(s, current);
        assert(w != nullptr);
        if (!w->owner) return std::nullopt;
        if (find_window(s, *w->owner) == nullptr) return fail(path, "owner window does not exist");
        if (*w->owner == s.windows[wi].id) return fail(path, "owner chain has a cycle");
        current = *w->owner;
    }
    return fail(path, "owner chain has a cycle");
}

Check check_control_fields(const std::string& path, const Control& c) {
    if (auto e = check_rect(path + "/bounds", c.bounds)) return e;
    if (auto e = check_permille(path + "/intermittent_permille", c.intermittent_permille)) return e;
    if (auto e = check_text(path + "/value", c.value)) return e;
    if (auto e = check_text(path + "/name", c.name)) return e;
    if (auto e = check_text(path + "/role", c.role)) return e;
    if (auto e = check_text(path + "/comment", c.comment)) return e;
    if (c.automation_id)
        if (auto e = check_text(path + "/automation_id", *c.automation_id)) return e;
    const auto length = static_cast<std::int64_t>(c.value.size());
    if (c.selection.start < 0 || c.selection.length < 0 || c.selection.start > length ||
        c.selection.length > length - c.selection.start)
        return fail(path + "/selection", "selection must lie within the value");
    return std::nullopt;
}

bool inside(const Rect& outer, const Rect& inner) {
    return inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right &&
           inner.bottom <= outer.bottom;
}

// Parents exist in the same window and chains reach the root without a cycle.
Check check_parent(const Scenario& s, const ControlIndex& index, std::size_t wi, std::size_t ci) {
    const auto& controls = s.windows[wi].controls;
    const std::string path = at(at("/windows", wi) + "/controls", ci) + "/parent";
    ElementId current = controls[ci].parent;
    for (std::size_t hops = 0; hops <= controls.size(); ++hops) {
        if (current == 0) return std::nullopt;
        if (!control_in_window(index, current, wi)) return fail(path, "parent is not a control of the same window");
        if (current == controls[ci].id) return fail(path, "parent chain has a cycle");
        current = controls[index.at(current).second].parent;
    }
    return fail(path, "parent chain has a cycle");
}

Check check_control(const Scenario& s, const ControlIndex& index, std::size_t wi, std::size_t ci) {
    const auto& w = s.windows[wi];
    const auto& c = w.controls[ci];
    const std::string path = at(at("/windows", wi) + "/controls", ci);
    if (auto e = check_control_fields(path, c)) return e;
    if (!inside(w.bounds, c.bounds)) return fail(path + "/bounds", "control bounds must lie inside the window's bounds");
    if (auto e = check_parent(s, index, wi, ci)) return e;
    if (c.kind == ControlKind::PostButton && c.feed != 0) {
        const auto it = index.find(c.feed);
        if (it == index.end()) return fail(path + "/feed", "feed control does not exist");
        const auto& feed = s.windows[it->second.first].controls[it->second.second];
        if (feed.kind != ControlKind::Feed) return fail(path + "/feed", "feed must be a Feed control");
    }
    return std::nullopt;
}

Check check_window(const Scenario& s, const ControlIndex& index, std::size_t wi) {
    const auto& w = s.windows[wi];
    const std::string path = at("/windows", wi);
    if (auto e = check_rect(path + "/bounds", w.bounds)) return e;
    if (auto e = check_text(path + "/title", w.title)) return e;
    if (auto e = check_text(path + "/class_name", w.class_name)) return e;
    if (find_app(s, w.pid) == nullptr) return fail(path + "/pid", "no app entry for this pid");
    if (w.controls.size() > controls_per_window_max)
        return fail(path + "/controls", "at most " + std::to_string(controls_per_window_max) + " controls");
    if (auto e = check_owner_chain(s, wi)) return e;
    for (std::size_t ci = 0; ci < w.controls.size(); ++ci)
        if (auto e = check_control(s, index, wi, ci)) return e;
    return std::nullopt;
}

// Ids first (so later checks may look things up), then each window.
Check check_windows(const Scenario& s) {
    if (s.windows.size() > windows_max) return fail("/windows", "at most " + std::to_string(windows_max) + " windows");
    std::set<WindowId> window_ids;
    std::set<ElementId> control_ids;
    for (std::size_t wi = 0; wi < s.windows.size(); ++wi) {
        const auto& w = s.windows[wi];
        const std::string path = at("/windows", wi);
        if (w.id == no_window) return fail(path + "/id", "window ids are nonzero");
        if (!window_ids.insert(w.id).second) return fail(path + "/id", "duplicate window id");
        const std::size_t n = std::min(w.controls.size(), controls_per_window_max + 1);
        for (std::size_t ci = 0; ci < n; ++ci) {
            const std::string cpath = at(path + "/controls", ci) + "/id";
            if (w.controls[ci].id == 0) return fail(cpath, "control ids are nonzero");
            if (!control_ids.insert(w.controls[ci].id).second) return fail(cpath, "duplicate control id");
        }
    }
    const ControlIndex index = index_controls(s);
    for (std::size_t wi = 0; wi < s.windows.size(); ++wi)
        if (auto e = check_window(s, index, wi)) return e;
    return std::nullopt;
}

Check check_hidden_and_foreground(const Scenario& s) {
    std::set<WindowId> seen;
    if (s.hidden.size() > windows_max) return fail("/hidden", "too many hidden windows");
    for (std::size_t i = 0; i < s.hidden.size(); ++i) {
        if (find_window(s, s.hidden[i]) == nullptr) return fail(at("/hidden", i), "hidden window does not exist");
        if (!seen.insert(s.hidden[i]).second) return fail(at("/hidden", i), "window listed twice");
    }
    if (s.foreground != no_window) {
        if (find_window(s, s.foreground) == nullptr) return fail("/foreground", "foreground window does not exist");
        if (is_hidden(s, s.foreground)) return fail("/foreground", "foreground window is hidden");
    }
    if (s.user_last_input_ms < -event_time_ms_limit || s.user_last_input_ms > 0)
        return fail("/user_last_input_ms", "must lie in [-" + std::to_string(event_time_ms_limit) + ", 0]");
    return std::nullopt;
}

bool is_user_event(EventKind k) { return k == EventKind::UserTypes || k == EventKind::UserClicks; }

Check check_event_refs(const Scenario& s, const ControlIndex& index, const std::string& path, const Event& e) {
    switch (e.kind) {
        case EventKind::UserTypes: return check_text(path + "/text", e.text);
        case EventKind::UserClicks: return check_point(path + "/point", e.point);
        case EventKind::WindowToFront:
        case EventKind::PopupOpens:
        case EventKind::OccluderAppears:
            if (find_window(s, e.window) == nullptr) return fail(path + "/window", "window does not exist");
            return std::nullopt;
        case EventKind::ControlRemoved:
            if (!index.contains(e.control)) return fail(path + "/control", "control does not exist");
            return std::nullopt;
        case EventKind::TreeReorders: {
            const auto it = index.find(e.control);
            if (it == index.end()) return fail(path + "/control", "control does not exist");
            if (e.new_parent == e.control) return fail(path + "/new_parent", "a control cannot be its own parent");
            if (e.new_parent != 0 && !control_in_window(index, e.new_parent, it->second.first))
                return fail(path + "/new_parent", "new parent is not a control of the same window");
            return std::nullopt;
        }
    }
    return fail(path + "/kind", "unknown event kind");
}

Check check_events(const Scenario& s) {
    const ControlIndex index = index_controls(s);
    std::size_t user_events = 0;
    std::size_t app_events = 0;
    if (s.events.size() > user_events_max + app_events_max) return fail("/events", "too many events");
    for (std::size_t i = 0; i < s.events.size(); ++i) {
        const auto& e = s.events[i];
        const std::string path = at("/events", i);
        (is_user_event(e.kind) ? user_events : app_events) += 1;
        if (user_events > user_events_max) return fail(path, "more than " + std::to_string(user_events_max) + " user events");
        if (app_events > app_events_max) return fail(path, "more than " + std::to_string(app_events_max) + " app events");
        if (e.at_ms < 0 || e.at_ms > event_time_ms_limit)
            return fail(path + "/at_ms", "event time must lie in [0, " + std::to_string(event_time_ms_limit) + "]");
        if (auto err = check_event_refs(s, index, path, e)) return err;
    }
    return std::nullopt;
}

Check check_faults(const FaultPlan& f) {
    if (auto e = check_permille("/faults/read_failure_permille", f.read_failure_permille)) return e;
    if (auto e = check_permille("/faults/stale_read_permille", f.stale_read_permille)) return e;
    if (auto e = check_permille("/faults/delivery_error_permille", f.delivery_error_permille)) return e;
    if (auto e = check_permille("/faults/delivery_exception_permille", f.delivery_exception_permille)) return e;
    if (auto e = check_permille("/faults/foreground_refusal_permille", f.foreground_refusal_permille)) return e;
    if (auto e = check_permille("/faults/latency_overrun_permille", f.latency_overrun_permille)) return e;
    return check_duration("/faults/latency_overrun_ms", f.latency_overrun_ms);
}

Check check_step(const Scenario& s, const ControlIndex& index, std::size_t i) {
    const auto& step = s.steps[i];
    const std::string path = at("/steps", i);
    if (auto e = check_text(path + "/text", step.text)) return e;
    if (auto e = check_text(path + "/keys", step.keys)) return e;
    if (step.depends_on && *step.depends_on >= i) return fail(path + "/depends_on", "must name an earlier step");
    if (step.point)
        if (auto e = check_point(path + "/point", *step.point)) return e;
    if (step.kind == StepKind::Launch) {
        for (const auto& a : s.apps)
            if (a.name == step.app && !a.name.empty()) return std::nullopt;
        return fail(path + "/app", "no app with this name");
    }
    const Window* w = find_window(s, step.window);
    if (w == nullptr) return fail(path + "/window", "window does not exist");
    const auto wi = static_cast<std::size_t>(w - s.windows.data());
    std::size_t ref_wi = wi;
    if (step.ref_window) {
        const Window* rw = find_window(s, *step.ref_window);
        if (rw == nullptr) return fail(path + "/ref_window", "window does not exist");
        ref_wi = static_cast<std::size_t>(rw - s.windows.data());
    }
    if (step.control && !control_in_window(index, *step.control, ref_wi))
        return fail(path + "/control", step.ref_window ? "control is not a control of the step's ref_window"
                                                       : "control is not a control of the step's window");
    if (step.kind == StepKind::ClickAt && !step.point) return fail(path + "/point", "a coordinate click needs a point");
    return std::nullopt;
}

Check check_steps(const Scenario& s) {
    if (s.steps.size() > steps_max) return fail("/steps", "at most " + std::to_string(steps_max) + " steps");
    const ControlIndex index = index_controls(s);
    for (std::size_t i = 0; i < s.steps.size(); ++i)
        if (auto e = check_step(s, index, i)) return e;
    return std::nullopt;
}

}  // namespace

std::optional<ValidationError> validate(const Scenario& scenario) {
    if (auto e = check_monitors(scenario)) return e;
    if (auto e = check_apps(scenario)) return e;
    if (auto e = check_windows(scenario)) return e;
    if (auto e = check_hidden_and_foreground(scenario)) return e;
    if (auto e = check_events(scenario)) return e;
    if (auto e = check_faults(scenario.faults)) return e;
    return check_steps(scenario);
}

}  // namespace deskcheck::sim
