// Write operations and reconciliation (SPEC W-1..W-5).
//
//   before = read; write; verify; if unknown: wait, after = read; classify(before, after)
//
// The reads and the classification are the dependency boundary's (model/boundary.h): a WriteSpec
// is an AppendsText write declaration, read by Tool::read_written and judged by
// classify_declared, so the batch's boundary, write_once and the campaign's agent share them.
//
// done = evidence the effect exists; not_done = evidence it does not; unknown = the checks cannot
// tell. Unknown carries the checks that ran, those that could not and why (W-3). Doubt is resolved
// by reading, never by repeating the write (W-4); a write that stays unknown escalates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/tool.h"

namespace deskcheck {


struct WriteSpec {
    Request action;                   // the write itself (a click on "post", a submit, ...)
    WindowId verify_window = no_window;
    std::string verify_ref;           // the element whose value shows the effect (a feed, a list)
    std::string expect_text;          // the effect: one more occurrence of this text
    bool idempotent = false;
    std::optional<std::string> idempotency_key;  // W-2: makes a repeat harmless
};

struct WriteReport {
    WriteOutcome outcome = WriteOutcome::Unknown;
    StepReport step;                        // the tool's report of the write action alone
    ToolResult act;                         // its answer (step.result)
    std::optional<std::string> before;      // the verify reading before (nullopt: unreadable)
    std::optional<std::string> after;       // right after the write (after the tool's settle)
    std::optional<std::string> reconciled;  // the reconciling read, when the first was unknown
    bool reconciled_by_reading = false;
    bool escalate = false;                  // still unknown after reconciliation: stop, ask a person
    std::vector<Check> checks_ran;
    std::vector<SkippedCheck> checks_not_run;
    // F-2 for the whole write_once call, not just the action: `step`'s own foreground evidence
    // (step.result.evidence.foreground, which ends with the action) merged with what the F-3/F-4
    // watch saw during the reconciling wait (W-4), when there was one. The wait is watched as after
    // a background action (watch_after_background_action, model/guard.h): the target's app, a window
    // of its process or a popup it owns taking the front is put back (borrowed:true, by:"app",
    // restored, durationMs of that grab — unless the action itself had borrowed: then its by and
    // durationMs stand and restored is the latest give-back's, as give_back_and_watch reports);
    // a window unrelated to the target taking it is left alone and reported
    // (changedBy:"another-window"). Without a wait (an error, or the first read decided) it is the
    // step's evidence unchanged.
    ForegroundEvidence foreground;
    bool watched_wait = false;              // the reconciling wait ran, watched (F-3, F-4)
};

// Counts non-overlapping occurrences of `needle` in `hay` (needle non-empty).
std::size_t occurrences(const std::string& hay, const std::string& needle);

// W-1: classifies one (before, after) pair of the verify reading. `settled`: the after-read was
// taken once the app's latency bound had passed (D-3): without it, no not_done.
WriteOutcome classify_write(const std::optional<std::string>& before, const std::optional<std::string>& after,
                            const std::string& expect_text, bool settled, std::vector<Check>& ran,
                            std::vector<SkippedCheck>& not_run);

// ---- the one reconciliation rule (W-1, W-2, W-5), shared by write_once and the campaign's agent --
//
// What one attempt of an action says about its effect, from the tool's answer alone:
//   Confirmed -> done; Absent -> not_done; Unknown -> unknown;
//   an error before anything was delivered (refused, not found, occluded, bad request) -> not_done;
//   an error once the input was delivered -> unknown;
//   W-5, a delivery that throws -> unknown, delivered or not: the throw may come after the input
//   reached the app, so the exception is no evidence that nothing happened.
WriteOutcome attempt_outcome(const ToolResult& result);
// W-2: retry only on a not_done, or on an unknown when an idempotency key makes the repeat
// harmless; never on done. The only retry rule: may_retry and the agent both call it.
bool may_retry_write(WriteOutcome outcome, bool has_idempotency_key);

// The declared write a spec verifies: one more occurrence of expect_text in verify_ref's value.
WriteDeclaration declaration_of(const WriteSpec& spec);

// Runs the write once and reconciles by reading (W-4). Never sends the write twice. The reconciling
// wait is a watched wait (F-3, F-4): see WriteReport::foreground.
WriteReport write_once(Tool& tool, const WriteSpec& spec);

// W-2: may an agent retry this write? may_retry_write on the reconciled outcome; an idempotent write
// counts as one with a key.
bool may_retry(const WriteReport& report, const WriteSpec& spec);

}  // namespace deskcheck
