#include "model/foreground_decision.h"

#include <cassert>

namespace deskcheck {

bool moved_by_another(bool moved_before_borrow, bool tool_moved_front, WindowId front_at_start, WindowId front_now) {
    return moved_before_borrow || (!tool_moved_front && front_now != front_at_start);
}

StepStartDecision decide_at_step_start(const StepStartFacts& f) {
    assert(f.holds_borrow || !f.front.related_to_held);
    StepStartDecision d;
    if (f.front.outsider()) d.new_owner = f.front.id;  // the original owner, or someone who took it since
    d.hold_lost = f.holds_borrow && f.front.id != f.held_target && !f.front.batch_window();
    assert(!d.hold_lost || f.front.id != f.held_target);
    return d;
}

BorrowDecision decide_borrow(const BorrowFacts& f) {
    assert(f.in_batch || !f.holds_borrow);
    assert(f.holds_borrow || !f.prev.related_to_held);
    BorrowDecision d;
    if (!f.in_batch) {
        d.moved_before_borrow = f.borrowed && f.prev.id != f.front_at_start;
        return d;
    }
    const bool moving_hold = f.holds_borrow && f.prev.related_to_held;
    if (f.changed_while_waiting && f.prev.outsider()) d.new_owner = f.prev.id;
    // A window of the batch's own apps in front (its app reacted to the tool, F-3): owed to the owner.
    d.owed_to_owner = f.borrowed && !moving_hold && f.prev.id != f.owner.id && f.prev.batch_window() && f.owner.exists;
    assert(!(d.new_owner && d.owed_to_owner));
    const FrontWindow& prev = d.owed_to_owner ? f.owner : f.prev;
    d.moved_before_borrow = f.borrowed && prev.id != f.front_at_start && !f.holds_borrow;
    // Who moved the front is told by the window that was in front (f.prev), not by whom the front
    // is owed to: a window of the batch's own apps in front is the batch's doing (F-3), not another
    // window's (F-4), even when the give-back goes to the owner.
    const bool others_move = f.changed_while_waiting && !f.prev.related_to_acted;
    d.hold_lost = f.holds_borrow && others_move && !f.prev.related_to_held;
    if (!f.borrowed) return d;
    const bool holds = f.holds_borrow && !d.hold_lost;
    d.becomes_hold = true;
    d.moves_own_hold = holds && f.prev.batch_window();
    d.fresh_borrow = !d.moves_own_hold;
    d.interferes = d.fresh_borrow && holds;
    assert(d.moves_own_hold != d.fresh_borrow);
    return d;
}

WindowId owed_after_background_action(const BackgroundFacts& f) {
    assert(f.in_batch || !f.holds_borrow);
    // A grab by the target's app while the tool waited (quiesce, settle of an earlier step) is the
    // app's doing all the same: give it back to what was in front when the step began (F-3).
    const bool grabbed_while_waiting = !f.tool_moved_front && f.before_delivery.id != f.at_start.id &&
                                       f.delivered_to_front && f.before_delivery.related_to_target;
    const FrontWindow& owed = grabbed_while_waiting ? f.at_start : f.before_delivery;
    if (!f.in_batch) return owed.id;
    // A grab by the batch's own app that the desktop refused to undo earlier is not the owner.
    const bool held_in_front = f.holds_borrow && owed.related_to_held;
    WindowId out = owed.id;
    if (!held_in_front && owed.id != f.owner.id && owed.batch_window() && f.owner.exists) out = f.owner.id;
    // While the batch holds a borrow, a grab by one of its own windows is undone towards the held
    // window: the batch still holds the front, and gives it back once, at its end (F-5).
    if (f.holds_borrow && f.held_borrowed && !held_in_front && f.before_delivery.batch_window() && f.held_target_exists) {
        out = f.held_target;
    }
    return out;
}

}  // namespace deskcheck
