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

// Who made something happen (S-6): the tool (its inputs, its foreground requests, its cursor), the
// user, an app on its own (a grab, a popup, a launch), or another window the scenario brings to the
// front.
enum class Actor : std::uint8_t { Tool, User, App, AnotherWindow };

inline std::string_view to_string(Actor a) {
    switch (a) {
        case Actor::Tool: return "tool";
        case Actor::User: return "user";
        case Actor::App: return "app";
        case Actor::AnotherWindow: return "another-window";
    }
    return "?";
}

// The field of an element (or the window's unsaved marker) a read asked for.
enum class ReadField : std::uint8_t { Value, Selection, Toggled, Expanded, Selected, Dirty };

inline std::string_view to_string(ReadField f) {
    switch (f) {
        case ReadField::Value: return "value";
        case ReadField::Selection: return "selection";
        case ReadField::Toggled: return "toggled";
        case ReadField::Expanded: return "expanded";
        case ReadField::Selected: return "selected";
        case ReadField::Dirty: return "dirty";
    }
    return "?";
}

// What shaped a read's answer: nothing (a true reading), or a fault of the desktop (S-7, V-2).
enum class ReadFault : std::uint8_t {
    None,        // the true value, read now
    Failed,      // the read failed (fault): unreadable
    Stale,       // an earlier value served (fault)
    Unreadable,  // the control cannot be read (it declares so)
    Missing,     // no such element, or no such field on it
    Opaque,      // an Electron tree the port cannot see into
};

inline std::string_view to_string(ReadFault f) {
    switch (f) {
        case ReadFault::None: return "";
        case ReadFault::Failed: return "failed";
        case ReadFault::Stale: return "stale";
        case ReadFault::Unreadable: return "unreadable";
        case ReadFault::Missing: return "missing";
        case ReadFault::Opaque: return "opaque";
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

// Something an app did (S-6), on whose input: the tool's, the user's, or the app's own.
struct Effect {
    TimeMs at_ms = 0;
    std::int32_t step = no_step;
    EffectKind kind = EffectKind::ValueChanged;
    WindowId window = no_window;
    ElementId element = 0;                 // 0: the window itself
    Kept detail;                           // a long value: its length and digests (sim/kept.h, S-8)
    bool overrun = false;                  // landed beyond the app's declared latency bound
    Actor by = Actor::Tool;
    std::optional<TimeMs> delivered_at_ms; // when the input that caused it was delivered
    // ValueChanged by a step's input: the new value contains that step's text (scenario.steps[step]
    // .text), decided when the value was written, while it existed whole (S-8).
    bool holds_step_text = false;
};

// Foreground history: who moved the front.
struct ForegroundChange {
    TimeMs at_ms = 0;
    WindowId from = no_window;
    WindowId to = no_window;
    Actor by = Actor::Tool;
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
struct Read {
    TimeMs at_ms = 0;
    WindowId window = no_window;
    ElementId element = 0;
    ReadField field = ReadField::Value;
    std::optional<Kept> returned;
    ReadFault fault = ReadFault::None;
    std::size_t attempts_before = 0;  // how many deliver() calls had happened: orders it among them
};

// Every last_input_ms() call (F-1): when it was asked and what it answered — the time of the last
// keyboard/mouse input of any process. A guard that was told the user is busy had to wait.
struct IdleQuery {
    TimeMs at_ms = 0;
    TimeMs last_input_ms = 0;
    std::size_t requests_before = 0;  // how many request_foreground() calls had happened: orders it among them
};

// Every window_at() call (E-5): when it was asked, the point, and the window the desktop answered
// (nullopt: no window there). A target_occluded claim is held against these.
struct HitTest {
    TimeMs at_ms = 0;
    Point point;
    std::optional<WindowId> answer;
};

struct CursorMove {
    TimeMs at_ms = 0;
    Point to;
    Actor by = Actor::Tool;  // the tool (set_cursor or a real click) or the user
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
    std::vector<HitTest> hit_tests;
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
    std::size_t count_foreground_changes_by(Actor by) const {
        std::size_t n = 0;
        for (const auto& f : foreground_changes) n += f.by == by ? 1 : 0;
        return n;
    }
};

}  // namespace deskcheck::sim
