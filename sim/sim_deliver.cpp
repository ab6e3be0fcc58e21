// Deliveries (E-4, E-5, E-6, F-7, S-7): where an input goes, whether the app accepts it, and when
// its effects land.
//
// Order inside deliver(): the two fault draws (always both: exception, then error), then routing.
// A thrown or failed delivery does nothing. A Rejected one names why the input cannot be delivered
// as asked (unknown window or element, a pattern the control does not have, an element of an
// opaque Electron tree). A Delivered one is recorded with where it landed and whether the app
// accepted it; only accepted inputs have effects.
//
// Acceptance rules:
//  - WPF windows ignore PostedKeys and PostedClick while not foreground (F-7);
//  - classic buttons (own handle, class "Button", Win32/WinForms) ignore a PostedClick while their
//    window is not foreground, but click on ClickMessage (E-4); a ClickMessage to another class
//    is ignored;
//  - a classic edit (own handle, class "Edit", Win32/WinForms) ignores a posted select-all, clipboard
//    or undo chord (ctrl+a/c/x/v/z) while its window is not foreground: in an inactive window those
//    chords work only as the edit messages they stand for (EM_SETSEL, WM_COPY, WM_CUT, WM_PASTE,
//    WM_UNDO), which is why the tool sends those instead (E-4, seed 003 §4);
//  - UIA patterns work in the background, but a WPF window pulls itself to the front as the
//    effect lands (F-7);
//  - RealInput goes where real input goes: keys/text to the foreground window's focus, a click to
//    the topmost window at the screen point (an occluder if one covers it, S-7), which it
//    activates; it moves the cursor and makes the tool the last-input process (F-1).
#include <algorithm>
#include <cctype>
#include <cassert>

#include "sim/geometry.h"
#include "sim/sim.h"

