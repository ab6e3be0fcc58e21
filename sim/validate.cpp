#include "sim/validate.h"

#include <array>
#include <cassert>
#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace deskcheck::sim {
namespace {

using Check = std::optional<ValidationError>;

// A JSON pointer into the scenario, kept as segments and spelled out only when a check fails
// (validate() runs on every fuzz input: building "/windows/0/controls/3/bounds" for every field it
// looks at cost more allocations than the run itself). Keys are string literals.
class Path {
public:
    Path operator/(std::string_view key) const { return with(Segment{key, 0}); }
    Path operator/(std::size_t index) const { return with(Segment{{}, index}); }
    std::string str() const {
        std::string out;
        for (std::size_t i = 0; i < size_; ++i) {
            out += '/';
            if (segments_[i].key.empty()) out += std::to_string(segments_[i].index);
            else out += segments_[i].key;
        }
        return out;
    }

private:
    struct Segment {
        std::string_view key;  // empty: an array index
        std::size_t index = 0;
    };
    static constexpr std::size_t depth_max = 6;  // /windows/0/controls/3/bounds is 5
    Path with(Segment segment) const {
        assert(size_ < depth_max);
        Path out = *this;
        out.segments_[out.size_++] = segment;
        return out;
    }
    std::array<Segment, depth_max> segments_{};
    std::size_t size_ = 0;
};

const Path root;

Check fail(const Path& path, std::string reason) { return ValidationError{path.str(), std::move(reason)}; }

bool coordinate_ok(std::int32_t v) { return v >= -coordinate_limit && v <= coordinate_limit; }
bool point_ok(Point p) { return coordinate_ok(p.x) && coordinate_ok(p.y); }

Check check_point(const Path& path, Point p) {
    if (!point_ok(p)) return fail(path, "coordinates must lie within +-" + std::to_string(coordinate_limit));
    return std::nullopt;
}

Check check_rect(const Path& path, const Rect& r) {
    if (!point_ok({r.left, r.top}) || !point_ok({r.right, r.bottom}))
        return fail(path, "coordinates must lie within +-" + std::to_string(coordinate_limit));
    if (r.right <= r.left) return fail(path, "rect is empty: right must be greater than left");
    if (r.bottom <= r.top) return fail(path, "rect is empty: bottom must be greater than top");
    return std::nullopt;
}

Check check_permille(const Path& path, std::uint32_t permille) {
    if (permille > 1000) return fail(path, "per-mille must be at most 1000");
    return std::nullopt;
}

Check check_text(const Path& path, const std::string& text) {
    if (text.size() > text_length_max)
        return fail(path, "text longer than " + std::to_string(text_length_max) + " bytes");
    return std::nullopt;
}

Check check_duration(const Path& path, TimeMs ms) {
    if (ms < 0 || ms > latency_ms_limit)
        return fail(path, "duration must lie in [0, " + std::to_string(latency_ms_limit) + "] ms");
    return std::nullopt;
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

// Ids seen so far, for duplicate checks: a sorted vector (one allocation, not one per id).
template <typename T>
class Seen {
public:
    explicit Seen(std::size_t expected) { ids_.reserve(expected); }
    bool insert(const T& id) {  // false: seen before
        const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
        if (it != ids_.end() && *it == id) return false;
        ids_.insert(it, id);
        return true;
    }

private:
    std::vector<T> ids_;
};

// Where each control lives: control id -> (window index, control index). Sorted by id; the first
// of duplicate ids wins (check_windows rejects duplicates before anything looks them up).
class ControlIndex {
public:
    struct Where {
        ElementId id = 0;
        std::size_t window = 0;
        std::size_t control = 0;
    };
    explicit ControlIndex(const Scenario& s) {
        for (std::size_t wi = 0; wi < s.windows.size(); ++wi) {
            const auto& controls = s.windows[wi].controls;
            for (std::size_t ci = 0; ci < controls.size(); ++ci) where_.push_back(Where{controls[ci].id, wi, ci});
        }
        std::stable_sort(where_.begin(), where_.end(), [](const Where& a, const Where& b) { return a.id < b.id; });
    }
    const Where* find(ElementId id) const {
        const auto it = std::lower_bound(where_.begin(), where_.end(), id,
                                         [](const Where& w, ElementId key) { return w.id < key; });
        return it != where_.end() && it->id == id ? &*it : nullptr;
    }
    bool contains(ElementId id) const { return find(id) != nullptr; }

private:
    std::vector<Where> where_;
};

bool control_in_window(const ControlIndex& index, ElementId id, std::size_t window_index) {
    const auto* w = index.find(id);
    return w != nullptr && w->window == window_index;
}

Check check_monitors(const Scenario& s) {
    if (s.monitors.empty() || s.monitors.size() > monitors_max)
        return fail(root / "monitors", "between 1 and " + std::to_string(monitors_max) + " monitors");
    Seen<std::uint32_t> ids(s.monitors.size());
    std::size_t primaries = 0;
    for (std::size_t i = 0; i < s.monitors.size(); ++i) {
        const auto& m = s.monitors[i];
        const Path path = root / "monitors" / i;
        if (!ids.insert(m.id)) return fail(path / "id", "duplicate monitor id");
        if (m.dpi < dpi_min || m.dpi > dpi_max)
            return fail(path / "dpi", "dpi must lie in [" + std::to_string(dpi_min) + ", " + std::to_string(dpi_max) + "]");
        if (auto e = check_rect(path / "bounds", m.bounds)) return e;
        primaries += m.primary ? 1 : 0;
    }
    if (primaries != 1) return fail(root / "monitors", "exactly one monitor must be primary");
    return std::nullopt;
}

Check check_app(const Scenario& s, std::size_t i, Seen<ProcessId>& pids, Seen<std::string_view>& names) {
    const auto& a = s.apps[i];
    const Path path = root / "apps" / i;
    if (a.pid == 0) return fail(path / "pid", "process ids are nonzero");
    if (!pids.insert(a.pid)) return fail(path / "pid", "duplicate app pid");
    if (auto e = check_text(path / "name", a.name)) return e;
    if (!a.name.empty() && !names.insert(a.name)) return fail(path / "name", "duplicate app name");
    if (a.launchable && a.name.empty()) return fail(path / "name", "a launchable app needs a name");
    if (auto e = check_duration(path / "latency_ms_min", a.latency_ms_min)) return e;
    if (auto e = check_duration(path / "latency_ms_max", a.latency_ms_max)) return e;
    if (a.latency_ms_min > a.latency_ms_max) return fail(path / "latency_ms_min", "latency_ms_min exceeds latency_ms_max");
    if (auto e = check_duration(path / "feed_latency_ms", a.feed_latency_ms)) return e;
    if (a.steals_foreground_after_ms)
        if (auto e = check_duration(path / "steals_foreground_after_ms", *a.steals_foreground_after_ms)) return e;
    return std::nullopt;
}

Check check_apps(const Scenario& s) {
    if (s.apps.size() > windows_max) return fail(root / "apps", "at most " + std::to_string(windows_max) + " apps");
    Seen<ProcessId> pids(s.apps.size());
    Seen<std::string_view> names(s.apps.size());
    for (std::size_t i = 0; i < s.apps.size(); ++i)
        if (auto e = check_app(s, i, pids, names)) return e;
    return std::nullopt;
}

Check check_owner_chain(const Scenario& s, std::size_t wi) {
    const Path path = root / "windows" / wi / "owner";
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

Check check_control_fields(const Path& path, const Control& c) {
    if (auto e = check_rect(path / "bounds", c.bounds)) return e;
    if (auto e = check_permille(path / "intermittent_permille", c.intermittent_permille)) return e;
    if (auto e = check_text(path / "value", c.value)) return e;
    if (auto e = check_text(path / "name", c.name)) return e;
    if (auto e = check_text(path / "role", c.role)) return e;
    if (auto e = check_text(path / "comment", c.comment)) return e;
    if (c.automation_id)
        if (auto e = check_text(path / "automation_id", *c.automation_id)) return e;
    const auto length = static_cast<std::int64_t>(c.value.size());
    if (c.selection.start < 0 || c.selection.length < 0 || c.selection.start > length ||
        c.selection.length > length - c.selection.start)
        return fail(path / "selection", "selection must lie within the value");
    return std::nullopt;
}

bool inside(const Rect& outer, const Rect& inner) {
    return inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right &&
           inner.bottom <= outer.bottom;
}

// Parents exist in the same window and chains reach the root without a cycle.
Check check_parent(const Scenario& s, const ControlIndex& index, std::size_t wi, std::size_t ci) {
    const auto& controls = s.windows[wi].controls;
    const Path path = root / "windows" / wi / "controls" / ci / "parent";
    ElementId current = controls[ci].parent;
    for (std::size_t hops = 0; hops <= controls.size(); ++hops) {
        if (current == 0) return std::nullopt;
        if (!control_in_window(index, current, wi)) return fail(path, "parent is not a control of the same window");
        if (current == controls[ci].id) return fail(path, "parent chain has a cycle");
        current = controls[index.find(current)->control].parent;
    }
    return fail(path, "parent chain has a cycle");
}

Check check_control(const Scenario& s, const ControlIndex& index, std::size_t wi, std::size_t ci) {
    const auto& w = s.windows[wi];
    const auto& c = w.controls[ci];
    const Path path = root / "windows" / wi / "controls" / ci;
    if (auto e = check_control_fields(path, c)) return e;
    if (!inside(w.bounds, c.bounds)) return fail(path / "bounds", "control bounds must lie inside the window's bounds");
    if (auto e = check_parent(s, index, wi, ci)) return e;
    if (c.feed != 0 && c.kind != ControlKind::PostButton && c.kind != ControlKind::SubmitButton) {
        return fail(path / "feed", "only a post or submit button shows its effect in a feed");
    }
    if ((c.kind == ControlKind::PostButton || c.kind == ControlKind::SubmitButton) && c.feed != 0) {
        const auto* where = index.find(c.feed);
        if (where == nullptr) return fail(path / "feed", "feed control does not exist");
        const auto& feed = s.windows[where->window].controls[where->control];
        if (feed.kind != ControlKind::Feed) return fail(path / "feed", "feed must be a Feed control");
    }
    return std::nullopt;
}

Check check_window(const Scenario& s, const ControlIndex& index, std::size_t wi) {
    const auto& w = s.windows[wi];
    const Path path = root / "windows" / wi;
    if (auto e = check_rect(path / "bounds", w.bounds)) return e;
    if (auto e = check_text(path / "title", w.title)) return e;
    if (auto e = check_text(path / "class_name", w.class_name)) return e;
    if (find_app(s, w.pid) == nullptr) return fail(path / "pid", "no app entry for this pid");
    if (w.controls.size() > controls_per_window_max)
        return fail(path / "controls", "at most " + std::to_string(controls_per_window_max) + " controls");
    if (auto e = check_owner_chain(s, wi)) return e;
    for (std::size_t ci = 0; ci < w.controls.size(); ++ci)
        if (auto e = check_control(s, index, wi, ci)) return e;
    return std::nullopt;
}

// Ids first (so later checks may look things up), then each window.
Check check_windows(const Scenario& s) {
    if (s.windows.size() > windows_max) return fail(root / "windows", "at most " + std::to_string(windows_max) + " windows");
    Seen<WindowId> window_ids(s.windows.size());
    Seen<ElementId> control_ids(s.windows.size() * 8);
    for (std::size_t wi = 0; wi < s.windows.size(); ++wi) {
        const auto& w = s.windows[wi];
        const Path path = root / "windows" / wi;
        if (w.id == no_window) return fail(path / "id", "window ids are nonzero");
        if (!window_ids.insert(w.id)) return fail(path / "id", "duplicate window id");
        const std::size_t n = std::min(w.controls.size(), controls_per_window_max + 1);
        for (std::size_t ci = 0; ci < n; ++ci) {
            const Path cpath = path / "controls" / ci / "id";
            if (w.controls[ci].id == 0) return fail(cpath, "control ids are nonzero");
            if (!control_ids.insert(w.controls[ci].id)) return fail(cpath, "duplicate control id");
        }
    }
    const ControlIndex index(s);
    for (std::size_t wi = 0; wi < s.windows.size(); ++wi)
        if (auto e = check_window(s, index, wi)) return e;
    return std::nullopt;
}

Check check_hidden_and_foreground(const Scenario& s) {
    Seen<WindowId> seen(s.hidden.size());
    if (s.hidden.size() > windows_max) return fail(root / "hidden", "too many hidden windows");
    for (std::size_t i = 0; i < s.hidden.size(); ++i) {
        if (find_window(s, s.hidden[i]) == nullptr) return fail(root / "hidden" / i, "hidden window does not exist");
        if (!seen.insert(s.hidden[i])) return fail(root / "hidden" / i, "window listed twice");
    }
    if (s.foreground != no_window) {
        if (find_window(s, s.foreground) == nullptr) return fail(root / "foreground", "foreground window does not exist");
        if (is_hidden(s, s.foreground)) return fail(root / "foreground", "foreground window is hidden");
    }
    if (s.user_last_input_ms < -event_time_ms_limit || s.user_last_input_ms > 0)
        return fail(root / "user_last_input_ms", "must lie in [-" + std::to_string(event_time_ms_limit) + ", 0]");
    return std::nullopt;
}

bool is_user_event(EventKind k) { return k == EventKind::UserTypes || k == EventKind::UserClicks; }

Check check_event_refs(const Scenario& s, const ControlIndex& index, const Path& path, const Event& e) {
    switch (e.kind) {
        case EventKind::UserTypes: return check_text(path / "text", e.text);
        case EventKind::UserClicks: return check_point(path / "point", e.point);
        case EventKind::WindowToFront:
        case EventKind::PopupOpens:
        case EventKind::OccluderAppears:
            if (find_window(s, e.window) == nullptr) return fail(path / "window", "window does not exist");
            return std::nullopt;
        case EventKind::ControlRemoved:
            if (!index.contains(e.control)) return fail(path / "control", "control does not exist");
            return std::nullopt;
        case EventKind::TreeReorders: {
            const auto* where = index.find(e.control);
            if (where == nullptr) return fail(path / "control", "control does not exist");
            if (e.new_parent == e.control) return fail(path / "new_parent", "a control cannot be its own parent");
            if (e.new_parent != 0 && !control_in_window(index, e.new_parent, where->window))
                return fail(path / "new_parent", "new parent is not a control of the same window");
            return std::nullopt;
        }
    }
    return fail(path / "kind", "unknown event kind");
}

Check check_events(const Scenario& s, const ControlIndex& index) {
    std::size_t user_events = 0;
    std::size_t app_events = 0;
    if (s.events.size() > user_events_max + app_events_max) return fail(root / "events", "too many events");
    for (std::size_t i = 0; i < s.events.size(); ++i) {
        const auto& e = s.events[i];
        const Path path = root / "events" / i;
        (is_user_event(e.kind) ? user_events : app_events) += 1;
        if (user_events > user_events_max) return fail(path, "more than " + std::to_string(user_events_max) + " user events");
        if (app_events > app_events_max) return fail(path, "more than " + std::to_string(app_events_max) + " app events");
        if (e.at_ms < 0 || e.at_ms > event_time_ms_limit)
            return fail(path / "at_ms", "event time must lie in [0, " + std::to_string(event_time_ms_limit) + "]");
        if (auto err = check_event_refs(s, index, path, e)) return err;
    }
    return std::nullopt;
}

Check check_faults(const FaultPlan& f) {
    if (auto e = check_permille(root / "faults" / "read_failure_permille", f.read_failure_permille)) return e;
    if (auto e = check_permille(root / "faults" / "stale_read_permille", f.stale_read_permille)) return e;
    if (auto e = check_permille(root / "faults" / "delivery_error_permille", f.delivery_error_permille)) return e;
    if (auto e = check_permille(root / "faults" / "delivery_exception_permille", f.delivery_exception_permille)) return e;
    if (auto e = check_permille(root / "faults" / "foreground_refusal_permille", f.foreground_refusal_permille)) return e;
    if (auto e = check_permille(root / "faults" / "latency_overrun_permille", f.latency_overrun_permille)) return e;
    return check_duration(root / "faults" / "latency_overrun_ms", f.latency_overrun_ms);
}

Check check_step(const Scenario& s, const ControlIndex& index, std::size_t i) {
    const auto& step = s.steps[i];
    const Path path = root / "steps" / i;
    if (auto e = check_text(path / "text", step.text)) return e;
    if (auto e = check_text(path / "keys", step.keys)) return e;
    if (step.depends_on && *step.depends_on >= i) return fail(path / "depends_on", "must name an earlier step");
    if (step.point)
        if (auto e = check_point(path / "point", *step.point)) return e;
    if (step.kind == StepKind::Launch) {
        // A name no app of the scenario has is an app that is not installed: the launch fails.
        if (step.app.empty()) return fail(path / "app", "a launch names an app");
        return check_text(path / "app", step.app);
    }
    const Window* w = find_window(s, step.window);
    if (w == nullptr) return fail(path / "window", "window does not exist");
    const auto wi = static_cast<std::size_t>(w - s.windows.data());
    std::size_t ref_wi = wi;
    if (step.ref_window) {
        const Window* rw = find_window(s, *step.ref_window);
        if (rw == nullptr) return fail(path / "ref_window", "window does not exist");
        ref_wi = static_cast<std::size_t>(rw - s.windows.data());
    }
    if (step.control && !control_in_window(index, *step.control, ref_wi))
        return fail(path / "control", step.ref_window ? "control is not a control of the step's ref_window"
                                                       : "control is not a control of the step's window");
    if (step.kind == StepKind::ClickAt && !step.point) return fail(path / "point", "a coordinate click needs a point");
    return std::nullopt;
}

Check check_steps(const Scenario& s, const ControlIndex& index) {
    if (s.steps.size() > steps_max) return fail(root / "steps", "at most " + std::to_string(steps_max) + " steps");
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
    const ControlIndex index(scenario);  // ids are unique by now
    if (auto e = check_events(scenario, index)) return e;
    if (auto e = check_faults(scenario.faults)) return e;
    return check_steps(scenario, index);
}

}  // namespace deskcheck::sim
