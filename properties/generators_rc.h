// RapidCheck generators for whole scenarios, and the glue between the plain checks and RapidCheck
// properties (RC_DISCARD for CannotJudge, RC_FAIL with the explanation for Violated, RC_CLASSIFY
// for what a case exercised). The `_rc` suffix keeps this out of the plain checks library: only
// the test executables link RapidCheck (DESIGN "Folders").
//
// Shrinking (RapidCheck's, not ours): a scenario is generated as a *draft* — plain vectors of
// small structs of table indices and flags — and then built into a sim::Scenario by a pure
// function. References in a draft are indices taken modulo what exists (window 3 of 2 windows is
// window 1), so every draft builds a valid scenario and RapidCheck may cut any element of any
// vector, or move any index towards 0, and still get one. Index 0 of every table is the simplest
// choice (96 dpi, latency 0, readable, Win32, per-monitor aware, no fault), so a shrunk
// counterexample keeps only what matters for the failure.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "properties/checks.h"
#include "properties/run.h"
#include "sim/scenario.h"

namespace deskcheck::sim {
// RapidCheck prints a picked Scenario as its canonical JSON (sim/scenario_json.h), so every
// counterexample RapidCheck reports is a file `deskcheck replay` can read (DESIGN
// "Counterexamples"). Found by argument-dependent lookup.
void showValue(const Scenario& scenario, std::ostream& os);
}  // namespace deskcheck::sim