namespace deskcheck::sim {
namespace {

[[maybe_unused]] bool is_uia(DeliveryMethod m) {
    switch (m) {
        case DeliveryMethod::UiaInvoke:
        case DeliveryMethod::UiaToggle:
        case DeliveryMethod::UiaExpand:
        case DeliveryMethod::UiaSelect:
        case DeliveryMethod::UiaSetValue: return true;
        default: return false;
    }
}

// The chords an edit control answers only as edit messages when its window is inactive.
bool edit_message_chord(std::string_view keys) {
    std::string k;
    for (const char ch : keys) {
        if (ch != ' ') k += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    if (k.rfind("control+", 0) == 0) k = "ctrl+" + k.substr(8);
    return k == "ctrl+a" || k == "ctrl+c" || k == "ctrl+x" || k == "ctrl+v" || k == "ctrl+z";
}

bool is_button(ControlKind k) {
    return k == ControlKind::Button || k == ControlKind::SubmitButton || k == ControlKind::PostButton;
}

bool is_classic(Framework f) { return f == Framework::Win32 || f == Framework::WinForms; }

std::string print_point(Point p) { return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + ")"; }

// The pattern a UIA method needs, as the control kind that has it; nullopt: not a UIA method.
std::optional<std::string> pattern_missing(DeliveryMethod m, ControlKind k) {
    switch (m) {
        case DeliveryMethod::UiaInvoke:
            return is_button(k) ? std::optional<std::string>() : "the element has no Invoke pattern";
        case DeliveryMethod::UiaToggle:
            return k == ControlKind::Toggle ? std::optional<std::string>() : "the element has no Toggle pattern";
        case DeliveryMethod::UiaExpand:
            return k == ControlKind::Expander ? std::optional<std::string>() : "the element has no ExpandCollapse pattern";
        case DeliveryMethod::UiaSelect:
            return k == ControlKind::ListItem ? std::optional<std::string>() : "the element has no SelectionItem pattern";
        case DeliveryMethod::UiaSetValue:
            return k == ControlKind::Edit ? std::optional<std::string>() : "the element has no Value pattern";
        default: return std::nullopt;
    }
}

Route rejected(std::string why) {
    Route r;
    r.rejected = std::move(why);
    return r;
}

std::string describe(const Input& input) {
    std::string s(to_string(input.method));
    s += " step=" + std::to_string(input.step);
    if (!input.keys.empty()) s += " keys=" + shown_text(input.keys);
    if (!input.text.empty()) s += " text=" + shown_text(input.text);
    if (input.point) s += " at=" + print_point(*input.point);
    return s;
}

}  // namespace

DeliveryStatus Sim::deliver(const Input& input) {
    settle_due();
    const bool throws = delivery_rng_.chance(scenario_.faults.delivery_exception_permille);
    const bool fails = delivery_rng_.chance(scenario_.faults.delivery_error_permille);
    if (throws) {
        record_attempt(input, AttemptOutcome::Threw, "delivery exception (fault)");
        throw DesktopException("simulated delivery exception (fault)");
    }
    if (fails) {
        record_attempt(input, AttemptOutcome::Failed, "delivery error (fault)");
        return DeliveryStatus::Failed;
    }
    const Route r = route(input);
    if (r.rejected) {
        record_attempt(input, AttemptOutcome::Rejected, *r.rejected);
        return DeliveryStatus::Rejected;
    }
    record_attempt(input, AttemptOutcome::Delivered, "");
    DeliveredInput record{now_,       input.step, input.method, input.window,    input.element, input.keys,
                          input.text, input.point, r.landed,    r.hit_window,    r.hit_element, r.accepted,
                          r.ignored_reason, std::nullopt, false, std::nullopt};
    if (r.landed) record.on_top = topmost_window_at(*r.landed);
    if (input.method == DeliveryMethod::RealInput) after_real_input(input, r);
    // F-3 counts an input as a background one when its window is not the foreground as it is
    // accepted (a real click has activated its window by then).
    if (r.accepted) accept(input, r, record);
    if (trace_.on) {
        std::string detail = describe(input) + " -> " + subject_of(r.hit_window, r.hit_element);
        if (r.landed) detail += " landed=" + print_point(*r.landed);
        if (r.accepted) detail += " accepted, lands t=" + std::to_string(*record.lands_at_ms) + (record.overrun ? " (overrun)" : "");
        else detail += " ignored: " + r.ignored_reason;
        trace_.add(now_, TraceKind::Deliver, subject_of(input.window, input.element), detail);
    }
    truth_.delivered.push_back(std::move(record));
    return DeliveryStatus::Delivered;
}

void Sim::record_attempt(const Input& input, AttemptOutcome outcome, std::string reason) {
    if (outcome != AttemptOutcome::Delivered && trace_.on) {
        trace_.add(now_, TraceKind::Attempt, subject_of(input.window, input.element),
                   describe(input) + " " + std::string(to_string(outcome)) + ": " + reason);
    }
    truth_.attempts.push_back(Attempt{now_, input.step, input.method, input.window, input.element, outcome, std::move(reason)});
}

Route Sim::route(const Input& input) const {
    switch (input.method) {
        case DeliveryMethod::PostedKeys: return route_posted_keys(input);
        case DeliveryMethod::PostedClick: return route_posted_click(input);
        case DeliveryMethod::RealInput: return route_real_input(input);
        case DeliveryMethod::EditMessage:
        case DeliveryMethod::ClickMessage:
        case DeliveryMethod::UiaInvoke:
        case DeliveryMethod::UiaToggle:
        case DeliveryMethod::UiaExpand:
        case DeliveryMethod::UiaSelect:
        case DeliveryMethod::UiaSetValue: return route_element(input);
    }
    return rejected("unknown delivery method");
}

// Methods that address one element: edit messages, click messages, UIA patterns.
Route Sim::route_element(const Input& input) const {
    const LiveWindow* w = find_window(input.window);
    if (w == nullptr || !w->shown) return rejected("no such window");
    if (!input.element) return rejected(std::string(to_string(input.method)) + " needs an element");
    if (w->spec.framework == Framework::Electron) return rejected("the element is not in the (opaque) tree");
    const LiveControl* c = live_control(input.window, *input.element);
    if (c == nullptr) return rejected("element not found");
    Route r;
    r.hit_window = input.window;
    r.hit_element = input.element;
    r.accepted = true;
    if (input.method == DeliveryMethod::EditMessage) {
        if (c->c.kind != ControlKind::Edit) return rejected("edit messages need an edit control");
        if (!c->c.own_handle) return rejected("edit messages need a window handle");
        r.action = InputAction::Type;
    } else if (input.method == DeliveryMethod::ClickMessage) {
        if (!c->c.own_handle) return rejected("click messages need a window handle");
        r.action = InputAction::Click;
        r.accepted = class_of_control(c->c) == "Button";
        if (!r.accepted) r.ignored_reason = "BM_CLICK is ignored by a control that is not a button";
    } else {
        assert(is_uia(input.method));
        if (auto missing = pattern_missing(input.method, c->c.kind)) return rejected(*missing);
        r.action = input.method == DeliveryMethod::UiaSetValue ? InputAction::SetValue : InputAction::Pattern;
        r.pull_to_front = w->spec.framework == Framework::Wpf;
    }
    return r;
}

Route Sim::route_posted_keys(const Input& input) const {
    const LiveWindow* w = find_window(input.window);
    if (w == nullptr || !w->shown) return rejected("no such window");
    if (input.element) {
        if (w->spec.framework == Framework::Electron) return rejected("the element is not in the (opaque) tree");
        if (live_control(input.window, *input.element) == nullptr) return rejected("element not found");
    }
    Route r;
    r.hit_window = input.window;
    r.hit_element = input.element;  // nullopt: the window's focus when it lands
    r.action = InputAction::Type;
    const bool inactive = foreground_ != input.window;
    r.accepted = !(w->spec.framework == Framework::Wpf && inactive);
    if (!r.accepted) r.ignored_reason = "WPF ignores posted input while inactive (F-7)";
    const LiveControl* c = input.element ? live_control(input.window, *input.element) : nullptr;
    if (r.accepted && inactive && c != nullptr && is_classic(w->spec.framework) && c->c.own_handle &&
        class_of_control(c->c) == "Edit" && edit_message_chord(input.keys)) {
        r.accepted = false;
        r.ignored_reason = "an inactive classic edit takes " + input.keys + " only as an edit message (E-4)";
    }
    return r;
}

// E-6: the client point maps back to the screen with the window's DPI scaling (geometry.h).
Route Sim::route_posted_click(const Input& input) const {
    const LiveWindow* w = find_window(input.window);
    if (w == nullptr || !w->shown) return rejected("no such window");
    if (!input.point) return rejected("a posted click needs a client point");
    const WindowInfo info = info_of(*w);
    Route r;
    r.landed = to_screen(*input.point, Point{w->spec.bounds.left, w->spec.bounds.top}, info.window_dpi, info.monitor_dpi);
    r.hit_window = input.window;
    r.hit_element = control_at(*w, *r.landed);
    r.action = InputAction::Click;
    const bool inactive = foreground_ != input.window;
    const LiveControl* hit = r.hit_element ? live_control(input.window, *r.hit_element) : nullptr;
    const bool classic_button = hit != nullptr && is_classic(w->spec.framework) && class_of_control(hit->c) == "Button";
    r.accepted = true;
    if (inactive && w->spec.framework == Framework::Wpf) {
        r.accepted = false;
        r.ignored_reason = "WPF ignores posted input while inactive (F-7)";
    } else if (inactive && classic_button) {
        r.accepted = false;
        r.ignored_reason = "a classic button ignores a posted click while inactive (E-4)";
    }
    return r;
}

Route Sim::route_real_input(const Input& input) const {
    Route r;
    if (input.point) {
        r.action = InputAction::Click;
        r.landed = *input.point;
        const auto hit = topmost_window_at(*input.point);
        r.accepted = hit.has_value();
        if (!hit) {
            r.ignored_reason = "no window at the point";
            return r;
        }
        r.hit_window = *hit;
        r.hit_element = control_at(*find_window(*hit), *input.point);
        return r;
    }
    if (input.keys.empty() && input.text.empty()) return rejected("a real input needs keys, text or a point");
    r.action = InputAction::Type;
    r.hit_window = foreground_;
    r.accepted = foreground_ != no_window;
    if (!r.accepted) r.ignored_reason = "no foreground window";
    return r;
}

// Real input moves the cursor, activates the clicked window and makes the tool the last-input
// process (the F24 trick of F-1).
void Sim::after_real_input(const Input& input, const Route& r) {
    tool_last_input_ms_ = now_;
    tool_has_last_input_ = true;
    if (!input.point) return;
    cursor_ = *input.point;
    truth_.cursor_moves.push_back(CursorMove{now_, *input.point, Actor::Tool});
    if (trace_.on) trace_.add(now_, TraceKind::Cursor, "", print_point(*input.point) + " by tool (real click)");
    if (r.hit_window != no_window) set_foreground(r.hit_window, Actor::Tool);
}

void Sim::accept(const Input& input, const Route& r, DeliveredInput& record) {
    assert(r.accepted);
    assert(r.hit_window != no_window);
    Pending p;
    p.kind = PendingKind::Input;
    p.action = r.action;
    p.window = r.hit_window;
    p.element = r.hit_element;
    p.keys = input.keys;
    p.text = input.text;
    p.pull_to_front = r.pull_to_front;
    p.step = input.step;
    p.by = Actor::Tool;
    p.delivered_at_ms = now_;
    p.idempotency_key = input.idempotency_key;
    const auto [lands_at_ms, overrun] = schedule_input(std::move(p));
    record.lands_at_ms = lands_at_ms;
    record.overrun = overrun;
}

std::pair<TimeMs, bool> Sim::schedule_input(Pending p) {
    const App* app = app_of(p.window);
    assert(app != nullptr);
    TimeMs latency_ms = latency_rng_.between(app->latency_ms_min, app->latency_ms_max);
    const bool overrun = overrun_rng_.chance(scenario_.faults.latency_overrun_permille);
    if (overrun) latency_ms = app->latency_ms_max + std::max<TimeMs>(1, scenario_.faults.latency_overrun_ms);
    p.overrun = overrun;
    const WindowId window = p.window;
    const TimeMs lands_at_ms = now_ + latency_ms;
    schedule(lands_at_ms, std::move(p));
    if (app->steals_foreground_after_ms && window != foreground_) {  // a background input (F-3)
        Pending steal;
        steal.kind = PendingKind::StealForeground;
        steal.window = window;
        steal.by = Actor::App;
        schedule(now_ + *app->steals_foreground_after_ms, std::move(steal));
    }
    return {lands_at_ms, overrun};
}

}  // namespace deskcheck::sim
