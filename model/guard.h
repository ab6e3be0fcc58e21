// The foreground guard (SPEC F-1..F-4): borrow the foreground and give it back.
#pragma once

#include <optional>
#include <vector>

#include "model/desktop.h"
#include "model/evidence.h"

namespace deskcheck {

// The give-back's extension points. The defaults are the guard as specified; the tool's hooks
// (model/tool_hooks.h) extend this, and the negative proofs override it (harness/mutations.h).
class GiveBackPolicy {
public:
    virtual ~GiveBackPolicy() = default;
    // F-4: a window unrelated to the target that took the front is left alone, not restored over.
    virtual bool leaves_front_to_another_window() const;
    // F-2: a last look at the evidence of a give-back that moved the front (as specified: unchanged).
    virtual void report(ForegroundEvidence& evidence) const;
};

struct GuardConfig {
    TimeMs user_idle_ms = 700;
    TimeMs user_wait_ms_max = 3000;
    TimeMs app_watch_ms = 350;
    TimeMs app_watch_poll_ms = 50;
    const GiveBackPolicy* give_back = nullptr;  // nullptr: as specified
};

struct Borrow {
    bool borrowed = false;        // false: the target was already in front (nothing to give back)
    WindowId prev = no_window;    // before.foreground
    std::optional<ElementId> prev_focus;  // before.focused control of its thread
    WindowId target = no_window;
    TimeMs started_ms = 0;
    std::optional<TimeMs> waited_for_user_ms;
    bool retried_after_refusal = false;
    bool changed_while_waiting = false;  // another window took the front during the user wait (F-4)
    std::vector<WindowId> also_ours;      // other windows a batch acted on: their grabs are the tool's too
};

// F-1: record before; wait for the user to pause (<= user_wait_ms_max, then go ahead); request the
// foreground; if refused, press F24 (no default function) to become the last-input process and
// retry once. nullopt when refused twice.
std::optional<Borrow> borrow_foreground(Desktop& desktop, WindowId target, const GuardConfig& config);

// Gives the foreground back to borrow.prev. F-4: when the foreground is now a window unrelated to
// the target, it is left alone and reported (changed_by "another-window").
ForegroundEvidence give_back(Desktop& desktop, const Borrow& borrow, const GuardConfig& config = {});

// give_back, then the F-3 watch: an app whose effect lands after the give-back (a WPF window
// pulling itself to the front as its pattern completes) is put back again, recorded by:"app".
ForegroundEvidence give_back_and_watch(Desktop& desktop, const Borrow& borrow, const GuardConfig& config);

// F-3: after a background action, watch for the app taking the foreground (target, same process,
// or a popup the target owns); give it back and record by:"app". Unrelated changes are reported,
// a move onto `before` too when someone else made it: `front_seen` is the front as the caller last
// saw it (no_window: as the watch finds it), so that a move since then is seen.
ForegroundEvidence watch_after_background_action(Desktop& desktop, WindowId target, WindowId before,
                                                 const GuardConfig& config,
                                                 const std::vector<WindowId>& also_ours = {},
                                                 WindowId refused_front = no_window, WindowId front_seen = no_window);

// True when `w` is the target, a window of the target's process, or owned (transitively) by it.
bool related_to_target(Desktop& desktop, WindowId w, WindowId target);

}  // namespace deskcheck
