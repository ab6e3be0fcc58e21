#include "sim/generate.h"
#include "properties/generators_rc.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <ostream>
#include <set>
#include <string_view>

#include "sim/geometry.h"
#include "sim/scenario_json.h"
#include "sim/trace.h"
#include "sim/validate.h"

namespace deskcheck::sim {
void showValue(const Scenario& scenario, std::ostream& os) { os << encode_scenario_text(scenario); }
}  // namespace deskcheck::sim

namespace deskcheck::props::rcgen {
namespace {

using sim::center_of;
using sim::class_name_of;
using sim::role_of;

// ---- tables: index 0 is the simplest choice -----------------------------------------------------

constexpr std::array<Rect, 3> monitor_sizes{Rect{0, 0, 1920, 1080}, Rect{0, 0, 1280, 720}, Rect{0, 0, 2560, 1440}};
constexpr std::array<std::uint32_t, 7> dpis{96, 144, 120, 192, 168, 240, 288};
// Weighted by repetition: Electron's opaque tree makes every step on it unverifiable (V-8).
constexpr std::array<Framework, 6> frameworks{Framework::Win32, Framework::Wpf,   Framework::WinForms,
                                              Framework::Win32, Framework::Wpf,   Framework::Electron};
// Around the tool's settle window (poll 50, settle_ms_max 1000) and F-3's 350 ms watch.
constexpr std::array<TimeMs, 9> latency_ms_max_choices{0, 20, 50, 120, 200, 340, 360, 400, 950};
constexpr std::array<TimeMs, 4> feed_latency_choices{0, 100, 300, 900};
constexpr std::array<std::optional<TimeMs>, 7> steal_choices{std::nullopt, 0, 50, 200, 349, 351, 600};
constexpr std::array<DpiAwareness, 3> awarenesses{DpiAwareness::PerMonitor, DpiAwareness::System, DpiAwareness::Unaware};
constexpr std::array<Point, 3> window_sizes{Point{640, 480}, Point{400, 300}, Point{800, 600}};
// Weighted by repetition: edits and stateful controls (verdicts to judge) are the common case.
constexpr std::array<sim::ControlKind, 12> control_kinds{
    sim::ControlKind::Edit,     sim::ControlKind::Toggle,   sim::ControlKind::Button,       sim::ControlKind::Expander,
    sim::ControlKind::ListItem, sim::ControlKind::Edit,     sim::ControlKind::SubmitButton, sim::ControlKind::Toggle,
    sim::ControlKind::PostButton, sim::ControlKind::Edit,   sim::ControlKind::ListItem,     sim::ControlKind::Group};
struct ReadabilityChoice {
    sim::Readability readability;
    std::uint16_t permille;
};
constexpr std::array<ReadabilityChoice, 6> readability_choices{
    ReadabilityChoice{sim::Readability::Readable, 500}, ReadabilityChoice{sim::Readability::Unreadable, 500},
    ReadabilityChoice{sim::Readability::Intermittent, 100}, ReadabilityChoice{sim::Readability::Intermittent, 500},
    ReadabilityChoice{sim::Readability::Intermittent, 900}, ReadabilityChoice{sim::Readability::Readable, 500}};
constexpr std::array<std::string_view, 6> edit_values{"", "hello", "abc", "hello world", "line1\r\nline2", "saved\r\n"};
enum class DraftStep : std::uint8_t { Type, Hotkey, Click, ClickAt, TypeWithoutRef, Observe };
// Weighted by repetition: steps with a verdict to judge are the common case.
constexpr std::array<DraftStep, 12> draft_steps{DraftStep::Type,    DraftStep::Hotkey, DraftStep::Click, DraftStep::ClickAt,
                                                DraftStep::Type,    DraftStep::Hotkey, DraftStep::Click, DraftStep::Type,
                                                DraftStep::Click,   DraftStep::ClickAt, DraftStep::TypeWithoutRef, DraftStep::Observe};
constexpr std::array<std::string_view, 8> step_texts{"abc", "hello", "x", "a\tb", "line\n", " ", "abc\n", "hello world"};
// "enter" promises nothing observable (V-4: submit/confirm); in a multiline edit it inserts a line
// break, which the published rules take for its success (D-1).
constexpr std::array<std::string_view, 8> hotkeys{"ctrl+a", "ctrl+s", "ctrl+z", "home", "end", "tab", "f5", "enter"};
constexpr std::array<sim::EventKind, 7> event_kinds{
    sim::EventKind::UserTypes,       sim::EventKind::UserClicks,   sim::EventKind::WindowToFront,
    sim::EventKind::OccluderAppears, sim::EventKind::PopupOpens,   sim::EventKind::TreeReorders,
    sim::EventKind::ControlRemoved};
// Around F-1's 700 ms idle and 3 s wait, F-3's 350 ms watch and the settle window.
constexpr std::array<TimeMs, 14> event_at_choices{0, 50, 100, 200, 400, 500, 699, 701, 1000, 1500, 2500, 2999, 3000, 3500};
constexpr std::array<TimeMs, 6> last_input_choices{-10'000, 0, -300, -699, -701, -3'000};
constexpr std::array<std::uint16_t, 5> fault_permille_choices{100, 20, 50, 300, 1000};
constexpr std::array<TimeMs, 3> overrun_ms_choices{50, 400, 2'000};

constexpr std::int32_t row_px = 28;
constexpr std::int32_t margin_px = 10;
constexpr ProcessId overlay_pid = 990;   // the process of occluders (unrelated to every target)
constexpr ProcessId launched_pid = 980;  // the app a launch step starts (F-8)
constexpr std::int32_t hidden_width_px = 80;
constexpr std::int32_t hidden_height_px = 60;

template <class T, std::size_t N>
const T& at(const std::array<T, N>& table, int index) {
    static_assert(N > 0);
    return table[static_cast<std::size_t>(std::max(0, index)) % N];
}

std::size_t modulo(int index, std::size_t n) {
    assert(n > 0);
    return static_cast<std::size_t>(std::max(0, index)) % n;
}



// ---- monitors, apps -----------------------------------------------------------------------------

void build_monitors(const ScenarioDraft& d, const GenOptions& o, sim::Scenario& s) {
    const std::size_t count = std::clamp<std::size_t>(d.monitors.size(), 1, std::max<std::uint32_t>(1, o.monitors_max));
    std::int32_t left = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const MonitorDraft m = i < d.monitors.size() ? d.monitors[i] : MonitorDraft{};
        const Rect size = at(monitor_sizes, m.size);
        sim::Monitor out;
        out.id = static_cast<std::uint32_t>(i + 1);
        out.bounds = Rect{left, 0, left + size.right, size.bottom};
        out.dpi = at(dpis, m.dpi);
        out.primary = i == 0;
        left = out.bounds.right;
        s.monitors.push_back(out);
    }
}

sim::App build_app(const AppDraft& a, std::size_t index) {
    sim::App app;
    app.pid = static_cast<ProcessId>(100 * (index + 1));
    app.name = "app" + std::to_string(index + 1);
    app.latency_ms_max = at(latency_ms_max_choices, a.latency);
    switch (modulo(a.latency_min, 3)) {
        case 1: app.latency_ms_min = app.latency_ms_max; break;
        case 2: app.latency_ms_min = app.latency_ms_max / 2; break;
        default: app.latency_ms_min = 0; break;
    }
    app.feed_latency_ms = at(feed_latency_choices, a.feed_latency);
    app.steals_foreground_after_ms = at(steal_choices, a.steal);
    return app;
}

// ---- windows and controls -----------------------------------------------------------------------

Rect control_slot(const Rect& window, std::size_t index, std::size_t count) {
    return sim::control_slot(window, static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(count));
}

void edit_state(const ControlDraft& d, sim::Control& c) {
    c.value = std::string(at(edit_values, d.value));
    c.multiline = c.value.find_first_of("\r\n") != std::string::npos;
    const auto length = static_cast<std::int64_t>(c.value.size());
    switch (modulo(d.selection, 4)) {
        case 1: c.selection = Selection{0, length}; break;
        case 2: c.selection = Selection{0, 0}; break;
        case 3: c.selection = Selection{length / 3, length / 3}; break;
        default: c.selection = Selection{length, 0}; break;
    }
}

// Automation ids and names are unique within a window but repeat across windows, as in two
// windows of one app: a ref resolved in the wrong window finds a plausible element there (E-3).
sim::Control make_control(const ControlDraft& d, sim::ControlKind kind, ElementId id, const Rect& bounds, Framework fw,
                          std::size_t slot, bool readable_only) {
    sim::Control c;
    c.id = id;
    c.kind = kind;
    c.role = std::string(role_of(kind));
    c.bounds = bounds;
    c.name = c.role + " " + std::to_string(slot + 1);
    c.enabled = !d.disabled;
    if (!d.no_automation_id) c.automation_id = "auto" + std::to_string(slot + 1);
    c.own_handle = (fw == Framework::Win32 || fw == Framework::WinForms) && d.own_handle;
    const ReadabilityChoice r = at(readability_choices, readable_only ? 0 : d.readability);
    c.readability = r.readability;
    c.intermittent_permille = r.permille;
    if (kind == sim::ControlKind::Edit) edit_state(d, c);
    if (kind == sim::ControlKind::Toggle) c.toggled = d.state;
    if (kind == sim::ControlKind::Expander) c.expanded = d.state;
    return c;
}

// The controls of one window; a PostButton draft brings its Feed (so it may take two slots).
void build_controls(const WindowDraft& wd, sim::Window& w, ElementId& next_id, std::size_t controls_max,
                    std::vector<ElementId>& feeds_elsewhere, bool readable_only) {
    std::size_t slots = 0;
    const std::size_t drafts_n = std::clamp<std::size_t>(wd.controls.size(), 1, controls_max);
    for (std::size_t i = 0; i < drafts_n; ++i) {
        const ControlDraft d = i < wd.controls.size() ? wd.controls[i] : ControlDraft{};
        slots += at(control_kinds, d.kind) == sim::ControlKind::PostButton ? 2 : 1;
    }
    ElementId last_group = 0;
    bool item_selected = false;
    std::size_t slot = 0;
    for (std::size_t i = 0; i < drafts_n; ++i) {
        const ControlDraft d = i < wd.controls.size() ? wd.controls[i] : ControlDraft{};
        const sim::ControlKind kind = at(control_kinds, d.kind);
        const ElementId parent = d.in_group ? last_group : 0;
        if (kind == sim::ControlKind::PostButton) {
            sim::Control feed = make_control(d, sim::ControlKind::Feed, next_id++, control_slot(w.bounds, slot, slots), w.framework, slot, readable_only);
            ++slot;
            feed.readability = sim::Readability::Readable;
            sim::Control post = make_control(d, kind, next_id++, control_slot(w.bounds, slot, slots), w.framework, slot, readable_only);
            ++slot;
            post.feed = feed.id;
            post.comment = "comment " + std::to_string(post.id);
            if (d.feed_elsewhere) feeds_elsewhere.push_back(feed.id);
            feed.parent = parent;
            post.parent = parent;
            w.controls.push_back(std::move(feed));
            w.controls.push_back(std::move(post));
            continue;
        }
        sim::Control c = make_control(d, kind, next_id++, control_slot(w.bounds, slot, slots), w.framework, slot, readable_only);
        ++slot;
        if (kind != sim::ControlKind::Group) c.parent = parent;
        if (kind == sim::ControlKind::ListItem && d.state && !item_selected) {
            c.selected = true;  // one selected item per window (they may share a parent)
            item_selected = true;
        }
        if (kind == sim::ControlKind::SubmitButton) w.form = true;
        if (kind == sim::ControlKind::Group) last_group = c.id;
        w.controls.push_back(std::move(c));
    }
}

// A post button whose comments show in another window of its app (a chat and its conversation
// view): the feed moves to a strip at the bottom of `to`. A hotkey on that feed may then see a change it did
// not make (D-1).
void move_feed(sim::Window& from, sim::Window& to, ElementId feed) {
    const auto it = std::find_if(from.controls.begin(), from.controls.end(), [feed](const sim::Control& c) { return c.id == feed; });
    if (it == from.controls.end()) return;
    sim::Control c = *it;
    from.controls.erase(it);
    c.parent = 0;
    c.bounds = Rect{to.bounds.left + margin_px, to.bounds.bottom - row_px - margin_px, to.bounds.right - margin_px,
                    to.bounds.bottom - margin_px};
    c.automation_id = "feed" + std::to_string(c.id);
    c.name = "Feed " + std::to_string(c.id);
    to.controls.push_back(std::move(c));
}

Rect place_on(const sim::Monitor& m, Point size, int x_permille, int y_permille) {
    const std::int32_t room_x = std::max(0, m.bounds.right - m.bounds.left - size.x);
    const std::int32_t room_y = std::max(0, m.bounds.bottom - m.bounds.top - size.y);
    const std::int32_t left = m.bounds.left + room_x * std::clamp(x_permille, 0, 1000) / 1000;
    const std::int32_t top = m.bounds.top + room_y * std::clamp(y_permille, 0, 1000) / 1000;
    return Rect{left, top, left + std::min(size.x, m.bounds.right - m.bounds.left),
                top + std::min(size.y, m.bounds.bottom - m.bounds.top)};
}

void build_windows(const ScenarioDraft& d, const GenOptions& o, sim::Scenario& s,
                   const std::vector<Framework>& app_framework) {
    const std::size_t count = std::clamp<std::size_t>(d.windows.size(), 1, std::max<std::uint32_t>(1, o.windows_max));
    const std::size_t controls_max = std::clamp<std::size_t>(o.controls_max, 1, sim::controls_per_window_max / 2);
    ElementId next_id = 1;
    std::vector<std::vector<ElementId>> feeds_elsewhere(count);
    for (std::size_t i = 0; i < count; ++i) {
        const WindowDraft wd = i < d.windows.size() ? d.windows[i] : WindowDraft{};
        const std::size_t app = modulo(wd.app, s.apps.size());
        sim::Window w;
        w.id = static_cast<WindowId>(i + 1);
        w.pid = s.apps[app].pid;
        w.framework = app_framework[app];
        w.awareness = at(awarenesses, wd.awareness);
        w.bounds = place_on(s.monitors[modulo(wd.monitor, s.monitors.size())], at(window_sizes, wd.size),
                            wd.x_permille, wd.y_permille);
        w.class_name = std::string(class_name_of(w.framework));
        w.title = s.apps[app].name + " " + std::to_string(w.id);
        w.dirty = wd.dirty;
        build_controls(wd, w, next_id, controls_max, feeds_elsewhere[i], !o.unreadable);
        s.windows.push_back(std::move(w));
    }
    // A feed moves to the next window of the same app (its effects are the app's: a tool may wait
    // for them; another app's updates would be a concurrent actor, W-5, which it cannot).
    for (std::size_t i = 0; i < count && count > 1; ++i) {
        for (std::size_t k = 1; k < count; ++k) {
            const std::size_t j = (i + k) % count;
            if (s.windows[j].pid != s.windows[i].pid) continue;
            for (const ElementId feed : feeds_elsewhere[i]) move_feed(s.windows[i], s.windows[j], feed);
            break;
        }
    }
}

// ---- steps --------------------------------------------------------------------------------------

bool editable(const sim::Control& c) { return c.kind == sim::ControlKind::Edit; }
bool clickable(const sim::Control& c) {
    return c.kind != sim::ControlKind::Edit && c.kind != sim::ControlKind::Group && c.kind != sim::ControlKind::Feed;
}

// The controls a step of `kind` is about: edits for typing (and feeds for hotkeys/observations:
// a read-only text a hotkey cannot change, D-1), clickables for clicks; any control if none.
const sim::Control& control_for(const sim::Window& w, DraftStep kind, int index) {
    std::vector<const sim::Control*> candidates;
    for (const auto& c : w.controls) {
        const bool fits = kind == DraftStep::Click     ? clickable(c)
                          : kind == DraftStep::ClickAt ? c.kind != sim::ControlKind::Group
                          : kind == DraftStep::Type    ? editable(c)
                                                       : editable(c) || c.kind == sim::ControlKind::Feed;
        if (fits) candidates.push_back(&c);
    }
    if (candidates.empty()) return w.controls[modulo(index, w.controls.size())];
    return *candidates[modulo(index, candidates.size())];
}

const sim::Control* find_control(const sim::Scenario& s, ElementId id) {
    for (const auto& w : s.windows) {
        for (const auto& c : w.controls) {
            if (c.id == id) return &c;
        }
    }
    return nullptr;
}

// Steps whose effect a later step may depend on (B-3): a save, a submit, a post.
bool is_dependency_target(const sim::Scenario& s, const sim::Step& step) {
    if (step.kind == sim::StepKind::Hotkey) return step.keys == "ctrl+s";
    if (step.kind != sim::StepKind::Click || !step.control) return false;
    const sim::Control* c = find_control(s, *step.control);
    return c != nullptr && (c->kind == sim::ControlKind::SubmitButton || c->kind == sim::ControlKind::PostButton);
}

sim::Step build_step(const StepDraft& d, const sim::Scenario& s, std::size_t visible, bool ref_window) {
    const DraftStep kind = at(draft_steps, d.kind);
    const std::size_t wi = modulo(d.window, visible);
    const sim::Window& w = s.windows[wi];
    const sim::Control& c = control_for(w, kind, d.control);
    sim::Step step;
    step.window = w.id;
    switch (kind) {
        case DraftStep::Type:
        case DraftStep::TypeWithoutRef:
            step.kind = sim::StepKind::Type;
            step.text = std::string(at(step_texts, d.text));
            if (kind == DraftStep::Type) step.control = c.id;
            break;
        case DraftStep::Hotkey:
            step.kind = sim::StepKind::Hotkey;
            step.keys = std::string(at(hotkeys, d.keys));
            step.control = c.id;
            break;
        case DraftStep::Click:
            step.kind = sim::StepKind::Click;
            step.control = c.id;
            if (d.idempotency_key && (c.kind == sim::ControlKind::SubmitButton || c.kind == sim::ControlKind::PostButton)) {
                step.idempotency_key = "key" + std::to_string(c.id);
            }
            break;
        case DraftStep::ClickAt:
            step.kind = sim::StepKind::ClickAt;
            step.point = center_of(c.bounds);
            step.frame = "main";
            break;
        case DraftStep::Observe:
            step.kind = sim::StepKind::Observe;
            step.control = c.id;
            break;
    }
    // E-3: the agent holds a ref of window `w` and uses it with another target.
    if (ref_window && d.other_window > 0 && visible > 1 && step.control) {
        const std::size_t other = (wi + 1 + modulo(d.other_window - 1, visible - 1)) % visible;
        step.ref_window = w.id;
        step.window = s.windows[other].id;
    }
    return step;
}

void build_steps(const ScenarioDraft& d, const GenOptions& o, sim::Scenario& s, std::size_t visible, bool ref_window) {
    const std::size_t count = std::clamp<std::size_t>(d.steps.size(), 1, std::max<std::uint32_t>(1, o.steps_max));
    std::vector<sim::Step> steps;
    for (std::size_t i = 0; i < count; ++i) {
        steps.push_back(build_step(i < d.steps.size() ? d.steps[i] : StepDraft{}, s, visible, ref_window));
    }
    if (o.launch && d.launch > 0) {
        sim::Step launch;
        launch.kind = sim::StepKind::Launch;
        launch.app = "launched";
        const std::size_t position = modulo(d.launch - 1, steps.size() + 1);
        steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(position), launch);
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::size_t draft = i < d.steps.size() ? i : 0;
        const bool depends = draft < d.steps.size() && d.steps[draft].depends;
        if (!depends) continue;
        for (std::size_t k = i; k-- > 0;) {
            if (is_dependency_target(s, steps[k])) {
                steps[i].depends_on = static_cast<std::uint32_t>(k);
                break;
            }
        }
    }
    s.steps = std::move(steps);
}

// ---- hostile windows and events -----------------------------------------------------------------

// A small hidden window centred on `center`, clamped inside `inside`.
sim::Window hidden_window(WindowId id, ProcessId pid, Point center, const Rect& inside, std::optional<WindowId> owner) {
    sim::Window w;
    w.id = id;
    w.pid = pid;
    w.owner = owner;
    const std::int32_t width = std::min(hidden_width_px, inside.right - inside.left);
    const std::int32_t height = std::min(hidden_height_px, inside.bottom - inside.top);
    const std::int32_t left = std::clamp(center.x - width / 2, inside.left, inside.right - width);
    const std::int32_t top = std::clamp(center.y - height / 2, inside.top, inside.bottom - height);
    w.bounds = Rect{left, top, left + width, top + height};
    w.class_name = owner ? "#32770" : "Occluder";
    w.title = owner ? "Popup" : "";
    return w;
}

// Click points of ClickAt steps on window `w` (occluders go near them, S-7).
std::vector<Point> click_points(const sim::Scenario& s, WindowId w) {
    std::vector<Point> out;
    for (const auto& step : s.steps) {
        if (step.kind == sim::StepKind::ClickAt && step.window == w && step.point) out.push_back(*step.point);
    }
    return out;
}

ElementId reorder_parent(const sim::Window& w, ElementId moved, int index) {
    if (index <= 0) return 0;
    std::vector<ElementId> groups;
    for (const auto& c : w.controls) {
        if (c.kind == sim::ControlKind::Group && c.id != moved && c.parent != moved) groups.push_back(c.id);
    }
    if (groups.empty()) return 0;
    return groups[modulo(index - 1, groups.size())];
}

void add_event(const EventDraft& e, sim::Scenario& s, std::size_t visible) {
    const sim::EventKind kind = at(event_kinds, e.kind);
    const sim::Window& w = s.windows[modulo(e.window, visible)];
    const sim::Control& c = w.controls[modulo(e.control, w.controls.size())];
    sim::Event ev;
    ev.at_ms = at(event_at_choices, e.at);
    ev.kind = kind;
    switch (kind) {
        case sim::EventKind::UserTypes: ev.text = "zz"; break;
        case sim::EventKind::UserClicks: ev.point = center_of(c.bounds); break;
        case sim::EventKind::WindowToFront:
            ev.window = s.windows[modulo(e.window, visible) == 0 && visible > 1 ? 1 : modulo(e.window, visible)].id;
            break;
        case sim::EventKind::OccluderAppears:
        case sim::EventKind::PopupOpens: {
            const bool occluder = kind == sim::EventKind::OccluderAppears;
            const auto points = click_points(s, w.id);
            const Point center = occluder && !points.empty() ? points[modulo(e.control, points.size())] : center_of(c.bounds);
            const auto id = static_cast<WindowId>(s.windows.size() + 1);
            sim::Window h = hidden_window(id, occluder ? overlay_pid : w.pid, center, w.bounds,
                                          occluder ? std::nullopt : std::optional<WindowId>(w.id));
            h.framework = occluder ? Framework::Win32 : w.framework;
            s.hidden.push_back(id);
            s.windows.push_back(std::move(h));
            ev.window = id;
            break;
        }
        case sim::EventKind::TreeReorders:
            ev.window = w.id;
            ev.control = c.id;
            ev.new_parent = reorder_parent(w, c.id, e.new_parent);
            ev.new_index = static_cast<std::uint32_t>(modulo(e.new_index, w.controls.size()));
            break;
        case sim::EventKind::ControlRemoved:
            ev.window = w.id;
            ev.control = c.id;
            break;
    }
    s.events.push_back(std::move(ev));
}

bool wanted(sim::EventKind kind, const GenOptions& o) {
    const bool user = kind == sim::EventKind::UserTypes || kind == sim::EventKind::UserClicks;
    return user ? o.user : o.hostile;
}

void build_events(const ScenarioDraft& d, const GenOptions& o, sim::Scenario& s, std::size_t visible) {
    const std::size_t count = std::min<std::size_t>(d.events.size(), o.events_max);
    bool occluder = false;
    for (std::size_t i = 0; i < count; ++i) {
        const sim::EventKind kind = at(event_kinds, d.events[i].kind);
        if (!wanted(kind, o)) continue;
        add_event(d.events[i], s, visible);
        occluder = occluder || kind == sim::EventKind::OccluderAppears;
    }
    if (occluder) {
        sim::App overlay;
        overlay.pid = overlay_pid;
        overlay.name = "overlay";
        s.apps.push_back(overlay);
    }
}

void build_launch(const ScenarioDraft& d, const GenOptions& o, sim::Scenario& s) {
    if (!o.launch || d.launch <= 0) return;
    sim::App app;
    app.pid = launched_pid;
    app.name = "launched";
    app.launchable = true;
    app.launch_takes_foreground = d.launch_takes_foreground;
    s.apps.push_back(app);
    const auto id = static_cast<WindowId>(s.windows.size() + 1);
    sim::Window w;
    w.id = id;
    w.pid = launched_pid;
    w.bounds = place_on(s.monitors.front(), Point{400, 300}, 500, 500);
    w.class_name = std::string(class_name_of(Framework::Win32));
    w.title = "launched " + std::to_string(id);
    ControlDraft edit;
    ElementId next_id = 1;
    for (const auto& other : s.windows) {
        for (const auto& c : other.controls) next_id = std::max(next_id, c.id + 1);
    }
    w.controls.push_back(make_control(edit, sim::ControlKind::Edit, next_id, control_slot(w.bounds, 0, 1), w.framework, 0, true));
    s.hidden.push_back(id);
    s.windows.push_back(std::move(w));
}

sim::FaultPlan build_faults(const FaultDraft& f) {
    sim::FaultPlan p;
    const auto rate = [](bool on, int index) -> std::uint16_t { return on ? at(fault_permille_choices, index) : 0; };
    p.read_failure_permille = rate(f.read_failure, f.read_failure_rate);
    p.stale_read_permille = rate(f.stale_read, f.stale_read_rate);
    p.delivery_error_permille = rate(f.delivery_error, f.delivery_error_rate);
    p.delivery_exception_permille = rate(f.delivery_exception, f.delivery_exception_rate);
    p.foreground_refusal_permille = rate(f.foreground_refusal, f.foreground_refusal_rate);
    p.latency_overrun_permille = rate(f.latency_overrun, f.latency_overrun_rate);
    if (p.latency_overrun_permille != 0) p.latency_overrun_ms = at(overrun_ms_choices, f.overrun_ms);
    return p;
}

sim::Scenario build_once(const ScenarioDraft& d, const GenOptions& o, bool ref_window) {
    sim::Scenario s;
    s.seed = d.seed;
    s.rules = o.rules;
    s.batch = modulo(d.single_actions, 10) != 9;
    build_monitors(d, o, s);
    const std::size_t apps = std::clamp<std::size_t>(d.apps.size(), 1, std::max<std::uint32_t>(1, o.apps_max));
    std::vector<Framework> app_framework;
    for (std::size_t i = 0; i < apps; ++i) {
        const AppDraft a = i < d.apps.size() ? d.apps[i] : AppDraft{};
        sim::App app = build_app(a, i);
        if (!o.hostile) app.steals_foreground_after_ms.reset();
        s.apps.push_back(std::move(app));
        app_framework.push_back(at(frameworks, a.framework));
    }
    build_windows(d, o, s, app_framework);
    const std::size_t visible = s.windows.size();
    s.foreground = s.windows.front().id;
    s.user_last_input_ms = o.user ? at(last_input_choices, d.last_input) : last_input_choices[0];
    build_steps(d, o, s, visible, ref_window);
    build_events(d, o, s, visible);
    build_launch(d, o, s);
    if (o.faults) s.faults = build_faults(d.faults);
    return s;
}

// ---- RapidCheck generators ----------------------------------------------------------------------

// A vector of [min, max] elements whose length grows with RapidCheck's size; shrinks by removing
// chunks (never below min), then each element.
template <class T>
rc::Gen<std::vector<T>> bounded_vector(std::size_t min, std::size_t max, rc::Gen<T> element) {
    assert(min <= max);
    return rc::Gen<std::vector<T>>([=](const rc::Random& random, int size) {
        rc::Random r(random);
        const std::size_t span = (max - min) * static_cast<std::size_t>(std::clamp(size, 0, 100)) / 100;
        const std::size_t count = min + static_cast<std::size_t>(r.split().next() % (span + 1));
        std::vector<rc::Shrinkable<T>> items;
        items.reserve(count);
        for (std::size_t i = 0; i < count; ++i) items.push_back(element(r.split(), size));
        using Items = std::vector<rc::Shrinkable<T>>;
        auto shrinkable = rc::shrinkable::shrinkRecur(std::move(items), [min](const Items& xs) {
            return rc::seq::concat(
                rc::seq::filter(rc::shrink::removeChunks(xs), [min](const Items& ys) { return ys.size() >= min; }),
                rc::shrink::eachElement(xs, [](const rc::Shrinkable<T>& x) { return x.shrinks(); }));
        });
        return rc::shrinkable::map(std::move(shrinkable), [](const Items& xs) {
            std::vector<T> out;
            out.reserve(xs.size());
            for (const auto& x : xs) out.push_back(x.value());
            return out;
        });
    });
}

// Uniform over [0, n) at every size (RapidCheck's inRange narrows with the size, which would keep
// the rarer table entries out of all but the last cases); shrinks towards 0, the simplest entry.
rc::Gen<int> index_below(int n) {
    assert(n > 0);
    return rc::Gen<int>([n](const rc::Random& random, int) {
        const auto v = static_cast<int>(rc::Random(random).next() % static_cast<std::uint64_t>(n));
        return rc::shrinkable::shrinkRecur(v, [](int x) { return rc::shrink::towards(x, 0); });
    });
}
rc::Gen<bool> flag() { return rc::gen::map(index_below(2), [](int x) { return x == 1; }); }
// Mostly false: a hostile choice that should not drown the rest (1 in `one_in`).
rc::Gen<bool> rarely(int one_in) {
    return rc::gen::map(index_below(one_in), [one_in](int x) { return x == one_in - 1; });
}

// The Sim's seed: any value at every size, never shrunk (a different seed is a different case).
rc::Gen<std::uint32_t> any_seed() {
    return rc::Gen<std::uint32_t>([](const rc::Random& random, int) {
        return rc::shrinkable::just(static_cast<std::uint32_t>(rc::Random(random).next() % 1'000'000));
    });
}

rc::Gen<MonitorDraft> monitor_drafts() {
    return rc::gen::build<MonitorDraft>(rc::gen::set(&MonitorDraft::size, index_below(3)),
                                        rc::gen::set(&MonitorDraft::dpi, index_below(7)));
}

rc::Gen<AppDraft> app_drafts() {
    return rc::gen::build<AppDraft>(rc::gen::set(&AppDraft::framework, index_below(static_cast<int>(frameworks.size()))),
                                    rc::gen::set(&AppDraft::latency, index_below(9)),
                                    rc::gen::set(&AppDraft::latency_min, index_below(3)),
                                    rc::gen::set(&AppDraft::feed_latency, index_below(4)),
                                    rc::gen::set(&AppDraft::steal, rc::gen::map(index_below(14), [](int x) {
                                                     return x < 7 ? 0 : x - 7;  // half never steal
                                                 })));
}

rc::Gen<ControlDraft> control_drafts() {
    return rc::gen::build<ControlDraft>(
        rc::gen::set(&ControlDraft::kind, index_below(static_cast<int>(control_kinds.size()))),
        rc::gen::set(&ControlDraft::readability, rc::gen::map(index_below(12), [](int x) { return x < 6 ? 0 : x - 6; })),
        rc::gen::set(&ControlDraft::value, index_below(6)), rc::gen::set(&ControlDraft::selection, index_below(4)),
        rc::gen::set(&ControlDraft::state, flag()), rc::gen::set(&ControlDraft::no_automation_id, rarely(4)),
        rc::gen::set(&ControlDraft::disabled, rarely(12)),
        rc::gen::set(&ControlDraft::own_handle, flag()), rc::gen::set(&ControlDraft::in_group, rarely(3)),
        rc::gen::set(&ControlDraft::feed_elsewhere, rarely(3)));
}

rc::Gen<WindowDraft> window_drafts(const GenOptions& o) {
    return rc::gen::build<WindowDraft>(
        rc::gen::set(&WindowDraft::app, index_below(3)), rc::gen::set(&WindowDraft::awareness, index_below(3)),
        rc::gen::set(&WindowDraft::monitor, index_below(2)), rc::gen::set(&WindowDraft::size, index_below(3)),
        rc::gen::set(&WindowDraft::x_permille, index_below(1001)),
        rc::gen::set(&WindowDraft::y_permille, index_below(1001)),
        rc::gen::set(&WindowDraft::dirty, rarely(4)),
        rc::gen::set(&WindowDraft::controls, bounded_vector<ControlDraft>(1, std::max<std::uint32_t>(1, o.controls_max), control_drafts())));
}

rc::Gen<StepDraft> step_drafts(const GenOptions& o) {
    return rc::gen::build<StepDraft>(
        rc::gen::set(&StepDraft::kind, index_below(static_cast<int>(draft_steps.size()))),
        rc::gen::set(&StepDraft::window, index_below(4)), rc::gen::set(&StepDraft::control, index_below(5)),
        rc::gen::set(&StepDraft::text, index_below(static_cast<int>(step_texts.size()))), rc::gen::set(&StepDraft::keys, index_below(static_cast<int>(hotkeys.size()))),
        rc::gen::set(&StepDraft::other_window,
                     o.ref_window ? rc::gen::map(index_below(12), [](int x) { return x < 11 ? 0 : x - 10; }) : rc::gen::just(0)),
        rc::gen::set(&StepDraft::depends, rarely(3)), rc::gen::set(&StepDraft::idempotency_key, rarely(3)));
}

rc::Gen<EventDraft> event_drafts() {
    return rc::gen::build<EventDraft>(
        rc::gen::set(&EventDraft::kind, index_below(7)), rc::gen::set(&EventDraft::at, index_below(14)),
        rc::gen::set(&EventDraft::window, index_below(4)), rc::gen::set(&EventDraft::control, index_below(5)),
        rc::gen::set(&EventDraft::new_parent, index_below(3)), rc::gen::set(&EventDraft::new_index, index_below(4)));
}

rc::Gen<FaultDraft> fault_drafts() {
    return rc::gen::build<FaultDraft>(
        rc::gen::set(&FaultDraft::read_failure, rarely(3)), rc::gen::set(&FaultDraft::stale_read, rarely(4)),
        rc::gen::set(&FaultDraft::delivery_error, rarely(5)), rc::gen::set(&FaultDraft::delivery_exception, rarely(5)),
        rc::gen::set(&FaultDraft::foreground_refusal, rarely(3)), rc::gen::set(&FaultDraft::latency_overrun, rarely(3)),
        rc::gen::set(&FaultDraft::read_failure_rate, index_below(5)),
        rc::gen::set(&FaultDraft::stale_read_rate, index_below(5)),
        rc::gen::set(&FaultDraft::delivery_error_rate, index_below(5)),
        rc::gen::set(&FaultDraft::delivery_exception_rate, index_below(5)),
        rc::gen::set(&FaultDraft::foreground_refusal_rate, index_below(5)),
        rc::gen::set(&FaultDraft::latency_overrun_rate, index_below(5)),
        rc::gen::set(&FaultDraft::overrun_ms, index_below(3)));
}

}  // namespace

