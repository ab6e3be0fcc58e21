// The undo tool (model/undo.h).
#include "model/undo.h"

#include <algorithm>
#include <cassert>

namespace deskcheck {
std::string_view to_string(ValueWriter w) {
    switch (w) {
        case ValueWriter::ValuePattern: return "value_pattern";
        case ValueWriter::KeyboardFallback: return "keyboard_fallback";
        case ValueWriter::None: return "none";
    }
    return "?";
}

std::string_view to_string(StepState s) {
    switch (s) {
        case StepState::NotRun: return "not_run";
        case StepState::Done: return "done";
        case StepState::Failed: return "failed";
        case StepState::Refused: return "refused";
    }
    return "?";
}

std::string_view to_string(UndoState s) {
    switch (s) {
        case UndoState::None: return "none";
        case UndoState::Restored: return "restored";
        case UndoState::Failed: return "undo_failed";
        case UndoState::NotUndoable: return "not_undoable";
    }
    return "?";
}

std::optional<std::string> UndoPolicy::value_to_restore(const std::optional<std::string>& before) const {
    return before;
}

std::vector<std::string> UndoPolicy::folders_to_remove(const std::vector<std::string>& created_top_down) const {
    return {created_top_down.rbegin(), created_top_down.rend()};
}

std::vector<std::size_t> UndoPolicy::undo_order(std::size_t count) const {
    std::vector<std::size_t> order;
    for (std::size_t i = count; i > 0; --i) order.push_back(i - 1);
    return order;
}

std::size_t TaskReport::executed() const {
    return static_cast<std::size_t>(std::count_if(steps.begin(), steps.end(), [](const UndoStepReport& s) { return s.journaled; }));
}
std::size_t TaskReport::restored() const {
    return static_cast<std::size_t>(
        std::count_if(steps.begin(), steps.end(), [](const UndoStepReport& s) { return s.undo == UndoState::Restored; }));
}
std::size_t TaskReport::undo_failed() const {
    return static_cast<std::size_t>(
        std::count_if(steps.begin(), steps.end(), [](const UndoStepReport& s) { return s.undo == UndoState::Failed; }));
}
std::size_t TaskReport::not_undoable() const {
    return static_cast<std::size_t>(
        std::count_if(steps.begin(), steps.end(), [](const UndoStepReport& s) { return s.undo == UndoState::NotUndoable; }));
}

UndoTool::UndoTool(UndoPorts ports, const UndoPolicy* policy)
    : ports_(ports), policy_(policy != nullptr ? policy : &default_policy_) {
    assert(ports_.journal != nullptr);
    assert(policy_ != nullptr);
}

bool UndoTool::journal(const JournalEntry& entry) {
    assert(ports_.journal != nullptr && entry.step >= 1);
    assert(entry.status == JournalStatus::Intent || !entry.before);  // only an intent carries the before-state
    return ports_.journal->append(to_line(entry));
}

UndoTool::Outcome UndoTool::check_task(const Task& task) const {
    if (task.id.empty()) return {false, "the task has no id"};
    if (task.steps.size() > task_steps_max) return {false, "more than " + std::to_string(task_steps_max) + " steps"};
    for (std::uint32_t i = 0; i < task.steps.size(); ++i) {
        const TaskStep& s = task.steps[i];
        const bool file = is_file_op(s.op);
        if (file && ports_.files == nullptr) return {false, "a file step without a files port"};
        if (!file && ports_.desktop == nullptr) return {false, "a UI step without a desktop port"};
        // a path that would leave the root is a named failure of its step, before anything acts.
        if (file && !valid_path(s.path)) return {false, "bad path '" + s.path + "': it would leave the root", i + 1};
        if (s.op == StepOp::FileMove && !valid_path(s.to)) return {false, "bad path '" + s.to + "': it would leave the root", i + 1};
    }
    assert(!task.id.empty() && task.steps.size() <= task_steps_max);
    return {};
}

// why a step could not be undone, decided before anything acts; nullopt: it can be.
std::optional<std::string> UndoTool::not_undoable_reason(const TaskStep& step) {
    assert(!is_file_op(step.op) && ports_.desktop != nullptr);  // check_task: a UI step has a desktop
    Desktop& d = *ports_.desktop;
    switch (step.op) {
        case StepOp::UiInvoke: return "invoking a button cannot be undone (irreversible)";
        case StepOp::UiMove:
            if (!d.read_geometry(step.window)) return "the window's geometry cannot be read";
            return std::nullopt;
        case StepOp::UiType: {
            const ValueWriter writer = d.value_writer(step.window, step.element);
            if (writer == ValueWriter::None) return "the control has no set-value primitive and no fallback";
            const auto state = d.read_value_state(step.window, step.element);
            if (!state) return "the control's value cannot be read";
            if (!*state && writer == ValueWriter::KeyboardFallback)
                return "the control has no value, and select-all + paste cannot give that back";
            return std::nullopt;
        }
        default: return std::nullopt;
    }
}

// The task is refused before anything acts, at `step` (1-based), for `reason`: reported and journaled.
void UndoTool::refuse(const Task& task, std::uint32_t step, const std::string& reason, TaskReport& report) {
    assert(step >= 1 && step <= task.steps.size());
    report.refused = true;
    report.failed_step = step;
    report.error = "refused before acting: step " + std::to_string(step) + ": " + reason;
    report.steps[step - 1].state = StepState::Refused;
    report.steps[step - 1].error = reason;
    journal({task.id, step, task.steps[step - 1].op, JournalStatus::Refused, std::nullopt, reason});
    assert(!report.ok);
}

TaskReport UndoTool::run(const Task& task, const PostCheck& post_check) {
    TaskReport report;
    report.task_id = task.id;
    for (std::uint32_t i = 0; i < task.steps.size(); ++i) {
        UndoStepReport sr;
        sr.step = i + 1;
        sr.op = task.steps[i].op;
        report.steps.push_back(sr);
    }
    if (const Outcome o = check_task(task); !o.ok) {
        report.error = o.error;
        if (o.step != 0) refuse(task, o.step, o.error, report);  // the step that names the path
        return report;
    }
    for (std::uint32_t i = 0; i < task.steps.size() && !task.allow_irreversible; ++i) {
        if (is_file_op(task.steps[i].op)) continue;
        if (auto reason = not_undoable_reason(task.steps[i])) {
            refuse(task, i + 1, *reason, report);
            return report;
        }
    }
    std::vector<JournalEntry> intents;
    for (std::uint32_t i = 0; i < task.steps.size(); ++i) {
        const std::uint32_t id = i + 1;
        UndoStepReport& sr = report.steps[i];
        Before before;
        Outcome o = capture(task.steps[i], before);
        if (o.ok) {
            JournalEntry intent{task.id, id, task.steps[i].op, JournalStatus::Intent, before, ""};
            if (!journal(intent)) {
                o = {false, "the journal could not be written"};
            } else {
                sr.journaled = true;
                intents.push_back(std::move(intent));
                o = act(task.steps[i], before, id);
            }
        }
        if (o.ok && post_check) {
            if (auto failure = post_check(id)) o = {false, "post-check: " + *failure};
        }
        if (!o.ok) {
            sr.state = StepState::Failed;
            sr.error = o.error;
            report.failed_step = id;
            report.error = "step " + std::to_string(id) + ": " + o.error;
            if (policy_->journals_failure()) journal({task.id, id, task.steps[i].op, JournalStatus::Failed, std::nullopt, o.error});
            rollback(std::move(intents), report);
            return report;
        }
        sr.state = StepState::Done;
    }
    report.ok = true;
    if (!task.steps.empty()) {
        const auto last = static_cast<std::uint32_t>(task.steps.size());
        journal({task.id, last, task.steps.back().op, JournalStatus::Done, std::nullopt, ""});
    }
    assert(intents.size() == task.steps.size());  // every step was journaled ahead of its effect
    assert(report.executed() == task.steps.size());
    finished_[task.id] = std::move(intents);
    return report;
}

namespace {

// Every journaled intent about to be rolled back starts in the report as a done step.
void report_done_steps(const std::vector<JournalEntry>& intents, TaskReport& report) {
    for (const JournalEntry& e : intents) {
        UndoStepReport sr;
        sr.step = e.step;
        sr.op = e.op;
        sr.state = StepState::Done;
        sr.journaled = true;
        report.steps.push_back(sr);
    }
}

}  // namespace

TaskReport UndoTool::undo(const std::string& task_id) {
    TaskReport report;
    report.task_id = task_id;
    const auto it = finished_.find(task_id);
    if (it == finished_.end()) {
        report.error = "no finished task '" + task_id + "' to undo";
        return report;
    }
    std::vector<JournalEntry> intents = std::move(it->second);
    finished_.erase(it);
    if (!intents.empty()) {  // journaled ahead of the undo's first effect
        const JournalEntry& last = intents.back();
        if (!journal({task_id, last.step, last.op, JournalStatus::UndoBegun, std::nullopt, ""})) {
            report.error = "the journal could not be written: the undo did not begin";
            return report;
        }
    }
    report_done_steps(intents, report);
    rollback(std::move(intents), report);
    report.ok = report.undo_failed() == 0 && report.not_undoable() == 0;
    if (report.not_undoable() > 0) report.error = "some steps cannot be undone (irreversible, allowed by the task)";
    if (report.undo_failed() > 0) report.error = "some undos failed";
    assert(finished_.find(task_id) == finished_.end());  // undone once: a second undo finds nothing
    assert(report.ok || !report.error.empty());
    return report;
}

std::vector<TaskReport> UndoTool::recover(const std::vector<JournalEntry>& journal_entries) {
    std::vector<std::string> order;  // task ids, by first appearance
    std::map<std::string, std::vector<const JournalEntry*>> by_task;
    for (const JournalEntry& e : journal_entries) {
        if (by_task.find(e.task) == by_task.end()) order.push_back(e.task);
        by_task[e.task].push_back(&e);
    }
    std::vector<TaskReport> out;
    for (const std::string& id : order) {
        bool done = false;
        bool undo_begun = false;
        std::vector<JournalEntry> pending;  // intents without an undo line, or whose last undo line is undo_failed
        for (const JournalEntry* e : by_task[id]) {
            done = done || e->status == JournalStatus::Done;
            const bool undo_line = e->status == JournalStatus::Undone || e->status == JournalStatus::UndoFailed ||
                                   e->status == JournalStatus::NotUndoable;
            undo_begun = undo_begun || undo_line || e->status == JournalStatus::Failed || e->status == JournalStatus::UndoBegun;
            if (e->status == JournalStatus::Intent && e->before) pending.push_back(*e);
            // An undo that failed is tried again by every later recovery, in its place among the
            // others (last step first, so what depends on it waits for it), and reported failed
            // again until it succeeds: a failure is never forgotten because it was journaled.
            if (e->status == JournalStatus::Undone || e->status == JournalStatus::NotUndoable) {
                std::erase_if(pending, [&](const JournalEntry& p) { return p.step == e->step; });
            }
        }
        if ((done && !undo_begun) || pending.empty()) continue;
        TaskReport report;
        report.task_id = id;
        report_done_steps(pending, report);
        finished_.erase(id);
        rollback(std::move(pending), report);
        report.ok = report.undo_failed() == 0;
        if (!report.ok) report.error = "some undos failed";
        out.push_back(std::move(report));
    }
    assert(out.size() <= order.size());  // at most one report per task
    return out;
}

namespace {

// What a step's undo reads and writes, as keys ("file:PATH", "value:W/E", "geometry:W").
std::vector<std::string> undo_keys(const JournalEntry& intent) {
    const Before& b = *intent.before;
    switch (intent.op) {
        case StepOp::UiType: return {"value:" + std::to_string(b.window) + "/" + std::to_string(b.element)};
        case StepOp::UiMove: return {"geometry:" + std::to_string(b.window)};
        case StepOp::UiInvoke: return {};
        default: break;
    }
    std::vector<std::string> keys{"file:" + b.path};
    if (intent.op == StepOp::FileMove) keys.push_back("file:" + b.to);
    for (const std::string& f : b.created_folders) keys.push_back("file:" + f);
    return keys;
}

// Two keys overlap when equal, or when one file path lies inside the other.
bool overlaps(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    for (const std::string& x : a) {
        for (const std::string& y : b) {
            if (x == y || y.rfind(x + "/", 0) == 0 || x.rfind(y + "/", 0) == 0) return true;
        }
    }
    return false;
}

}  // namespace

// Undoes the applied steps in the policy's order. After an undo fails, an undo that touches what
// the failed one should have restored is not attempted (its state is not what it journaled) and is
// reported failed as well: never "restored" on top of a state nobody knows.
void UndoTool::rollback(std::vector<JournalEntry> intents, TaskReport& report) {
    assert(intents.size() <= report.steps.size());  // every step undone has its report
    std::vector<std::string>& failed_keys = rollback_failed_keys_;  // undo_one reads them (remove_created)
    failed_keys.clear();
    const std::vector<std::size_t> order = policy_->undo_order(intents.size());
    for (const std::size_t index : order) {
        assert(index < intents.size());
        const JournalEntry& intent = intents[index];
        auto sr = std::find_if(report.steps.begin(), report.steps.end(),
                               [&](const UndoStepReport& s) { return s.step == intent.step; });
        assert(sr != report.steps.end());
        JournalEntry line{intent.task, intent.step, intent.op, JournalStatus::Undone, std::nullopt, ""};
        if (intent.before && intent.before->irreversible) {
            sr->undo = UndoState::NotUndoable;
            line.status = JournalStatus::NotUndoable;
            line.error = "irreversible";
        } else if (const std::vector<std::string> keys = undo_keys(intent); overlaps(keys, failed_keys)) {
            sr->undo = UndoState::Failed;
            sr->undo_error = "not undone: it depends on a step whose undo failed";
            failed_keys.insert(failed_keys.end(), keys.begin(), keys.end());
            line.status = JournalStatus::UndoFailed;
            line.error = sr->undo_error;
        } else if (const Outcome o = undo_one(intent); o.ok) {
            sr->undo = UndoState::Restored;
        } else {
            failed_keys.insert(failed_keys.end(), keys.begin(), keys.end());
            sr->undo = UndoState::Failed;
            sr->undo_error = o.error;
            line.status = JournalStatus::UndoFailed;
            line.error = o.error;
        }
        if (!journal(line) && sr->undo == UndoState::Restored) sr->undo_error = "restored, but its journal line could not be written";
    }
}

}  // namespace deskcheck
