// R-7 in process, for the generated R0 campaign: the task is killed at a generated *event* — a
// journal append or a world operation, numbered from 1 in the order they happen — and the event it
// is killed at does not happen (a line not written, an operation not begun). The UndoTool is then
// dropped with no rollback; only the journal lines written so far remain, as a killed process
// leaves its journal file. A fresh UndoTool on the same world (as the crash left it) reads those
// lines with host/journal_read.h — the parser `deskcheck r0 recover` uses, in its desktop mode
// (this process has a desktop port, so UI before-states are read too) — and calls recover.
// The recovery may itself be killed at one of its events; then a third tool recovers from every
// line written by then (recovery is idempotent, R-7).
//
// A planned operation fault (sim::OpFault) does not outlive the killed process: the world's fault
// plan is cleared before recovery. Other programs keep writing when their moment comes.
//
// The run comes back as an R0Run marked `crashed`, judged by harness/r0_check.h from the
// fixture, the world's ground truth and the journal lines alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/undo.h"
#include "harness/r0_check.h"
#include "sim/r0_world.h"

namespace deskcheck::r0 {

// How the fresh process recovers from the parsed journal: the tool's own recover by default. The
// negative proofs inject a wrong one (harness/r0_policies.h); model/ keeps only the right one.
class R0Recovery {
public:
    virtual ~R0Recovery() = default;
    virtual std::vector<TaskReport> recover(UndoTool& tool, const std::vector<JournalEntry>& journal) const;
};

struct CrashRun {
    R0Run run;                        // crashed: judged from the journal (R0Run::crashed); else the tool's report
    bool crashed = false;             // the task was killed (crash_at was reached)
    std::size_t events = 0;           // events the task went through (its event count when not killed)
    std::size_t recovery_events = 0;  // events of the first recovery (up to where it was killed)
    bool recovery_crashed = false;    // the first recovery was killed, a second one ran
    std::size_t undone_by_recovery = 0;  // steps the last recovery reported undone (restored)
    std::string error;                // the journal lines could not be read back: a violation
};

// Runs the fixture's task (the post-check of `fail_at` fails; `fault` fails an operation), kills it
// at event `crash_at` (0: never) and, when killed, recovers in a fresh tool, itself killed at its
// event `recovery_crash_at` (0: never) and then run again. The task id is "r0-NAME-1", as the bench
// adapter names it. `policy`: the undo policy of every tool; `recovery`: nullptr for the tool's own.
// `then_undo`: the task runs with irreversible steps allowed and, when it finishes, is undone, the
// events counted across both; the run is judged as a normal path then undo when its journal holds
// the task's `done` line (R0Run::normal_then_undo), else as a failed run.
CrashRun run_crash_and_recover(const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, std::optional<sim::OpFault> fault,
                               std::size_t crash_at, std::size_t recovery_crash_at, const UndoPolicy* policy,
                               const R0Recovery* recovery, bool then_undo = false);

}  // namespace deskcheck::r0
