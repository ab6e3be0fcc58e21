// The history a check judges (DESIGN "checks/"): what the tool was asked (requests, the refs the
// agent sent), everything it answered (step, batch, launch and write reports, its retry advice), the
// facts the harness captured around each step from the desktop's true state (StepTiming), and the
// ordered ground truth of the run (sim/ground_truth.h). A check reads this and the scenario, and
// nothing else: not the simulated desktop, not the tool's configuration, not the tool's functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/boundary.h"
#include "model/desktop.h"
#include "model/evidence.h"
#include "model/tool.h"
#include "model/verdict.h"
#include "model/write.h"
#include "sim/ground_truth.h"
#include "sim/kept.h"

namespace deskcheck::props {

// The true state of a step's target element, read from the simulator (never by the tool).
// The value is kept as sim::Kept (S-8: whole when short, length and digests when long); what the
// checks need of the whole value is decided when it is captured (value_text_length here, and
// StepTiming's facts below).
struct TrueState {
    std::optional<sim::Kept> value;
    std::int64_t value_text_length = 0;  // length_ignoring_trailing_newlines(value) (V-3's select-all)
    std::optional<Selection> selection;
    std::optional<bool> toggled;
    std::optional<bool> expanded;
    std::optional<bool> selected;
    bool dirty = false;
    WindowId foreground = no_window;
};

// What the checks ask of a true value, against the step's report (its facts' text), decided while
// the whole value exists (S-8). All false when the value was unreadable.
struct ValueFacts {
    bool set = false;           // D-2: it is the text spliced into the true selection from before the step
    bool holds_text = false;    // it contains the text
    bool holds_segment = false; // V-6: it contains the text before its first navigation key
};

// When a step ran and what was really true around it.
struct StepTiming {
    std::uint32_t step = 0;
    TimeMs began_ms = 0;
    TimeMs ended_ms = 0;
    TrueState before;   // when the step began
    TrueState after;    // when the tool answered
    std::size_t attempts_begin = 0;  // truth.attempts index range of this step's deliveries
    std::size_t attempts_end = 0;
    std::size_t began_reads = 0;     // truth.reads index when the step began: its boundary's reads (B-3) come first
    std::size_t reads_begin = 0;     // truth.reads index range of this step's reads
    std::size_t reads_end = 0;
    std::size_t changes_begin = 0;   // truth.foreground_changes index range during this step
    std::size_t changes_end = 0;
    std::size_t requests_begin = 0;  // truth.foreground_requests index range during this step
    std::size_t requests_end = 0;
    bool agent_retry = false;
    // E-3: the element that truly had the focus in the target window when the tool answered (none
    // when the window was not shown): what a focused_ref handed back with this step must name.
    std::optional<ElementId> focus_after;
    // The element the report names was still in its window's tree when the tool answered (E-3:
    // element_ref can be handed back only for an element that is there).
    bool element_there_after = false;
    // Decided at the step's end from the whole values (S-8: TrueState keeps only digests of long ones).
    bool before_holds_step_text = false;  // the value at `before` contains the scenario step's text (V-1)
    ValueFacts at_before;                 // of `before`'s value
    ValueFacts at_after;                  // of `after`'s value
};

// E-3: a ref the tool handed back with an earlier step's report (element_ref or focused_ref),
// which the agent sends in place of its snapshot's ref for a later step on the same element — as a
// real agent acts on what the tool hands back.
struct ReusedRef {
    std::uint32_t from_step = 0;   // the scenario step whose report handed it back
    bool focused = false;          // it was that report's focused_ref (else its element_ref)
    ElementId element = 0;         // the element it stood for: the report's element, or the true focus
};

// One call of the tool: a batch, or a single action outside a batch (F-5).
struct Segment {
    bool batch = true;
    TimeMs began_ms = 0;
    TimeMs ended_ms = 0;
    WindowId foreground_before = no_window;
    WindowId foreground_after = no_window;
    std::size_t changes_begin = 0;   // truth.foreground_changes index range
    std::size_t changes_end = 0;
    std::size_t requests_begin = 0;  // truth.foreground_requests index range
    std::size_t requests_end = 0;
    std::size_t reads_begin = 0;     // truth.reads index range (write_once's readings included)
    std::size_t reads_end = 0;
    std::vector<std::size_t> reports;  // indices into History::steps
    std::optional<std::size_t> batch_report;  // index into History::batches
    // A single action the agent sent through write_once (model/write.h): the whole report — its
    // outcome, readings, escalation and the foreground evidence of the whole call (the step and the
    // watched reconciling wait). Every field is a claim the checks hold against the ledger (the claim
    // table, checks/claim_table.h). Its `step` is moved into History::steps (`reports` indexes
    // it; `write->step` is left empty); that report keeps its own evidence, which ends with the step.
    std::optional<WriteReport> write;
};

struct History {
    std::string rules;                       // the rule set's name (for people: no check decides by it)
    // The rule set's stated promise, as data the checks read (D-3): it waits until the app's
    // declared bound has passed before it decides, rather than trusting one immediate read.
    bool rules_settle = false;
    // The rule set's stated hotkey promise, as data (RuleSet::hotkeys_promise_their_intent).
    bool rules_hotkeys_by_intent = false;
    // The rule set's stated typing promise, as data (RuleSet::typing_sets_value).
    bool rules_typing_sets_value = false;
    // The rule set's stated wait (RuleSet::settles_within_ms): the longest declared bound it waits for.
    TimeMs rules_settles_within_ms = 0;
    bool batch_mode = true;
    std::vector<Request> requests;           // index = scenario step (launch steps: kind Observe, unused)
    std::vector<std::optional<ElementId>> targets;  // the scenario control each step is about
    std::vector<StepReport> steps;           // what the tool reported, in order of execution
    // One per batch segment (a launch step splits a batch). Their step reports are moved into `steps`
    // (the segment's `reports` index them): `batches[i].steps` is empty.
    std::vector<BatchReport> batches;
    std::vector<LaunchReport> launches;
    std::optional<std::uint32_t> stopped_at; // the scenario step that stopped the run (B-1)
    std::vector<StepTiming> timings;         // parallel to `steps`
    std::vector<Segment> segments;
    std::vector<std::uint32_t> agent_retried;  // steps the W-2 agent retried
    // W-2: each time the agent asked the tool whether it may send a step again, and the answer.
    struct RetryAdvice {
        std::size_t report = 0;  // index into `steps`: the answer the agent asked about
        bool has_key = false;    // the step carries an idempotency key
        bool allowed = false;    // the tool's answer (may_retry)
    };
    std::vector<RetryAdvice> retry_advice;
    std::vector<std::optional<ReusedRef>> reused_refs;  // index = scenario step: the ref it sent came from a report
    // Every ref the tool handed the agent in this run (snapshots' and reports'): fewer than E-1's
    // 5000 means none can have been evicted from the tool's table.
    std::uint64_t refs_handed = 0;
    WindowId foreground_at_start = no_window;
    TimeMs ended_ms = 0;                     // virtual time when the tool returned
    // The ground truth of the run (sim/ground_truth.h), owned by whoever ran it (the harness keeps
    // the simulated desktop alive beside the history: harness/run.h RunResult).
    const sim::GroundTruth* ledger = nullptr;

    const sim::GroundTruth& truth() const { return *ledger; }
};

}  // namespace deskcheck::props