namespace deskcheck::props::rcgen {

// Bounds of a generated scenario (the brief of the property suite: few of everything).
struct GenOptions {
    std::uint32_t monitors_max = 2;
    std::uint32_t apps_max = 3;
    std::uint32_t windows_max = 4;        // visible windows (hidden popups/occluders/launched come on top)
    std::uint32_t controls_max = 5;       // per window
    std::uint32_t steps_max = 6;          // plus one optional launch step
    std::uint32_t events_max = 4;
    bool faults = true;                   // swarm fault profiles (STYLE 4)
    bool unreadable = true;               // unreadable and intermittently unreadable controls (S-3)
    bool user = true;                     // UserTypes / UserClicks events, recent last input
    bool hostile = true;                  // occluders, popups, windows to front, reorders, removals, steals
    bool ref_window = true;               // E-3 steps with a ref of another window (when validate accepts them)
    bool launch = true;                   // F-8 launch steps
    std::string rules = "current";        // written into the scenario
};

// ---- the draft: what RapidCheck generates and shrinks --------------------------------------------

struct MonitorDraft {
    int size = 0;  // monitor_sizes
    int dpi = 0;   // dpis (0: 96)
};

struct AppDraft {
    int framework = 0;     // frameworks (0: Win32); one per app, as a real app
    int latency = 0;       // latency_ms_max_choices (0: 0 ms)
    int latency_min = 0;   // 0: min 0; 1: min = max; 2: min = max / 2
    int feed_latency = 0;  // feed_latency_choices
    int steal = 0;         // steal_choices (0: never steals)
};

struct ControlDraft {
    int kind = 0;          // control_kinds (0: Edit); PostButton brings its Feed
    int readability = 0;   // readability_choices (0: readable)
    int value = 0;         // edit_values
    int selection = 0;     // 0: caret at end, 1: all selected, 2: caret at 0, 3: a middle part
    bool state = false;    // toggled / expanded / selected
    bool no_automation_id = false;
    bool disabled = false;
    bool own_handle = false;  // classic frameworks only
    bool in_group = false;    // child of the last Group before it
    bool feed_elsewhere = false;  // PostButton: its Feed lives in the next window of the same app
};

struct WindowDraft {
    int app = 0;           // modulo the apps
    int awareness = 0;     // awarenesses (0: per-monitor)
    int monitor = 0;       // modulo the monitors
    int size = 0;          // window_sizes
    int x_permille = 0;    // where on its monitor (0..1000 of the free room)
    int y_permille = 0;
    bool dirty = false;
    std::vector<ControlDraft> controls;
};

struct StepDraft {
    int kind = 0;          // step_kinds (0: type with a ref)
    int window = 0;        // modulo the visible windows (for an E-3 step: the window the ref comes from)
    int control = 0;       // modulo the candidate controls of that window for the kind
    int text = 0;          // step_texts
    int keys = 0;          // hotkeys
    int other_window = 0;  // 0: none; k: E-3, the target is the k-th other window
    bool depends = false;  // B-3: on the latest earlier save/submit/post step
    bool idempotency_key = false;
};

struct EventDraft {
    int kind = 0;          // event_kinds (0: user types)
    int at = 0;            // event_at_choices
    int window = 0;        // modulo the visible windows
    int control = 0;       // modulo its controls (occluders: modulo the click points first)
    int new_parent = 0;    // reorders: 0 the root, k: the k-th group
    int new_index = 0;
};

struct FaultDraft {
    // Swarm (STYLE 4): each kind on or off as a whole for the case; its rate index when on.
    bool read_failure = false;
    bool stale_read = false;
    bool delivery_error = false;
    bool delivery_exception = false;
    bool foreground_refusal = false;
    bool latency_overrun = false;
    int read_failure_rate = 0;
    int stale_read_rate = 0;
    int delivery_error_rate = 0;
    int delivery_exception_rate = 0;
    int foreground_refusal_rate = 0;
    int latency_overrun_rate = 0;
    int overrun_ms = 0;
};

struct ScenarioDraft {
    std::vector<MonitorDraft> monitors;   // 1..monitors_max (empty builds one)
    std::vector<AppDraft> apps;           // 1..apps_max
    std::vector<WindowDraft> windows;     // 1..windows_max
    std::vector<StepDraft> steps;         // 1..steps_max
    std::vector<EventDraft> events;       // 0..events_max
    FaultDraft faults;
    int last_input = 0;                   // last_input_choices (0: the user has been idle long)
    int single_actions = 0;               // 9: steps run as single actions outside a batch (F-5)
    int launch = 0;                       // 0: none; k: a launch step at position k-1 (modulo)
    bool launch_takes_foreground = false;
    std::uint32_t seed = 0;               // the Sim's seed (latency and fault draws); not shrunk
};

// A valid scenario from any draft (sim::validate passes; asserted by a property). When validate
// does not accept E-3 steps (a control of the ref window on another target), they are built as
// ordinary steps instead and `e3_dropped` says so.
sim::Scenario build_scenario(const ScenarioDraft& draft, const GenOptions& options = {},
                             bool* e3_dropped = nullptr);

rc::Gen<ScenarioDraft> drafts(const GenOptions& options = {});
rc::Gen<sim::Scenario> scenarios(const GenOptions& options = {});

// ---- what a case exercised -------------------------------------------------------------------------

// Coverage tags of one run (sorted, unique): "occluded_click", "dpi_stretched_click", "user_busy",
// "wpf_borrow", "app_steal", "unreadable_read", "latency_overrun", "verdict_confirmed",
// "verdict_absent", "verdict_unknown", "error", "agent_retry", "single_actions", "launch",
// "e3_ref_of_other_window", "popup", "tree_reorder", "another_window_to_front", "fault_*".
std::vector<std::string> coverage_tags(const sim::Scenario& scenario, const RunResult& run);

// The tags every property classifies by (a short list, so the distribution stays readable).
inline constexpr const char* classified_tags[] = {
    "occluded_click", "dpi_stretched_click", "user_busy",      "wpf_borrow",       "app_steal",
    "unreadable_read", "latency_overrun",    "verdict_absent", "verdict_confirmed"};

// Inside a property: RC_CLASSIFY each of classified_tags.
void classify(const sim::Scenario& scenario, const RunResult& run);

// Inside a property: CannotJudge -> RC_DISCARD(reason) (too many make RapidCheck give up: STYLE
// 7); Violated -> RC_LOG the explanation and the trace, then fail with the explanation (RapidCheck
// shows logs and the scenario JSON for the minimal case only). Holds -> returns.
void require_holds(const CheckResult& result, const RunResult& run);

// Runs `check` (by its name in all_checks()) on one scenario: the property body in one line.
void property_holds(std::string_view check, const sim::Scenario& scenario, const RunOptions& options);

}  // namespace deskcheck::props::rcgen
