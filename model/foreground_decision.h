// The foreground decisions of one step (SPEC F-3..F-6) as pure functions of facts: who moved the
// front, whom it is owed to, what becomes of a batch's held borrow. The act layer gathers the facts
// from the desktop (model/act.cpp) and applies the decision; here there is no desktop, so the
// table tests (tests/foreground_decision_tests.cpp) pin every row.
#pragma once

#include <optional>

#include "model/desktop.h"

namespace deskcheck {

// What the act layer knows about one window when it decides. Outside a batch every relation is false.
struct FrontWindow {
    WindowId id = no_window;
    bool exists = false;            // the desktop still shows it
    bool related_to_held = false;   // related to the target of the batch's held borrow (none: false)
    bool related_to_acted = false;  // related to a window the batch delivered to before this step
    bool related_to_target = false; // related to this step's target
    // A window of the batch's own doing: one it holds in front or one whose app it delivered to.
    bool batch_window() const { return related_to_held || related_to_acted; }
    // In front, and not of the batch's own doing: whom a batch owes the front to (F-4).
    bool outsider() const { return id != no_window && !batch_window(); }
};

// F-4: who moved the front. A move the tool did not make since the step began (or one seen before
// the step's borrow) is another window's: reported, never undone.
bool moved_by_another(bool moved_before_borrow, bool tool_moved_front, WindowId front_at_start, WindowId front_now);

// At the start of a batch step.
struct StepStartFacts {
    bool holds_borrow = false;       // the batch holds a borrow
    WindowId held_target = no_window;
    FrontWindow front;               // in front as the step begins
};
struct StepStartDecision {
    std::optional<WindowId> new_owner;  // the front is owed to this window from now (F-4)
    bool hold_lost = false;             // another window took the held front: the hold is theirs (F-4)
};
StepStartDecision decide_at_step_start(const StepStartFacts& facts);

// After borrow_foreground succeeded for this step.
struct BorrowFacts {
    bool in_batch = false;
    bool holds_borrow = false;           // the batch held a borrow before this one
    bool borrowed = false;               // this borrow moved the front (false: the target was in front)
    bool changed_while_waiting = false;  // the front changed during the user wait
    WindowId front_at_start = no_window;
    FrontWindow prev;                    // in front when the guard asked: the borrow's prev
    FrontWindow owner;                   // the batch's owner (in a batch)
};
struct BorrowDecision {
    std::optional<WindowId> new_owner;  // F-4: someone else took the front while the guard waited
    bool owed_to_owner = false;         // F-3: prev is a window of the batch's own apps: give back to the owner
    bool moved_before_borrow = false;   // F-4: someone else moved the front before this step borrowed
    bool hold_lost = false;             // F-4: someone else took the held front: the hold is theirs now
    bool becomes_hold = false;          // F-5: the batch holds this borrow from now on
    bool moves_own_hold = false;        // F-5: it moves the batch's own hold: one give-back, to the first owner
    bool fresh_borrow = false;          // F-5: counts as a borrow of the batch
    bool interferes = false;            // a fresh borrow replaced a hold: another window was involved
};
BorrowDecision decide_borrow(const BorrowFacts& facts);

// After a background action (no borrow of this step): whom an app's grab is given back to (F-3).
struct BackgroundFacts {
    bool in_batch = false;
    bool holds_borrow = false;          // the batch holds a borrow
    bool held_borrowed = false;         // ... that moved the front
    WindowId held_target = no_window;
    bool held_target_exists = false;
    bool tool_moved_front = false;      // this step moved the front itself
    bool delivered_to_front = false;    // the window in front before the delivery is an app the tool delivered to
    FrontWindow at_start;               // in front when the step began
    FrontWindow before_delivery;        // in front right before the delivery
    FrontWindow owner;                  // the batch's owner (in a batch)
};
WindowId owed_after_background_action(const BackgroundFacts& facts);

}  // namespace deskcheck
