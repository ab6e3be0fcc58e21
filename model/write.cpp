#include "model/write.h"

#include "model/tool_hooks.h"

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

namespace {

std::optional<std::string> read_verify(Tool& tool, const WriteSpec& spec, std::vector<SkippedCheck>& not_run) {
    const Locator* loc = tool.refs().find(spec.verify_ref);
    if (loc == nullptr || loc->window != spec.verify_window) {
        not_run.push_back({"write.read", "verify ref " + spec.verify_ref + " unknown or bound to another window"});
        return std::nullopt;
    }
    auto res = resolve(*tool.desktop().element_tree(spec.verify_window), *loc);
    if (std::holds_alternative<Error>(res)) {
        not_run.push_back({"write.read", std::get<Error>(res).detail});
        return std::nullopt;
    }
    return tool.desktop().read_value(spec.verify_window, std::get<Resolved>(res).element);
}

// `published` trusts one immediate read, as the seed's classify(before, after) did (debt D-3);
// `current` calls an absence evidence only once the app's declared latency bound has passed.
bool past_latency_bound(Tool& tool, WindowId w, TimeMs since) {
    if (!tool.rules().settles) return true;
    const auto bound = tool.desktop().declared_latency_ms(w);
    return bound.has_value() && tool.desktop().now_ms() - since >= *bound;
}

}  // namespace

WriteReport write_once(Tool& tool, const WriteSpec& spec) {
    WriteReport rep;
    rep.before = read_verify(tool, spec, rep.checks_not_run);
    const TimeMs sent_at = tool.desktop().now_ms();
    rep.act = tool.act(spec.action);  // the only time the write is sent
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
    rep.after = read_verify(tool, spec, rep.checks_not_run);
    rep.outcome = classify_write(rep.before, rep.after, spec.expect_text,
                                 past_latency_bound(tool, spec.verify_window, sent_at), rep.checks_ran, rep.checks_not_run);
    if (rep.outcome != WriteOutcome::Unknown) return rep;
    // W-4: reconcile by reading the current state, once, after a bounded wait.
    tool.desktop().wait_ms(tool.config().reconcile_wait_ms);
    rep.reconciled = read_verify(tool, spec, rep.checks_not_run);
    rep.reconciled_by_reading = true;
    rep.outcome = classify_write(rep.before, rep.reconciled, spec.expect_text,
                                 past_latency_bound(tool, spec.verify_window, sent_at), rep.checks_ran, rep.checks_not_run);
    rep.escalate = rep.outcome == WriteOutcome::Unknown;
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
