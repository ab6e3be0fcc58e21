// The one scenario builder (see build.h). Every draw is an index into a small table or a short
// range, so the values are few and readable, and a shrinker has little to cut; every table's
// index 0 is its simplest entry. The result passes validate() by construction (ids unique,
// controls inside their windows, references to real windows and controls, depends_on pointing
// back). The shares below were tuned on the PRNG population so that every property is judged on
// at least 99 % of cases (docs/properties.md, "Not judged").
#include "sim/build.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <vector>

namespace deskcheck::sim {
namespace {

// The settle windows the logic uses (F-1's 700 ms, F-3's 350 ms) and typical read delays: latencies
// are drawn around them on purpose. An app that answers at once is drawn a quarter of the time: it
// is where one immediate read (the `published` rules) is already settled, so where verdict_decisive
// can ask that rule set for a decision.
constexpr std::array<TimeMs, 12> latency_ms_max_choices{0, 0, 0, 20, 50, 120, 250, 340, 360, 400, 450, 1200};
constexpr std::array<TimeMs, 5> feed_latency_ms_choices{0, 0, 100, 300, 900};
constexpr std::array<TimeMs, 6> steal_after_ms_choices{0, 50, 200, 349, 351, 600};
constexpr std::array<TimeMs, 5> last_input_ms_choices{-10'000, -3'000, -701, -300, 0};
constexpr std::array<TimeMs, 9> user_at_ms_choices{0, 100, 500, 699, 701, 1'500, 2'999, 3'000, 3'500};
constexpr std::array<TimeMs, 6> app_at_ms_choices{0, 50, 200, 400, 1'000, 2'500};
constexpr std::array<std::uint16_t, 4> fault_permille_choices{20, 100, 300, 1000};
constexpr std::array<TimeMs, 3> overrun_ms_choices{50, 400, 2'000};
constexpr std::uint16_t fault_on_permille = 500;
constexpr std::uint16_t stale_read_on_permille = 60;
// A disabled control: the action is delivered and nothing happens, so a settled readable state
// tells Absent (verdict_decisive has situations to judge).
constexpr std::uint16_t disabled_permille = 80;
constexpr std::uint16_t latency_overrun_on_permille = 50;
// Swarm (STYLE 4) over the kinds of steps: each kind is off for a whole case this often.
constexpr std::uint16_t step_kind_off_permille = 200;
constexpr std::array<std::uint32_t, 7> dpi_choices{96, 120, 144, 168, 192, 240, 288};
constexpr std::array<Rect, 3> monitor_sizes{Rect{0, 0, 1280, 720}, Rect{0, 0, 1920, 1080}, Rect{0, 0, 2560, 1440}};
constexpr std::array<Point, 3> window_sizes{Point{400, 300}, Point{640, 480}, Point{800, 600}};
constexpr std::array<std::string_view, 6> edit_values{"", "hello", "abc", "hello world", "line1\r\nline2", "saved\r\n"};
constexpr std::array<std::string_view, 7> step_texts{"x", "abc", "hello", "a\tb", "line\n", "hello", " "};
// The first `hotkeys_plain` are the campaign's; the rest promise nothing observable (extras).
constexpr std::array<std::string_view, 10> hotkeys{"ctrl+a", "ctrl+s", "ctrl+z", "home",  "end",
                                                   "tab",    "f5",     "ctrl+v", "enter", "shift+tab"};
constexpr std::size_t hotkeys_plain = 7;
constexpr std::array<std::uint16_t, 3> intermittent_permille_choices{100, 500, 900};
constexpr std::array<Framework, 4> frameworks{Framework::Win32, Framework::WinForms, Framework::Wpf, Framework::Electron};
constexpr std::array<DpiAwareness, 3> awarenesses{DpiAwareness::Unaware, DpiAwareness::System, DpiAwareness::PerMonitor};
// Weighted: edits, toggles and buttons are common; feeds come with post buttons.
constexpr std::array<ControlKind, 11> control_kinds{
    ControlKind::Edit, ControlKind::Edit, ControlKind::Edit, ControlKind::Toggle, ControlKind::Expander,
    ControlKind::ListItem, ControlKind::Button, ControlKind::SubmitButton, ControlKind::PostButton,
    ControlKind::Group, ControlKind::Toggle};
// Free texts (extras) map each answer into this alphabet (printable ASCII plus the navigation keys
// of V-6), so every text is valid UTF-8 and readable in a counterexample.
constexpr std::string_view text_alphabet =
    "abcdefghijklmnopqrstuvwxyz ABC0123456789.,;:-_+*/=!?@#$%&()[]{}<>'\"\t\r\n";
constexpr std::uint32_t free_text_permille = 150;
constexpr std::uint32_t text_length_max = 16;
constexpr std::uint32_t launchable_permille = 100;
constexpr std::uint32_t launch_step_permille = 150;
constexpr std::uint32_t observe_permille = 80;
// Without the extras (the PRNG population), rare: a launchable app in 4 % of cases, an observe for
// 2 % of the clicks by ref.
constexpr std::uint32_t rare_launchable_permille = 40;
constexpr std::uint32_t rare_observe_permille = 20;
constexpr ProcessId launched_pid = 900;
// A launch naming an app that is not installed (launch_failed), among the launch steps.
constexpr std::uint32_t unknown_app_launch_permille = 100;
// A user who keeps typing through the tool's whole F-1 wait (3 s): keystrokes every 600 ms from
// t=0 to t=3600, among the cases with user events.
constexpr std::uint32_t typing_burst_permille = 40;
constexpr TimeMs typing_burst_every_ms = 600;
constexpr TimeMs typing_burst_until_ms = 3'600;
// Two controls of one window sharing role and automationId (apps do that: E-2 must never pick the
// other one), in this share of cases.
constexpr std::uint32_t shared_identity_permille = 30;
inline constexpr std::uint32_t electron_ref_click_permille = 20;
// Swarm over the world, drawn last (the choices before keep their meaning): in this share of cases
// the world is still: every app answers at once (no latency, no feed delay), so one immediate read
// is settled and even the `published` rules owe a decision on what they read, and a control is
// disabled one time in three, so a delivered action that changes nothing tells Absent. It makes
// "Ctrl+A into a disabled edit of an app that answers at once" (the one case that demands
// published's select_all.partial) about a case in two thousand, not one in ten thousand.
constexpr std::uint32_t still_world_permille = 200;
// The agent sends its steps one by one (not as a batch) in this share of cases: only then does it
// send a post or a submit through write_once (W-4), and a write that must reconcile by a second
// read needs an app slower than the first read, so singles are not rare.
constexpr std::uint32_t singles_permille = 250;
constexpr std::uint16_t disabled_in_still_world_permille = 333;

// Hidden windows the hostile events may show: a popup, an occluder, a launched app's window.
constexpr std::uint32_t hidden_windows_reserved = 3;
constexpr std::int32_t title_bar_px = 32;
constexpr std::int32_t row_px = 28;
constexpr std::int32_t margin_px = 10;

// Which kinds of steps this case may draw (a kind off falls back to the simplest one).
struct StepSwarm {
    bool hotkeys = true;
    bool click_at = true;            // coordinate clicks where a ref would do
    bool type_without_ref = true;    // V-8
    bool ref_of_other_window = true; // E-3
    bool dependencies = true;        // B-3 depends_on
    bool idempotency_keys = true;
};

struct WindowDraft {
    Window window;
    ElementId last_group = 0;     // a group later controls may nest in
    bool has_selected_item = false;  // at most one selected list item per parent (all share one here)
};

class Builder {
public:
    Builder(Choices& choices, const BuildOptions& options) : c_(choices), o_(options) {}
    Scenario build();

private:
    template <class T, std::size_t N>
    T pick(const std::array<T, N>& table, std::size_t n = N) {
        static_assert(N > 0);
        assert(n > 0 && n <= N);
        return table[static_cast<std::size_t>(c_.below(n))];
    }
    std::uint32_t count_in(std::uint32_t lo, std::uint32_t hi) {
        assert(lo <= hi);
        return static_cast<std::uint32_t>(c_.between(lo, hi));
    }
    std::size_t index(std::size_t n) { return static_cast<std::size_t>(c_.below(n)); }
    template <std::size_t N>
    std::string text(const std::array<std::string_view, N>& table);

    void draw_monitors();
    App draw_app(std::uint32_t index);
    void draw_windows();
    Window draw_window(WindowId id, const App& app, Framework framework, std::uint32_t controls_max);
    void draw_controls(WindowDraft& draft, std::uint32_t count);
    Control draw_control(WindowDraft& draft, ControlKind kind, ElementId id, const Rect& bounds);
    void draw_edit_state(Control& c);
    void draw_readability(Control& c);
    Rect place_on(const Monitor& m, Point size);
    const Control& any_control(const Window& w) { return w.controls[index(w.controls.size())]; }
    void add_popup();
    void add_occluder();
    void add_launchable();
    void add_typing_burst();
    void share_an_identity();
    void make_still();
    ElementId reorder_parent(const Window& w, ElementId moved);
    void add_app_events();
    void add_user_events();
    FaultPlan draw_faults();
    StepSwarm draw_step_swarm();
    Step draw_step_on(const Window& w, const Control& c);
    Step draw_step();

    Choices& c_;
    const BuildOptions& o_;
    Scenario s_;
    std::size_t visible_ = 0;
    ElementId next_id_ = 1;
    StepSwarm swarm_;
};

template <std::size_t N>
std::string Builder::text(const std::array<std::string_view, N>& table) {
    if (!o_.extras || !c_.chance(free_text_permille)) return std::string(pick(table));
    std::string out(index(text_length_max + 1), ' ');
    for (char& ch : out) ch = text_alphabet[index(text_alphabet.size())];
    return out;
}

// --- monitors and apps ---

void Builder::draw_monitors() {
    const std::uint32_t count = count_in(1, 2);
    std::int32_t left = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const Rect size = pick(monitor_sizes);
        Monitor m;
        m.id = i + 1;
        m.bounds = Rect{left, 0, left + size.right, size.bottom};
        m.dpi = pick(dpi_choices);
        m.primary = i == 0;
        left = m.bounds.right;
        s_.monitors.push_back(m);
    }
}

App Builder::draw_app(std::uint32_t index) {
    App app;
    app.pid = 100 * (index + 1);
    app.name = "app" + std::to_string(index + 1);
    app.latency_ms_max = pick(latency_ms_max_choices);
    app.latency_ms_min = c_.chance(500) ? c_.between(0, app.latency_ms_max) : 0;
    app.feed_latency_ms = pick(feed_latency_ms_choices);
    if (c_.chance(250)) app.steals_foreground_after_ms = pick(steal_after_ms_choices);
    return app;
}

// --- windows and controls ---

void Builder::draw_edit_state(Control& c) {
    c.value = text(edit_values);
    c.multiline = c.value.find_first_of("\r\n") != std::string::npos;
    const auto length = static_cast<std::int64_t>(c.value.size());
    switch (c_.below(3)) {
        case 0: c.selection = Selection{length, 0}; break;  // caret at the end
        case 1: c.selection = Selection{0, length}; break;  // all selected
        default: {
            const std::int64_t start = c_.between(0, length);
            c.selection = Selection{start, c_.between(0, length - start)};
        }
    }
}

// One in ten unreadable, two in ten intermittently (S-3); 0..6 readable.
void Builder::draw_readability(Control& c) {
    const auto roll = c_.below(10);
    if (!o_.unreadable || roll < 7) return;
    if (roll == 9) {
        c.readability = Readability::Unreadable;
    } else {
        c.readability = Readability::Intermittent;
        c.intermittent_permille = pick(intermittent_permille_choices);
    }
}

Control Builder::draw_control(WindowDraft& draft, ControlKind kind, ElementId id, const Rect& bounds) {
    Control c;
    c.id = id;
    c.kind = kind;
    c.role = std::string(role_of(kind));
    c.bounds = bounds;
    c.name = std::string(role_of(kind)) + " " + std::to_string(id);
    if (!c_.chance(400)) c.automation_id = "auto" + std::to_string(id);
    const Framework fw = draft.window.framework;
    c.own_handle = (fw == Framework::Win32 || fw == Framework::WinForms) && c_.chance(500);
    draw_readability(c);
    c.enabled = !c_.chance(disabled_permille);
    if (kind == ControlKind::Edit) draw_edit_state(c);
    if (kind == ControlKind::Toggle) c.toggled = c_.chance(500);
    if (kind == ControlKind::Expander) c.expanded = c_.chance(500);
    if (kind == ControlKind::ListItem && !draft.has_selected_item && c_.chance(400)) {
        c.selected = true;
        draft.has_selected_item = true;
    }
    if (kind == ControlKind::SubmitButton) draft.window.form = true;
    if (draft.last_group != 0 && kind != ControlKind::Group && c_.chance(300)) c.parent = draft.last_group;
    return c;
}

void Builder::draw_controls(WindowDraft& draft, std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) {
        const Rect slot = control_slot(draft.window.bounds, i, count);
        ControlKind kind = pick(control_kinds);
        if (kind == ControlKind::PostButton && i + 1 < count) {
            Control feed = draw_control(draft, ControlKind::Feed, next_id_++, slot);
            Control post = draw_control(draft, ControlKind::PostButton, next_id_++,
                                        control_slot(draft.window.bounds, ++i, count));
            post.feed = feed.id;
            post.comment = "comment " + std::to_string(post.id);
            draft.window.controls.push_back(std::move(feed));
            draft.window.controls.push_back(std::move(post));
            continue;
        }
        // W-1: half the forms show their submission state in a status line (a Feed) the tool can read.
        if (kind == ControlKind::SubmitButton && i + 1 < count && c_.chance(500)) {
            Control status = draw_control(draft, ControlKind::Feed, next_id_++, slot);
            Control submit = draw_control(draft, ControlKind::SubmitButton, next_id_++,
                                          control_slot(draft.window.bounds, ++i, count));
            submit.feed = status.id;
            submit.comment = "submitted";
            draft.window.controls.push_back(std::move(status));
            draft.window.controls.push_back(std::move(submit));
            continue;
        }
        if (kind == ControlKind::PostButton) kind = ControlKind::Button;
        Control c = draw_control(draft, kind, next_id_++, slot);
        if (kind == ControlKind::Group) draft.last_group = c.id;
        draft.window.controls.push_back(std::move(c));
    }
}

Rect Builder::place_on(const Monitor& m, Point size) {
    const auto left = static_cast<std::int32_t>(m.bounds.left + c_.between(0, m.bounds.right - m.bounds.left - size.x));
    const auto top = static_cast<std::int32_t>(m.bounds.top + c_.between(0, m.bounds.bottom - m.bounds.top - size.y));
    return Rect{left, top, left + size.x, top + size.y};
}

Window Builder::draw_window(WindowId id, const App& app, Framework framework, std::uint32_t controls_max) {
    WindowDraft draft;
    Window& w = draft.window;
    w.id = id;
    w.pid = app.pid;
    w.framework = framework;
    w.awareness = pick(awarenesses);
    // Two answers, sequenced: the order of evaluation of function arguments differs between
    // compilers (g++ right to left, clang left to right), and so would the scenario (S-1).
    const Point size = pick(window_sizes);
    const Monitor& monitor = s_.monitors[index(s_.monitors.size())];
    w.bounds = place_on(monitor, size);
    w.class_name = std::string(class_name_of(w.framework));
    w.title = app.name + " " + std::to_string(id);
    w.dirty = c_.chance(200);
    draw_controls(draft, count_in(1, controls_max));
    return std::move(draft.window);
}

// 1..3 processes, each with one framework (as a real app), owning the visible windows.
void Builder::draw_windows() {
    const std::uint32_t visible_max =
        std::clamp<std::uint32_t>(o_.windows_max, 1, static_cast<std::uint32_t>(windows_max) - hidden_windows_reserved);
    const std::uint32_t controls_max =
        std::clamp<std::uint32_t>(o_.controls_max, 1, static_cast<std::uint32_t>(controls_per_window_max));
    const std::uint32_t visible = count_in(1, visible_max);
    const std::uint32_t processes = count_in(1, std::min<std::uint32_t>(3, visible));
    std::vector<Framework> app_frameworks;
    for (std::uint32_t i = 0; i < processes; ++i) {
        s_.apps.push_back(draw_app(i));
        app_frameworks.push_back(pick(frameworks));
    }
    for (std::uint32_t i = 0; i < visible; ++i) {
        // The first windows go one per process, so every process has a window.
        const std::size_t app = i < processes ? i : index(processes);
        s_.windows.push_back(draw_window(i + 1, s_.apps[app], app_frameworks[app], controls_max));
    }
    visible_ = s_.windows.size();
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

void Builder::add_popup() {
    const Window& owner = s_.windows[index(visible_)];
    const auto id = static_cast<WindowId>(s_.windows.size() + 1);
    Window popup = hidden_window(id, owner.pid, center_of(owner.bounds), owner.bounds, owner.id);
    popup.framework = owner.framework;
    s_.hidden.push_back(id);
    s_.events.push_back(Event{pick(app_at_ms_choices), EventKind::PopupOpens, {}, {}, id, 0, 0, 0});
    s_.windows.push_back(std::move(popup));
}

void Builder::add_occluder() {
    const Window& target = s_.windows[index(visible_)];
    const Point center = center_of(any_control(target).bounds);
    const ProcessId pid = s_.apps[index(s_.apps.size())].pid;
    const auto id = static_cast<WindowId>(s_.windows.size() + 1);
    s_.hidden.push_back(id);
    s_.events.push_back(Event{pick(app_at_ms_choices), EventKind::OccluderAppears, {}, {}, id, 0, 0, 0});
    s_.windows.push_back(hidden_window(id, pid, center, target.bounds, std::nullopt));
}

// F-8 (extras): an app that is not running yet; launching it shows its one hidden window.
void Builder::add_launchable() {
    App app;
    app.pid = launched_pid;
    app.name = "launched";
    app.launchable = true;
    app.launch_takes_foreground = c_.chance(500);
    app.latency_ms_max = pick(latency_ms_max_choices);
    s_.apps.push_back(app);
    WindowDraft draft;
    draft.window.id = static_cast<WindowId>(s_.windows.size() + 1);
    draft.window.pid = app.pid;
    draft.window.framework = pick(frameworks);
    draft.window.class_name = std::string(class_name_of(draft.window.framework));
    draft.window.title = "launched";
    draft.window.bounds = place_on(s_.monitors.front(), window_sizes.front());
    draw_controls(draft, count_in(1, 2));
    s_.hidden.push_back(draft.window.id);
    s_.windows.push_back(std::move(draft.window));
}

// A group of the same window that is not `moved` and not inside it (no parent cycle), or 0.
ElementId Builder::reorder_parent(const Window& w, ElementId moved) {
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
    if (groups.empty() || !c_.chance(500)) return 0;
    return groups[index(groups.size())];
}

// Each kind of app event is on or off for the whole case.
void Builder::add_app_events() {
    if (visible_ > 1 && c_.chance(300)) {
        const WindowId other = s_.windows[1 + index(visible_ - 1)].id;
        s_.events.push_back(Event{pick(app_at_ms_choices), EventKind::WindowToFront, {}, {}, other, 0, 0, 0});
    }
    const Window& w = s_.windows[index(visible_)];
    if (c_.chance(250)) {
        const ElementId moved = any_control(w).id;
        const auto at = static_cast<std::uint32_t>(index(w.controls.size()));
        s_.events.push_back(Event{pick(app_at_ms_choices), EventKind::TreeReorders, {}, {}, w.id, moved,
                                  reorder_parent(w, moved), at});
    }
    if (c_.chance(150)) {
        s_.events.push_back(Event{pick(app_at_ms_choices), EventKind::ControlRemoved, {}, {}, w.id,
                                  any_control(w).id, 0, 0});
    }
}

void Builder::add_user_events() {
    const std::uint32_t count = count_in(1, 4);
    for (std::uint32_t i = 0; i < count; ++i) {
        const Window& w = s_.windows[index(visible_)];
        if (!c_.chance(500)) {
            s_.events.push_back(Event{pick(user_at_ms_choices), EventKind::UserTypes, "zz", {}, no_window, 0, 0, 0});
        } else {
            const Point at = center_of(any_control(w).bounds);
            s_.events.push_back(Event{pick(user_at_ms_choices), EventKind::UserClicks, {}, at, no_window, 0, 0, 0});
        }
    }
}

// A user who keeps typing: a keystroke every 600 ms from t=0 to t=3600, after the other user events.
void Builder::add_typing_burst() {
    for (TimeMs at = 0; at <= typing_burst_until_ms; at += typing_burst_every_ms) {
        s_.events.push_back(Event{at, EventKind::UserTypes, "z", {}, no_window, 0, 0, 0});
    }
}

// The first window with two controls of the same role that both have an automationId: the second
// takes the first's (drawn last, so that the choices before it keep their meaning).
void Builder::share_an_identity() {
    for (auto& w : s_.windows) {
        for (std::size_t i = 0; i < w.controls.size(); ++i) {
            for (std::size_t j = i + 1; j < w.controls.size(); ++j) {
                Control& a = w.controls[i];
                Control& b = w.controls[j];
                if (a.role != b.role || !a.automation_id || !b.automation_id) continue;
                b.automation_id = a.automation_id;
                return;
            }
        }
    }
}

void Builder::make_still() {
    for (auto& app : s_.apps) {
        app.latency_ms_min = 0;
        app.latency_ms_max = 0;
        app.feed_latency_ms = 0;
    }
    for (auto& w : s_.windows) {
        for (auto& c : w.controls) {
            if (c_.chance(disabled_in_still_world_permille)) c.enabled = false;
        }
    }
}

// Swarm: each fault is on in a share of cases. A stale read and an overrun beyond the declared
// latency bound are faults the tool does not promise to survive (S-7): the checks cannot blame
// it where they shaped the evidence, so they are on less often, to keep every property judged on
// at least 99 % of cases (each such reason under 0.5 %, docs/properties.md, "Not judged").
FaultPlan Builder::draw_faults() {
    FaultPlan f;
    auto rate = [this](std::uint16_t on_permille) -> std::uint16_t {
        return c_.chance(on_permille) ? pick(fault_permille_choices) : 0;
    };
    f.read_failure_permille = rate(fault_on_permille);
    f.stale_read_permille = rate(stale_read_on_permille);
    f.delivery_error_permille = rate(fault_on_permille);
    f.delivery_exception_permille = rate(fault_on_permille);
    f.foreground_refusal_permille = rate(fault_on_permille);
    f.latency_overrun_permille = rate(latency_overrun_on_permille);
    if (f.latency_overrun_permille != 0) f.latency_overrun_ms = pick(overrun_ms_choices);
    return f;
}

// --- steps ---

// Steps whose effect a later step may depend on (B-3): a save, a submit, a post, typing plain text
// into a field by ref (the text a later step uses).
bool is_dependency_target(const Scenario& s, const Step& step) {
    if (step.kind == StepKind::Hotkey) return step.keys == "ctrl+s";
    if (step.kind == StepKind::Type) {
        // Plain text only: with Tab or Enter in it the field keeps just the first segment (V-6).
        return step.control.has_value() && !step.text.empty() && step.text.find_first_of("\t\r\n") == std::string::npos;
    }
    if (step.kind != StepKind::Click || !step.control) return false;
    for (const auto& w : s.windows) {
        for (const auto& c : w.controls) {
            if (c.id == *step.control) return c.kind == ControlKind::SubmitButton || c.kind == ControlKind::PostButton;
        }
    }
    return false;
}

StepSwarm Builder::draw_step_swarm() {
    StepSwarm w;
    w.hotkeys = !c_.chance(step_kind_off_permille);
    w.click_at = !c_.chance(step_kind_off_permille);
    w.type_without_ref = !c_.chance(step_kind_off_permille);
    w.ref_of_other_window = o_.ref_of_other_window && !c_.chance(step_kind_off_permille);
    w.dependencies = !c_.chance(step_kind_off_permille);
    w.idempotency_keys = !c_.chance(step_kind_off_permille);
    return w;
}

Step Builder::draw_step_on(const Window& w, const Control& c) {
    Step step;
    step.window = w.id;
    step.control = c.id;
    if (c.kind == ControlKind::Edit) {
        step.kind = swarm_.hotkeys && c_.chance(400) ? StepKind::Hotkey : StepKind::Type;
        if (step.kind == StepKind::Type) step.text = text(step_texts);
        else step.keys = std::string(pick(hotkeys, o_.extras ? hotkeys.size() : hotkeys_plain));
        return step;
    }
    // Electron's tree is opaque (no refs): an agent clicks it by coordinates. A click by ref there
    // is a request the tool rejects (bad_request) — kept rare, where the rejection is the point.
    const bool opaque = w.framework == Framework::Electron && !c_.chance(electron_ref_click_permille);
    if (opaque || (c_.chance(200) && swarm_.click_at)) {
        step.kind = StepKind::ClickAt;
        step.control.reset();
        step.point = center_of(c.bounds);
        step.frame = "main";
        return step;
    }
    const bool observes = (o_.extras || o_.rare_steps) && c_.chance(o_.extras ? observe_permille : rare_observe_permille);
    step.kind = observes ? StepKind::Observe : StepKind::Click;
    const bool non_idempotent = c.kind == ControlKind::SubmitButton || c.kind == ControlKind::PostButton;
    if (non_idempotent && c_.chance(300) && swarm_.idempotency_keys) step.idempotency_key = "key" + std::to_string(c.id);
    return step;
}

Step Builder::draw_step() {
    const Window& w = s_.windows[index(visible_)];
    Step step;
    if (c_.chance(80) && swarm_.type_without_ref) {
        step.kind = StepKind::Type;  // no element ref (V-8)
        step.window = w.id;
        step.text = text(step_texts);
    } else {
        step = draw_step_on(w, any_control(w));
        // E-3: now and then the agent uses a ref of this window with another window as target.
        if (visible_ > 1 && step.control && c_.chance(40) && swarm_.ref_of_other_window) {
            const auto self = static_cast<std::size_t>(&w - s_.windows.data());
            step.ref_window = w.id;
            step.window = s_.windows[(self + 1 + index(visible_ - 1)) % visible_].id;
        }
    }
    const bool launchable = s_.apps.back().launchable;
    if (launchable && c_.chance(launch_step_permille)) {
        step = Step{};
        step.kind = StepKind::Launch;
        step.app = c_.chance(unknown_app_launch_permille) ? std::string("not-installed") : s_.apps.back().name;
    }
    std::vector<std::uint32_t> targets;
    for (std::size_t i = 0; i < s_.steps.size(); ++i) {
        if (is_dependency_target(s_, s_.steps[i])) targets.push_back(static_cast<std::uint32_t>(i));
    }
    if (!targets.empty() && c_.chance(400) && swarm_.dependencies) step.depends_on = targets[index(targets.size())];
    return step;
}

Scenario Builder::build() {
    s_.seed = static_cast<std::uint64_t>(c_.between(0, UINT32_MAX));
    s_.rules = "current";
    s_.batch = !c_.chance(singles_permille);
    draw_monitors();
    draw_windows();
    assert(visible_ >= 1);
    s_.foreground = s_.windows.front().id;  // topmost; popups and occluders come after the visible ones
    s_.user_last_input_ms = pick(last_input_ms_choices);
    if (o_.hostile_events) {
        if (c_.chance(250)) add_popup();
        if (c_.chance(250)) add_occluder();
        add_app_events();
    }
    const bool user_events = o_.user && c_.chance(600);
    if (user_events) add_user_events();
    if (o_.swarm_faults) s_.faults = draw_faults();
    if ((o_.extras || o_.rare_steps) && c_.chance(o_.extras ? launchable_permille : rare_launchable_permille)) add_launchable();
    swarm_ = draw_step_swarm();
    const std::uint32_t steps = count_in(1, std::clamp<std::uint32_t>(o_.steps_max, 1, static_cast<std::uint32_t>(steps_max)));
    for (std::uint32_t i = 0; i < steps; ++i) s_.steps.push_back(draw_step());
    // Drawn last, so that the choices before it keep their meaning: now and then the user's
    // keystrokes are a burst that outlasts the tool's whole F-1 wait.
    if (user_events && c_.chance(typing_burst_permille)) add_typing_burst();
    if (c_.chance(shared_identity_permille)) share_an_identity();
    if (c_.chance(still_world_permille)) make_still();
    return std::move(s_);
}

}  // namespace

BuildOptions campaign_build_options() { return BuildOptions{}; }

BuildOptions fuzz_build_options() {
    BuildOptions o;
    o.extras = true;
    return o;
}

// The property suite's brief: few of everything, and the extras.
BuildOptions property_build_options() {
    BuildOptions o;
    o.controls_max = 5;
    o.steps_max = 6;
    o.extras = true;
    return o;
}

Scenario build_scenario(Choices& choices, const BuildOptions& options) { return Builder(choices, options).build(); }

Scenario build_scenario_from_prng(Prng& rng, const BuildOptions& options) {
    PrngChoices choices(rng);
    return build_scenario(choices, options);
}

Scenario build_scenario_from_bytes(const std::uint8_t* data, std::size_t size, const BuildOptions& options) {
    ByteChoices choices(data, std::min(size, bytes_input_max));
    return build_scenario(choices, options);
}

Scenario build_scenario_from_vector(const std::vector<std::uint32_t>& values, const BuildOptions& options) {
    VectorChoices choices(values);
    return build_scenario(choices, options);
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
