// The simulated desktop (S-1..S-7): implements the Desktop port over a Scenario, hostile on
// purpose and fully deterministic.
//
// Determinism (S-1): all randomness comes from streams split off one Prng seeded with
// scenario.seed, one stream per purpose (latency, delivery faults, read faults, foreground
// refusals, latency overruns), and every call that could draw always draws the same number of
// times whatever the fault plan says. Time is virtual: it moves only in wait_ms() and
// run_until_quiet(), which process one queue ordered by (time, sequence number) holding the
// scenario's events and the pending effects of accepted inputs. Anything due at the current time
// (an effect with latency 0) is processed at the start of the next port call. No threads, no
// statics with state, no iteration over unordered containers.
//
// What it models, in short (details at each function in the .cpp files):
//  - monitors with their DPI, windows in z-order (index 0 of scenario.windows is topmost at start),
//    window DPI by awareness, hit testing over visible windows; occluders stay above ordinary
//    windows (they are topmost windows, S-7);
//  - E-6: a PostedClick carries a client point (logical for unaware/system-aware windows on
//    another DPI); the sim maps it back with geometry.h's rounding and hit-tests physical bounds;
//  - element trees in pre-order (Electron: the root only), reads with readability and faults;
//  - deliveries by method with the acceptance rules of E-4/F-7, effects after the app's latency
//    (S-4), apps stealing the foreground (F-3), launch without activation (F-8), foreground
//    refusals that an F24 real key press overcomes (F-1), a user and other windows (S-5).
// The tool sees only the port; truth(), trace() and the true_*() accessors are for checks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/desktop.h"
#include "sim/ground_truth.h"
#include "sim/prng.h"
#include "sim/scenario.h"
#include "sim/trace.h"

namespace deskcheck::sim {

// The longest a single wait may advance virtual time (keeps time arithmetic far from overflow).
inline constexpr TimeMs wait_ms_limit = 86'400'000;
// Bounds the event loop: no run processes more queue items than this in one wait.
inline constexpr std::size_t queue_items_per_wait_max = 100'000;

// The live state of one control (S-3). Current state lives in `c` (value, selection, toggled...,
// and `c.parent`, which moves with reorders); `prev_*` hold each field's value before its latest
// landed update, for stale reads (S-7).
struct LiveControl {
    Control c;
    bool removed = false;
    std::string prev_value;
    // c.value and prev_value as the ledger keeps them, made once per change (Sim::write_value) and
    // shared by every effect and read of that value (S-8: reads of a long value cost no digest).
    Kept value_kept;
    Kept prev_value_kept;
    Selection prev_selection;
    bool prev_toggled = false;
    bool prev_expanded = false;
    bool prev_selected = false;
    std::optional<std::string> undo_value;  // ctrl+z: the value before the last typing effect
};

// The live state of one top-level window (S-2). Sibling order = order in `controls`.
struct LiveWindow {
    Window spec;  // static facts; spec.controls is empty (the live ones are below)
    std::vector<LiveControl> controls;
    bool shown = true;
    bool topmost = false;  // occluders: stay above ordinary windows
    bool dirty = false;
    bool prev_dirty = false;
    std::optional<ElementId> focus;
    // Derived from `controls` (order, parents, removals) and the static facts; built on first use.
    // Whatever changes `controls` (reorder, removal) calls forget_tree().
    mutable std::optional<std::vector<std::size_t>> order_cache;  // Sim::tree_order
    mutable TreePtr tree_cache;                                   // Sim::element_tree (shown windows)
    void forget_tree() {
        order_cache.reset();
        tree_cache.reset();
    }
};

// What an accepted input does when it lands.
// The window class a control with its own handle reports ("" without one): classic Win32/WinForms
// buttons, check boxes and radio buttons are "Button", edits are "Edit".
std::string class_of_control(const Control& c);

enum class InputAction : std::uint8_t {
    Type,      // keys then text, to `element` or (none) the window's focus at landing
    Click,     // a click on `element` (none: nothing was hit): moves focus, then the control's effect
    Pattern,   // a UIA pattern on `element`: the control's effect, focus stays
    SetValue,  // UIA ValuePattern.SetValue: the whole value becomes `text`
};

enum class PendingKind : std::uint8_t { Event, Input, FeedAppend, StealForeground };

// One item of the event queue.
struct Pending {
    PendingKind kind = PendingKind::Event;
    std::size_t event_index = 0;  // Event: into scenario.events
    InputAction action = InputAction::Type;
    WindowId window = no_window;
    std::optional<ElementId> element;
    std::string keys;
    std::string text;  // Type/SetValue: the text; FeedAppend: the comment
    bool pull_to_front = false;  // F-7: a WPF window pulls itself to the front as it lands
    // The cause, for ground truth.
    std::int32_t step = no_step;
    Actor by = Actor::Tool;
    bool overrun = false;
    std::optional<TimeMs> delivered_at_ms;
    std::optional<std::string> idempotency_key;  // W-2: the input's key, when it carried one
};

// Where a deliver() goes and what the app makes of it (internal to the Sim).
struct Route {
    std::optional<std::string> rejected;  // set: the input cannot be delivered as asked
    WindowId hit_window = no_window;
    std::optional<ElementId> hit_element;
    std::optional<Point> landed;
    InputAction action = InputAction::Type;
    bool accepted = false;
    std::string ignored_reason;
    bool pull_to_front = false;
};

struct SimOptions {
    bool trace = true;  // false: keep no trace (Trace::on); the ground truth is recorded either way
};

class Sim final : public Desktop {
public:
    // `scenario` must pass validate() (asserted in debug builds).
    explicit Sim(Scenario scenario, SimOptions options = {});