sim::Scenario build_scenario(const ScenarioDraft& draft, const GenOptions& options, bool* e3_dropped) {
    if (e3_dropped != nullptr) *e3_dropped = false;
    sim::Scenario s = build_once(draft, options, options.ref_window);
    const bool has_e3 = std::any_of(s.steps.begin(), s.steps.end(), [](const sim::Step& st) { return st.ref_window.has_value(); });
    if (has_e3 && sim::validate(s).has_value()) {
        // validate() does not (yet) accept a step whose control lives in its ref_window: build the
        // same draft without E-3 steps rather than hand RapidCheck an invalid scenario.
        s = build_once(draft, options, false);
        if (e3_dropped != nullptr) *e3_dropped = true;
    }
    return s;
}

rc::Gen<ScenarioDraft> drafts(const GenOptions& options) {
    const GenOptions o = options;
    return rc::gen::build<ScenarioDraft>(
        rc::gen::set(&ScenarioDraft::monitors, bounded_vector<MonitorDraft>(1, std::max<std::uint32_t>(1, o.monitors_max), monitor_drafts())),
        rc::gen::set(&ScenarioDraft::apps, bounded_vector<AppDraft>(1, std::max<std::uint32_t>(1, o.apps_max), app_drafts())),
        rc::gen::set(&ScenarioDraft::windows, bounded_vector<WindowDraft>(1, std::max<std::uint32_t>(1, o.windows_max), window_drafts(o))),
        rc::gen::set(&ScenarioDraft::steps, bounded_vector<StepDraft>(1, std::max<std::uint32_t>(1, o.steps_max), step_drafts(o))),
        rc::gen::set(&ScenarioDraft::events, bounded_vector<EventDraft>(0, o.events_max, event_drafts())),
        rc::gen::set(&ScenarioDraft::faults, fault_drafts()),
        rc::gen::set(&ScenarioDraft::last_input, index_below(6)),
        rc::gen::set(&ScenarioDraft::single_actions, index_below(10)),
        rc::gen::set(&ScenarioDraft::launch, rc::gen::map(index_below(16), [](int x) { return x < 12 ? 0 : x - 11; })),
        rc::gen::set(&ScenarioDraft::launch_takes_foreground, flag()),
        rc::gen::set(&ScenarioDraft::seed, any_seed()));
}

