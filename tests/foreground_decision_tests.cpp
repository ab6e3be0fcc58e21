// The foreground decisions of a step as tables (SPEC F-3..F-6; model/foreground_decision.h): who
// moved the front, whom it is owed to, what becomes of the batch's held borrow. Pure functions of
// facts, so each row states the facts and the decision, with no desktop.
#include <boost/test/unit_test.hpp>

#include "model/foreground_decision.h"

using namespace deskcheck;

namespace {

constexpr WindowId target = 1;  // this step's target
constexpr WindowId owner = 2;   // the user's window, in front when the batch began
constexpr WindowId other = 5;   // a window unrelated to the batch
constexpr WindowId popup = 7;   // a window of an app the batch delivered to

FrontWindow outsider(WindowId id) { return FrontWindow{id, true, false, false, false}; }
FrontWindow held(WindowId id) { return FrontWindow{id, true, true, false, id == target}; }
FrontWindow acted(WindowId id) { return FrontWindow{id, true, false, true, false}; }
FrontWindow targets_app(WindowId id) { return FrontWindow{id, true, false, false, true}; }

}  // namespace


BOOST_AUTO_TEST_CASE(F4_who_moved_the_front) {
    struct Row {
        bool moved_before_borrow;
        bool tool_moved_front;
        WindowId at_start;
        WindowId now;
        bool another;
    };
    const Row rows[] = {
        {false, false, owner, owner, false},  // nobody moved it
        {false, false, owner, other, true},   // it moved and the tool did not move it
        {false, true, owner, target, false},  // the tool's own borrow
        {true, true, owner, target, true},    // someone moved it before the tool borrowed
        {true, false, owner, owner, true},    // ... even if it is back now
    };
    for (const Row& r : rows) {
        BOOST_TEST_CONTEXT("before_borrow " << r.moved_before_borrow << " tool " << r.tool_moved_front << " now " << r.now) {
            BOOST_TEST(moved_by_another(r.moved_before_borrow, r.tool_moved_front, r.at_start, r.now) == r.another);
        }
    }
}

BOOST_AUTO_TEST_CASE(F4_F5_at_step_start_an_outsider_in_front_is_the_owner_and_takes_the_hold) {
    // No hold: an outsider in front is whom the batch owes the front to.
    StepStartDecision d = decide_at_step_start(StepStartFacts{false, no_window, outsider(owner)});
    BOOST_TEST(d.new_owner.value_or(0) == owner);
    BOOST_TEST(!d.hold_lost);
    // Nothing in front: no owner.
    d = decide_at_step_start(StepStartFacts{false, no_window, FrontWindow{}});
    BOOST_TEST(!d.new_owner.has_value());
    // The held target in front: nothing changes.
    d = decide_at_step_start(StepStartFacts{true, target, held(target)});
    BOOST_TEST(!d.new_owner.has_value());
    BOOST_TEST(!d.hold_lost);
    // A window of an app the batch delivered to (its app reacted): still the batch's.
    d = decide_at_step_start(StepStartFacts{true, target, acted(popup)});
    BOOST_TEST(!d.new_owner.has_value());
    BOOST_TEST(!d.hold_lost);
    // Another window took the held front: it is the owner now, and the hold is lost to it.
    d = decide_at_step_start(StepStartFacts{true, target, outsider(other)});
    BOOST_TEST(d.new_owner.value_or(0) == other);
    BOOST_TEST(d.hold_lost);
}

BOOST_AUTO_TEST_CASE(F4_a_single_borrow_reports_a_move_before_it) {
    BorrowFacts f;
    f.borrowed = true;
    f.front_at_start = owner;
    f.prev = outsider(owner);
    BorrowDecision d = decide_borrow(f);
    BOOST_TEST(!d.moved_before_borrow);
    BOOST_TEST(!d.becomes_hold);
    f.prev = outsider(other);  // someone else came to the front while the guard waited
    d = decide_borrow(f);
    BOOST_TEST(d.moved_before_borrow);
    f.borrowed = false;  // the target was in front: nothing borrowed, nothing to report
    d = decide_borrow(f);
    BOOST_TEST(!d.moved_before_borrow);
}

BOOST_AUTO_TEST_CASE(F5_the_first_borrow_of_a_batch_becomes_its_hold) {
    BorrowFacts f;
    f.in_batch = true;
    f.borrowed = true;
    f.front_at_start = owner;
    f.prev = outsider(owner);
    f.owner = outsider(owner);
    const BorrowDecision d = decide_borrow(f);
    BOOST_TEST(d.becomes_hold);
    BOOST_TEST(d.fresh_borrow);
    BOOST_TEST(!d.moves_own_hold);
    BOOST_TEST(!d.interferes);
    BOOST_TEST(!d.owed_to_owner);
    BOOST_TEST(!d.hold_lost);
    BOOST_TEST(!d.new_owner.has_value());
    BOOST_TEST(d.moved_before_borrow == false);
}

BOOST_AUTO_TEST_CASE(F5_a_borrow_moving_the_batchs_own_hold_is_not_a_second_borrow) {
    BorrowFacts f;
    f.in_batch = true;
    f.holds_borrow = true;
    f.borrowed = true;
    f.front_at_start = target;
    f.prev = held(target);  // the held window is in front; this step targets another of the batch's windows
    f.owner = outsider(owner);
    const BorrowDecision d = decide_borrow(f);
    BOOST_TEST(d.becomes_hold);
    BOOST_TEST(d.moves_own_hold);
    BOOST_TEST(!d.fresh_borrow);
    BOOST_TEST(!d.interferes);
    BOOST_TEST(!d.moved_before_borrow);
}

