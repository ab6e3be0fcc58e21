// The names of the tool mutations (STYLE 13): deliberately wrong tools that the negative proofs and
// `deskcheck run/replay/shrink --mutation NAME` use. Only the names live here — a counterexample
// header may carry one (sim/scenario_json.h). The wrong behaviours themselves are implemented in
// harness/mutations.h, through the tool's extension points (model/tool_hooks.h): the model has
// no branch for any of them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace deskcheck {

enum class Mutation : std::uint8_t {
    None,
    UnreadableAsEmpty,         // reads an unreadable value as "" (V-2 broken)
    RetryUnknownOnce,          // the batch re-sends a step whose verdict was Unknown (B-2 broken)
    NoGiveBackOnFailure,       // the guard gives back only on the happy path (F-5/F-6 broken)
    RestoreOverAnotherWindow,  // the guard restores over a window that took the front itself (F-4 broken)
    IgnoreWindowBinding,       // a ref of window A resolves in window B (E-3 broken)
    ClickWithoutHitTest,       // coordinate clicks skip the occlusion check (E-5 broken)
    InvertedDpi,               // monitor/window instead of window/monitor (E-6 broken)
    RestoredDespiteRefusal,    // the guard reports restored:true although the give-back was refused (F-2 broken)
    PhantomReadback,           // the after-readback is the before snapshot, never read (P-1 broken)
    NotDoneDespiteEffect,      // a step left Unknown because the state had not settled says Absent (W-1 broken)
    UnknownInsteadOfAbsent,    // every Absent the evidence supports is said as Unknown: sound, useless (V-1 broken)
    NoUserWait,                // the guard takes the front while the user is busy, without waiting (F-1 broken)
    SkipBoundaryObservation,   // a dependent step runs without observing its dependency (B-3, O-4 broken)
    ProceedOnNeedsEvidence,    // a dependent step runs on needs_evidence too (O-4 broken)
    RetryUnknownWrite,         // the retry rule allows re-sending an unknown write without a key (W-2 broken)
    DropIdempotencyKey,        // the step's idempotency key never reaches the desktop (W-2 broken)
    RetryClaimDropped,         // the guard's report leaves out the F24 retry it made (F-1 claim left out)
    RetryClaimMadeUp,          // the guard's report claims an F24 retry it never made (F-1 claim made up)
    EscalateEveryDependency,   // every dependent step escalates, whatever its boundary saw (B-3: sound, useless)
    PostedClickToButtons,      // a classic button gets a posted click, not a click message (E-4 broken)
    BorrowForEveryWindow,      // every step takes the foreground, whatever the control needs (F-7 broken)
    FocusedRefIsActedElement,  // the focused_ref names the element acted on, wherever the focus went (E-3 broken)
    NeverAllowRetry,           // the retry rule forbids every retry, a confirmed not_done's too (W-2: sound, useless)
    UnknownInsteadOfConfirmed, // a Confirmed the evidence showed before the state settled is said as Unknown (C-4: sound, useless)
    UnknownForTyping,          // every typing step is said as Unknown, whatever its readings showed (V-5, V-6: sound, useless)
    SettleCutShort,            // `current` waits at most 100 ms for the state to settle, whatever the app's bound (D-3: sound, useless)
    SharedIdentityGivesUp,     // a ref whose identity its snapshot shares is given up on, even where its path holds (E-2: sound, useless)
    OccludedWhateverHit,       // every coordinate click is refused as covered, whatever the hit test answered (E-5: sound, useless)
    PostedChordsToEdits,       // a classic edit gets a select-all/clipboard/undo chord as posted keys, not its edit message (E-4 broken)
    LetsGoBeforeLanding,       // a borrowed window's front is given away before the tool's input into it lands (F-7 broken under `current`)
    HotkeyMarkerUnread,        // a hotkey's state is read without the unsaved marker: a save is never confirmed (V-4: sound, useless)
};
inline constexpr Mutation last_mutation = Mutation::HotkeyMarkerUnread;

namespace detail {
inline constexpr std::array<std::string_view, static_cast<std::size_t>(last_mutation) + 1> mutation_name_table{
    "none",
    "unreadable_as_empty",
    "retry_unknown_once",
    "no_give_back_on_failure",
    "restore_over_another_window",
    "ignore_window_binding",
    "click_without_hit_test",
    "inverted_dpi",
    "restored_despite_refusal",
    "phantom_readback",
    "not_done_despite_effect",
    "unknown_instead_of_absent",
    "no_user_wait",
    "skip_boundary_observation",
    "proceed_on_needs_evidence",
    "retry_unknown_write",
    "drop_idempotency_key",
    "retry_claim_dropped",
    "retry_claim_made_up",
    "escalate_every_dependency",
    "posted_click_to_buttons",
    "borrow_for_every_window",
    "focused_ref_is_acted_element",
    "never_allow_retry",
    "unknown_instead_of_confirmed",
    "unknown_for_typing",
    "settle_cut_short",
    "shared_identity_gives_up",
    "occluded_whatever_hit",
    "posted_chords_to_edits",
    "lets_go_before_landing",
    "hotkey_marker_unread",
};
}  // namespace detail

constexpr std::string_view to_string(Mutation m) {
    const auto i = static_cast<std::size_t>(m);
    return i < detail::mutation_name_table.size() ? detail::mutation_name_table[i] : std::string_view("?");
}

// The mutation of that name (to_string), None included; nullopt for an unknown name.
constexpr std::optional<Mutation> mutation_named(std::string_view name) {
    for (std::size_t i = 0; i < detail::mutation_name_table.size(); ++i) {
        if (detail::mutation_name_table[i] == name) return static_cast<Mutation>(i);
    }
    return std::nullopt;
}

}  // namespace deskcheck
