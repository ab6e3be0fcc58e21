// The printers of the tool's reports, in one place: for people (describe_step: the text replay
// and the timeline page show), for machines (step_json: `replay --json`) and for comparison
// (report_fingerprint: every field, which S-1 and the golden hashes compare between two runs).
#include "harness/report_print.h"

#include <sstream>

#include "model/evidence.h"
#include "sim/kept.h"

namespace deskcheck::props {
namespace {

// The foreground evidence as the tool's report states it (F-1..F-6).
std::string foreground_text(const ForegroundEvidence& f) {
    std::string out;
    if (f.unchanged && !f.borrowed) out = "{unchanged:true}";
    else {
        out = "{borrowed:true, by:'" + f.by + "', restored:" + (f.restored ? "true" : "false") +
              ", durationMs:" + std::to_string(f.duration_ms);
        if (f.waited_for_user_ms) out += ", waitedForUserMs:" + std::to_string(*f.waited_for_user_ms);
        if (f.held) out += ", held:true, prev:w" + std::to_string(f.prev.value_or(0));
        out += "}";
    }
    if (f.changed_by) out += " changedBy:'" + *f.changed_by + "'";
    if (f.retried_after_refusal) out += " retriedAfterRefusal:true";  // the F24 press (F-2)
    return out;
}

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

std::string describe_step(const StepReport& s) {
    std::ostringstream o;
    const auto& r = s.result;
    const auto& e = r.evidence;
    o << "  step " << s.index << ": " << to_string(s.request.kind) << " on w" << s.request.target;
    if (s.request.ref) o << " ref " << *s.request.ref;
    o << " (" << to_string(s.kind) << ")\n";
    if (r.error) o << "    error: " << to_string(r.error->kind) << " — " << r.error->detail << "\n";
    if (r.verdict) o << "    verdict: " << to_string(*r.verdict) << " by rule " << e.rule << (r.ok ? "" : " (ok:false)") << "\n";
    o << "    promise: " << to_string(e.promise) << "\n";
    o << "    delivery: " << (e.delivery.empty() ? "(none)" : e.delivery) << (e.delivered ? ", delivered" : ", not delivered") << "\n";
    if (e.before) o << "    before: " << show_snapshot(*e.before, s.kind) << "\n";
    if (e.after) o << "    after:  " << show_snapshot(*e.after, s.kind) << (e.settled ? "  (settled" : "  (not settled") << ", waited "
                   << e.settle_ms << " ms)\n";
    for (const auto& c : e.checks_ran) o << "    check ran: " << c.name << " -> " << (c.passed ? "holds" : "does not hold") << "\n";
    for (const auto& c : e.checks_not_run) o << "    check not run: " << c.name << " — " << c.why << "\n";
    o << "    foreground: " << foreground_text(e.foreground) << "\n";
    if (s.dependency) {
        const auto& b = *s.dependency;
        o << "    dependency: step " << b.dependency << " observed once -> " << to_string(b.judgement.outcome) << " ("
          << b.judgement.reason << ", rule " << static_cast<int>(b.judgement.order) << "); write "
          << to_string(b.outcome) << (b.settled ? ", settled" : ", not settled") << "\n";
    }
    return o.str();
}

nlohmann::ordered_json step_json(const StepReport& s) {
    const auto& r = s.result;
    const auto& e = r.evidence;
    nlohmann::ordered_json j{{"step", s.index}, {"request", to_string(s.request.kind)}, {"target", s.request.target},
                             {"kind", to_string(s.kind)}, {"ok", r.ok}};
    j["verdict"] = r.verdict ? nlohmann::ordered_json(to_string(*r.verdict)) : nlohmann::ordered_json(nullptr);
    j["error"] = r.error ? nlohmann::ordered_json{{"kind", to_string(r.error->kind)}, {"detail", r.error->detail}}
                         : nlohmann::ordered_json(nullptr);
    j["rule"] = e.rule;
    j["promise"] = to_string(e.promise);
    j["delivery"] = e.delivery;
    j["delivered"] = e.delivered;
    j["before"] = e.before ? nlohmann::ordered_json(show_snapshot(*e.before, s.kind)) : nlohmann::ordered_json(nullptr);
    j["after"] = e.after ? nlohmann::ordered_json(show_snapshot(*e.after, s.kind)) : nlohmann::ordered_json(nullptr);
    j["settled"] = e.settled;
    j["settle_ms"] = e.settle_ms;
    j["checks_ran"] = nlohmann::ordered_json::array();
    for (const auto& c : e.checks_ran) j["checks_ran"].push_back({{"name", c.name}, {"passed", c.passed}});
    j["checks_not_run"] = nlohmann::ordered_json::array();
    for (const auto& c : e.checks_not_run) j["checks_not_run"].push_back({{"name", c.name}, {"why", c.why}});
    j["foreground"] = foreground_text(e.foreground);
    j["dependency"] = nullptr;
    if (s.dependency) {
        const auto& b = *s.dependency;
        const auto reading = [](const std::optional<WriteReading>& w) -> nlohmann::ordered_json {
            if (!w) return nullptr;
            nlohmann::ordered_json o{{"at_ms", w->at_ms}};
            // S-8: a long value as the trace shows it (sim/kept.h), with its length.
            const auto kept = sim::kept(w->value);
            o["value"] = kept ? nlohmann::ordered_json(kept->whole() ? *kept->whole() : kept->shown()) : nlohmann::ordered_json(nullptr);
            if (kept && !kept->whole()) o["value_bytes"] = kept->size();
            o["dirty"] = w->dirty ? nlohmann::ordered_json(*w->dirty) : nlohmann::ordered_json(nullptr);
            return o;
        };
        j["dependency"] = {{"step", b.dependency},
                           {"outcome", to_string(b.judgement.outcome)},
                           {"reason", b.judgement.reason},
                           {"rule", b.judgement.order},
                           {"write", to_string(b.outcome)},
                           {"settled", b.settled},
                           {"before", reading(b.before)},
                           {"after", reading(b.after)}};
    }
    return j;
}

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

}  // namespace deskcheck::props