BOOST_AUTO_TEST_CASE(F3_a_batch_apps_window_in_front_is_owed_to_the_owner_not_the_grabber) {
    BorrowFacts f;
    f.in_batch = true;
    f.borrowed = true;
    f.front_at_start = popup;
    f.prev = acted(popup);  // an app the batch delivered to pulled its window forward
    f.owner = outsider(owner);
    BorrowDecision d = decide_borrow(f);
    BOOST_TEST(d.owed_to_owner);
    BOOST_TEST(d.fresh_borrow);
    BOOST_TEST(d.moved_before_borrow);  // owed to the owner, who was not in front when the step began
    f.owner.exists = false;  // the owner is gone: nobody better to give it to
    d = decide_borrow(f);
    BOOST_TEST(!d.owed_to_owner);
}

// A batch that holds the front it borrowed, as a later step finds it.
static BorrowFacts holding_batch() {
    BorrowFacts f;
    f.in_batch = true;
    f.holds_borrow = true;
    f.borrowed = true;
    return f;
}

BOOST_AUTO_TEST_CASE(F3_F5_a_batch_apps_grab_of_the_held_front_moves_the_hold_and_is_no_other_windows_move) {
    // The batch holds the front; an app it delivered to pulled its window forward (seed 12 case
    // 19424). Borrowing again moves the batch's own hold: one borrow, no F-4 interference.
    BorrowFacts f = holding_batch();
    f.front_at_start = popup;
    f.prev = acted(popup);
    f.owner = outsider(owner);
    BorrowDecision d = decide_borrow(f);
    BOOST_TEST(d.owed_to_owner);
    BOOST_TEST(d.moves_own_hold);
    BOOST_TEST(!d.fresh_borrow);
    BOOST_TEST(!d.interferes);
    BOOST_TEST(!d.hold_lost);
    f.changed_while_waiting = true;  // ... even when the app's window came forward during the user wait
    d = decide_borrow(f);
    BOOST_TEST(!d.hold_lost);
    BOOST_TEST(d.moves_own_hold);
    BOOST_TEST(!d.new_owner.has_value());
}

BOOST_AUTO_TEST_CASE(F4_another_window_during_the_user_wait_takes_the_hold_and_becomes_the_owner) {
    BorrowFacts f = holding_batch();
    f.changed_while_waiting = true;
    f.front_at_start = target;
    f.prev = outsider(other);
    f.owner = outsider(owner);
    BorrowDecision d = decide_borrow(f);
    BOOST_TEST(d.new_owner.value_or(0) == other);
    BOOST_TEST(d.hold_lost);
    BOOST_TEST(d.becomes_hold);
    BOOST_TEST(d.fresh_borrow);   // a fresh borrow from the new owner
    BOOST_TEST(!d.interferes);    // the hold was already lost: counted once, by hold_lost
    f.borrowed = false;           // the target came back in front by itself: the hold is still lost
    d = decide_borrow(f);
    BOOST_TEST(d.hold_lost);
    BOOST_TEST(!d.becomes_hold);
    BOOST_TEST(!d.fresh_borrow);
}

BOOST_AUTO_TEST_CASE(F3_after_a_background_action_a_grab_is_owed_to_who_was_in_front) {
    struct Row {
        const char* what;
        bool tool_moved_front;
        bool delivered_to_front;
        FrontWindow at_start;
        FrontWindow before_delivery;
        WindowId owed;
    };
    const Row rows[] = {
        {"nothing moved", false, false, outsider(owner), outsider(owner), owner},
        {"the target's app grabbed while the tool waited", false, true, outsider(owner), targets_app(target), owner},
        {"the grabber got no delivery from the tool: not its doing", false, false, outsider(owner), targets_app(target), target},
        {"another window came forward: it is owed", false, false, outsider(owner), outsider(other), other},
        {"the tool moved the front itself", true, true, outsider(owner), targets_app(target), target},
    };
    for (const Row& r : rows) {
        BOOST_TEST_CONTEXT(r.what) {
            BackgroundFacts f;
            f.tool_moved_front = r.tool_moved_front;
            f.delivered_to_front = r.delivered_to_front;
            f.at_start = r.at_start;
            f.before_delivery = r.before_delivery;
            BOOST_TEST(owed_after_background_action(f) == r.owed);
        }
    }
}

BOOST_AUTO_TEST_CASE(F3_F5_in_a_batch_a_grab_by_its_own_windows_goes_to_the_owner_or_the_held_window) {
    BackgroundFacts f;
    f.in_batch = true;
    f.at_start = acted(popup);
    f.before_delivery = acted(popup);
    f.owner = outsider(owner);
    BOOST_TEST(owed_after_background_action(f) == owner);  // a batch window in front is not the owner
    f.owner.exists = false;
    BOOST_TEST(owed_after_background_action(f) == popup);  // ... unless the owner is gone
    f.owner.exists = true;
    f.holds_borrow = true;
    f.held_borrowed = true;
    f.held_target = target;
    f.held_target_exists = true;
    BOOST_TEST(owed_after_background_action(f) == target);  // the batch holds the front: back to the held window
    f.before_delivery = held(target);
    f.at_start = held(target);
    BOOST_TEST(owed_after_background_action(f) == target);  // the held window is in front: it stays
}