rc::Gen<sim::Scenario> scenarios(const GenOptions& options) {
    const GenOptions o = options;
    return rc::gen::map(drafts(o), [o](const ScenarioDraft& d) { return build_scenario(d, o); });
}

// ---- coverage -----------------------------------------------------------------------------------

namespace {

const sim::Window* scenario_window(const sim::Scenario& s, WindowId id) {
    for (const auto& w : s.windows) {
        if (w.id == id) return &w;
    }
    return nullptr;
}

bool stretched(const sim::Scenario& s, WindowId id) {
    const sim::Window* w = scenario_window(s, id);
    if (w == nullptr) return false;
    const sim::Monitor& m = sim::monitor_of(s.monitors, w->bounds);
    const std::uint32_t window_dpi = sim::window_dpi(w->awareness, m.dpi, sim::primary_monitor(s.monitors).dpi);
    return window_dpi != m.dpi;
}

void tag_steps(const sim::Scenario& s, const RunResult& run, std::set<std::string>& tags) {
    for (const auto& rep : run.steps) {
        const auto& r = rep.result;
        if (r.verdict) tags.insert("verdict_" + [&] {
            std::string v(to_string(*r.verdict));
            std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
            return v;
        }());
        if (r.error) tags.insert("error");
        if (r.error && r.error->kind == ErrorKind::TargetOccluded) tags.insert("occluded_click");
        const auto& fg = r.evidence.foreground;
        if (fg.waited_for_user_ms && *fg.waited_for_user_ms > 0) tags.insert("user_busy");
        const sim::Window* w = scenario_window(s, rep.request.target);
        if (fg.borrowed && fg.by == "tool" && w != nullptr && w->framework == Framework::Wpf) tags.insert("wpf_borrow");
        if (rep.request.kind == RequestKind::ClickAt && stretched(s, rep.request.target)) tags.insert("dpi_stretched_click");
    }
    for (const auto& b : run.batches) {
        if (b.foreground.waited_for_user_ms && *b.foreground.waited_for_user_ms > 0) tags.insert("user_busy");
    }
}

void tag_truth(const sim::Scenario& s, const RunResult& run, std::set<std::string>& tags) {
    const auto& truth = run.truth();
    for (const auto& c : truth.foreground_changes) {
        if (c.by == "app") tags.insert("app_steal");
        if (c.by == "another-window") tags.insert("another_window_to_front");
    }
    for (const auto& r : truth.reads) {
        if (!r.returned && (r.fault == "unreadable" || r.fault == "failed")) tags.insert("unreadable_read");
    }
    for (const auto& d : truth.delivered) {
        if (d.overrun) tags.insert("latency_overrun");
        if (d.step >= 0 && d.hit_window != no_window && static_cast<std::size_t>(d.step) < s.steps.size() &&
            d.hit_window != s.steps[static_cast<std::size_t>(d.step)].window) {
            tags.insert("occluded_click");  // delivered onto another window (a real click on an occluder)
        }
    }
    for (const auto& e : truth.events) {
        if (e.index >= s.events.size()) continue;
        const auto kind = s.events[e.index].kind;
        if (kind == sim::EventKind::PopupOpens) tags.insert("popup");
        if (kind == sim::EventKind::TreeReorders) tags.insert("tree_reorder");
    }
}

}  // namespace

