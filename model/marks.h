// Coverage marks (TigerBeetle's `marks`): the tool bumps a named mark when it takes a path a test
// means to reach ("gave the foreground back after an exception"), and the test asserts that it was
// reached (tests/marks.h, expect_mark). A mark never changes what the tool does.
//
// On in every build with assertions (no NDEBUG) or with DESKCHECK_MARKS defined: a per-thread
// counter array, bumped by index. Off in the release build: mark() is an empty inline function.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#if !defined(NDEBUG) || defined(DESKCHECK_MARKS)
#define DESKCHECK_MARKS_ON 1
#endif

namespace deskcheck {

enum class Mark : std::uint8_t {
    gave_back_after_exception,      // F-6: the delivery threw; the borrowed front went back at once
    gave_back_after_failure,        // F-6: another failure after a borrow gave the front back at once
    app_grab_put_back,              // F-3: the watch caught the target's app taking the front, gave it back
    another_window_left_alone,      // F-4: someone else took the front; reported, not undone
    user_wait_timed_out,            // F-1: the user kept typing; the guard went ahead after the wait limit
    user_wait_ended_by_pause,       // F-1: the guard waited until the user paused
    refusal_retried_with_f24,       // F-1: the foreground request was refused; F24 pressed, asked again
    foreground_refused_twice,       // F-1: refused even after F24: the step fails, nothing delivered
    held_borrow_reused,             // F-5: a later batch step found its target held in front
    held_borrow_lost_to_another_window,  // F-4 in a batch: another window took the held front
    batch_gave_back_at_end,         // F-5: the batch gave its held borrow back once, at its end
    cross_window_ref_rejected,      // E-3: a ref of window A used with target B
    element_found_by_search,        // E-2: the path missed; the subtree search found the element
    element_not_found,              // E-2: neither path nor search found it
    element_resolved_again,         // E-2: time passed since resolving; resolved again before delivery
    coordinate_click_occluded,      // E-5: the point hits another window; nothing delivered
    element_centre_covered,         // E-5: a real click's point is covered by another window
    settle_poll_exhausted,          // D-3: the state never settled within settle_ms_max
    settle_ended_on_confirmed,      // D-3: a Confirmed poll ended the settle early
    quiesced_before_action,         // D-3: waited for an earlier action's effects before the before-read
    dependency_escalated,           // B-3: a dependency stayed unknown after one observation
    front_moved_while_pre_checks_waited,  // F-4 in a batch: someone else moved the front during the boundary or quiesce wait
    front_moved_while_write_reconciled,  // F-3/F-4 in write_once: the front moved during the watched reconciling wait (W-4)
    count_,
};
inline constexpr std::size_t mark_count = static_cast<std::size_t>(Mark::count_);

std::string_view to_string(Mark m);

namespace marks {

#ifdef DESKCHECK_MARKS_ON
inline constexpr bool enabled = true;
// This thread's hit counts. Read by tests only; the tool never reads a mark.
inline thread_local std::array<std::uint64_t, mark_count> hit_counts{};
inline void hit(Mark m) { ++hit_counts[static_cast<std::size_t>(m)]; }
inline std::uint64_t hits(Mark m) { return hit_counts[static_cast<std::size_t>(m)]; }
#else
inline constexpr bool enabled = false;
inline void hit(Mark) {}
inline std::uint64_t hits(Mark) { return 0; }
#endif

}  // namespace marks

// Marks the path as taken (a no-op when marks are compiled out).
inline void mark(Mark m) { marks::hit(m); }

}  // namespace deskcheck
