// Scenario events (S-4, S-5, S-7): things that happen on their own when virtual time reaches them.
//
//  - UserTypes: the user types into the foreground window's focus (effects by "user", no_step,
//    after the app's latency); the user's input time moves, and the tool is no longer the
//    last-input process.
//  - UserClicks: the user clicks at a physical point: the cursor moves there, the window under it
//    comes to the front as the foreground (by "user") and the click's control effect follows.
//  - WindowToFront: the window (shown if it was hidden) takes the foreground by "another-window".
//  - PopupOpens: the (hidden) window appears at the top of z-order; it takes the foreground (by
//    "app") only when its owner is the foreground window.
//  - OccluderAppears: the window appears above everything as a topmost window, without taking
//    the foreground.
//  - TreeReorders: the control moves under new_parent at new_index among its live siblings (an
//    index past the end appends). Ids stay; paths change. Ignored when it would make a cycle or
//    when the control or the new parent is gone.
//  - ControlRemoved: the control and its subtree disappear; a focus inside it is lost.
#include <algorithm>
#include <cassert>

#include "sim/sim.h"

namespace deskcheck::sim {
namespace {

std::string_view kind_name(EventKind k) {
    switch (k) {
        case EventKind::UserTypes: return "user_types";
        case EventKind::UserClicks: return "user_clicks";
        case EventKind::WindowToFront: return "window_to_front";
        case EventKind::PopupOpens: return "popup_opens";
        case EventKind::TreeReorders: return "tree_reorders";
        case EventKind::ControlRemoved: return "control_removed";
        case EventKind::OccluderAppears: return "occluder_appears";
    }
    return "?";
}

std::string describe(const Event& e) {
    std::string s(kind_name(e.kind));
    switch (e.kind) {
        case EventKind::UserTypes: return s + " " + shown_text(e.text);
        case EventKind::UserClicks: return s + " at (" + std::to_string(e.point.x) + "," + std::to_string(e.point.y) + ")";
        case EventKind::WindowToFront:
        case EventKind::PopupOpens:
        case EventKind::OccluderAppears: return s + " w" + std::to_string(e.window);
        case EventKind::TreeReorders:
            return s + " e" + std::to_string(e.control) + " under e" + std::to_string(e.new_parent) + " at " +
                   std::to_string(e.new_index);
        case EventKind::ControlRemoved: return s + " e" + std::to_string(e.control);
    }
    return s;
}

}  // namespace

void Sim::fire_event(std::size_t index) {
    assert(index < scenario_.events.size());
    const Event& e = scenario_.events[index];
    const std::string description = "#" + std::to_string(index) + " " + describe(e);
    if (trace_.on) trace_.add(now_, TraceKind::Event, "", description);
    std::string outcome;
    switch (e.kind) {
        case EventKind::UserTypes: outcome = user_types(e); break;
        case EventKind::UserClicks: outcome = user_clicks(e); break;
        case EventKind::WindowToFront:
            if (find_window(e.window) == nullptr) break;
            if (!find_window(e.window)->shown) show(e.window, false);
            set_foreground(e.window, Actor::AnotherWindow);
            break;
        case EventKind::PopupOpens: {
            const LiveWindow* w = find_window(e.window);
            if (w == nullptr) break;
            show(e.window, false);
            if (w->spec.owner && *w->spec.owner == foreground_) set_foreground(e.window, Actor::App);
            break;
        }
        case EventKind::OccluderAppears:
            if (find_window(e.window) != nullptr) show(e.window, true);
            break;
        case EventKind::TreeReorders: outcome = reorder(e); break;
        case EventKind::ControlRemoved: outcome = remove_control(e); break;
    }
    if (!outcome.empty() && trace_.on) trace_.add(now_, TraceKind::Event, "", "#" + std::to_string(index) + " " + outcome);
    truth_.events.push_back(FiredEvent{now_, index, outcome.empty() ? description : description + ": " + outcome});
}

std::string Sim::user_types(const Event& e) {
    user_last_input_ms_ = std::max(user_last_input_ms_, now_);
    tool_has_last_input_ = false;
    if (foreground_ == no_window) return "nothing typed: no foreground window";
    Pending p;
    p.kind = PendingKind::Input;
    p.action = InputAction::Type;
    p.window = foreground_;
    p.text = e.text;
    p.step = no_step;
    p.by = Actor::User;
    p.delivered_at_ms = now_;
    schedule_input(std::move(p));
    return "";
}

std::string Sim::user_clicks(const Event& e) {
    user_last_input_ms_ = std::max(user_last_input_ms_, now_);
    tool_has_last_input_ = false;
    cursor_ = e.point;
    truth_.cursor_moves.push_back(CursorMove{now_, e.point, Actor::User});
    const auto hit = topmost_window_at(e.point);
    if (!hit) return "hit no window";
    set_foreground(*hit, Actor::User);
    Pending p;
    p.kind = PendingKind::Input;
    p.action = InputAction::Click;
    p.window = *hit;
    p.element = control_at(*find_window(*hit), e.point);
    p.step = no_step;
    p.by = Actor::User;
    p.delivered_at_ms = now_;
    const std::string hit_text = "hit " + subject_of(*hit, p.element);
    schedule_input(std::move(p));
    return hit_text;
}

std::string Sim::reorder(const Event& e) {
    const auto ref = find_control(e.control);
    if (!ref) return "ignored: no such control";
    LiveWindow& w = windows_[ref->window_index];
    if (w.controls[ref->control_index].removed) return "ignored: the control is gone";
    if (e.new_parent != 0 && live_control(w.spec.id, e.new_parent) == nullptr) return "ignored: the new parent is gone";
    if (e.new_parent != 0 && is_descendant(w, e.new_parent, e.control)) return "ignored: it would make a cycle";
    LiveControl moved = std::move(w.controls[ref->control_index]);
    w.controls.erase(w.controls.begin() + static_cast<std::ptrdiff_t>(ref->control_index));
    moved.c.parent = e.new_parent;
    std::vector<std::size_t> siblings;
    for (std::size_t i = 0; i < w.controls.size(); ++i)
        if (!w.controls[i].removed && w.controls[i].c.parent == e.new_parent) siblings.push_back(i);
    std::size_t position = w.controls.size();
    if (e.new_index < siblings.size()) position = siblings[e.new_index];
    else if (!siblings.empty()) position = siblings.back() + 1;
    w.controls.insert(w.controls.begin() + static_cast<std::ptrdiff_t>(position), std::move(moved));
    w.forget_tree();
    return "";
}

std::string Sim::remove_control(const Event& e) {
    const auto ref = find_control(e.control);
    if (!ref) return "ignored: no such control";
    LiveWindow& w = windows_[ref->window_index];
    if (w.controls[ref->control_index].removed) return "ignored: already gone";
    w.controls[ref->control_index].removed = true;
    w.forget_tree();
    const auto is_removed = [&w](ElementId id) {
        return std::any_of(w.controls.begin(), w.controls.end(),
                           [id](const LiveControl& c) { return c.c.id == id && c.removed; });
    };
    std::size_t count = 1;
    for (std::size_t pass = 0; pass < w.controls.size(); ++pass) {
        bool changed = false;
        for (auto& c : w.controls) {
            if (c.removed || c.c.parent == 0 || !is_removed(c.c.parent)) continue;
            c.removed = true;
            changed = true;
            ++count;
        }
        if (!changed) break;
    }
    if (w.focus && live_control(w.spec.id, *w.focus) == nullptr) w.focus.reset();
    return count > 1 ? "removed with " + std::to_string(count - 1) + " descendants" : "";
}

}  // namespace deskcheck::sim