std::vector<std::string> coverage_tags(const sim::Scenario& s, const RunResult& run) {
    std::set<std::string> tags;
    tag_steps(s, run, tags);
    tag_truth(s, run, tags);
    if (!run.agent_retried.empty()) tags.insert("agent_retry");
    if (!s.batch) tags.insert("single_actions");
    if (!run.launches.empty()) tags.insert("launch");
    for (const auto& step : s.steps) {
        if (step.ref_window && *step.ref_window != step.window) tags.insert("e3_ref_of_other_window");
    }
    const auto& f = s.faults;
    if (f.read_failure_permille != 0) tags.insert("fault_read_failure");
    if (f.stale_read_permille != 0) tags.insert("fault_stale_read");
    if (f.delivery_error_permille != 0) tags.insert("fault_delivery_error");
    if (f.delivery_exception_permille != 0) tags.insert("fault_delivery_exception");
    if (f.foreground_refusal_permille != 0) tags.insert("fault_foreground_refusal");
    if (f.latency_overrun_permille != 0) tags.insert("fault_latency_overrun");
    return {tags.begin(), tags.end()};
}

void classify(const sim::Scenario& scenario, const RunResult& run) {
    const auto tags = coverage_tags(scenario, run);
    for (const char* tag : classified_tags) {
        RC_CLASSIFY(std::binary_search(tags.begin(), tags.end(), std::string(tag)), std::string(tag));
    }
}

void require_holds(const CheckResult& result, const RunResult& run) {
    if (result.status == CheckStatus::CannotJudge) RC_DISCARD("cannot judge: " + result.why_not_judged);
    if (result.status == CheckStatus::Holds) return;
    assert(result.violation.has_value());
    const Violation& v = *result.violation;
    const std::string where = v.step ? " at step " + std::to_string(*v.step) : std::string();
    RC_LOG() << "violation of " << v.property << where << ": " << v.explanation << "\n"
             << "rules: " << run.rules << "\n"
             << "trace:\n"
             << sim::to_text(run.trace());
    RC_FAIL(v.property + where + ": " + v.explanation);
}

void property_holds(std::string_view check, const sim::Scenario& scenario, const RunOptions& options) {
    const NamedCheck* named = find_check(check);
    RC_ASSERT(named != nullptr);
    const auto invalid = sim::validate(scenario);
    RC_ASSERT(!invalid.has_value());
    const RunResult run = run_scenario(scenario, options);
    classify(scenario, run);
    require_holds(run_check(*named, scenario, run, options), run);
}

}  // namespace deskcheck::props::rcgen
