// R0 checks (R-1..R-7): what a failed run left behind, judged from the fixture and the world's
// ground truth alone — never by calling the tool's helpers. The expected before-states are
// recomputed by a reference interpreter of the steps written here, not taken from the tool.
//
//   residue        the world after the rollback equals the world before, plus what other programs
//                  wrote meanwhile (kept, with the folders they need), plus irreversible effects the
//                  task allowed and the report says cannot be undone;
//   rollback       every step that may have changed something is reported undone, and what each
//                  step touched is back as it was: a claim "restored" that is not true fails it;
//   traceability   every journal line is checked field by field: task id (the report's, non-empty),
//                  step id, operation, status, and for each `intent` line the before-state the
//                  reference interpreter computes; intents 1..j in order, one `failed` (or
//                  `refused`) line for the failed step, one undo line per intent, last step first.
// failure_leaves_nothing = all three, plus: an undo that failed is reported as failed.
// A crashed run (R0Run::crashed) is judged the same way after its recovery: the world must be the
// world before plus what others did (and declared irreversible effects), every intent line must
// have its undo line, last step first, and the claims are the journal's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/journal.h"
#include "model/undo.h"
#include "sim/r0_world.h"

namespace deskcheck::r0 {

// What an adapter reports for one apply (or one undo).
struct ApplyReport {
    std::string task_id;
    bool finished = false;        // every step done (the normal path)
    bool refused = false;
    std::size_t executed = 0;     // steps that may have changed something
    std::size_t rolled_back = 0;  // steps reported undone and restored
    std::vector<std::uint32_t> restored_steps;
    std::vector<std::uint32_t> undo_failed_steps;
    std::vector<std::uint32_t> not_undoable_steps;
};

// One run to judge: the fixture, where it was made to fail, and what came out.
struct R0Run {
    const sim::R0Fixture* fixture = nullptr;
    bool allow_irreversible = false;
    std::optional<std::uint32_t> failed_after_step;  // the post-check of this step failed
    std::optional<sim::OpFault> fault;               // this operation failed
    bool normal_then_undo = false;                   // the normal path, then undo
    bool normal_finished = true;                     // normal path: the apply finished (else no undo ran)
    sim::WorldState final_state;
    sim::WorldTruth truth;
    ApplyReport report;                              // of the apply (normal path: of the undo)
    // The task was killed mid-way and recovered from its journal alone (harness/r0_crash.h):
    // no apply report survives. The check then takes the claims (executed, restored, undo failed,
    // not undoable) from the journal lines, by its own parser; report.task_id is the id the task
    // was given. The failed line is there only when the failure came before the kill; an empty
    // journal is fine when the task died before its first line.
    bool crashed = false;
    std::optional<std::vector<std::string>> journal; // nullopt: the tool keeps none
    // The undo tool's own report of the apply (normal path: of the undo), when the adapter is the
    // in-process model/undo.h; every field of it is judged (task_report_claims).
    std::optional<TaskReport> task;
    // A crashed run: the reports of the recovery that ran to its end (the tool's own recover), and
    // the number of journal lines before it began; every field of them is judged against the lines
    // that recovery wrote (task_report_claims).
    std::optional<std::vector<TaskReport>> recovery_reports;
    std::size_t recovery_journal_from = 0;
    // The normal path then undo, in process: the same task undone a second time (it must do nothing
    // and say so), and whether that second undo changed the world or wrote a journal line.
    std::optional<TaskReport> second_undo;
    bool second_undo_acted = false;
};

struct R0Judgement {
    bool residue = false;
    bool rollback = false;
    bool traceability = false;
    bool honest = false;  // every "restored" claim is true; a failed undo is reported
    std::vector<std::string> why;
    bool all() const { return residue && rollback && traceability && honest; }
};

// The reference: the before-state step `index` (0-based) needs, from the world before the task
// and the steps before it (nullopt: the step cannot run there, e.g. its source is missing).
std::optional<Before> reference_before(const sim::WorldState& initial, const std::vector<TaskStep>& steps, std::size_t index);
// The reference world after every step of a task that finished (nullopt: a step cannot run there).
std::optional<sim::WorldState> reference_after(const sim::WorldState& initial, const std::vector<TaskStep>& steps);
// Whether step `index` cannot be undone (an invoke; a fallback-only field that held no value).
bool not_undoable(const sim::R0Fixture& f, std::size_t index);
sim::WorldState expected_after(const sim::R0Fixture& f, const sim::WorldTruth& truth, const std::vector<std::string>& allowed_invoked);

R0Judgement judge_r0_run(const R0Run& run);
// A crashed run's claims, read from its journal lines (lines of other tasks and bad lines are skipped:
// the traceability check reports those).
ApplyReport claims_of_journal(const R0Run& run);
// Whether the task can run to its end on the fixture's desktop, without faults (the reference, and
// every invoke on a button UI Automation can invoke).
bool reference_runs(const sim::R0Fixture& f);
// The first file step (1-based) whose path leaves the root (R-9: absolute, or an empty, "." or ".."
// segment); such a task must be refused before anything acts.
std::optional<std::uint32_t> first_step_leaving_root(const sim::R0Fixture& f);
// The first step (1-based) that cannot be undone when the task does not allow it (R-4: an invoke;
// a field with no set-value primitive and no fallback, an unreadable value, "no value" where
// only the keyboard fallback could write it back; a move of a window that is not there): such a
// task must be refused before anything acts. Judged from the world before, as the check sees it.
std::optional<std::uint32_t> first_step_to_refuse(const sim::R0Fixture& f, bool allow_irreversible);
// The operation fault the run was given was reached (the world failed that operation). Other
// operations that did not succeed (a rejected input, a missing file) are the tool's doing or the
// fixture's, never an excuse.
bool fault_hit(const R0Run& run);
// The undo tool's report, every field both ways (ok, refused, failed step, error; per step: state,
// journaled, error, undo, undo error) against the injected failure, the world's operation faults,
// the reference and the task's journal lines; a crashed run's recovery reports against the lines
// that recovery wrote; nullopt when it holds or there is no such report.
// Part of the `honest` judgement.
std::optional<std::string> task_report_claims(const R0Run& run);
// The property: nullopt when it holds, else the first reason.
std::optional<std::string> failure_leaves_nothing(const R0Run& run);
// The normal path then undo: a finished task's undo leaves the world as before (plus what
// others did and the allowed irreversible effects, every one reported not undoable), its report
// and journal true; an operation of the undo that failed is reported failed, never restored; a
// normal path that did not finish must not have been able to, and is judged as a failed run; a
// second undo of the same task changes nothing, writes no line and reports not ok, with an error.
std::optional<std::string> undo_restores(const R0Run& run);

}  // namespace deskcheck::r0
