#include "model/guard.h"

#include <cassert>

#include "model/marks.h"

namespace deskcheck {

bool GiveBackPolicy::leaves_front_to_another_window() const { return true; }
void GiveBackPolicy::report(ForegroundEvidence&) const {}

namespace {

const GiveBackPolicy& policy_of(const GuardConfig& config) {
    static const GiveBackPolicy specified;  // stateless
    return config.give_back != nullptr ? *config.give_back : specified;
}

inline constexpr std::size_t owner_chain_max = 64;
inline constexpr std::size_t poll_iterations_max = 10'000;

bool request_with_retry(Desktop& desktop, WindowId w, bool& retried) {
    assert(!retried);  // every caller passes a fresh flag: it tells of this call's retry only (F-1)
    if (desktop.request_foreground(w) == ForegroundAnswer::Granted) return true;
    Input f24;
    f24.method = DeliveryMethod::RealInput;
    f24.keys = "F24";  // no default function; Alt would open the menu bar (F-1)
    mark(Mark::refusal_retried_with_f24);
    try {
        if (desktop.deliver(f24) != DeliveryStatus::Delivered) return false;
    } catch (const DesktopException&) {
        return false;  // the key press itself failed: treat as still refused (and no retry was made)
    }
    retried = true;  // only now: F24 pressed and the request made again (F-1, the report's claim)
    return desktop.request_foreground(w) == ForegroundAnswer::Granted;
}

// F-1: waits while the user's last input is younger than user_idle_ms, at most user_wait_ms_max.
std::optional<TimeMs> wait_for_user(Desktop& desktop, const GuardConfig& config) {
    assert(config.user_idle_ms >= 0 && config.user_wait_ms_max >= 0);
    const TimeMs start = desktop.now_ms();
    for (std::size_t i = 0; i < poll_iterations_max; ++i) {
        const TimeMs now = desktop.now_ms();
        const TimeMs idle = now - desktop.last_input_ms();
        const TimeMs waited = now - start;
        if (idle >= config.user_idle_ms) {
            if (waited > 0) mark(Mark::user_wait_ended_by_pause);
            break;
        }
        if (waited >= config.user_wait_ms_max) {
            if (waited > 0) mark(Mark::user_wait_timed_out);
            break;
        }
        const TimeMs until_idle = config.user_idle_ms - idle;
        const TimeMs until_limit = config.user_wait_ms_max - waited;
        desktop.wait_ms(std::max<TimeMs>(1, std::min(until_idle, until_limit)));
    }
    const TimeMs waited = desktop.now_ms() - start;
    assert(waited >= 0);  // virtual time never goes back
    if (waited == 0) return std::nullopt;
    return waited;
}

}  // namespace

bool related_to_target(Desktop& desktop, WindowId w, WindowId target) {
    if (w == target) return true;
    const auto tw = desktop.window(target);
    auto info = desktop.window(w);
    if (!tw || !info) return false;
    if (info->pid == tw->pid) return true;
    for (std::size_t i = 0; i < owner_chain_max && info && info->owner; ++i) {
        if (*info->owner == target) return true;
        info = desktop.window(*info->owner);
    }
    return false;
}

std::optional<Borrow> borrow_foreground(Desktop& desktop, WindowId target, const GuardConfig& config) {
    Borrow b;
    b.target = target;
    b.prev = desktop.foreground();
    if (b.prev == target) {
        b.started_ms = desktop.now_ms();
        return b;  // already in front: nothing borrowed
    }
    const WindowId before_wait = b.prev;
    b.waited_for_user_ms = wait_for_user(desktop, config);
    // Whom to give it back to is read after the wait: a window that came to the front meanwhile
    // by itself is the one to return to, not the stale one (F-4).
    b.prev = desktop.foreground();
    b.changed_while_waiting = b.prev != before_wait;
    if (b.prev == target) {
        b.started_ms = desktop.now_ms();
        return b;
    }
    if (b.prev != no_window) b.prev_focus = desktop.focused_element(b.prev);
    if (!request_with_retry(desktop, target, b.retried_after_refusal)) return std::nullopt;
    b.borrowed = true;
    b.started_ms = desktop.now_ms();
    assert(b.prev != b.target);  // borrowed from another window, or from none
    assert(!b.prev_focus || b.prev != no_window);
    return b;
}

ForegroundEvidence give_back(Desktop& desktop, const Borrow& borrow, const GuardConfig& config) {
    // F-1: F24 retried only on the way to a borrow that moved the front (refused twice: no Borrow).
    assert(borrow.borrowed || !borrow.retried_after_refusal);
    ForegroundEvidence ev;
    ev.waited_for_user_ms = borrow.waited_for_user_ms;
    ev.retried_after_refusal = borrow.retried_after_refusal;
    if (borrow.changed_while_waiting) ev.changed_by = "another-window";
    if (!borrow.borrowed) return ev;  // {unchanged:true}
    ev.unchanged = false;
    ev.borrowed = true;
    ev.by = "tool";
    ev.duration_ms = desktop.now_ms() - borrow.started_ms;
    assert(ev.duration_ms >= 0);
    const WindowId now_front = desktop.foreground();
    bool ours = related_to_target(desktop, now_front, borrow.target);
    for (const WindowId w : borrow.also_ours) ours = ours || related_to_target(desktop, now_front, w);
    if (now_front != borrow.target && !ours && policy_of(config).leaves_front_to_another_window()) {
        mark(Mark::another_window_left_alone);
        ev.changed_by = "another-window";  // F-4: someone else took it; leave it alone
        ev.restored = false;
        return ev;
    }
    bool retried = false;
    ev.restored = borrow.prev == no_window || request_with_retry(desktop, borrow.prev, retried);
    policy_of(config).report(ev);
    ev.retried_after_refusal = ev.retried_after_refusal || retried;
    return ev;
}

ForegroundEvidence give_back_and_watch(Desktop& desktop, const Borrow& borrow, const GuardConfig& config) {
    ForegroundEvidence ev = give_back(desktop, borrow, config);
    assert(ev.borrowed == borrow.borrowed);
    if (!ev.borrowed) return ev;
    // Watch in every case (F-3): after a give-back; after one the desktop refused (the window left in
    // front is not asked for again until the front moves); and after leaving the front to a window
    // that took it (F-4) — a later grab by the target's app is still the tool's to undo.
    const WindowId front = desktop.foreground();
    bool ours = related_to_target(desktop, front, borrow.target);
    for (const WindowId w : borrow.also_ours) ours = ours || related_to_target(desktop, front, w);
    const bool left_alone = !ev.restored && !ours;
    const WindowId owed = left_alone ? front : borrow.prev;
    const WindowId refused_front = ev.restored || left_alone ? no_window : front;
    const ForegroundEvidence watched =
        watch_after_background_action(desktop, borrow.target, owed, config, borrow.also_ours, refused_front);
    if (watched.changed_by) ev.changed_by = watched.changed_by;
    if (watched.borrowed) {
        ev.restored = watched.restored;  // the app took it again and was put back (F-3)
        ev.retried_after_refusal = ev.retried_after_refusal || watched.retried_after_refusal;
    }
    policy_of(config).report(ev);
    assert(ev.borrowed && ev.by == "tool");  // the watch adds to the tool's give-back, never replaces it (F-3)
    return ev;
}

ForegroundEvidence watch_after_background_action(Desktop& desktop, WindowId target, WindowId before,
                                                 const GuardConfig& config, const std::vector<WindowId>& also_ours,
                                                 WindowId refused_front, WindowId front_seen) {
    ForegroundEvidence ev;
    WindowId given_up_on = refused_front;  // the desktop refused to move it: ask again only after the front moves
    const TimeMs start = desktop.now_ms();
    assert(config.app_watch_poll_ms > 0);
    assert(config.app_watch_ms >= 0);
    WindowId expected = before;  // who should hold the front: moves by others are accepted (F-4)
    const auto is_ours = [&](WindowId w) {
        bool ours = related_to_target(desktop, w, target);
        for (const WindowId o : also_ours) ours = ours || related_to_target(desktop, w, o);
        return ours;
    };
    WindowId seen = front_seen != no_window ? front_seen : desktop.foreground();  // the front as last seen
    for (std::size_t i = 0; i < poll_iterations_max; ++i) {
        const WindowId front = desktop.foreground();
        if (front != given_up_on) given_up_on = no_window;
        // F-4: someone else moved the front, even onto the window it is owed to (a give-back the
        // desktop refused earlier, done by the user's click): reported as it happened, left alone.
        if (front != seen && front == expected && !is_ours(front)) {
            mark(Mark::another_window_left_alone);
            ev.changed_by = "another-window";
        }
        seen = front;
        if (front != expected && front != given_up_on) {
            const bool ours = is_ours(front);
            if (!ours) {
                mark(Mark::another_window_left_alone);
                ev.changed_by = "another-window";  // F-4: report it, leave it, keep watching
                expected = front;
            } else {
                const TimeMs taken_at = desktop.now_ms();
                bool retried = false;
                ev.unchanged = false;
                ev.borrowed = true;
                ev.by = "app";  // F-3: not a failure
                mark(Mark::app_grab_put_back);
                ev.restored = expected != no_window && request_with_retry(desktop, expected, retried);
                seen = desktop.foreground();  // the watch's own request moved it
                ev.retried_after_refusal = ev.retried_after_refusal || retried;
                ev.duration_ms = desktop.now_ms() - taken_at;
                // Refused even after F24: keep watching to the end, another grab may follow (F-3).
                if (!ev.restored) given_up_on = front;
            }
        }
        if (desktop.now_ms() - start >= config.app_watch_ms) break;
        desktop.wait_ms(config.app_watch_poll_ms);
    }
    // F-3: the watch reports only the app's grabs as borrows, each with a duration.
    assert(ev.unchanged != ev.borrowed && (!ev.borrowed || ev.by == "app"));
    assert(ev.duration_ms >= 0);
    return ev;
}

}  // namespace deskcheck
