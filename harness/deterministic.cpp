#include "harness/deterministic.h"

#include "model/evidence.h"
#include "sim/trace.h"

namespace deskcheck::props {

// ---- deterministic (S-1) ------------------------------------------------------------------------

namespace {

// Every field of what the tool reported, printed with the model's own printers (readings as the
// trace prints them, V-2's "(unreadable)" included): two runs of one scenario must agree on all of it.
std::string show_foreground(const ForegroundEvidence& fg) {
    std::string out = fg.unchanged ? "{unchanged" : "{borrowed by " + fg.by + (fg.restored ? " restored" : " not restored");
    out += " " + std::to_string(fg.duration_ms) + "ms";
    if (fg.waited_for_user_ms) out += " waited " + std::to_string(*fg.waited_for_user_ms);
    if (fg.held) out += " held prev " + std::to_string(fg.prev.value_or(0));
    if (fg.changed_by) out += " changedBy " + *fg.changed_by;
    if (fg.retried_after_refusal) out += " f24";
    return out + "}";
}

std::string show_reading(const WriteReading& r) {
    return show_value(r.value) + " dirty=" + show_flag(r.dirty) + " @" + std::to_string(r.at_ms);
}

std::string show_step(const StepReport& s) {
    const Evidence& ev = s.result.evidence;
    std::string out = std::to_string(s.index) + " " + std::string(to_string(s.request.kind)) + " " + std::string(to_string(s.kind));
    out += " intent=" + std::string(to_string(s.facts.intent)) + " click=" + std::string(to_string(s.facts.click_state));
    out += " text=" + show_value(s.facts.text);
    if (s.result.verdict) out += " " + std::string(to_string(*s.result.verdict)) + "/" + ev.rule;
    if (s.result.error) out += " error/" + std::string(to_string(s.result.error->kind)) + " " + show_value(s.result.error->detail);
    out += " element=" + (s.element ? std::to_string(*s.element) : "-") + " refs=" + s.element_ref.value_or("-") + "," +
           s.focused_ref.value_or("-");
    out += " delivery=" + ev.delivery + (ev.delivered ? "+" : "-") + " promise=" + std::string(to_string(ev.promise));
    if (ev.before) out += " before " + show_snapshot(*ev.before, s.kind);
    if (ev.after) out += " after " + show_snapshot(*ev.after);
    for (const auto& c : ev.changes) out += " changed " + c;
    for (const auto& c : ev.checks_ran) out += " ran " + c.name + (c.passed ? "+" : "-");
    for (const auto& c : ev.checks_not_run) out += " skipped " + c.name + ": " + c.why;
    out += " t" + std::to_string(ev.settle_ms) + (ev.settled ? " settled " : " unsettled ") + show_foreground(ev.foreground);
    if (s.write_before) out += " write_before " + show_reading(*s.write_before);
    if (const auto& b = s.dependency) {
        out += " boundary " + std::to_string(b->dependency) + " " + std::string(to_string(b->outcome)) + " " +
               std::string(to_string(b->judgement.outcome)) + "/" + b->judgement.reason;
        if (b->writes) out += " writes " + std::string(to_string(b->writes->shape)) + " " + show_value(b->writes->text);
        if (b->before) out += " before " + show_reading(*b->before);
        if (b->after) out += " after " + show_reading(*b->after);
    }
    return out;
}

}  // namespace

std::string report_fingerprint(const RunResult& run) {
    std::string out = run.rules + (run.batch_mode ? " batch" : " single");
    for (const auto& s : run.steps) out += "\n" + show_step(s);
    for (const auto& b : run.batches) {
        out += "\nbatch borrows=" + std::to_string(b.borrows) + (b.foreground_returned ? " returned " : " kept ") +
               show_foreground(b.foreground);
    }
    for (const auto& l : run.launches) {
        out += "\nlaunch " + std::string(l.ok ? "ok w" + std::to_string(l.window.value_or(0)) : "failed") +
               (l.error ? " " + std::string(to_string(l.error->kind)) : "") + " " + show_foreground(l.foreground);
    }
    if (run.stopped_at) out += "\nstop@" + std::to_string(*run.stopped_at);
    out += "\nend@" + std::to_string(run.ended_ms);
    return out;
}

CheckResult deterministic(const sim::Scenario& scenario, const RunOptions& given) {
    RunOptions options = given;
    options.trace = true;  // S-1 is about the trace
    // One run at a time (S-8: memory): of the first, only its trace and report are kept, as text.
    std::string ta;
    std::string report_a;
    {
        const RunResult a = run_scenario(scenario, options);
        ta = sim::to_text(a.trace());
        report_a = report_fingerprint(a);
    }
    const RunResult b = run_scenario(scenario, options);
    const std::string tb = sim::to_text(b.trace());
    if (ta != tb) {
        std::size_t at = 0;
        while (at < ta.size() && at < tb.size() && ta[at] == tb[at]) ++at;
        return CheckResult::violated("deterministic", std::nullopt,
                                     "two runs of the same scenario gave different traces (first difference at byte " +
                                         std::to_string(at) + ") (S-1)");
    }
    if (report_a != report_fingerprint(b)) {
        return CheckResult::violated("deterministic", std::nullopt, "two runs gave different reports (S-1)");
    }
    return CheckResult::holds(1);
}

CheckResult run_check(const NamedCheck& check, const sim::Scenario& scenario, const RunResult& run,
                      const RunOptions& options) {
    if (check.fn == nullptr) return deterministic(scenario, options);
    return check.fn(scenario, run);
}

}  // namespace deskcheck::props
