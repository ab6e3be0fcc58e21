// The undo tool's own report, field by field (harness/r0_check.h: task_report_claims). Every field
// of TaskReport and UndoStepReport is a claim about the run, judged both ways: against the failure
// the run was given (the injected post-check failure, the operation faults the world records), the
// reference interpreter's verdict on whether the task can run at all, and the journal lines of the
// task (which check_journal holds against the reference). Nothing here calls the undo tool or its
// report's helpers: the counts are made here.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <variant>

#include "json/strict_parse.h"
#include "harness/r0_check.h"

namespace deskcheck::r0 {
namespace {

using Json = nlohmann::json;

// What the journal says of the task, step by step.
struct JournalFacts {
    std::map<std::uint32_t, bool> intent;            // steps with an intent line
    std::map<std::uint32_t, std::string> last_undo;  // step -> its last undo line's status
    std::optional<std::uint32_t> failed, refused;    // the step of the failed / refused line
    bool done = false;                               // the task's done line
};

// The facts of the task's lines from line `from` on.
JournalFacts journal_facts(const R0Run& run, std::size_t from = 0) {
    JournalFacts f;
    if (!run.journal) return f;
    for (std::size_t i = from; i < run.journal->size(); ++i) {
        const std::string& text = (*run.journal)[i];
        auto parsed = parse_json_strict<Json>(text);
        const Json* line = std::get_if<Json>(&parsed);
        if (line == nullptr || !line->is_object()) continue;  // check_journal names it
        const Json& j = *line;
        if (!j.contains("task") || j["task"] != run.report.task_id) continue;
        if (!j.contains("step") || !j["step"].is_number_unsigned() || j["step"].get<std::uint64_t>() > UINT32_MAX) continue;
        if (!j.contains("status") || !j["status"].is_string()) continue;
        const auto step = j["step"].get<std::uint32_t>();
        const std::string status = j["status"].get<std::string>();
        if (status == "intent") f.intent[step] = true;
        if (status == "failed") f.failed = step;
        if (status == "refused") f.refused = step;
        if (status == "done") f.done = true;
        if (status == "undone" || status == "undo_failed" || status == "not_undoable") f.last_undo[step] = status;
    }
    return f;
}

// The undo state a step's last undo line states (None: no undo line).
UndoState undo_of(const JournalFacts& f, std::uint32_t step) {
    const auto it = f.last_undo.find(step);
    if (it == f.last_undo.end()) return UndoState::None;
    if (it->second == "undone") return UndoState::Restored;
    if (it->second == "undo_failed") return UndoState::Failed;
    return UndoState::NotUndoable;
}

std::string step_name(std::uint32_t step) { return "step " + std::to_string(step); }

// The fields every step report carries, whatever the run: its undo as the journal has it, an undo
// error exactly when the undo failed, a step error exactly when the step failed or was refused.
std::optional<std::string> step_claims(const UndoStepReport& s, const JournalFacts& f) {
    const UndoState want = undo_of(f, s.step);
    if (s.undo != want)
        return step_name(s.step) + ": the report says its undo was " + std::string(to_string(s.undo)) + ", the journal " +
               std::string(to_string(want));
    if ((s.undo == UndoState::Failed) != !s.undo_error.empty())
        return step_name(s.step) + (s.undo_error.empty() ? ": its undo failed and the report gives no error" : ": an undo error on an undo that did not fail");
    const bool failed = s.state == StepState::Failed || s.state == StepState::Refused;
    if (failed != !s.error.empty())
        return step_name(s.step) + (s.error.empty() ? ": it failed and the report gives no error" : ": an error on a step that did not fail");
    const bool journaled = f.intent.count(s.step) != 0;
    if (s.journaled != journaled)
        return step_name(s.step) + (journaled ? ": its intent line is in the journal and the report says it was not journaled"
                                              : ": the report says it was journaled and the journal has no intent line for it");
    return std::nullopt;
}

// The report of an apply (run): one step report per step of the task, in order.
std::optional<std::string> apply_claims(const R0Run& run, const TaskReport& t, const JournalFacts& f) {
    const sim::R0Fixture& fx = *run.fixture;
    if (t.steps.size() != fx.steps.size())
        return "the report has " + std::to_string(t.steps.size()) + " step reports for a task of " + std::to_string(fx.steps.size());
    const bool op_failed = fault_hit(run);
    const bool can_run = reference_runs(fx);
    // Succeeded as far as anyone can tell: no injected failure, no operation failed, the task can run.
    const bool succeeded = !run.failed_after_step && !op_failed && can_run && !f.refused;
    if (t.ok != succeeded) {
        if (t.ok) return "ok, although " + std::string(run.failed_after_step ? "the post-check of " + step_name(*run.failed_after_step) + " failed"
                                                        : op_failed ? "an operation failed" : f.refused ? "the task was refused" : "the task cannot run here");
        return "not ok, although every step ran and no post-check or operation failed";
    }
    if (t.ok == !t.error.empty()) return t.ok ? "ok, with an error" : "not ok, and no error says why";
    if (t.refused != f.refused.has_value()) return t.refused ? "refused, and the journal has no refused line" : "the journal has a refused line, and the report does not say refused";
    // The failed step: the refused one, else the one whose failed line the journal has — and where only
    // the injected post-check failed, exactly that step.
    std::optional<std::uint32_t> want_failed = f.refused ? f.refused : t.ok ? std::nullopt : f.failed;
    if (!t.ok && !f.refused && !op_failed && can_run && run.failed_after_step) want_failed = run.failed_after_step;
    if (t.failed_step != want_failed)
        return "the report names " + (t.failed_step ? step_name(*t.failed_step) : std::string("no step")) + " as failed, where " +
               (want_failed ? step_name(*want_failed) : std::string("none")) + " did";
    for (std::uint32_t i = 0; i < t.steps.size(); ++i) {
        const UndoStepReport& s = t.steps[i];
        const std::uint32_t id = i + 1;
        if (s.step != id || s.op != fx.steps[i].op) return "step report " + std::to_string(id) + " names " + step_name(s.step) + " or another operation";
        StepState want = StepState::Done;
        if (want_failed && id == *want_failed) want = f.refused ? StepState::Refused : StepState::Failed;
        else if (f.refused || (want_failed && id > *want_failed)) want = StepState::NotRun;
        if (!t.ok && !want_failed) want = s.state;  // no failed step named anywhere: check_journal and the line above say so
        if (s.state != want)
            return step_name(id) + ": the report says " + std::string(to_string(s.state)) + ", where it " + std::string(to_string(want));
        if (auto e = step_claims(s, f)) return e;
    }
    return std::nullopt;
}

// An undo's report — of a finished task, or a recovery's: one done step report per step in
// `expected`, each as the facts `f` say; ok exactly when every step's undo is `clean`; no refused or
// failed step. `who` names it in the messages.
std::optional<std::string> undo_report_claims(const R0Run& run, const TaskReport& t, const JournalFacts& f,
                                              const std::vector<std::uint32_t>& expected, const std::string& who,
                                              bool (*clean)(UndoState)) {
    std::vector<std::uint32_t> reported;
    for (const UndoStepReport& s : t.steps) reported.push_back(s.step);
    std::sort(reported.begin(), reported.end());
    if (reported != expected)
        return who + " reports " + std::to_string(reported.size()) + " steps, where " + std::to_string(expected.size()) + " were due";
    bool ok = true;
    for (const UndoStepReport& s : t.steps) {
        if (s.op != run.fixture->steps.at(s.step - 1).op) return step_name(s.step) + ": " + who + " names another operation";
        if (s.state != StepState::Done) return step_name(s.step) + ": " + who + " reports it " + std::string(to_string(s.state)) + ", where it had acted";
        if (auto e = step_claims(s, f)) return who + ": " + *e;
        ok = ok && clean(undo_of(f, s.step));
    }
    if (t.ok != ok) return who + (t.ok ? " says ok, and not every undo went as it must" : " says not ok, and every undo went as it must");
    if (t.ok == !t.error.empty()) return who + (t.ok ? " says ok, with an error" : " is not ok, and no error says why");
    if (t.refused || t.failed_step) return who + " names a refused or failed step";
    return std::nullopt;
}

std::vector<std::uint32_t> steps_of(const std::map<std::uint32_t, std::string>& m) {
    std::vector<std::uint32_t> out;
    for (const auto& [step, _] : m) out.push_back(step);
    return out;
}

// The report of an undo of a finished task: a step per step that acted, ok when each was restored.
std::optional<std::string> undo_claims(const R0Run& run, const TaskReport& t, const JournalFacts& f) {
    std::vector<std::uint32_t> acted;
    for (const auto& [step, _] : f.intent) acted.push_back(step);
    return undo_report_claims(run, t, f, acted, "the undo", [](UndoState u) { return u == UndoState::Restored; });
}

// The reports of the recovery that ran to its end: one for the task exactly when that recovery
// wrote undo lines for it, holding one step per line, ok when none of them failed.
std::optional<std::string> recovery_claims(const R0Run& run, const std::vector<TaskReport>& reports) {
    JournalFacts wrote = journal_facts(run, run.recovery_journal_from);
    const bool undid = !wrote.last_undo.empty();
    if (reports.size() != (undid ? 1u : 0u))
        return "the recovery gives " + std::to_string(reports.size()) + " task reports, where it undid " + (undid ? "one task" : "nothing");
    if (!undid) return std::nullopt;
    const TaskReport& t = reports.front();
    if (t.task_id != run.report.task_id) return "the recovery's report names another task";
    wrote.intent = journal_facts(run).intent;  // journaled: the task's intent lines, written before the crash
    return undo_report_claims(run, t, wrote, steps_of(wrote.last_undo), "the recovery",
                              [](UndoState u) { return u != UndoState::Failed; });
}

}  // namespace

std::optional<std::string> task_report_claims(const R0Run& run) {
    if (run.crashed) {
        if (!run.recovery_reports) return std::nullopt;
        if (auto e = recovery_claims(run, *run.recovery_reports)) return "report: " + *e;
        return std::nullopt;
    }
    if (!run.task) return std::nullopt;  // no model report (another adapter)
    const TaskReport& t = *run.task;
    if (t.task_id != run.report.task_id || t.task_id.empty()) return "the report's task id is not the task's";
    const JournalFacts f = journal_facts(run);
    auto e = run.normal_then_undo && run.normal_finished ? undo_claims(run, t, f) : apply_claims(run, t, f);
    if (e) return "report: " + *e;
    return std::nullopt;
}

}  // namespace deskcheck::r0
