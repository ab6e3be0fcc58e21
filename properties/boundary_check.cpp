// dependent_step_only_after_observed (SPEC B-3, O-4, W-4): a step that depends on an earlier one
// is sent only when the tool observed the earlier step's effect, and that effect had really
// happened. Decided from the scenario and the ground truth: what the earlier step writes is read
// off the scenario (a post's feed, a submit's status line, the typed field, the window's unsaved
// marker), never from the tool's declaration; the tool's boundary report is a claim held against
// the reads the desktop served.
#include <algorithm>
#include <string>

#include "properties/checks.h"
#include "properties/promise.h"

namespace deskcheck::props {
namespace {

constexpr std::string_view name = "dependent_step_only_after_observed";

// The effect kinds that show a step's write landed (from the scenario alone); empty: any effect of it.
struct Written {
    std::vector<sim::EffectKind> kinds;
    std::optional<ElementId> element;  // where it shows (a feed, the field); nullopt: the window's marker
    std::string text;                  // Type: the text the value must contain
};

Written written_by(const sim::Scenario& s, const sim::Step& step) {
    Written w;
    const sim::Control* c = control_anywhere(s, step.control).control;
    if (step.kind == sim::StepKind::Click && c != nullptr &&
        (c->kind == sim::ControlKind::PostButton || c->kind == sim::ControlKind::SubmitButton)) {
        if (c->feed != 0) {
            w.kinds = {sim::EffectKind::CommentShown};
            w.element = c->feed;
        } else {
            w.kinds = {c->kind == sim::ControlKind::PostButton ? sim::EffectKind::CommentPosted : sim::EffectKind::FormSubmitted};
        }
        return w;
    }
    if (step.kind == sim::StepKind::Hotkey && step.keys == "ctrl+s") {
        w.kinds = {sim::EffectKind::Saved};
        return w;
    }
    if (step.kind == sim::StepKind::Type && step.control) {
        w.kinds = {sim::EffectKind::ValueChanged};
        w.element = step.control;
        w.text = step.text;
    }
    return w;
}

// The first attempt to send step k, as an index into truth.attempts.
std::optional<std::size_t> first_attempt(const sim::GroundTruth& truth, std::uint32_t k) {
    for (std::size_t i = 0; i < truth.attempts.size(); ++i) {
        if (truth.attempts[i].step == static_cast<std::int32_t>(k)) return i;
    }
    return std::nullopt;
}

// Whether an effect of step d that shows its write had landed by `t`.
bool write_landed_by(const sim::GroundTruth& truth, std::uint32_t d, const Written& w, TimeMs t) {
    return std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        if (e.step != static_cast<std::int32_t>(d) || e.at_ms > t || e.by != "tool") return false;
        if (w.kinds.empty()) return true;
        if (std::find(w.kinds.begin(), w.kinds.end(), e.kind) == w.kinds.end()) return false;
        if (e.kind == sim::EffectKind::ValueChanged) return e.element == *w.element && e.holds_step_text;  // holds w.text
        return true;
    });
}

// W-2: step d's delivery was a keyed repeat the desktop ignored (RepeatIgnored by `t`): its write
// is the one the key stands for, so it has happened when the step that first applied the same key
// on the same control had its write land by `t`.
bool keyed_original_landed_by(const sim::Scenario& scenario, const sim::GroundTruth& truth, std::uint32_t d,
                              const Written& w, TimeMs t) {
    for (const auto& ignored : truth.effects) {
        if (ignored.kind != sim::EffectKind::RepeatIgnored || ignored.step != static_cast<std::int32_t>(d) || ignored.at_ms > t) continue;
        for (std::uint32_t o = 0; o < scenario.steps.size(); ++o) {
            const auto& key = scenario.steps[o].idempotency_key;
            if (o == d || !key || !ignored.detail.same_as(*key)) continue;
            const bool applied_here = std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
                return e.step == static_cast<std::int32_t>(o) && e.element == ignored.element &&
                       (e.kind == sim::EffectKind::CommentPosted || e.kind == sim::EffectKind::FormSubmitted);
            });
            if (applied_here && write_landed_by(truth, o, w, t)) return true;
        }
    }
    return false;
}

