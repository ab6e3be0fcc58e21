#include "model/write.h"

#include "model/guard.h"
#include "model/marks.h"
#include "model/tool_detail.h"
#include "model/tool_hooks.h"

#include <algorithm>
#include <cassert>

namespace deskcheck {

bool Tool::may_retry(WriteOutcome outcome, bool has_idempotency_key) const {
    return hooks_.may_retry(outcome, has_idempotency_key);
}

std::string_view to_string(WriteOutcome o) {
    switch (o) {
        case WriteOutcome::Done: return "done";
        case WriteOutcome::NotDone: return "not_done";
        case WriteOutcome::Unknown: return "unknown";
    }
    return "?";
}

std::size_t occurrences(const std::string& hay, const std::string& needle) {
    if (needle.empty()) return 0;
    std::size_t count = 0;
    for (std::size_t pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + needle.size())) {
        ++count;
    }
    return count;
}

WriteOutcome classify_write(const std::optional<std::string>& before, const std::optional<std::string>& after,
                            const std::string& expect_text, bool settled, std::vector<Check>& ran,
                            std::vector<SkippedCheck>& not_run) {
    if (!before) not_run.push_back({"write.count_before", "verify reading unreadable before"});
    if (!after) not_run.push_back({"write.count_after", "verify reading unreadable after"});
    if (!before || !after) return WriteOutcome::Unknown;
    const auto n_before = occurrences(*before, expect_text);
    const auto n_after = occurrences(*after, expect_text);
    const bool one_more = n_after > n_before;
    ran.push_back({"write.one_more_occurrence", one_more});
    if (one_more) return WriteOutcome::Done;
    if (!settled) {
        not_run.push_back({"write.absence_settled", "read before the app's latency bound (D-3)"});
        return WriteOutcome::Unknown;
    }
    ran.push_back({"write.absence_settled", true});
    return WriteOutcome::NotDone;
}

WriteDeclaration declaration_of(const WriteSpec& spec) {
    return WriteDeclaration{spec.verify_ref, WriteShape::AppendsText, spec.expect_text};
}

namespace {

// W-4 with F-3, F-4: the reconciling wait, watched for reconcile_wait_ms as after a background
// action (the guard's own watch, model/guard.h). Whom the front is owed to is what the tool can see:
// the window in front when the action ended — unless that is one of the target's own windows (the
// target, its process, a popup it owns) that was not in front when the action began: then the
// action's give-back was refused even after F24 (S-7) and the front is still owed to the window
// from before the action (none: nothing to give back), and the target's window is not asked for
// again until the front moves (as give_back_and_watch does after a refused give-back). A known
// limit: when another window had taken the front during the action and its give-back was refused
// too, the tool cannot tell that window from here and owes the one from before.
ForegroundEvidence watched_reconcile_wait(Tool& tool, WindowId target, WindowId front_before_action,
                                          WindowId front_after_action, TimeMs wait_ms) {
    assert(wait_ms >= 0);
    Desktop& desktop = tool.desktop();
    GuardConfig gc = detail::guard_config(tool.config(), tool.hooks());
    gc.app_watch_ms = wait_ms;
    WindowId owed = front_after_action;
    WindowId refused_front = no_window;
    if (front_after_action != front_before_action && front_after_action != no_window &&
        related_to_target(desktop, front_after_action, target)) {
        owed = front_before_action;
        refused_front = front_after_action;
    }
    ForegroundEvidence ev = watch_after_background_action(desktop, target, owed, gc, {}, refused_front);
    if (ev.borrowed || ev.changed_by) mark(Mark::front_moved_while_write_reconciled);
    assert(!ev.borrowed || ev.by == "app");  // the wait borrows nothing: only an app's grab is put back (F-3)
    return ev;
}

// F-2 for the whole call: the action's evidence, then what the watched wait saw.
ForegroundEvidence whole_call(const ForegroundEvidence& action, const ForegroundEvidence& wait) {
    ForegroundEvidence ev = action;
    if (wait.changed_by) ev.changed_by = wait.changed_by;
    if (!wait.borrowed) return ev;
    ev.retried_after_refusal = ev.retried_after_refusal || wait.retried_after_refusal;
    ev.restored = wait.restored;  // the latest give-back
    if (ev.borrowed) return ev;   // the action's borrow (by, durationMs) stands, as in give_back_and_watch
    ev.unchanged = false;
    ev.borrowed = true;
    ev.by = wait.by;
    ev.duration_ms = wait.duration_ms;
    return ev;
}

}  // namespace

