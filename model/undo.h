// The undo tool (R-1..R-4, R-6, R-7): runs a task step by step, journaling ahead of each effect,
// rolls back on a failure, undoes a finished task on request, and refuses before acting what it
// could not undo.
//
//   run(task, post_check):
//     preflight  every step that could not be undone (an invoke; a control with no set-value
//                primitive and no fallback, or whose "no value" a fallback cannot give back; an
//                unreadable before-state) is refused before anything executes, unless the task
//                allows it; the refusal is journaled.
//     per step k capture the before-state (reads only) -> append the `intent` line -> act ->
//                the caller's post-check of step k (a verification; the R0 bench fails it at k).
//     failure    append `failed` for k, then undo k (whatever part of it happened: every undo
//                reads the current state first, so undoing a half-done step is safe), k-1, ..., 1.
//   undo(task id): a task that finished is undone the same way, last step first.
//
// Every undo is reported as it went: restored, failed (with the error; never counted as
// restored), or not undoable (an allowed irreversible step). Folders a step created are removed
// only when empty: what another program put in them meanwhile stays, and so do they.
//
// UndoPolicy is the extension point for how an undo is done; the default is the correct one.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/desktop.h"
#include "model/files.h"
#include "model/journal.h"

namespace deskcheck {

class UndoPolicy {
public:
    virtual ~UndoPolicy() = default;
    // The value written back into a control that read `before` (R-3: exactly what was read).
    virtual std::optional<std::string> value_to_restore(const std::optional<std::string>& before) const;
    // The folders an undo removes when empty, in order, given those the step created top-down
    // all of them, the deepest first).
    virtual std::vector<std::string> folders_to_remove(const std::vector<std::string>& created_top_down) const;
    // The order in which `count` applied steps are undone, as indexes into them (last first).
    virtual std::vector<std::size_t> undo_order(std::size_t count) const;
    // Whether the failed step gets its `failed` journal line (R-1: it does).
    virtual bool journals_failure() const { return true; }
};

struct UndoPorts {
    Files* files = nullptr;        // needed by file steps
    Desktop* desktop = nullptr;    // needed by UI steps
    JournalSink* journal = nullptr;  // required
};

enum class StepState : std::uint8_t { NotRun, Done, Failed, Refused };
enum class UndoState : std::uint8_t { None, Restored, Failed, NotUndoable };
std::string_view to_string(StepState s);
std::string_view to_string(UndoState s);

struct UndoStepReport {
    std::uint32_t step = 0;
    StepOp op = StepOp::FileWrite;
    StepState state = StepState::NotRun;
    bool journaled = false;  // its intent line was written: it may have changed something
    std::string error;
    UndoState undo = UndoState::None;
    std::string undo_error;
};

struct TaskReport {
    std::string task_id;
    bool ok = false;        // every step done and checked
    bool refused = false;   // refused before acting
    std::optional<std::uint32_t> failed_step;
    std::string error;      // why it failed / was refused / could not be undone
    std::vector<UndoStepReport> steps;  // one per step of the task, in order
    // Steps that may have changed something (their intent line was written).
    std::size_t executed() const;
    std::size_t restored() const;    // undone and restored
    std::size_t undo_failed() const; // an undo that itself failed
    std::size_t not_undoable() const;
};

// The caller's check of a step after it acted; an error message fails the step.
using PostCheck = std::function<std::optional<std::string>(std::uint32_t step)>;

class UndoTool {
public:
    explicit UndoTool(UndoPorts ports, const UndoPolicy* policy = nullptr);
    UndoTool(const UndoTool&) = delete;  // policy_ may point at default_policy_
    UndoTool& operator=(const UndoTool&) = delete;
    TaskReport run(const Task& task, const PostCheck& post_check = {});
    // Undoes a task that finished (the normal path), from its journal entries, last step first.
    TaskReport undo(const std::string& task_id);
    // Recovery after a crash, from the journal alone: every task whose journal does not end
    // in `done` (or whose undo had begun) has its steps that hold an intent and no undo line undone,
    // last step first, each journaled. An undo the journal records as failed is tried again, in its
    // place (so an undo touching what it should have restored waits for it, and is reported failed
    // when it fails again, as in a rollback): a failed undo is reported by every recovery until it
    // succeeds.
    // Idempotent: a crash during recovery, then recovery again,
    // ends in the same state (every undo reads the current state first). One report per task undone.
    std::vector<TaskReport> recover(const std::vector<JournalEntry>& journal);

private:
    struct Outcome {
        bool ok = true;
        std::string error;
        std::uint32_t step = 0;  // check_task: the step (1-based) whose path is bad; 0: the task as a whole
    };
    Outcome check_task(const Task& task) const;
    void refuse(const Task& task, std::uint32_t step, const std::string& reason, TaskReport& report);
    std::optional<std::string> not_undoable_reason(const TaskStep& step);
    Outcome capture(const TaskStep& step, Before& before);
    Outcome act(const TaskStep& step, const Before& before, std::uint32_t id);
    Outcome undo_one(const JournalEntry& intent);
    Outcome remove_created(const std::vector<std::string>& created_top_down);
    Outcome write_value(WindowId w, ElementId e, ValueWriter writer, const std::optional<std::string>& value);
    void rollback(std::vector<JournalEntry> intents, TaskReport& report);
    bool journal(const JournalEntry& entry);

    UndoPorts ports_;
    UndoPolicy default_policy_;
    const UndoPolicy* policy_;
    std::map<std::string, std::vector<JournalEntry>> finished_;  // task id -> its intent entries
    // What the failed undos of the rollback in progress should have restored ("file:PATH", ...).
    std::vector<std::string> rollback_failed_keys_;
};

}  // namespace deskcheck