// Ground-truth diagnosis of an observation that saw someone else's write: an effect like the one
// step d writes, on the same element, by another step or actor, landed after d was sent and by `t`.
std::string whose_write_was_seen(const sim::GroundTruth& truth, std::uint32_t d, const Written& w, TimeMs d_began, TimeMs t) {
    for (const auto& e : truth.effects) {
        if (e.step == static_cast<std::int32_t>(d) || e.at_ms < d_began || e.at_ms > t) continue;
        if (!w.kinds.empty() && std::find(w.kinds.begin(), w.kinds.end(), e.kind) == w.kinds.end()) continue;
        if (w.element && e.element != *w.element) continue;
        const std::string who = e.step >= 0 ? "step " + std::to_string(e.step) + "'s" : "the " + e.by + "'s";
        return "; what it saw was " + who + " " + std::string(sim::to_string(e.kind)) + " landing at t=" + std::to_string(e.at_ms) +
               ", after step " + std::to_string(d) + " began: its reading before that step was taken while an earlier effect was still due (D-3)";
    }
    return "";
}

const StepReport* report_of(const RunResult& run, std::uint32_t k) {
    for (const auto& s : run.steps) {
        if (s.index == k) return &s;  // the first report of the step (a retry comes later)
    }
    return nullptr;
}

// P-1, both ways: a boundary reading (before or after) is what the desktop served at that moment on
// a read of the written field; "unreadable" is a claim too — only when no read at that moment
// returned a value, or one returned nothing.
std::optional<std::string> reading_not_served(const sim::GroundTruth& truth, const BoundaryObservation& b,
                                              const std::optional<WriteReading>& reading, std::string_view which,
                                              std::optional<ElementId> element) {
    if (!reading) return std::nullopt;
    const WriteReading& r = *reading;
    const bool dirty = b.writes && b.writes->shape == WriteShape::ClearsDirty;
    const std::optional<std::string> claimed = dirty ? (r.dirty ? std::optional<std::string>(*r.dirty ? "true" : "false") : std::nullopt)
                                                     : r.value;
    const std::string_view field = dirty ? "dirty" : "value";
    bool any_read = false;
    const bool served = std::any_of(truth.reads.begin(), truth.reads.end(), [&](const sim::Read& read) {
        const bool here = read.at_ms == r.at_ms && read.field == field && (dirty || !element || read.element == *element);
        any_read = any_read || here;
        return here && sim::same(read.returned, claimed);
    });
    if (served || (!claimed && !any_read)) return std::nullopt;
    return "reports a boundary reading " + std::string(which) + " " + (claimed ? sim::shown_text(*claimed) : "(unreadable)") + " at t=" +
           std::to_string(r.at_ms) + " that no read served (P-1)";
}

// Why the ledger cannot blame the tool for taking step d's write as done by `t` when it had not
// happened: a fault the tool does not promise to survive (STYLE 5). nullopt: the tool's fault.
std::optional<std::string> not_the_tools_fault(const sim::Scenario& scenario, const RunResult& run, std::uint32_t d,
                                               const Written& w, TimeMs t) {
    const auto& truth = run.truth();
    // W-5, S-7: a stale read of what step d writes (its reading before, or the boundary's)
    // is a fault the tool cannot see: the excuse the ground truth shows, counted, not passed.
    const auto stale = std::find_if(truth.reads.begin(), truth.reads.end(), [&](const sim::Read& rd) {
        return rd.fault == "stale" && rd.at_ms <= t && (!w.element || rd.element == *w.element);
    });
    if (stale != truth.reads.end()) {
        return std::string("a stale read (S-7) of what the dependency writes fed the boundary");
    }
    // W-5: another actor wrote the same effect meanwhile; counting occurrences cannot tell
    // whose it is (docs/properties.md: a known limit).
    const auto other = std::find_if(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.by != "tool" && e.at_ms <= t && (!w.element || e.element == *w.element) &&
               (w.kinds.empty() || std::find(w.kinds.begin(), w.kinds.end(), e.kind) != w.kinds.end());
    });
    if (other != truth.effects.end()) {
        return std::string("another actor wrote what the dependency writes meanwhile (W-5)");
    }
    // S-7: an earlier step's effect that landed beyond its app's declared latency bound,
    // after the tool had waited for it (a rule set that settles: its stated promise, as data), can
    // make the reading before look like no write yet.
    const auto overrun = std::find_if(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.overrun && e.at_ms <= t && e.step != static_cast<std::int32_t>(d) && (!w.element || e.element == *w.element);
    });
    if (overrun != truth.effects.end() && run.rules_settle) {
        return std::string("an earlier effect on what the dependency writes landed beyond its app's declared latency bound (S-7)");
    }
    // S-7: step d's own effect overran its app's declared bound (it would have landed before
    // the boundary read otherwise) and another of the batch's steps, which declared no such
    // write, appended the same text in the meantime: the reading showed "one more", true of
    // the feed though not of step d. Both must be in the ground truth.
    const auto own_overrun = std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.overrun && e.step == static_cast<std::int32_t>(d) && e.at_ms > t && (!w.element || e.element == *w.element) &&
               (w.kinds.empty() || std::find(w.kinds.begin(), w.kinds.end(), e.kind) != w.kinds.end());
    });
    const auto stand_in = std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.by == "tool" && e.step != static_cast<std::int32_t>(d) && e.at_ms <= t && (!w.element || e.element == *w.element) &&
               (w.kinds.empty() || std::find(w.kinds.begin(), w.kinds.end(), e.kind) != w.kinds.end());
    });
    if (own_overrun && stand_in && run.rules_settle) {
        return std::string(
            "the dependency's own effect overran its app's declared latency bound (S-7) and another step's identical write stood in for it");
    }
    (void)scenario;
    return std::nullopt;
}

}  // namespace

