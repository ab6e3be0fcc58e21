// The Sim: construction, lookups, z-order and foreground, windows, cursor, launch, virtual time
// and the true-state accessors. Reads, deliveries, effects, events and trees are in sim_*.cpp.
#include "sim/sim.h"

#include <algorithm>
#include <cassert>

#include "sim/geometry.h"
#include "sim/validate.h"

namespace deskcheck::sim {
namespace {

// One stream per purpose, split off one root seeded with scenario.seed (S-1).
enum class Stream : std::uint32_t { Latency, Delivery, Read, Foreground, Overrun };

Prng stream(std::uint64_t seed, Stream purpose) {
    Prng root(seed);
    Prng s = root.split();
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(purpose); ++i) s = root.split();
    return s;
}

bool listed(const std::vector<WindowId>& ids, WindowId id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Takes the window over: its controls become the live ones.
LiveWindow make_live(Window&& w, bool shown) {
    LiveWindow live;
    live.spec = std::move(w);
    live.shown = shown;
    live.dirty = live.spec.dirty;
    live.prev_dirty = live.spec.dirty;
    live.controls.reserve(live.spec.controls.size());
    for (auto& c : live.spec.controls) {
        LiveControl lc;
        lc.prev_value = c.value;
        lc.value_kept = Kept(c.value);
        lc.prev_value_kept = lc.value_kept;
        lc.prev_selection = c.selection;
        lc.prev_toggled = c.toggled;
        lc.prev_expanded = c.expanded;
        lc.prev_selected = c.selected;
        lc.c = std::move(c);
        live.controls.push_back(std::move(lc));
    }
    live.spec.controls.clear();
    return live;
}

Point center_of(const Rect& r) {
    return Point{r.left + (r.right - r.left) / 2, r.top + (r.bottom - r.top) / 2};
}

}  // namespace

Sim::Sim(Scenario scenario, SimOptions options)
    : scenario_(std::move(scenario)),
      latency_rng_(stream(scenario_.seed, Stream::Latency)),
      delivery_rng_(stream(scenario_.seed, Stream::Delivery)),
      read_rng_(stream(scenario_.seed, Stream::Read)),
      foreground_rng_(stream(scenario_.seed, Stream::Foreground)),
      overrun_rng_(stream(scenario_.seed, Stream::Overrun)) {
    assert(!validate(scenario_).has_value());
    assert(!scenario_.monitors.empty());
    trace_.on = options.trace;
    windows_.reserve(scenario_.windows.size());
    for (auto& w : scenario_.windows) {
        const bool shown = !listed(scenario_.hidden, w.id);
        const WindowId id = w.id;
        windows_.push_back(make_live(std::move(w), shown));
        if (shown) z_order_.push_back(id);
    }
    scenario_.windows.clear();  // they live on in windows_ (see scenario())
    for (auto& w : windows_) {
        for (const auto index : tree_order(w)) {
            if (w.controls[index].c.kind != ControlKind::Edit) continue;
            w.focus = w.controls[index].c.id;  // the first Edit has the focus at start
            break;
        }
    }
    foreground_ = scenario_.foreground;
    user_last_input_ms_ = scenario_.user_last_input_ms;
    cursor_ = center_of(primary_monitor(scenario_.monitors).bounds);
    for (const auto& app : scenario_.apps)
        if (!app.launchable) launched_.insert(app.pid);
    for (std::size_t i = 0; i < scenario_.events.size(); ++i) {
        Pending item;
        item.kind = PendingKind::Event;
        item.event_index = i;
        schedule(scenario_.events[i].at_ms, std::move(item));
    }
    if (trace_.on) trace_.note(now_, "sim seed=" + std::to_string(scenario_.seed) + " windows=" +
                          std::to_string(windows_.size()) + " events=" +
                          std::to_string(scenario_.events.size()) + " foreground=w" + std::to_string(foreground_));
}

// --- lookups ---

LiveWindow* Sim::find_window(WindowId id) {
    for (auto& w : windows_)
        if (w.spec.id == id) return &w;
    return nullptr;
}

const LiveWindow* Sim::find_window(WindowId id) const {
    for (const auto& w : windows_)
        if (w.spec.id == id) return &w;
    return nullptr;
}

std::optional<Sim::ControlRef> Sim::find_control(ElementId id) const {
    if (id == 0) return std::nullopt;
    for (std::size_t wi = 0; wi < windows_.size(); ++wi) {
        const auto& controls = windows_[wi].controls;
        for (std::size_t ci = 0; ci < controls.size(); ++ci)
            if (controls[ci].c.id == id) return ControlRef{wi, ci};
    }
    return std::nullopt;
}

const LiveControl* Sim::live_control(WindowId w, ElementId e) const {
    const LiveWindow* window = find_window(w);
    if (window == nullptr || e == 0) return nullptr;
    for (const auto& c : window->controls)
        if (c.c.id == e) return c.removed ? nullptr : &c;
    return nullptr;
}

LiveControl* Sim::live_control(WindowId w, ElementId e) {
    return const_cast<LiveControl*>(static_cast<const Sim*>(this)->live_control(w, e));
}

const LiveControl* Sim::live_control_anywhere(ElementId e) const {
    const auto ref = find_control(e);
    if (!ref) return nullptr;
    const auto& c = windows_[ref->window_index].controls[ref->control_index];
    return c.removed ? nullptr : &c;
}

const App* Sim::app_of(WindowId w) const {
    const LiveWindow* window = find_window(w);
    if (window == nullptr) return nullptr;
    for (const auto& a : scenario_.apps)
        if (a.pid == window->spec.pid) return &a;
    return nullptr;
}

const App* Sim::app_by_name(std::string_view name) const {
    if (name.empty()) return nullptr;
    for (const auto& a : scenario_.apps)
        if (a.name == name) return &a;
    return nullptr;
}

WindowInfo Sim::info_of(const LiveWindow& w) const {
    const Monitor& monitor = monitor_of(scenario_.monitors, w.spec.bounds);
    const std::uint32_t system_dpi = primary_monitor(scenario_.monitors).dpi;
    WindowInfo info;
    info.id = w.spec.id;
    info.pid = w.spec.pid;
    info.owner = w.spec.owner;
    info.bounds = w.spec.bounds;
    info.awareness = w.spec.awareness;
    info.framework = w.spec.framework;
    info.window_dpi = window_dpi(w.spec.awareness, monitor.dpi, system_dpi);
    info.monitor_dpi = monitor.dpi;
    info.class_name = w.spec.class_name;
    info.title = w.spec.title;  // static: the dirty marker is read through read_dirty only
    return info;
}

// --- z-order and foreground ---

// Moves a shown window to the top of z-order: above every ordinary window, below the topmost
// ones (occluders) unless it is topmost itself.
void Sim::raise(WindowId id) {
    const LiveWindow* w = find_window(id);
    assert(w != nullptr);
    assert(w->shown);
    z_order_.erase(std::remove(z_order_.begin(), z_order_.end(), id), z_order_.end());
    std::size_t position = 0;
    if (!w->topmost) {
        while (position < z_order_.size() && find_window(z_order_[position])->topmost) ++position;
    }
    z_order_.insert(z_order_.begin() + static_cast<std::ptrdiff_t>(position), id);
}

void Sim::show(WindowId id, bool topmost) {
    LiveWindow* w = find_window(id);
    assert(w != nullptr);
    w->shown = true;
    w->topmost = w->topmost || topmost;
    raise(id);
}

// The window becomes the foreground (and comes to the top of z-order). Recorded with who did it.
void Sim::set_foreground(WindowId id, Actor by) {
    const LiveWindow* w = find_window(id);
    if (w == nullptr || !w->shown) return;
    raise(id);
    if (foreground_ == id) return;
    truth_.foreground_changes.push_back(ForegroundChange{now_, foreground_, id, by, truth_.attempts.size()});
    if (trace_.on) trace_.add(now_, TraceKind::Foreground, "w" + std::to_string(foreground_) + " -> w" + std::to_string(id),
               "by " + std::string(to_string(by)));
    foreground_ = id;
}

std::optional<WindowId> Sim::topmost_window_at(Point physical) const {
    for (const auto id : z_order_) {
        const LiveWindow* w = find_window(id);
        assert(w != nullptr);
        if (w->spec.bounds.contains(physical)) return id;
    }
    return std::nullopt;
}

// --- the port: windows and foreground ---

std::vector<WindowInfo> Sim::top_level_windows() {
    settle_due();
    std::vector<WindowInfo> out;
    out.reserve(z_order_.size());
    for (const auto id : z_order_) out.push_back(info_of(*find_window(id)));
    return out;
}

std::optional<WindowInfo> Sim::window(WindowId id) {
    settle_due();
    const LiveWindow* w = find_window(id);
    if (w == nullptr || !w->shown) return std::nullopt;
    return info_of(*w);
}

WindowId Sim::foreground() {
    settle_due();
    return foreground_;
}

// F-1: the refusal draw happens on every request (stream alignment); a RealInput key since the
// previous request (the F24 trick: the tool is the last-input process) grants the next request
// whatever the fault says, and is used up by it.
ForegroundAnswer Sim::request_foreground(WindowId id) {
    settle_due();
    const bool refusal = foreground_rng_.chance(scenario_.faults.foreground_refusal_permille);
    const bool last_input = tool_has_last_input_;
    tool_has_last_input_ = false;
    const LiveWindow* w = find_window(id);
    ForegroundAnswer answer = ForegroundAnswer::Granted;
    std::string reason;
    if (w == nullptr || !w->shown) {
        answer = ForegroundAnswer::Refused;
        reason = "no such window";
    } else if (foreground_ == id) {
        reason = "already foreground";
    } else if (last_input) {
        reason = "tool has the last input";
    } else if (refusal) {
        answer = ForegroundAnswer::Refused;
        reason = "refused (fault)";
    }
    truth_.foreground_requests.push_back(ForegroundRequest{now_, id, answer, reason, truth_.attempts.size()});
    const bool granted = answer == ForegroundAnswer::Granted;
    if (trace_.on) trace_.add(now_, TraceKind::Request, "w" + std::to_string(id),
               std::string(granted ? "granted" : "refused") + (reason.empty() ? "" : " (" + reason + ")"));
    if (granted) set_foreground(id, Actor::Tool);
    return answer;
}

std::optional<ElementId> Sim::focused_element(WindowId id) {
    settle_due();
    const LiveWindow* w = find_window(id);
    if (w == nullptr || !w->shown) return std::nullopt;
    return w->focus;
}

TimeMs Sim::last_input_ms() {
    settle_due();
    const TimeMs last = tool_last_input_ms_ ? std::max(user_last_input_ms_, *tool_last_input_ms_) : user_last_input_ms_;
    truth_.idle_queries.push_back(IdleQuery{now_, last, truth_.foreground_requests.size()});
    return last;
}

std::optional<WindowId> Sim::window_at(Point physical) {
    settle_due();
    const auto answer = topmost_window_at(physical);
    truth_.hit_tests.push_back(HitTest{now_, physical, answer});
    return answer;
}

Point Sim::cursor() {
    settle_due();
    return cursor_;
}

void Sim::set_cursor(Point physical) {
    settle_due();
    cursor_ = physical;
    truth_.cursor_moves.push_back(CursorMove{now_, physical, Actor::Tool});
    if (trace_.on) trace_.add(now_, TraceKind::Cursor, "", "(" + std::to_string(physical.x) + "," + std::to_string(physical.y) + ") by tool");
}

// F-8: a launchable app shows its hidden, unowned windows at the top of z-order, the first listed
// topmost, without activating them unless launch_takes_foreground. An app already running (not
// launchable, or launched before) just answers its pid.
std::optional<ProcessId> Sim::launch(std::string_view name) {
    settle_due();
    const App* app = app_by_name(name);
    LaunchRecord record{now_, std::string(name), std::nullopt, {}, false};
    if (app != nullptr) {
        record.pid = app->pid;
        if (!launched_.contains(app->pid)) {
            launched_.insert(app->pid);
            for (auto it = windows_.rbegin(); it != windows_.rend(); ++it) {
                if (it->spec.pid != app->pid || it->shown || it->spec.owner) continue;
                show(it->spec.id, false);
                record.shown.insert(record.shown.begin(), it->spec.id);
            }
            if (app->launch_takes_foreground && !record.shown.empty()) {
                set_foreground(record.shown.front(), Actor::App);
                record.took_foreground = true;
            }
        }
    }
    if (trace_.on) {
        std::string detail = shown_text(name) + (record.pid ? " pid=" + std::to_string(*record.pid) : " unknown");
        for (const auto id : record.shown) detail += " shows w" + std::to_string(id);
        if (record.took_foreground) detail += " (takes the foreground)";
        trace_.add(now_, TraceKind::Launch, "", detail);
    }
    truth_.launches.push_back(std::move(record));
    return app != nullptr ? std::optional<ProcessId>(app->pid) : std::nullopt;
}

// --- virtual time ---

TimeMs Sim::now_ms() {
    settle_due();
    return now_;
}

void Sim::wait_ms(TimeMs ms) {
    settle_due();
    const TimeMs step_ms = std::clamp<TimeMs>(ms, 0, wait_ms_limit);
    advance_to(now_ + step_ms);
}

void Sim::schedule(TimeMs at_ms, Pending item) {
    assert(at_ms >= now_ || item.kind == PendingKind::Event);
    queue_.emplace(std::pair{at_ms, next_sequence_}, std::move(item));
    ++next_sequence_;
}

void Sim::settle_due() { advance_to(now_); }

// Processes every queue item due at or before target_ms in (time, sequence) order, then sets the
// clock to target_ms. Items an item schedules at a due time are processed in the same call.
void Sim::advance_to(TimeMs target_ms) {
    assert(target_ms >= now_);
    for (std::size_t n = 0; n < queue_items_per_wait_max && !queue_.empty(); ++n) {
        const auto first = queue_.begin();
        if (first->first.first > target_ms) break;
        now_ = std::max(now_, first->first.first);
        const Pending item = std::move(first->second);
        queue_.erase(first);
        process(item);
    }
    now_ = target_ms;
}

void Sim::process(const Pending& item) {
    switch (item.kind) {
        case PendingKind::Event: fire_event(item.event_index); return;
        case PendingKind::Input: land_input(item); return;
        case PendingKind::FeedAppend: land_feed_append(item); return;
        case PendingKind::StealForeground: land_steal(item); return;
    }
}

bool Sim::effects_pending() const {
    for (const auto& [key, item] : queue_)
        if (item.kind != PendingKind::Event) return true;
    return false;
}

void Sim::run_until_quiet(TimeMs limit_ms) {
    settle_due();
    const TimeMs deadline = now_ + std::clamp<TimeMs>(limit_ms, 0, wait_ms_limit);
    for (std::size_t n = 0; n < queue_items_per_wait_max; ++n) {
        std::optional<TimeMs> next;
        for (const auto& [key, item] : queue_) {
            if (item.kind == PendingKind::Event) continue;
            next = key.first;
            break;
        }
        if (!next || *next > deadline) return;
        advance_to(std::max(*next, now_));
    }
}

// --- true state ---

std::optional<std::string> Sim::true_value(ElementId e) const {
    const LiveControl* c = live_control_anywhere(e);
    if (c == nullptr || (c->c.kind != ControlKind::Edit && c->c.kind != ControlKind::Feed)) return std::nullopt;
    return c->c.value;
}

Sim::ValueView Sim::true_value_view(ElementId e) const {
    const LiveControl* c = live_control_anywhere(e);
    if (c == nullptr || (c->c.kind != ControlKind::Edit && c->c.kind != ControlKind::Feed)) return {};
    return {&c->c.value, &c->value_kept};
}

std::optional<Selection> Sim::true_selection(ElementId e) const {
    const LiveControl* c = live_control_anywhere(e);
    if (c == nullptr || c->c.kind != ControlKind::Edit) return std::nullopt;
    return c->c.selection;
}

std::optional<bool> Sim::true_toggled(ElementId e) const {
    const LiveControl* c = live_control_anywhere(e);
    if (c == nullptr || c->c.kind != ControlKind::Toggle) return std::nullopt;
    return c->c.toggled;
}

std::optional<bool> Sim::true_expanded(ElementId e) const {
    const LiveControl* c = live_control_anywhere(e);
    if (c == nullptr || c->c.kind != ControlKind::Expander) return std::nullopt;
    return c->c.expanded;
}

std::optional<bool> Sim::true_selected(ElementId e) const {
    const LiveControl* c = live_control_anywhere(e);
    if (c == nullptr || c->c.kind != ControlKind::ListItem) return std::nullopt;
    return c->c.selected;
}

bool Sim::true_dirty(WindowId id) const {
    const LiveWindow* w = find_window(id);
    return w != nullptr && w->dirty;
}

std::optional<ElementId> Sim::true_focus(WindowId id) const {
    const LiveWindow* w = find_window(id);
    return w != nullptr ? w->focus : std::nullopt;
}

bool Sim::true_shown(WindowId id) const {
    const LiveWindow* w = find_window(id);
    return w != nullptr && w->shown;
}

bool Sim::true_exists(ElementId e) const { return live_control_anywhere(e) != nullptr; }

std::optional<TimeMs> Sim::declared_latency_ms(WindowId w) {
    if (find_window(w) == nullptr) return std::nullopt;
    return latency_bound_ms(w) + feed_latency_ms(w);
}

TimeMs Sim::latency_bound_ms(WindowId w) const {
    const App* app = app_of(w);
    return app != nullptr ? app->latency_ms_max : 0;
}

TimeMs Sim::feed_latency_ms(WindowId w) const {
    const App* app = app_of(w);
    return app != nullptr ? app->feed_latency_ms : 0;
}

}  // namespace deskcheck::sim