    // --- the port (model/desktop.h) ---
    std::vector<WindowInfo> top_level_windows() override;
    std::optional<WindowInfo> window(WindowId id) override;
    WindowId foreground() override;
    ForegroundAnswer request_foreground(WindowId id) override;
    std::optional<ElementId> focused_element(WindowId id) override;
    TimeMs last_input_ms() override;

    TreePtr element_tree(WindowId id) override;
    std::optional<std::string> read_value(WindowId w, ElementId e) override;
    std::optional<Selection> read_selection(WindowId w, ElementId e) override;
    std::optional<bool> read_toggled(WindowId w, ElementId e) override;
    std::optional<bool> read_expanded(WindowId w, ElementId e) override;
    std::optional<bool> read_selected(WindowId w, ElementId e) override;
    std::optional<bool> read_dirty(WindowId w) override;

    std::optional<WindowId> window_at(Point physical) override;
    Point cursor() override;
    void set_cursor(Point physical) override;

    DeliveryStatus deliver(const Input& input) override;
    std::optional<ProcessId> launch(std::string_view app) override;

    // The app's declared bound for all effects of an input to show: latency_ms_max plus the
    // feed delay (a PostButton's comment shows feed_latency_ms after it lands).
    std::optional<TimeMs> declared_latency_ms(WindowId w) override;

    TimeMs now_ms() override;
    void wait_ms(TimeMs ms) override;

    // --- outside the port: for the runner and the checks (the tool never sees these) ---
    // The scenario as given, without its windows: they were moved into the live windows at
    // construction (copying every control twice cost a tenth of a run). Events, apps, faults... stay.
    const Scenario& scenario() const { return scenario_; }
    const GroundTruth& truth() const { return truth_; }
    const Trace& trace() const { return trace_; }
    Trace& trace() { return trace_; }

    // Advances time until no input effect, feed update or foreground steal is pending, or until
    // `limit_ms` virtual ms have passed, whichever is first. Scenario events due on the way fire.
    void run_until_quiet(TimeMs limit_ms);
    bool effects_pending() const;

    std::optional<std::string> true_value(ElementId e) const;  // Edit, Feed
    // The same without a copy, and as the ledger keeps it (S-8); both nullptr where true_value is nullopt.
    struct ValueView {
        const std::string* text = nullptr;
        const Kept* kept = nullptr;
    };
    ValueView true_value_view(ElementId e) const;
    std::optional<Selection> true_selection(ElementId e) const;  // Edit
    std::optional<bool> true_toggled(ElementId e) const;
    std::optional<bool> true_expanded(ElementId e) const;
    std::optional<bool> true_selected(ElementId e) const;
    bool true_dirty(WindowId w) const;
    WindowId true_foreground() const { return foreground_; }
    std::optional<ElementId> true_focus(WindowId w) const;
    std::vector<WindowId> true_z_order() const { return z_order_; }  // shown windows, topmost first
    bool true_shown(WindowId w) const;
    bool true_exists(ElementId e) const;  // declared and not removed
    // E-1: the child indices from the window root to the control (nullopt: removed/unknown).
    std::optional<std::vector<std::uint32_t>> true_path(ElementId e) const;
    TimeMs latency_bound_ms(WindowId w) const;  // the window's app's latency_ms_max
    TimeMs feed_latency_ms(WindowId w) const;   // the window's app's feed_latency_ms

private:
    struct ControlRef {
        std::size_t window_index = 0;
        std::size_t control_index = 0;
    };

    // lookups (sim.cpp)
    LiveWindow* find_window(WindowId id);
    const LiveWindow* find_window(WindowId id) const;
    std::optional<ControlRef> find_control(ElementId id) const;
    LiveControl* live_control(WindowId w, ElementId e);
    const LiveControl* live_control(WindowId w, ElementId e) const;
    const LiveControl* live_control_anywhere(ElementId e) const;
    const App* app_of(WindowId w) const;
    const App* app_by_name(std::string_view name) const;
    WindowInfo info_of(const LiveWindow& w) const;

    // z-order and foreground (sim.cpp)
    void raise(WindowId w);
    void show(WindowId w, bool topmost);
    void set_foreground(WindowId w, Actor by);
    std::optional<WindowId> topmost_window_at(Point physical) const;