CheckResult dependent_step_only_after_observed(const sim::Scenario& scenario, const RunResult& run) {
    const auto& truth = run.truth();
    std::uint32_t judged = 0;
    for (std::uint32_t k = 0; k < scenario.steps.size(); ++k) {
        const sim::Step& step = scenario.steps[k];
        if (!step.depends_on || *step.depends_on >= k) continue;
        const std::uint32_t d = *step.depends_on;
        const StepReport* rep = report_of(run, k);
        if (rep != nullptr && rep->dependency) {
            for (const auto& [reading, which] : {std::pair{&rep->dependency->after, "after"}, {&rep->dependency->before, "before"}}) {
                if (auto bad = reading_not_served(truth, *rep->dependency, *reading, which, written_by(scenario, scenario.steps[d]).element)) {
                    return CheckResult::violated(std::string(name), k, "step " + std::to_string(k) + " " + *bad);
                }
            }
            // W-1: "done" is said of a write that had landed by the boundary read.
            const BoundaryObservation& b = *rep->dependency;
            if (b.outcome == WriteOutcome::Done && b.after) {
                const Written w = written_by(scenario, scenario.steps[d]);
                const TimeMs at = b.after->at_ms;
                if (!write_landed_by(truth, d, w, at) && !keyed_original_landed_by(scenario, truth, d, w, at)) {
                    if (auto why = not_the_tools_fault(scenario, run, d, w, at)) return CheckResult::cannot_judge(*why);
                    const auto began = std::find_if(run.timings.begin(), run.timings.end(), [&](const StepTiming& st) { return st.step == d; });
                    const std::string seen = began != run.timings.end() ? whose_write_was_seen(truth, d, w, began->began_ms, at) : "";
                    return CheckResult::violated(std::string(name), k,
                                                 "step " + std::to_string(k) + "'s boundary reports step " + std::to_string(d) +
                                                     "'s write done at t=" + std::to_string(at) + ", but it had not happened by then (W-1, O-4)" + seen);
                }
            }
        }
        ++judged;
        const auto a = first_attempt(truth, k);
        if (!a) continue;  // not sent: nothing to prove
        const TimeMs t = truth.attempts[*a].at_ms;
        const std::string which = "step " + std::to_string(k) + " (depends on step " + std::to_string(d) + ")";
        if (rep == nullptr || !rep->dependency) {
            return CheckResult::violated(std::string(name), k,
                                         which + " was sent at t=" + std::to_string(t) + " with no observation of step " +
                                             std::to_string(d) + " (B-3)");
        }
        const ObservationOutcome o = rep->dependency->judgement.outcome;
        if (o != ObservationOutcome::Observed) {
            return CheckResult::violated(std::string(name), k,
                                         which + " was sent at t=" + std::to_string(t) + " although its observation said " +
                                             std::string(to_string(o)) + " (" + rep->dependency->judgement.reason + ", O-4)");
        }
        const Written w = written_by(scenario, scenario.steps[d]);
        if (!write_landed_by(truth, d, w, t) && !keyed_original_landed_by(scenario, truth, d, w, t)) {
            if (auto why = not_the_tools_fault(scenario, run, d, w, t)) return CheckResult::cannot_judge(*why);
            // From when step d began (the harness's clock, not the tool's report): its reading before.
            const auto began = std::find_if(run.timings.begin(), run.timings.end(), [&](const StepTiming& st) { return st.step == d; });
            const std::string seen = began != run.timings.end() ? whose_write_was_seen(truth, d, w, began->began_ms, t) : "";
            return CheckResult::violated(std::string(name), k,
                                         which + " was sent at t=" + std::to_string(t) + " on an observation of step " +
                                             std::to_string(d) + "'s effect, but that effect had not happened by then (O-4)" + seen);
        }
    }
    return CheckResult::holds(judged);
}

}  // namespace deskcheck::props