WriteReport write_once(Tool& tool, const WriteSpec& spec) {
    const WriteDeclaration writes = declaration_of(spec);
    WriteReport rep;
    const WriteReading before = tool.read_written(spec.verify_window, writes);
    rep.before = before.value;
    const WindowId front_before_action = tool.desktop().foreground();
    rep.step = tool.act_step(spec.action);  // the only time the write is sent
    const WindowId front_after_action = tool.desktop().foreground();
    rep.act = rep.step.result;
    assert(rep.act.verdict.has_value() != rep.act.error.has_value());  // V-1: a verdict or an error
    rep.foreground = rep.step.result.evidence.foreground;
    const TimeMs sent_at = tool.desktop().now_ms();
    if (rep.act.error) {
        // Delivered or not? An error before delivery is a clean not_done; after, or a throw, unknown (W-5).
        rep.outcome = attempt_outcome(rep.act);
        rep.checks_ran.push_back({"write.delivered", rep.act.evidence.delivered});
        if (rep.act.error->kind == ErrorKind::Exception) {
            rep.checks_not_run.push_back({"write.delivered", "the delivery threw: it may have reached the app (W-5)"});
        }
        rep.escalate = rep.outcome == WriteOutcome::Unknown;
        return rep;
    }
    const auto bound = tool.desktop().declared_latency_ms(spec.verify_window);
    const WriteReading after = tool.read_written(spec.verify_window, writes);
    rep.after = after.value;
    rep.outcome = classify_declared(writes, before, after, read_settled(tool.rules().settles, bound, sent_at, after.at_ms),
                                    rep.checks_ran, rep.checks_not_run);
    if (rep.outcome != WriteOutcome::Unknown) return rep;
    // W-4: reconcile by reading the current state, once, after a bounded wait — watched (F-3, F-4):
    // the front is the tool's business until write_once returns.
    rep.watched_wait = true;
    // W-4, D-3: wait at least until the app's declared bound has passed since the send, so that the
    // reconciling read can decide (bounded: never longer than the longest quiesce).
    const TimeMs until_bound = bound ? sent_at + *bound - tool.desktop().now_ms() : 0;
    const TimeMs wait_ms = std::min(std::max(tool.config().reconcile_wait_ms, until_bound), tool.config().quiesce_ms_max);
    assert(wait_ms >= 0 && wait_ms <= std::max(tool.config().reconcile_wait_ms, tool.config().quiesce_ms_max));
    rep.foreground = whole_call(rep.foreground, watched_reconcile_wait(tool, spec.action.target, front_before_action,
                                                                        front_after_action, wait_ms));
    const WriteReading reconciled = tool.read_written(spec.verify_window, writes);
    rep.reconciled = reconciled.value;
    rep.reconciled_by_reading = true;
    rep.outcome = classify_declared(writes, before, reconciled,
                                    read_settled(tool.rules().settles, bound, sent_at, reconciled.at_ms), rep.checks_ran,
                                    rep.checks_not_run);
    rep.escalate = rep.outcome == WriteOutcome::Unknown;
    assert(rep.reconciled_by_reading && rep.watched_wait);  // W-4: doubt resolved by one more read, never a resend
    return rep;
}

WriteOutcome attempt_outcome(const ToolResult& result) {
    if (result.error) {
        if (result.error->kind == ErrorKind::Exception) return WriteOutcome::Unknown;  // W-5
        return result.evidence.delivered ? WriteOutcome::Unknown : WriteOutcome::NotDone;
    }
    if (!result.verdict) return WriteOutcome::Unknown;
    switch (*result.verdict) {
        case Verdict::Confirmed: return WriteOutcome::Done;
        case Verdict::Absent: return WriteOutcome::NotDone;
        case Verdict::Unknown: return WriteOutcome::Unknown;
    }
    return WriteOutcome::Unknown;
}

bool may_retry_write(WriteOutcome outcome, bool has_idempotency_key) {
    switch (outcome) {
        case WriteOutcome::Done: return false;
        case WriteOutcome::NotDone: return true;
        case WriteOutcome::Unknown: return has_idempotency_key;  // W-2
    }
    return false;
}

bool may_retry(const WriteReport& report, const WriteSpec& spec) {
    return may_retry_write(report.outcome, spec.idempotent || spec.idempotency_key.has_value());
}

}  // namespace deskcheck