    // trees and hit testing (sim_tree.cpp)
    const std::vector<std::size_t>& tree_order(const LiveWindow& w) const;  // cached in the window
    std::vector<std::size_t> build_tree_order(const LiveWindow& w) const;
    ElementTree build_element_tree(const LiveWindow& w) const;
    std::size_t depth_of(const LiveWindow& w, const LiveControl& c) const;
    std::optional<ElementId> control_at(const LiveWindow& w, Point physical) const;
    std::optional<ElementId> next_focusable(const LiveWindow& w, std::optional<ElementId> from, bool forward) const;
    bool is_descendant(const LiveWindow& w, ElementId candidate, ElementId ancestor) const;

    // time (sim.cpp)
    void schedule(TimeMs at_ms, Pending item);
    void settle_due();
    void advance_to(TimeMs target_ms);
    void process(const Pending& item);

    // reads (sim_reads.cpp)
    struct ReadAnswer {
        const LiveControl* control = nullptr;  // null: no answer (fault says why)
        ReadFault fault = ReadFault::None;
        bool stale = false;
    };
    ReadAnswer begin_read(WindowId w, ElementId e, bool (*has_field)(ControlKind));
    void record_read(WindowId w, ElementId e, ReadField field, const std::optional<std::string>& returned, ReadFault fault);
    // The same, the answer already kept (a value's Kept, LiveControl::value_kept).
    void record_read(WindowId w, ElementId e, ReadField field, std::optional<Kept> returned, ReadFault fault);

    // deliveries (sim_deliver.cpp)
    Route route(const Input& input) const;
    Route route_element(const Input& input) const;
    Route route_posted_keys(const Input& input) const;
    Route route_posted_click(const Input& input) const;
    Route route_real_input(const Input& input) const;
    void record_attempt(const Input& input, AttemptOutcome outcome, std::string reason);
    void accept(const Input& input, const Route& r, DeliveredInput& record);
    void after_real_input(const Input& input, const Route& r);

    // effects (sim_effects.cpp)
    void land_input(const Pending& p);
    void land_type(const Pending& p, LiveWindow& w);
    void land_keys(const Pending& p, LiveWindow& w, std::optional<ElementId>& target);
    void land_text(const Pending& p, LiveWindow& w, std::optional<ElementId>& target);
    void land_control_effect(const Pending& p, LiveWindow& w, LiveControl& c);
    void show_in_feed(const Pending& p, WindowId window, const LiveControl& c);
    void land_feed_append(const Pending& p);
    void land_steal(const Pending& p);
    void type_segment(const Pending& p, LiveWindow& w, std::optional<ElementId> target, const std::string& segment);
    void press_enter(const Pending& p, LiveWindow& w, std::optional<ElementId> target);
    void move_focus(const Pending& p, LiveWindow& w, std::optional<ElementId> to);
    void select_item(const Pending& p, LiveWindow& w, LiveControl& item);
    void write_value(const Pending& p, WindowId w, LiveControl& c, std::string value);
    void write_selection(const Pending& p, WindowId w, LiveControl& c, Selection s);
    void write_dirty(const Pending& p, LiveWindow& w, bool dirty);
    void record_effect(const Pending& p, EffectKind kind, WindowId w, ElementId e, std::string_view detail);
    // The same, the detail already kept (a value's Kept, LiveControl::value_kept).
    void record_effect(const Pending& p, EffectKind kind, WindowId w, ElementId e, std::string_view detail, Kept kept);

    // scenario events (sim_events.cpp)
    void fire_event(std::size_t index);
    std::string user_types(const Event& e);
    std::string user_clicks(const Event& e);
    std::string reorder(const Event& e);
    std::string remove_control(const Event& e);
    // Schedules an accepted input's effects after its app's latency (S-4), with the overrun fault
    // and the app's foreground steal (F-3). Returns (lands_at_ms, overrun).
    std::pair<TimeMs, bool> schedule_input(Pending p);

    Scenario scenario_;
    std::vector<LiveWindow> windows_;  // scenario order
    std::vector<WindowId> z_order_;    // shown windows, topmost first
    WindowId foreground_ = no_window;
    TimeMs now_ = 0;
    TimeMs user_last_input_ms_ = 0;
    std::optional<TimeMs> tool_last_input_ms_;
    bool tool_has_last_input_ = false;  // F-1: a RealInput key made the tool the last-input process
    Point cursor_;
    std::map<std::pair<TimeMs, std::uint64_t>, Pending> queue_;
    std::uint64_t next_sequence_ = 0;
    std::set<ProcessId> launched_;
    // W-2: (control, key) of every non-idempotent effect applied; a repeat with the same key is ignored.
    std::set<std::pair<ElementId, std::string>> applied_keys_;
    Prng latency_rng_;
    Prng delivery_rng_;
    Prng read_rng_;
    Prng foreground_rng_;
    Prng overrun_rng_;
    GroundTruth truth_;
    Trace trace_;
};

}  // namespace deskcheck::sim
