// Scenario generation from our PRNG. Every draw is an index into a small table or a short range,
// so the values are few and readable, and a shrinker has little to cut. Only Prng draws: no std
// distributions, no clock. The result passes validate() by construction (ids unique, controls
// inside their windows, references to real windows and controls, depends_on pointing back).
#include "sim/generate.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <vector>

namespace deskcheck::sim {
namespace {

template <class T, std::size_t N>
T pick(Prng& rng, const std::array<T, N>& choices) {
    static_assert(N > 0);
    return choices[static_cast<std::size_t>(rng.below(N))];
}

std::uint32_t count_in(Prng& rng, std::uint32_t lo, std::uint32_t hi) {
    assert(lo <= hi);
    return static_cast<std::uint32_t>(rng.between(lo, hi));
}

// The settle windows the logic uses (F-1's 700 ms, F-3's 350 ms) and typical read delays: latencies
// are drawn around them on purpose.
constexpr std::array<TimeMs, 10> latency_ms_max_choices{0, 20, 50, 120, 250, 340, 360, 400, 450, 1200};
constexpr std::array<TimeMs, 5> feed_latency_ms_choices{0, 0, 100, 300, 900};
constexpr std::array<TimeMs, 6> steal_after_ms_choices{0, 50, 200, 349, 351, 600};
constexpr std::array<TimeMs, 5> last_input_ms_choices{-10'000, -3'000, -701, -300, 0};
constexpr std::array<TimeMs, 9> user_at_ms_choices{0, 100, 500, 699, 701, 1'500, 2'999, 3'000, 3'500};
constexpr std::array<TimeMs, 6> app_at_ms_choices{0, 50, 200, 400, 1'000, 2'500};
constexpr std::array<std::uint16_t, 4> fault_permille_choices{20, 100, 300, 1000};
constexpr std::array<TimeMs, 3> overrun_ms_choices{50, 400, 2'000};
constexpr std::uint16_t stale_read_on_permille = 100;
// A disabled control: the action is delivered and nothing happens, so a settled readable state
// tells Absent (verdict_decisive has situations to judge).
constexpr std::uint16_t disabled_permille = 80;
constexpr std::uint16_t latency_overrun_on_permille = 75;
constexpr std::array<std::uint32_t, 7> dpi_choices{96, 120, 144, 168, 192, 240, 288};
constexpr std::array<Rect, 3> monitor_sizes{Rect{0, 0, 1280, 720}, Rect{0, 0, 1920, 1080}, Rect{0, 0, 2560, 1440}};
constexpr std::array<Point, 3> window_sizes{Point{400, 300}, Point{640, 480}, Point{800, 600}};
constexpr std::array<std::string_view, 6> edit_values{"", "hello", "abc", "hello world", "line1\r\nline2", "saved\r\n"};
constexpr std::array<std::string_view, 7> step_texts{"abc", "hello", "x", "a\tb", "line\n", "hello", " "};
constexpr std::array<std::string_view, 7> hotkeys{"ctrl+a", "ctrl+s", "ctrl+z", "home", "end", "tab", "f5"};
constexpr std::array<std::uint16_t, 3> intermittent_permille_choices{100, 500, 900};
constexpr std::array<Framework, 4> frameworks{Framework::Win32, Framework::WinForms, Framework::Wpf, Framework::Electron};
constexpr std::array<DpiAwareness, 3> awarenesses{DpiAwareness::Unaware, DpiAwareness::System, DpiAwareness::PerMonitor};
// Weighted: edits, toggles and buttons are common; feeds come with post buttons.
constexpr std::array<ControlKind, 11> control_kinds{
    ControlKind::Edit, ControlKind::Edit, ControlKind::Edit, ControlKind::Toggle, ControlKind::Expander,
    ControlKind::ListItem, ControlKind::Button, ControlKind::SubmitButton, ControlKind::PostButton,
    ControlKind::Group, ControlKind::Toggle};

// Hidden windows the hostile events may show: a popup and an occluder.
constexpr std::uint32_t hidden_windows_reserved = 2;
constexpr std::int32_t title_bar_px = 32;
constexpr std::int32_t row_px = 28;
constexpr std::int32_t margin_px = 10;



// --- monitors and apps ---

void draw_monitors(Prng& rng, Scenario& s) {
    const std::uint32_t count = count_in(rng, 1, 2);
    std::int32_t left = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const Rect size = pick(rng, monitor_sizes);
        Monitor m;
        m.id = i + 1;
        m.bounds = Rect{left, 0, left + size.right, size.bottom};
        m.dpi = pick(rng, dpi_choices);
        m.primary = i == 0;
        left = m.bounds.right;
        s.monitors.push_back(m);
    }
}

App draw_app(Prng& rng, std::uint32_t index) {
    App app;
    app.pid = 100 * (index + 1);
    app.name = "app" + std::to_string(index + 1);
    app.latency_ms_max = pick(rng, latency_ms_max_choices);
    app.latency_ms_min = rng.chance(500) ? 0 : rng.between(0, app.latency_ms_max);
    app.feed_latency_ms = pick(rng, feed_latency_ms_choices);
    if (rng.chance(250)) app.steals_foreground_after_ms = pick(rng, steal_after_ms_choices);
    return app;
}

// --- windows and controls ---


void draw_edit_state(Prng& rng, Control& c) {
    c.value = std::string(pick(rng, edit_values));
    c.multiline = c.value.find_first_of("\r\n") != std::string::npos;
    const auto length = static_cast<std::int64_t>(c.value.size());
    switch (rng.below(3)) {
        case 0: c.selection = Selection{length, 0}; break;  // caret at the end
        case 1: c.selection = Selection{0, length}; break;  // all selected
        default: {
            const std::int64_t start = rng.between(0, length);
            c.selection = Selection{start, rng.between(0, length - start)};
        }
    }
}

void draw_readability(Prng& rng, Control& c) {
    const auto roll = rng.below(10);
    if (roll == 0) {
        c.readability = Readability::Unreadable;
    } else if (roll <= 2) {
        c.readability = Readability::Intermittent;
        c.intermittent_permille = pick(rng, intermittent_permille_choices);
    }
}

struct WindowDraft {
    Window window;
    ElementId last_group = 0;     // a group later controls may nest in
    bool has_selected_item = false;  // at most one selected list item per parent (all share one here)
};

Control draw_control(Prng& rng, WindowDraft& draft, ControlKind kind, ElementId id, const Rect& bounds) {
    Control c;
    c.id = id;
    c.kind = kind;
    c.role = std::string(role_of(kind));
    c.bounds = bounds;
    c.name = std::string(role_of(kind)) + " " + std::to_string(id);
    if (rng.chance(600)) c.automation_id = "auto" + std::to_string(id);
    const Framework fw = draft.window.framework;
    c.own_handle = (fw == Framework::Win32 || fw == Framework::WinForms) && rng.chance(500);
    draw_readability(rng, c);
    c.enabled = !rng.chance(disabled_permille);
    if (kind == ControlKind::Edit) draw_edit_state(rng, c);
    if (kind == ControlKind::Toggle) c.toggled = rng.chance(500);
    if (kind == ControlKind::Expander) c.expanded = rng.chance(500);
    if (kind == ControlKind::ListItem && !draft.has_selected_item && rng.chance(400)) {
        c.selected = true;
        draft.has_selected_item = true;
    }
    if (kind == ControlKind::SubmitButton) draft.window.form = true;
    if (draft.last_group != 0 && kind != ControlKind::Group && rng.chance(300)) c.parent = draft.last_group;
    return c;
}

void draw_controls(Prng& rng, WindowDraft& draft, std::uint32_t count, ElementId& next_id) {
    for (std::uint32_t i = 0; i < count; ++i) {
        const Rect slot = control_slot(draft.window.bounds, i, count);
        ControlKind kind = pick(rng, control_kinds);
        if (kind == ControlKind::PostButton && i + 1 < count) {
            Control feed = draw_control(rng, draft, ControlKind::Feed, next_id++, slot);
            Control post = draw_control(rng, draft, ControlKind::PostButton, next_id++,
                                        control_slot(draft.window.bounds, ++i, count));
            post.feed = feed.id;
            post.comment = "comment " + std::to_string(post.id);
            draft.window.controls.push_back(std::move(feed));
            draft.window.controls.push_back(std::move(post));
            continue;
        }
        // W-1: half the forms show their submission state in a status line (a Feed) the tool can read.
        if (kind == ControlKind::SubmitButton && i + 1 < count && rng.chance(500)) {
            Control status = draw_control(rng, draft, ControlKind::Feed, next_id++, slot);
            Control submit = draw_control(rng, draft, ControlKind::SubmitButton, next_id++,
                                          control_slot(draft.window.bounds, ++i, count));
            submit.feed = status.id;
            submit.comment = "submitted";
            draft.window.controls.push_back(std::move(status));
            draft.window.controls.push_back(std::move(submit));
            continue;
        }
        if (kind == ControlKind::PostButton) kind = ControlKind::Button;
        Control c = draw_control(rng, draft, kind, next_id++, slot);
        if (kind == ControlKind::Group) draft.last_group = c.id;
        draft.window.controls.push_back(std::move(c));
    }
}

Rect place_on(Prng& rng, const Monitor& m, Point size) {
    const std::int32_t left = m.bounds.left + static_cast<std::int32_t>(rng.between(0, m.bounds.right - m.bounds.left - size.x));
    const std::int32_t top = m.bounds.top + static_cast<std::int32_t>(rng.between(0, m.bounds.bottom - m.bounds.top - size.y));
    return Rect{left, top, left + size.x, top + size.y};
}

Window draw_window(Prng& rng, const Scenario& s, WindowId id, const App& app, Framework framework,
                   std::uint32_t controls_max, ElementId& next_id) {
    WindowDraft draft;
    Window& w = draft.window;
    w.id = id;
    w.pid = app.pid;
    w.framework = framework;
    w.awareness = pick(rng, awarenesses);
    w.bounds = place_on(rng, s.monitors[static_cast<std::size_t>(rng.below(s.monitors.size()))], pick(rng, window_sizes));
    w.class_name = std::string(class_name_of(w.framework));
    w.title = app.name + " " + std::to_string(id);
    w.dirty = rng.chance(200);
    draw_controls(rng, draft, count_in(rng, 1, controls_max), next_id);
    return std::move(draft.window);
}

// --- hostile windows and events ---

// A small hidden window at `center` (clamped inside `inside`), owned or not.
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

const Control& any_control(Prng& rng, const Window& w) {
    assert(!w.controls.empty());
    return w.controls[static_cast<std::size_t>(rng.below(w.controls.size()))];
}

void add_popup(Prng& rng, Scenario& s, std::size_t visible) {
    const Window& owner = s.windows[static_cast<std::size_t>(rng.below(visible))];
    const WindowId id = static_cast<WindowId>(s.windows.size() + 1);
    Window popup = hidden_window(id, owner.pid, center_of(owner.bounds), owner.bounds, owner.id);
    popup.framework = owner.framework;
    s.hidden.push_back(id);
    s.events.push_back(Event{pick(rng, app_at_ms_choices), EventKind::PopupOpens, {}, {}, id, 0, 0, 0});
    s.windows.push_back(std::move(popup));
}

void add_occluder(Prng& rng, Scenario& s, std::size_t visible) {
    const Window& target = s.windows[static_cast<std::size_t>(rng.below(visible))];
    const Point center = center_of(any_control(rng, target).bounds);
    const ProcessId pid = s.apps[static_cast<std::size_t>(rng.below(s.apps.size()))].pid;
    const WindowId id = static_cast<WindowId>(s.windows.size() + 1);
    s.hidden.push_back(id);
    s.events.push_back(Event{pick(rng, app_at_ms_choices), EventKind::OccluderAppears, {}, {}, id, 0, 0, 0});
    s.windows.push_back(hidden_window(id, pid, center, target.bounds, std::nullopt));
}

// A group of the same window that is not `moved` and not inside it (no parent cycle), or 0.
ElementId reorder_parent(Prng& rng, const Window& w, ElementId moved) {
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
    if (groups.empty() || rng.chance(500)) return 0;
    return groups[static_cast<std::size_t>(rng.below(groups.size()))];
}

void add_app_events(Prng& rng, Scenario& s, std::size_t visible) {
    if (visible > 1 && rng.chance(300)) {
        const WindowId other = s.windows[1 + static_cast<std::size_t>(rng.below(visible - 1))].id;
        s.events.push_back(Event{pick(rng, app_at_ms_choices), EventKind::WindowToFront, {}, {}, other, 0, 0, 0});
    }
    const Window& w = s.windows[static_cast<std::size_t>(rng.below(visible))];
    if (rng.chance(250)) {
        const ElementId moved = any_control(rng, w).id;
        const auto index = static_cast<std::uint32_t>(rng.below(w.controls.size()));
        s.events.push_back(Event{pick(rng, app_at_ms_choices), EventKind::TreeReorders, {}, {}, w.id, moved,
                                 reorder_parent(rng, w, moved), index});
    }
    if (rng.chance(150)) {
        s.events.push_back(Event{pick(rng, app_at_ms_choices), EventKind::ControlRemoved, {}, {}, w.id,
                                 any_control(rng, w).id, 0, 0});
    }
}

void add_user_events(Prng& rng, Scenario& s, std::size_t visible) {
    const std::uint32_t count = count_in(rng, 1, 4);
    for (std::uint32_t i = 0; i < count; ++i) {
        const Window& w = s.windows[static_cast<std::size_t>(rng.below(visible))];
        if (rng.chance(500)) {
            s.events.push_back(Event{pick(rng, user_at_ms_choices), EventKind::UserTypes, "zz", {}, no_window, 0, 0, 0});
        } else {
            const Point at = center_of(any_control(rng, w).bounds);
            s.events.push_back(Event{pick(rng, user_at_ms_choices), EventKind::UserClicks, {}, at, no_window, 0, 0, 0});
        }
    }
}

FaultPlan draw_faults(Prng& rng) {
    FaultPlan f;
    // Swarm: each fault is on in a share of cases. A stale read and an overrun beyond the declared
    // latency bound are faults the tool does not promise to survive (S-7): the checks cannot blame
    // it where they shaped the evidence, so they are on less often, to keep every property judged on
    // at least 99 % of cases (each such reason under 0.5 %, README "Not judged").
    auto rate = [&rng](std::uint16_t on_permille = 500) -> std::uint16_t {
        return rng.chance(on_permille) ? pick(rng, fault_permille_choices) : 0;
    };
    f.read_failure_permille = rate();
    f.stale_read_permille = rate(stale_read_on_permille);
    f.delivery_error_permille = rate();
    f.delivery_exception_permille = rate();
    f.foreground_refusal_permille = rate();
    f.latency_overrun_permille = rate(latency_overrun_on_permille);
    if (f.latency_overrun_permille != 0) f.latency_overrun_ms = pick(rng, overrun_ms_choices);
    return f;
}

// --- steps ---

// Steps whose effect a later step may depend on (B-3): a save, a submit, a post.
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

Step draw_step_on(Prng& rng, const Window& w, const Control& c) {
    Step step;
    step.window = w.id;
    step.control = c.id;
    if (c.kind == ControlKind::Edit) {
        step.kind = rng.chance(600) ? StepKind::Type : StepKind::Hotkey;
        if (step.kind == StepKind::Type) step.text = std::string(pick(rng, step_texts));
        else step.keys = std::string(pick(rng, hotkeys));
        return step;
    }
    // Electron's tree is opaque (no refs): an agent clicks it by coordinates. A click by ref there
    // is a request the tool rejects (bad_request) — kept rare, where the rejection is the point.
    const bool opaque = w.framework == Framework::Electron && !rng.chance(electron_ref_click_permille);
    if (opaque || rng.chance(200)) {
        step.kind = StepKind::ClickAt;
        step.control.reset();
        step.point = center_of(c.bounds);
        step.frame = "main";
        return step;
    }
    step.kind = StepKind::Click;
    const bool non_idempotent = c.kind == ControlKind::SubmitButton || c.kind == ControlKind::PostButton;
    if (non_idempotent && rng.chance(300)) step.idempotency_key = "key" + std::to_string(c.id);
    return step;
}

Step draw_step(Prng& rng, const Scenario& s, std::size_t visible, const std::vector<Step>& earlier) {
    const Window& w = s.windows[static_cast<std::size_t>(rng.below(visible))];
    Step step;
    if (rng.chance(80)) {
        step.kind = StepKind::Type;  // no element ref (V-8)
        step.window = w.id;
        step.text = std::string(pick(rng, step_texts));
    } else {
        step = draw_step_on(rng, w, any_control(rng, w));
        // E-3: now and then the agent uses a ref of this window with another window as target.
        if (visible > 1 && step.control && rng.chance(40)) {
            const auto self = static_cast<std::size_t>(&w - s.windows.data());
            const auto other = (self + 1 + static_cast<std::size_t>(rng.below(visible - 1))) % visible;
            step.ref_window = w.id;
            step.window = s.windows[other].id;
        }
    }
    std::vector<std::uint32_t> targets;
    for (std::size_t i = 0; i < earlier.size(); ++i) {
        if (is_dependency_target(s, earlier[i])) targets.push_back(static_cast<std::uint32_t>(i));
    }
    if (!targets.empty() && rng.chance(400)) step.depends_on = targets[static_cast<std::size_t>(rng.below(targets.size()))];
    return step;
}

// 1..3 processes, each with one framework (as a real app), owning the visible windows.
void draw_windows(Prng& rng, Scenario& s, const GenerateOptions& options) {
    const std::uint32_t visible_max =
        std::clamp<std::uint32_t>(options.windows_max, 1, static_cast<std::uint32_t>(windows_max) - hidden_windows_reserved);
    const std::uint32_t controls_max =
        std::clamp<std::uint32_t>(options.controls_max, 1, static_cast<std::uint32_t>(controls_per_window_max));
    const std::uint32_t visible = count_in(rng, 1, visible_max);
    const std::uint32_t processes = count_in(rng, 1, std::min<std::uint32_t>(3, visible));
    std::vector<Framework> app_frameworks;
    for (std::uint32_t i = 0; i < processes; ++i) {
        s.apps.push_back(draw_app(rng, i));
        app_frameworks.push_back(pick(rng, frameworks));
    }
    ElementId next_control_id = 1;
    for (std::uint32_t i = 0; i < visible; ++i) {
        // The first windows go one per process, so every process has a window.
        const auto app = static_cast<std::size_t>(i < processes ? i : rng.below(processes));
        s.windows.push_back(draw_window(rng, s, i + 1, s.apps[app], app_frameworks[app], controls_max, next_control_id));
    }
}

}  // namespace

Scenario generate_scenario(Prng& rng, const GenerateOptions& options) {
    Scenario s;
    s.seed = rng.next();
    s.rules = "current";
    s.batch = rng.chance(900);
    draw_monitors(rng, s);
    draw_windows(rng, s, options);
    const std::size_t visible = s.windows.size();
    assert(visible >= 1);
    s.foreground = s.windows.front().id;  // topmost; popups and occluders come after the visible ones
    s.user_last_input_ms = pick(rng, last_input_ms_choices);
    if (options.hostile_events) {
        if (rng.chance(250)) add_popup(rng, s, visible);
        if (rng.chance(250)) add_occluder(rng, s, visible);
        add_app_events(rng, s, visible);
    }
    if (options.user && rng.chance(600)) add_user_events(rng, s, visible);
    if (options.swarm_faults) s.faults = draw_faults(rng);
    const std::uint32_t steps = count_in(rng, 1, std::clamp<std::uint32_t>(options.steps_max, 1, static_cast<std::uint32_t>(steps_max)));
    for (std::uint32_t i = 0; i < steps; ++i) s.steps.push_back(draw_step(rng, s, visible, s.steps));
    return s;
}

std::string_view role_of(ControlKind kind) {
    switch (kind) {
        case ControlKind::Edit: return "Edit";
        case ControlKind::Toggle: return "CheckBox";
        case ControlKind::Expander: return "TreeItem";
        case ControlKind::ListItem: return "ListItem";
        case ControlKind::Button:
        case ControlKind::SubmitButton:
        case ControlKind::PostButton: return "Button";
        case ControlKind::Feed: return "Text";
        case ControlKind::Group: return "Group";
    }
    return "Custom";
}

std::string_view class_name_of(Framework framework) {
    switch (framework) {
        case Framework::Win32: return "DeskcheckWindow";
        case Framework::WinForms: return "WindowsForms10.Window.8.app.0";
        case Framework::Wpf: return "HwndWrapper[Deskcheck]";
        case Framework::Electron: return "Chrome_WidgetWin_1";
    }
    return "Window";
}

Point center_of(const Rect& r) { return Point{r.left + (r.right - r.left) / 2, r.top + (r.bottom - r.top) / 2}; }

// Where control `index` of `count` sits: a grid of rows under the title bar, inside the window.
Rect control_slot(const Rect& window, std::uint32_t index, std::uint32_t count) {
    const std::int32_t rows = std::max(1, (window.bottom - window.top - title_bar_px - margin_px) / row_px);
    const auto columns = static_cast<std::int32_t>((count + static_cast<std::uint32_t>(rows) - 1) / static_cast<std::uint32_t>(rows));
    const std::int32_t column_px = (window.right - window.left - 2 * margin_px) / std::max(1, columns);
    const auto row = static_cast<std::int32_t>(index) % rows;
    const auto column = static_cast<std::int32_t>(index) / rows;
    const std::int32_t left = window.left + margin_px + column * column_px;
    const std::int32_t top = window.top + title_bar_px + row * row_px;
    return Rect{left, top, left + column_px - 2, top + row_px - 4};
}

}  // namespace deskcheck::sim
