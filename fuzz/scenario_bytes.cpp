// Fuzzer bytes -> Scenario (see scenario_bytes.h). The choice tables mirror sim/generate.cpp on
// purpose: the same values around the logic's thresholds (F-1's 700 ms, F-3's 350 ms), so a byte
// picks among meaningful answers instead of spreading over a huge range.
#include "sim/generate.h"
#include "fuzz/scenario_bytes.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzzed_data_provider.h"

namespace deskcheck::fuzz {
namespace {

using sim::center_of;
using sim::control_slot;
using sim::class_name_of;
using sim::role_of;

using sim::App;
using sim::Control;
using sim::ControlKind;
using sim::Event;
using sim::EventKind;
using sim::Monitor;
using sim::Readability;
using sim::Scenario;
using sim::Step;
using sim::StepKind;
using sim::Window;

constexpr std::array<TimeMs, 10> latency_ms_max_choices{0, 20, 50, 120, 250, 340, 360, 400, 450, 1200};
constexpr std::array<TimeMs, 5> feed_latency_ms_choices{0, 0, 100, 300, 900};
constexpr std::array<TimeMs, 6> steal_after_ms_choices{0, 50, 200, 349, 351, 600};
constexpr std::array<TimeMs, 5> last_input_ms_choices{-10'000, -3'000, -701, -300, 0};
constexpr std::array<TimeMs, 9> user_at_ms_choices{0, 100, 500, 699, 701, 1'500, 2'999, 3'000, 3'500};
constexpr std::array<TimeMs, 6> app_at_ms_choices{0, 50, 200, 400, 1'000, 2'500};
constexpr std::array<std::uint16_t, 4> fault_permille_choices{20, 100, 300, 1000};
constexpr std::array<TimeMs, 3> overrun_ms_choices{50, 400, 2'000};
constexpr std::array<std::uint32_t, 7> dpi_choices{96, 120, 144, 168, 192, 240, 288};
constexpr std::array<Rect, 3> monitor_sizes{Rect{0, 0, 1280, 720}, Rect{0, 0, 1920, 1080}, Rect{0, 0, 2560, 1440}};
constexpr std::array<Point, 3> window_sizes{Point{400, 300}, Point{640, 480}, Point{800, 600}};
constexpr std::array<std::string_view, 6> edit_values{"", "hello", "abc", "hello world", "line1\r\nline2", "saved\r\n"};
constexpr std::array<std::string_view, 7> step_texts{"abc", "hello", "x", "a\tb", "line\n", "hello", " "};
constexpr std::array<std::string_view, 10> hotkeys{"ctrl+a", "ctrl+s", "ctrl+z", "home", "end", "tab",
                                                   "f5",     "ctrl+v", "enter", "shift+tab"};
constexpr std::array<std::uint16_t, 3> intermittent_permille_choices{100, 500, 900};
constexpr std::array<Framework, 4> frameworks{Framework::Win32, Framework::WinForms, Framework::Wpf, Framework::Electron};
constexpr std::array<DpiAwareness, 3> awarenesses{DpiAwareness::Unaware, DpiAwareness::System, DpiAwareness::PerMonitor};
constexpr std::array<ControlKind, 11> control_kinds{
    ControlKind::Edit, ControlKind::Edit, ControlKind::Edit, ControlKind::Toggle, ControlKind::Expander,
    ControlKind::ListItem, ControlKind::Button, ControlKind::SubmitButton, ControlKind::PostButton,
    ControlKind::Group, ControlKind::Toggle};
// Free-form text draws map each byte into this alphabet (printable ASCII plus the navigation keys
// of V-6), so every decoded string is valid UTF-8 and readable in a counterexample.
constexpr std::string_view text_alphabet =
    "abcdefghijklmnopqrstuvwxyz ABC0123456789.,;:-_+*/=!?@#$%&()[]{}<>'\"\t\r\n";


// The questions, answered by the bytes. An exhausted input answers "no" and "the first choice".
class Draw {
public:
    Draw(const std::uint8_t* data, std::size_t size) : fdp_(data, std::min(size, bytes_input_max)) {}

    bool chance(std::uint32_t permille) {
        assert(permille <= 1000);
        return fdp_.ConsumeIntegralInRange<std::uint32_t>(0, 999) >= 1000 - permille;
    }
    std::uint32_t count(std::uint32_t lo, std::uint32_t hi) { return fdp_.ConsumeIntegralInRange(lo, hi); }
    std::size_t index(std::size_t size) {
        assert(size > 0);
        return fdp_.ConsumeIntegralInRange<std::size_t>(0, size - 1);
    }
    std::int64_t between(std::int64_t lo, std::int64_t hi) { return fdp_.ConsumeIntegralInRange(lo, hi); }
    template <class T, std::size_t N>
    T pick(const std::array<T, N>& values) {
        return fdp_.PickValueInArray(values);
    }
    std::uint32_t seed() { return fdp_.ConsumeIntegral<std::uint32_t>(); }

    // A table text, or (rarely) free text from the front of the input.
    template <std::size_t N>
    std::string text(const std::array<std::string_view, N>& table) {
        if (!chance(150)) return std::string(pick(table));
        std::string raw = fdp_.ConsumeRandomLengthString(bytes_text_length_max);
        for (char& c : raw) c = text_alphabet[static_cast<unsigned char>(c) % text_alphabet.size()];
        return raw;
    }

private:
    FuzzedDataProvider fdp_;
};



// --- monitors and apps ---

void draw_monitors(Draw& d, Scenario& s) {
    const std::uint32_t n = d.count(1, 2);
    std::int32_t left = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const Rect size = d.pick(monitor_sizes);
        Monitor m;
        m.id = i + 1;
        m.bounds = Rect{left, 0, left + size.right, size.bottom};
        m.dpi = d.pick(dpi_choices);
        m.primary = i == 0;
        left = m.bounds.right;
        s.monitors.push_back(m);
    }
}

App draw_app(Draw& d, std::uint32_t index) {
    App app;
    app.pid = 100 * (index + 1);
    app.name = "app" + std::to_string(index + 1);
    app.latency_ms_max = d.pick(latency_ms_max_choices);
    app.latency_ms_min = d.chance(500) ? d.between(0, app.latency_ms_max) : 0;
    app.feed_latency_ms = d.pick(feed_latency_ms_choices);
    if (d.chance(250)) app.steals_foreground_after_ms = d.pick(steal_after_ms_choices);
    return app;
}

// --- windows and controls ---


void draw_edit_state(Draw& d, Control& c) {
    c.value = d.text(edit_values);
    c.multiline = c.value.find_first_of("\r\n") != std::string::npos;
    const auto length = static_cast<std::int64_t>(c.value.size());
    switch (d.count(0, 2)) {
        case 0: c.selection = Selection{length, 0}; break;
        case 1: c.selection = Selection{0, length}; break;
        default: {
            const std::int64_t start = d.between(0, length);
            c.selection = Selection{start, d.between(0, length - start)};
        }
    }
}

void draw_readability(Draw& d, Control& c) {
    const auto roll = d.count(0, 9);
    if (roll == 9) {
        c.readability = Readability::Unreadable;
    } else if (roll >= 7) {
        c.readability = Readability::Intermittent;
        c.intermittent_permille = d.pick(intermittent_permille_choices);
    }
}

struct WindowDraft {
    Window window;
    ElementId last_group = 0;
    bool has_selected_item = false;
};

Control draw_control(Draw& d, WindowDraft& draft, ControlKind kind, ElementId id, const Rect& bounds) {
    Control c;
    c.id = id;
    c.kind = kind;
    c.role = std::string(role_of(kind));
    c.bounds = bounds;
    c.name = std::string(role_of(kind)) + " " + std::to_string(id);
    if (d.chance(600)) c.automation_id = "auto" + std::to_string(id);
    const Framework fw = draft.window.framework;
    c.own_handle = (fw == Framework::Win32 || fw == Framework::WinForms) && d.chance(500);
    draw_readability(d, c);
    c.enabled = d.count(0, 11) != 11;  // one in twelve disabled
    if (kind == ControlKind::Edit) draw_edit_state(d, c);
    if (kind == ControlKind::Toggle) c.toggled = d.chance(500);
    if (kind == ControlKind::Expander) c.expanded = d.chance(500);
    if (kind == ControlKind::ListItem && !draft.has_selected_item && d.chance(400)) {
        c.selected = true;
        draft.has_selected_item = true;
    }
    if (kind == ControlKind::SubmitButton) draft.window.form = true;
    if (draft.last_group != 0 && kind != ControlKind::Group && d.chance(300)) c.parent = draft.last_group;
    return c;
}

void draw_controls(Draw& d, WindowDraft& draft, std::uint32_t n, ElementId& next_id) {
    for (std::uint32_t i = 0; i < n; ++i) {
        const Rect slot = control_slot(draft.window.bounds, i, n);
        ControlKind kind = d.pick(control_kinds);
        if (kind == ControlKind::PostButton && i + 1 < n) {
            Control feed = draw_control(d, draft, ControlKind::Feed, next_id++, slot);
            Control post = draw_control(d, draft, ControlKind::PostButton, next_id++,
                                        control_slot(draft.window.bounds, ++i, n));
            post.feed = feed.id;
            post.comment = "comment " + std::to_string(post.id);
            draft.window.controls.push_back(std::move(feed));
            draft.window.controls.push_back(std::move(post));
            continue;
        }
        if (kind == ControlKind::PostButton) kind = ControlKind::Button;
        Control c = draw_control(d, draft, kind, next_id++, slot);
        if (kind == ControlKind::Group) draft.last_group = c.id;
        draft.window.controls.push_back(std::move(c));
    }
}

Rect place_on(Draw& d, const Monitor& m, Point size) {
    const auto left = static_cast<std::int32_t>(m.bounds.left + d.between(0, m.bounds.right - m.bounds.left - size.x));
    const auto top = static_cast<std::int32_t>(m.bounds.top + d.between(0, m.bounds.bottom - m.bounds.top - size.y));
    return Rect{left, top, left + size.x, top + size.y};
}

Window draw_window(Draw& d, const Scenario& s, WindowId id, const App& app, Framework framework, ElementId& next_id) {
    WindowDraft draft;
    Window& w = draft.window;
    w.id = id;
    w.pid = app.pid;
    w.framework = framework;
    w.awareness = d.pick(awarenesses);
    w.bounds = place_on(d, s.monitors[d.index(s.monitors.size())], d.pick(window_sizes));
    w.class_name = std::string(class_name_of(w.framework));
    w.title = app.name + " " + std::to_string(id);
    w.dirty = d.chance(200);
    draw_controls(d, draft, d.count(1, bytes_controls_max), next_id);
    return std::move(draft.window);
}

void draw_windows(Draw& d, Scenario& s, ElementId& next_id) {
    const std::uint32_t visible = d.count(1, bytes_windows_max);
    const std::uint32_t processes = d.count(1, std::min<std::uint32_t>(3, visible));
    std::vector<Framework> app_frameworks;
    for (std::uint32_t i = 0; i < processes; ++i) {
        s.apps.push_back(draw_app(d, i));
        app_frameworks.push_back(d.pick(frameworks));
    }
    for (std::uint32_t i = 0; i < visible; ++i) {
        const std::size_t app = i < processes ? i : d.index(processes);
        s.windows.push_back(draw_window(d, s, i + 1, s.apps[app], app_frameworks[app], next_id));
    }
}

// --- hidden windows, events, faults ---

Window hidden_window(WindowId id, ProcessId pid, Point center, const Rect& inside, std::optional<WindowId> owner) {
    Window w;
    w.id = id;
    w.pid = pid;
    w.owner = owner;
    const std::int32_t left = std::clamp(center.x - 40, inside.left, inside.right - 80);
    const std::int32_t top = std::clamp(center.y - 30, inside.top, inside.bottom - 60);
    w.bounds = Rect{left, top, left + 80, top + 60};
    w.class_name = owner ? "#32770" : "Occluder";
    w.title = owner ? "Popup" : "";
    return w;
}

const Control& any_control(Draw& d, const Window& w) {
    assert(!w.controls.empty());
    return w.controls[d.index(w.controls.size())];
}

WindowId next_window_id(const Scenario& s) { return static_cast<WindowId>(s.windows.size() + 1); }

void add_popup(Draw& d, Scenario& s, std::size_t visible) {
    const Window& owner = s.windows[d.index(visible)];
    const WindowId id = next_window_id(s);
    Window popup = hidden_window(id, owner.pid, center_of(owner.bounds), owner.bounds, owner.id);
    popup.framework = owner.framework;
    s.hidden.push_back(id);
    s.events.push_back(Event{d.pick(app_at_ms_choices), EventKind::PopupOpens, {}, {}, id, 0, 0, 0});
    s.windows.push_back(std::move(popup));
}

void add_occluder(Draw& d, Scenario& s, std::size_t visible) {
    const Window& target = s.windows[d.index(visible)];
    const Point center = center_of(any_control(d, target).bounds);
    const ProcessId pid = s.apps[d.index(s.apps.size())].pid;
    const WindowId id = next_window_id(s);
    s.hidden.push_back(id);
    s.events.push_back(Event{d.pick(app_at_ms_choices), EventKind::OccluderAppears, {}, {}, id, 0, 0, 0});
    s.windows.push_back(hidden_window(id, pid, center, target.bounds, std::nullopt));
}

// F-8: an app that is not running yet; launching it shows its one hidden window.
void add_launchable(Draw& d, Scenario& s, ElementId& next_id) {
    App app;
    app.pid = 900;
    app.name = "launched";
    app.launchable = true;
    app.launch_takes_foreground = d.chance(500);
    app.latency_ms_max = d.pick(latency_ms_max_choices);
    s.apps.push_back(app);
    WindowDraft draft;
    draft.window.id = next_window_id(s);
    draft.window.pid = app.pid;
    draft.window.framework = d.pick(frameworks);
    draft.window.class_name = std::string(class_name_of(draft.window.framework));
    draft.window.title = "launched";
    draft.window.bounds = place_on(d, s.monitors.front(), window_sizes.front());
    draw_controls(d, draft, d.count(1, 2), next_id);
    s.hidden.push_back(draft.window.id);
    s.windows.push_back(std::move(draft.window));
}

// A group of the same window that is not `moved` and not inside it (no parent cycle), or 0.
ElementId reorder_parent(Draw& d, const Window& w, ElementId moved) {
    std::vector<ElementId> groups;
    for (const auto& c : w.controls) {
        if (c.kind != ControlKind::Group || c.id == moved) continue;
        ElementId up = c.parent;
        for (std::size_t hops = 0; up != 0 && up != moved && hops < w.controls.size(); ++hops) {
            const auto it = std::find_if(w.controls.begin(), w.controls.end(), [up](const Control& x) { return x.id == up; });
            up = it == w.controls.end() ? 0 : it->parent;
        }
        if (up != moved) groups.push_back(c.id);
    }
    if (groups.empty() || !d.chance(500)) return 0;
    return groups[d.index(groups.size())];
}

void add_app_events(Draw& d, Scenario& s, std::size_t visible) {
    if (visible > 1 && d.chance(300)) {
        const WindowId other = s.windows[1 + d.index(visible - 1)].id;
        s.events.push_back(Event{d.pick(app_at_ms_choices), EventKind::WindowToFront, {}, {}, other, 0, 0, 0});
    }
    const Window& w = s.windows[d.index(visible)];
    if (d.chance(250)) {
        const ElementId moved = any_control(d, w).id;
        const auto at = static_cast<std::uint32_t>(d.index(w.controls.size()));
        s.events.push_back(Event{d.pick(app_at_ms_choices), EventKind::TreeReorders, {}, {}, w.id, moved,
                                 reorder_parent(d, w, moved), at});
    }
    if (d.chance(150)) {
        s.events.push_back(Event{d.pick(app_at_ms_choices), EventKind::ControlRemoved, {}, {}, w.id,
                                 any_control(d, w).id, 0, 0});
    }
}

void add_user_events(Draw& d, Scenario& s, std::size_t visible) {
    const std::uint32_t n = d.count(1, 4);
    for (std::uint32_t i = 0; i < n; ++i) {
        const Window& w = s.windows[d.index(visible)];
        if (d.chance(500)) {
            s.events.push_back(Event{d.pick(user_at_ms_choices), EventKind::UserTypes, "zz", {}, no_window, 0, 0, 0});
        } else {
            const Point at = center_of(any_control(d, w).bounds);
            s.events.push_back(Event{d.pick(user_at_ms_choices), EventKind::UserClicks, {}, at, no_window, 0, 0, 0});
        }
    }
}

std::uint16_t fault_rate(Draw& d) { return d.chance(500) ? d.pick(fault_permille_choices) : std::uint16_t{0}; }

sim::FaultPlan draw_faults(Draw& d) {
    sim::FaultPlan f;
    f.read_failure_permille = fault_rate(d);
    f.stale_read_permille = fault_rate(d);
    f.delivery_error_permille = fault_rate(d);
    f.delivery_exception_permille = fault_rate(d);
    f.foreground_refusal_permille = fault_rate(d);
    f.latency_overrun_permille = fault_rate(d);
    if (f.latency_overrun_permille != 0) f.latency_overrun_ms = d.pick(overrun_ms_choices);
    return f;
}

// --- steps ---

bool is_dependency_target(const Scenario& s, const Step& step) {
    if (step.kind == StepKind::Hotkey) return step.keys == "ctrl+s";
    if (step.kind != StepKind::Click || !step.control) return false;
    for (const auto& w : s.windows) {
        for (const auto& c : w.controls) {
            if (c.id == *step.control) return c.kind == ControlKind::SubmitButton || c.kind == ControlKind::PostButton;
        }
    }
    return false;
}

inline constexpr std::uint32_t electron_ref_click_permille = 20;

Step draw_step_on(Draw& d, const Window& w, const Control& c) {
    Step step;
    step.window = w.id;
    step.control = c.id;
    if (c.kind == ControlKind::Edit) {
        step.kind = d.chance(400) ? StepKind::Hotkey : StepKind::Type;
        if (step.kind == StepKind::Type) step.text = d.text(step_texts);
        else step.keys = std::string(d.pick(hotkeys));
        return step;
    }
    // Electron's tree is opaque (no refs): an agent clicks it by coordinates. A click by ref there
    // is a request the tool rejects (bad_request) — kept rare, where the rejection is the point.
    const bool opaque = w.framework == Framework::Electron && !d.chance(electron_ref_click_permille);
    if (opaque || d.chance(200)) {
        step.kind = StepKind::ClickAt;
        step.control.reset();
        step.point = center_of(c.bounds);
        step.frame = "main";
        return step;
    }
    step.kind = d.chance(80) ? StepKind::Observe : StepKind::Click;
    const bool non_idempotent = c.kind == ControlKind::SubmitButton || c.kind == ControlKind::PostButton;
    if (non_idempotent && d.chance(300)) step.idempotency_key = "key" + std::to_string(c.id);
    return step;
}

// The extra the generator never draws: a launch of the launchable app (F-8).
void draw_launch(Draw& d, const Scenario& s, Step& step) {
    const bool launchable = !s.apps.empty() && s.apps.back().launchable;
    if (!launchable || !d.chance(150)) return;
    step = Step{};
    step.kind = StepKind::Launch;
    step.app = s.apps.back().name;
}

Step draw_step(Draw& d, const Scenario& s, std::size_t visible, const std::vector<Step>& earlier) {
    const Window& w = s.windows[d.index(visible)];
    Step step;
    if (d.chance(80)) {
        step.kind = StepKind::Type;  // no element ref (V-8)
        step.window = w.id;
        step.text = d.text(step_texts);
    } else {
        step = draw_step_on(d, w, any_control(d, w));
        // E-3: now and then the agent uses a ref of this window with another window as target.
        if (visible > 1 && step.control && d.chance(40)) {
            const auto self = static_cast<std::size_t>(&w - s.windows.data());
            step.ref_window = w.id;
            step.window = s.windows[(self + 1 + d.index(visible - 1)) % visible].id;
        }
    }
    draw_launch(d, s, step);
    std::vector<std::uint32_t> targets;
    for (std::size_t i = 0; i < earlier.size(); ++i) {
        if (is_dependency_target(s, earlier[i])) targets.push_back(static_cast<std::uint32_t>(i));
    }
    if (!targets.empty() && d.chance(400)) step.depends_on = targets[d.index(targets.size())];
    return step;
}

}  // namespace

Scenario scenario_from_bytes(const std::uint8_t* data, std::size_t size) {
    Draw d(data, size);
    Scenario s;
    s.seed = d.seed();
    s.rules = "current";
    s.batch = !d.chance(100);
    draw_monitors(d, s);
    ElementId next_id = 1;
    draw_windows(d, s, next_id);
    const std::size_t visible = s.windows.size();
    assert(visible >= 1);
    s.foreground = s.windows.front().id;
    s.user_last_input_ms = d.pick(last_input_ms_choices);
    if (d.chance(250)) add_popup(d, s, visible);
    if (d.chance(250)) add_occluder(d, s, visible);
    add_app_events(d, s, visible);
    if (d.chance(600)) add_user_events(d, s, visible);
    s.faults = draw_faults(d);
    if (d.chance(100)) add_launchable(d, s, next_id);
    const std::uint32_t steps = d.count(1, bytes_steps_max);
    for (std::uint32_t i = 0; i < steps; ++i) s.steps.push_back(draw_step(d, s, visible, s.steps));
    return s;
}

}  // namespace deskcheck::fuzz
