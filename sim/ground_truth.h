// Ground truth (S-6): what really happened on the simulated desktop, which the tool never sees.
//
// Plain structs, appended to by the Sim and read by the property checks. Attempted, delivered and
// observed are tracked separately (STYLE 6): every deliver() call is an Attempt; the calls that
// returned Delivered are also a DeliveredInput (with whether the app accepted it); what the apps
// did about it are Effects. Foreground history, foreground requests, reads (with what they
// returned and which fault, if any, shaped the answer), cursor moves, launches and the scenario
// events that fired complete the ledger.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/desktop.h"
#include "sim/kept.h"

namespace deskcheck::sim {

// The step of inputs and effects that do not belong to the tool's batch (the user, the apps).
inline constexpr std::int32_t no_step = -1;

enum class AttemptOutcome : std::uint8_t {
    Delivered,  // deliver() returned Delivered (see DeliveredInput for what the app did)
    Failed,     // fault delivery_error_permille: returned Failed, nothing happened
    Threw,      // fault delivery_exception_permille: threw DesktopException, nothing happened
    Rejected,   // the input cannot be delivered as asked (unknown window/element, pattern missing)
};

inline std::string_view to_string(AttemptOutcome o) {
    switch (o) {
        case AttemptOutcome::Delivered: return "delivered";
        case AttemptOutcome::Failed: return "failed";
        case AttemptOutcome::Threw: return "threw";
        case AttemptOutcome::Rejected: return "rejected";
    }
    return "?";
}

// Every deliver() call, whatever came of it.
struct Attempt {
    TimeMs at_ms = 0;
    std::int32_t step = no_step;
    DeliveryMethod method = DeliveryMethod::PostedKeys;
    WindowId window = no_window;
    std::optional<ElementId> element;
    AttemptOutcome outcome = AttemptOutcome::Delivered;
    std::string reason;  // why it failed / threw / was rejected; "" when delivered
};

// A deliver() call that returned Delivered: where it landed and whether the app accepted it.
struct DeliveredInput {
    TimeMs at_ms = 0;
    std::int32_t step = no_step;
    DeliveryMethod method = DeliveryMethod::PostedKeys;
    WindowId window = no_window;             // as given by the tool
    std::optional<ElementId> element;        // as given by the tool
    std::string keys;
    std::string text;
    std::optional<Point> point;              // as given (client point for PostedClick, screen for RealInput)
    std::optional<Point> landed;             // clicks: the physical screen point it landed at (E-6)
    WindowId hit_window = no_window;         // the window that received it (an occluder, S-7)
    std::optional<ElementId> hit_element;    // the control it reached (nullopt: none / the focus)
    bool accepted = false;                   // the app acted on it (F-7: WPF ignores posted input)
    std::string ignored_reason;              // why not, when not accepted
    std::optional<TimeMs> lands_at_ms;       // when its effects are due, when accepted
    bool overrun = false;                    // fault: lands beyond the app's declared latency bound
    std::optional<WindowId> on_top;          // clicks: the topmost window at the landed point (E-5)
};

enum class EffectKind : std::uint8_t {
    ValueChanged,      // detail: the new value
    SelectionChanged,  // detail: "start,length"
    FocusMoved,        // element: the new focus ("" detail)
    Toggled,           // detail: the new state
    Expanded,          // detail: the new state
    Selected,          // detail: "true" (the item), siblings get Deselected
    Deselected,
    DirtyChanged,      // window-level; detail: the new state
    Saved,             // ctrl+s: dirty cleared, text unchanged
    FormSubmitted,     // non-idempotent (W-2)
    CommentPosted,     // non-idempotent (W-2); detail: the comment
    CommentShown,      // the comment appeared in the feed, feed_latency_ms after posting
    ButtonClicked,
    RepeatIgnored,     // W-2: a repeat with an idempotency key already applied; detail: the key
};

inline std::string_view to_string(EffectKind k) {
    switch (k) {
        case EffectKind::ValueChanged: return "value_changed";
        case EffectKind::SelectionChanged: return "selection_changed";
        case EffectKind::FocusMoved: return "focus_moved";
        case EffectKind::Toggled: return "toggled";
        case EffectKind::Expanded: return "expanded";
        case EffectKind::Selected: return "selected";
        case EffectKind::Deselected: return "deselected";
        case EffectKind::DirtyChanged: return "dirty_changed";
        case EffectKind::Saved: return "saved";
        case EffectKind::FormSubmitted: return "form_submitted";
        case EffectKind::CommentPosted: return "comment_posted";
        case EffectKind::CommentShown: return "comment_shown";
        case EffectKind::ButtonClicked: return "button_clicked";
        case EffectKind::RepeatIgnored: return "repeat_ignored";
    }
    return "?";
}

// Something an app did (S-6). `by` is "tool" (an input of the tool), "user" or "app".
struct Effect {
    TimeMs at_ms = 0;
    std::int32_t step = no_step;
    EffectKind kind = EffectKind::ValueChanged;
    WindowId window = no_window;
    ElementId element = 0;                 // 0: the window itself
    Kept detail;                           // a long value: its length and digests (sim/kept.h, S-8)
    bool overrun = false;                  // landed beyond the app's declared latency bound
    std::string by = "tool";
    std::optional<TimeMs> delivered_at_ms; // when the input that caused it was delivered
    // ValueChanged by a step's input: the new value contains that step's text (scenario.steps[step]
    // .text), decided when the value was written, while it existed whole (S-8).
    bool holds_step_text = false;
};

// Foreground history. `by`: "tool" | "app" | "user" | "another-window".
struct ForegroundChange {
    TimeMs at_ms = 0;
    WindowId from = no_window;
    WindowId to = no_window;
    std::string by;
    std::size_t attempts_before = 0;  // how many deliver() calls had happened: orders it among them
};

// Every request_foreground() call.
struct ForegroundRequest {
    TimeMs at_ms = 0;
    WindowId window = no_window;
    ForegroundAnswer answer = ForegroundAnswer::Granted;
    std::string reason;  // "refused (fault)", "unknown window", "last input (F24)", ...
    std::size_t attempts_before = 0;  // how many deliver() calls had happened: orders it among them
};

// Every read through the port. `returned` is the printed answer (nullopt: unreadable, V-2), a long
// value kept as its length and digests (sim/kept.h, S-8).
// fault: "" (a true reading), "failed", "stale", "unreadable", "missing" (no such element/field),
// "opaque" (Electron tree).
struct Read {
    TimeMs at_ms = 0;
    WindowId window = no_window;
    ElementId element = 0;
    std::string field;  // "value", "selection", "toggled", "expanded", "selected", "dirty"
    std::optional<Kept> returned;
    std::string fault;
    std::size_t attempts_before = 0;  // how many deliver() calls had happened: orders it among them
};

// Every last_input_ms() call (F-1): when it was asked and what it answered — the time of the last
// keyboard/mouse input of any process. A guard that was told the user is busy had to wait.
struct IdleQuery {
    TimeMs at_ms = 0;
    TimeMs last_input_ms = 0;
    std::size_t requests_before = 0;  // how many request_foreground() calls had happened: orders it among them
};

struct CursorMove {
    TimeMs at_ms = 0;
    Point to;
    std::string by;  // "tool" (set_cursor or a real click) | "user"
};

struct LaunchRecord {
    TimeMs at_ms = 0;
    std::string app;
    std::optional<ProcessId> pid;
    std::vector<WindowId> shown;
    bool took_foreground = false;
};

// A scenario event that fired (S-4, S-5, S-7).
struct FiredEvent {
    TimeMs at_ms = 0;
    std::size_t index = 0;  // into scenario.events
    std::string detail;
};

struct GroundTruth {
    std::vector<Attempt> attempts;
    std::vector<DeliveredInput> delivered;
    std::vector<Effect> effects;
    std::vector<ForegroundChange> foreground_changes;
    std::vector<ForegroundRequest> foreground_requests;
    std::vector<Read> reads;
    std::vector<IdleQuery> idle_queries;
    std::vector<CursorMove> cursor_moves;
    std::vector<LaunchRecord> launches;
    std::vector<FiredEvent> events;

    std::size_t count(EffectKind kind) const {
        std::size_t n = 0;
        for (const auto& e : effects) n += e.kind == kind ? 1 : 0;
        return n;
    }
    std::size_t count(EffectKind kind, std::int32_t step) const {
        std::size_t n = 0;
        for (const auto& e : effects) n += (e.kind == kind && e.step == step) ? 1 : 0;
        return n;
    }
    std::size_t count(AttemptOutcome outcome) const {
        std::size_t n = 0;
        for (const auto& a : attempts) n += a.outcome == outcome ? 1 : 0;
        return n;
    }
    std::size_t count_accepted() const {
        std::size_t n = 0;
        for (const auto& d : delivered) n += d.accepted ? 1 : 0;
        return n;
    }
    std::size_t count_foreground_changes_by(std::string_view by) const {
        std::size_t n = 0;
        for (const auto& f : foreground_changes) n += f.by == by ? 1 : 0;
        return n;
    }
};

}  // namespace deskcheck::sim
