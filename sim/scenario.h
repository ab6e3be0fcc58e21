// The scenario: everything the simulated desktop is built from, and the batch the tool will run.
// A plain value. JSON codec in scenario_json.h ("format": "deskcheck-scenario/1").
//
// Ids: monitors, windows and controls carry explicit numeric ids (window ids are the WindowId the
// port hands out, nonzero; control ids are the ElementId, unique within the whole scenario and
// nonzero; element id 0 is each window's implicit root "Pane"). Order in every array is meaningful:
// windows are listed topmost first (initial z-order), controls are listed in child order.
// Probabilities are integers in per-mille (0..1000): no floats anywhere near a trace.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/desktop.h"
#include "model/verdict.h"

namespace deskcheck::sim {

inline constexpr std::string_view scenario_format = "deskcheck-scenario/1";

// Bounds on everything (DESIGN "Bounded everything").
inline constexpr std::size_t monitors_max = 4;
inline constexpr std::size_t windows_max = 16;
inline constexpr std::size_t controls_per_window_max = 64;
inline constexpr std::size_t steps_max = 32;
inline constexpr std::size_t user_events_max = 64;
inline constexpr std::size_t app_events_max = 32;
inline constexpr std::uint32_t dpi_min = 96;
inline constexpr std::uint32_t dpi_max = 288;
inline constexpr TimeMs latency_ms_limit = 60'000;
inline constexpr std::int32_t coordinate_limit = 32'768;

struct Monitor {
    std::uint32_t id = 1;
    Rect bounds;             // physical pixels
    std::uint32_t dpi = 96;  // 96..288
    bool primary = false;    // exactly one; its DPI is the "system" DPI
};

enum class ControlKind : std::uint8_t {
    Edit,          // value, selection; multiline edits keep CR/LF
    Toggle,        // toggled
    Expander,      // expanded
    ListItem,      // selected (one per parent)
    Button,        // plain button: no readable state
    SubmitButton,  // submits its window's form (non-idempotent effect "form_submitted")
    PostButton,    // posts a comment (non-idempotent effect "comment_posted") to its feed
    Feed,          // read-only text: the posted comments, one per line (reconciliation reads it)
    Group,         // a container (Pane/Group) for other controls
};

enum class Readability : std::uint8_t { Readable, Unreadable, Intermittent };

struct Control {
    ElementId id = 0;
    ElementId parent = 0;            // 0: the window's root
    ControlKind kind = ControlKind::Edit;
    std::string role;                // UIA role: "Edit", "CheckBox", "TreeItem", "ListItem", "Button", "Text", "Group"
    std::optional<std::string> automation_id;
    std::string name;
    bool own_handle = false;         // has its own HWND (classic controls)
    Rect bounds;                     // physical pixels, inside the window's bounds
    Readability readability = Readability::Readable;
    std::uint16_t intermittent_permille = 500;  // Intermittent: chance a read fails
    // Initial state (only the fields of its kind matter).
    std::string value;
    Selection selection;
    bool multiline = false;
    bool toggled = false;
    bool expanded = false;
    bool selected = false;
    bool enabled = true;             // false: takes input and does nothing (UIA IsEnabled)
    ElementId feed = 0;              // PostButton: the Feed its comments appear in; SubmitButton: the form's status line
    std::string comment;             // PostButton: the text it posts; SubmitButton: the status text it shows
};

struct Window {
    WindowId id = 1;
    ProcessId pid = 1;
    std::optional<WindowId> owner;  // popups/dialogs; no cycles
    Rect bounds;                    // physical pixels
    DpiAwareness awareness = DpiAwareness::PerMonitor;
    Framework framework = Framework::Win32;
    std::string class_name;
    std::string title;
    bool dirty = false;             // unsaved changes: title shows "*"; typing sets it, save clears it
    bool form = false;              // Enter in an edit of this window submits its form
    std::vector<Control> controls;
};

// How an app behaves (S-4, F-3, F-7, F-8). One per process id.
struct App {
    ProcessId pid = 1;
    std::string name;               // for launch
    TimeMs latency_ms_min = 0;      // an input's effect lands after a latency drawn in [min, max]
    TimeMs latency_ms_max = 0;      // the declared bound; a fault may exceed it on purpose
    TimeMs feed_latency_ms = 0;     // PostButton: extra delay before the comment shows in the feed
    // After an input delivered while in the background, the app brings one of its windows to the
    // front after this delay (F-3); nullopt: never.
    std::optional<TimeMs> steals_foreground_after_ms;
    bool launchable = false;        // not running at start: `launch` creates its windows (F-8)
    bool launch_takes_foreground = false;
};

// Things that happen on their own at a virtual time (S-4, S-5).
enum class EventKind : std::uint8_t {
    UserTypes,          // the user types `text` into the foreground window's focus
    UserClicks,         // the user clicks at `point` (physical): last-input time, may change the foreground
    WindowToFront,      // `window` comes to the front by itself (another window, F-4)
    PopupOpens,         // `window` (declared, initially hidden) appears, owned by its owner
    TreeReorders,       // `control` moves to `new_parent` at `new_index` (refs must follow, E-2)
    ControlRemoved,     // `control` disappears
    OccluderAppears,    // `window` (declared, initially hidden) appears on top (S-7)
};

struct Event {
    TimeMs at_ms = 0;
    EventKind kind = EventKind::UserTypes;
    std::string text;
    Point point;
    WindowId window = no_window;
    ElementId control = 0;
    ElementId new_parent = 0;
    std::uint32_t new_index = 0;
};

// S-7: faults drawn swarm-style. Each kind is on or off per scenario, with its own rate.
struct FaultPlan {
    std::uint16_t read_failure_permille = 0;      // a read returns nullopt
    std::uint16_t stale_read_permille = 0;        // a read returns the value before the latest update
    std::uint16_t delivery_error_permille = 0;    // deliver returns Failed, nothing happens
    std::uint16_t delivery_exception_permille = 0;// deliver throws DesktopException, nothing happens
    std::uint16_t foreground_refusal_permille = 0;// request_foreground is refused (F24 + retry may help)
    std::uint16_t latency_overrun_permille = 0;   // an effect lands after the app's declared bound
    TimeMs latency_overrun_ms = 0;                // by how much it overruns
    // Occluders are scheduled as OccluderAppears events; hidden windows listed in `windows`.
};

enum class StepKind : std::uint8_t {
    Type,      // type `text` into `control` (no control: type without a ref, V-8)
    Hotkey,    // press `keys` on `control` (or the window's focus without one)
    Click,     // click `control` by ref
    ClickAt,   // coordinate click: `window` + frame + `point` (physical screen pixels) (E-5)
    Launch,    // launch the app named `app` without activation (F-8)
    Observe,   // read `control` once (a dependency boundary observation, B-3)
};

struct Step {
    StepKind kind = StepKind::Type;
    WindowId window = no_window;
    std::optional<ElementId> control;
    std::string text;
    std::string keys;
    std::optional<Point> point;
    std::optional<std::string> frame;        // ClickAt: required by E-5 ("main" for the top frame)
    std::string app;
    std::optional<std::uint32_t> depends_on; // B-3: index of an earlier step whose effect this needs
    std::optional<std::string> idempotency_key;  // W-2
    // E-3: the window whose snapshot the step's ref comes from (default: `window`). A different
    // window makes the agent use a ref of window A with target B, which the tool must reject.
    std::optional<WindowId> ref_window;
};

struct Scenario {
    std::uint64_t seed = 0;
    std::vector<Monitor> monitors;
    std::vector<Window> windows;       // topmost first; hidden ones are listed with `hidden`
    std::vector<WindowId> hidden;      // windows that exist but are not shown yet (popups, occluders, launched)
    std::vector<App> apps;
    WindowId foreground = no_window;   // initial foreground window
    TimeMs user_last_input_ms = -10'000;  // the user's last input before the run starts (t=0)
    std::vector<Event> events;
    FaultPlan faults;
    std::vector<Step> steps;           // the batch the tool runs
    bool batch = true;                 // false: each step is a single action outside a batch (F-5)
    std::string rules = "current";     // the rule set the tool uses
};

// The scenario's window `id` (shown or hidden); nullptr when it has none.
inline const Window* find_window(const Scenario& s, WindowId id) {
    for (const auto& w : s.windows) {
        if (w.id == id) return &w;
    }
    return nullptr;
}

}  // namespace deskcheck::sim
