// dependent_step_only_after_observed (SPEC B-3, O-4, W-4): a step that depends on an earlier one
// is sent only when the tool observed the earlier step's effect, and that effect had really
// happened. Decided from the scenario and the ground truth: what the earlier step writes is read
// off the scenario (a post's feed, a submit's status line, the typed field, the window's unsaved
// marker), never from the tool's declaration; the tool's boundary report is a claim held against
// the reads the desktop served.
#include <algorithm>
#include <string>

#include "checks/checks.h"
#include "checks/claim_checks.h"
#include "checks/observation_checks.h"
#include "checks/promise.h"

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

// Step d's first delivered attempt within its timing, as an index into truth.attempts.
std::optional<std::size_t> first_delivery(const sim::GroundTruth& truth, const StepTiming& t, std::uint32_t d) {
    for (std::size_t i = t.attempts_begin; i < t.attempts_end && i < truth.attempts.size(); ++i) {
        const auto& a = truth.attempts[i];
        if (a.step == static_cast<std::int32_t>(d) && a.outcome == sim::AttemptOutcome::Delivered) return i;
    }
    return std::nullopt;
}

// Whether an effect of step d that shows its write had landed by `t`.
bool write_landed_by(const sim::GroundTruth& truth, std::uint32_t d, const Written& w, TimeMs t) {
    return std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        if (e.step != static_cast<std::int32_t>(d) || e.at_ms > t || e.by != sim::Actor::Tool) return false;
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
        const std::string who = e.step >= 0 ? "step " + std::to_string(e.step) + "'s" : "the " + std::string(sim::to_string(e.by)) + "'s";
        return "; what it saw was " + who + " " + std::string(sim::to_string(e.kind)) + " landing at t=" + std::to_string(e.at_ms) +
               ", after step " + std::to_string(d) + " began: its reading before that step was taken while an earlier effect was still due (D-3)";
    }
    return "";
}

const StepReport* report_of(const History& run, std::uint32_t k) {
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
    const sim::ReadField field = dirty ? sim::ReadField::Dirty : sim::ReadField::Value;
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
std::optional<std::string> not_the_tools_fault(const sim::Scenario& scenario, const History& run, std::uint32_t d,
                                               const Written& w, TimeMs t) {
    const auto& truth = run.truth();
    // W-5, S-7: a stale read of what step d writes (its reading before, or the boundary's)
    // is a fault the tool cannot see: the excuse the ground truth shows, counted, not passed.
    const auto stale = std::find_if(truth.reads.begin(), truth.reads.end(), [&](const sim::Read& rd) {
        return rd.fault == sim::ReadFault::Stale && rd.at_ms <= t && (!w.element || rd.element == *w.element);
    });
    if (stale != truth.reads.end()) {
        return std::string("a stale read (S-7) of what the dependency writes fed the boundary");
    }
    // W-5: another actor wrote the same effect meanwhile; counting occurrences cannot tell
    // whose it is (docs/properties.md: a known limit).
    const auto other = std::find_if(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.by != sim::Actor::Tool && e.at_ms <= t && (!w.element || e.element == *w.element) &&
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
        return e.by == sim::Actor::Tool && e.step != static_cast<std::int32_t>(d) && e.at_ms <= t && (!w.element || e.element == *w.element) &&
               (w.kinds.empty() || std::find(w.kinds.begin(), w.kinds.end(), e.kind) != w.kinds.end());
    });
    if (own_overrun && stand_in && run.rules_settle) {
        return std::string(
            "the dependency's own effect overran its app's declared latency bound (S-7) and another step's identical write stood in for it");
    }
    (void)scenario;
    return std::nullopt;
}

// ---- progress: the go-ahead the evidence allowed (B-3, O-4, W-1) --------------------------------

std::size_t occurrences_in(const std::string& text, const std::string& of) {
    if (of.empty()) return 0;
    std::size_t n = 0;
    for (std::size_t at = text.find(of); at != std::string::npos; at = text.find(of, at + of.size())) ++n;
    return n;
}

bool clean(const sim::Read& r) { return r.returned.has_value() && (r.fault == sim::ReadFault::None); }

// Whether `r` is a read of what step d writes: the written element's value, or the window's marker.
bool reads_written(const sim::Read& r, const Written& w, WindowId window) {
    if (!w.element) return r.field == sim::ReadField::Dirty && r.window == window;
    return r.field == sim::ReadField::Value && r.element == *w.element;
}

// What step k's boundary could know of step d's write, found in the ledger alone: what d writes
// (the scenario), d's first delivery, the reading before it in d's own span, and the boundary read.
struct BoundaryLedger {
    Written w;
    WindowId window = no_window;  // where the write shows
    const StepTiming* d_timing = nullptr;
    const StepTiming* k_timing = nullptr;
    std::optional<TimeMs> delivered;  // d's first delivery
    const sim::Read* before = nullptr;
    const sim::Read* after = nullptr;
    const std::string* was = nullptr;  // their whole values (S-8: long values keep only digests)
    const std::string* now = nullptr;
    const sim::Control* button = nullptr;  // a post or submit: what it shows in the feed
    bool save() const { return !w.element; }
    bool typed() const { return w.element && button == nullptr; }
};

BoundaryLedger ledger_of(const sim::Scenario& scenario, const History& run, std::uint32_t k, std::uint32_t d) {
    BoundaryLedger L;
    const auto& truth = run.truth();
    const sim::Step& dep = scenario.steps[d];
    L.w = written_by(scenario, dep);
    if (L.w.kinds.empty()) return L;
    if (L.w.element && dep.kind != sim::StepKind::Type) L.button = control_anywhere(scenario, dep.control).control;
    for (const auto& st : run.timings) {
        if (st.step == d && L.d_timing == nullptr) L.d_timing = &st;
        if (st.step == k && L.k_timing == nullptr) L.k_timing = &st;
    }
    const auto [control, window] = control_anywhere(scenario, L.w.element ? *L.w.element : 0);
    L.window = L.w.element ? window : dep.window;
    if (L.w.element && control == nullptr) return L;
    std::optional<std::size_t> first;
    if (L.d_timing != nullptr) {
        first = first_delivery(truth, *L.d_timing, d);
        if (first) L.delivered = truth.attempts[*first].at_ms;
        for (std::size_t i = L.d_timing->reads_begin; i < L.d_timing->reads_end && i < truth.reads.size(); ++i) {
            const auto& r = truth.reads[i];
            if ((!first || r.attempts_before <= *first) && reads_written(r, L.w, L.window)) L.before = &r;
        }
    }
    if (L.k_timing != nullptr) {
        for (std::size_t i = L.k_timing->began_reads; i < L.k_timing->reads_begin && i < truth.reads.size(); ++i) {
            if (reads_written(truth.reads[i], L.w, L.window)) L.after = &truth.reads[i];
        }
    }
    if (L.before != nullptr && L.before->returned) L.was = L.before->returned->whole();
    if (L.after != nullptr && L.after->returned) L.now = L.after->returned->whole();
    return L;
}

// The value shows d's write: the typed text in it, the marker cleared, one more comment than `base`.
bool shows_write(const BoundaryLedger& L, const std::string& value, const std::string* base) {
    if (L.save()) return value == "false";
    if (L.typed()) return value.find(L.w.text) != std::string::npos;
    return base != nullptr && occurrences_in(value, L.button->comment) > occurrences_in(*base, L.button->comment);
}

// The reading before already showed the state d writes: no reading after can tell d's write from it.
bool shown_already(const BoundaryLedger& L, const std::string& was) {
    if (L.save()) return was != "true";
    if (L.typed()) return was.find(L.w.text) != std::string::npos;
    return false;
}

std::optional<ProcessId> pid_of(const sim::Scenario& scenario, WindowId id) {
    for (const auto& x : scenario.windows) {
        if (x.id == id) return x.pid;
    }
    return std::nullopt;
}

// An input delivered in [from, to], by anyone but step d, to a window of the app that shows d's
// write (or a window the scenario does not know): it may have written or undone the same state.
bool delivered_to_the_app(const sim::Scenario& scenario, const History& run, std::uint32_t d, const BoundaryLedger& L, TimeMs from,
                          TimeMs to) {
    const auto app = pid_of(scenario, L.window);
    for (const auto& in : run.truth().delivered) {
        if (in.at_ms < from || in.at_ms > to || in.step == static_cast<std::int32_t>(d)) continue;
        for (const WindowId w : {in.window, in.hit_window}) {
            const auto pid = pid_of(scenario, w);
            if (w != no_window && (!app || !pid || *pid == *app)) return true;
        }
    }
    return false;
}

// An input another step delivered at or before d's delivery to a window of that app, whose effects
// may land, by the app's declared bound, after d was delivered: it may undo what d wrote (typing
// that dirties the document again after the save), so a reading without d's write cannot tell
// "never landed" from "landed and undone" (W-1).
bool earlier_delivery_in_flight(const sim::Scenario& scenario, const History& run, std::uint32_t d, const BoundaryLedger& L,
                                TimeMs d_delivered) {
    const auto app = pid_of(scenario, L.window);
    for (const auto& in : run.truth().delivered) {
        if (in.at_ms > d_delivered || in.step == static_cast<std::int32_t>(d) || in.step == sim::no_step) continue;
        for (const WindowId w : {in.window, in.hit_window}) {
            const auto pid = pid_of(scenario, w);
            if (w != no_window && (!app || !pid || *pid == *app) && in.at_ms + declared_bound_ms(scenario, w) > d_delivered) return true;
        }
    }
    return false;
}

// An effect in [from, to] on what d writes, by anyone or any other step.
bool written_by_another(const History& run, std::uint32_t d, const BoundaryLedger& L, TimeMs from, TimeMs to) {
    return std::any_of(run.truth().effects.begin(), run.truth().effects.end(), [&](const sim::Effect& e) {
        return e.at_ms >= from && e.at_ms <= to && e.step != static_cast<std::int32_t>(d) &&
               (L.w.element ? e.element == *L.w.element : e.window == L.window);
    });
}

// Another batch step s (d < s < k by its timing: it ended after d) delivered, in its own span and
// at or before the boundary read, to the app that shows d's write: the reading cannot tell whose
// effect it shows (W-1), so "done" is not the evidence's answer.
std::optional<std::uint32_t> later_step_delivered_to_the_app(const sim::Scenario& scenario, const History& run, std::uint32_t k,
                                                             std::uint32_t d, const BoundaryLedger& L) {
    const auto app = pid_of(scenario, L.window);
    if (!app || L.d_timing == nullptr || L.after == nullptr) return std::nullopt;
    const auto& truth = run.truth();
    for (const auto& st : run.timings) {
        if (st.step == d || st.step >= k || st.agent_retry || st.ended_ms <= L.d_timing->ended_ms) continue;
        for (std::size_t i = st.attempts_begin; i < st.attempts_end && i < truth.attempts.size(); ++i) {
            const sim::Attempt& a = truth.attempts[i];
            if (a.step != static_cast<std::int32_t>(st.step) || a.outcome != sim::AttemptOutcome::Delivered || a.at_ms > L.after->at_ms) continue;
            if (pid_of(scenario, a.window) == app) return st.step;
        }
    }
    return std::nullopt;
}

// Whatever moved or removed a control up to `t` (S-3, S-4): a boundary read then may reach nothing.
bool tree_moved_by(const sim::Scenario& scenario, const History& run, TimeMs t) {
    return std::any_of(run.truth().events.begin(), run.truth().events.end(), [&](const sim::FiredEvent& f) {
        if (f.at_ms > t || f.index >= scenario.events.size()) return false;
        const auto kind = scenario.events[f.index].kind;
        return kind == sim::EventKind::ControlRemoved || kind == sim::EventKind::TreeReorders;
    });
}

// When the evidence the tool had at its boundary read decided step d's write done, a step that
// depends on it must go ahead: a tool that escalates every dependent step passes every other check.
// Decided from the ledger alone (the tool's readings are found among the reads the desktop served,
// never taken from its report): a clean reading of what d writes before d was delivered, that did
// not show the write yet; the boundary read, clean, showing it; d's own effect landed in between;
// nobody else wrote it meanwhile and no other delivery of the tool to that app could have (W-1:
// whose effect a reading shows); under a rule set that settles (its stated promise, as data), the
// read taken once the app's declared latency bound had passed since the delivery (D-3).
std::optional<std::string> write_shown(const sim::Scenario& scenario, const History& run, std::uint32_t k, std::uint32_t d) {
    const BoundaryLedger L = ledger_of(scenario, run, k, d);
    if (L.w.kinds.empty() || L.d_timing == nullptr || L.k_timing == nullptr || !L.delivered) return std::nullopt;
    // No boundary read: it reached nothing (the element was gone), and the tool had no evidence to go on.
    if (L.before == nullptr || L.after == nullptr || !clean(*L.before) || !clean(*L.after)) return std::nullopt;
    if (L.was == nullptr || L.now == nullptr) return std::nullopt;  // long values keep only digests (S-8)
    // The readings show the write: one more comment, the typed text arriving, the marker cleared.
    const TimeMs t = L.after->at_ms;
    if (shown_already(L, *L.was) || !shows_write(L, *L.now, L.was) || !write_landed_by(run.truth(), d, L.w, t)) return std::nullopt;
    // Nobody else wrote it meanwhile (W-5), and no other delivery of the tool to that app could have (W-1).
    if (!pid_of(scenario, L.window) || written_by_another(run, d, L, L.before->at_ms, t) ||
        delivered_to_the_app(scenario, run, d, L, *L.delivered, t)) {
        return std::nullopt;
    }
    if (run.rules_settle && t - *L.delivered < declared_bound_ms(scenario, scenario.steps[d].window)) return std::nullopt;
    return "the read at t=" + std::to_string(t) + " showed step " + std::to_string(d) + "'s write (" + sim::shown_text(*L.was) +
           " before, " + sim::shown_text(*L.now) + " now), landed, read clean" + (run.rules_settle ? " past the app's declared bound" : "") +
           ", nobody else writing it";
}

// Progress where the tool gathered no evidence at all: step d typed its text into a control by ref
// (the request told the tool where it writes), the control is always readable and the desktop
// neither fails nor staleness-faults reads, its value did not hold the text before d, d's text
// landed before step k began (past the app's declared bound under a rule set that settles), nothing
// removed or moved a control before step k ended, and nobody else wrote it — yet step k made no read of it
// at its boundary. Ground truth only; nullopt when any of that fails.
std::optional<std::string> typed_write_left_unread(const sim::Scenario& scenario, const History& run, std::uint32_t k,
                                                   std::uint32_t d) {
    const sim::Step& dep = scenario.steps[d];
    if (dep.kind != sim::StepKind::Type || dep.text.empty() || d >= run.requests.size() || !run.requests[d].ref) return std::nullopt;
    if (scenario.faults.read_failure_permille != 0 || scenario.faults.stale_read_permille != 0) return std::nullopt;
    const Written w = written_by(scenario, dep);
    if (!w.element) return std::nullopt;
    const auto [control, window] = control_anywhere(scenario, *w.element);
    if (control == nullptr || control->readability != sim::Readability::Readable) return std::nullopt;
    const auto& truth = run.truth();
    const auto d_timing = std::find_if(run.timings.begin(), run.timings.end(), [&](const StepTiming& st) { return st.step == d; });
    const auto k_timing = std::find_if(run.timings.begin(), run.timings.end(), [&](const StepTiming& st) { return st.step == k; });
    if (d_timing == run.timings.end() || k_timing == run.timings.end() || d_timing->before_holds_step_text) return std::nullopt;
    for (std::size_t i = k_timing->began_reads; i < k_timing->reads_begin && i < truth.reads.size(); ++i) {
        if (reads_written(truth.reads[i], w, window)) return std::nullopt;  // it did read: judged by write_shown
    }
    const auto first = first_delivery(truth, *d_timing, d);
    const TimeMs began = k_timing->began_ms;
    if (!first || !write_landed_by(truth, d, w, began)) return std::nullopt;
    const std::optional<TimeMs> delivered = truth.attempts[*first].at_ms;
    if (run.rules_settle && began - *delivered < declared_bound_ms(scenario, dep.window)) return std::nullopt;
    // Up to the end of step k: a control removed while the boundary waited leaves its read nothing to reach.
    if (tree_moved_by(scenario, run, k_timing->ended_ms)) return std::nullopt;
    for (const auto& e : truth.effects) {
        if (e.at_ms <= began && e.element == *w.element && (e.step != static_cast<std::int32_t>(d) || e.by != sim::Actor::Tool)) return std::nullopt;
    }
    return "its text " + sim::shown_text(dep.text) + " had landed in " + sim::subject_of(window, *w.element) + " before step " + std::to_string(k) +
           " began at t=" + std::to_string(began) + ", in an always readable control, with nobody else writing it";
}

// Progress, both the act and the claim: where the evidence showed the write (write_shown), the
// dependent step goes ahead, and its boundary says done.
std::optional<std::string> go_ahead_withheld(const sim::Scenario& scenario, const History& run, std::uint32_t k,
                                             std::uint32_t d, const StepReport& rep) {
    const BoundaryObservation& b = *rep.dependency;
    // Held back at the boundary: the step stopped there (the report's error), whatever its
    // judgement says — the judgement is a claim, the escalation an act.
    const bool held_back = !rep.result.ok && rep.result.error && rep.result.error->kind == ErrorKind::Escalate;
    if (!held_back && b.outcome == WriteOutcome::Done) return std::nullopt;
    if (held_back) {
        if (auto why = typed_write_left_unread(scenario, run, k, d)) {
            return "step " + std::to_string(k) + " was held back at its boundary (it said " + std::string(name_of(b.judgement.outcome)) +
                   ", " + b.judgement.reason + ") without reading what step " + std::to_string(d) + " wrote, but " + *why +
                   ": one read would have cleared it (B-3, O-4)";
        }
    }
    const auto shown = write_shown(scenario, run, k, d);
    if (!shown) return std::nullopt;
    if (held_back) {
        return "step " + std::to_string(k) + " was held back at its boundary (it said " + std::string(name_of(b.judgement.outcome)) + ", " +
               b.judgement.reason + "), but " + *shown + ": the evidence said go ahead (B-3, O-4, W-1)";
    }
    return "step " + std::to_string(k) + "'s boundary says step " + std::to_string(d) + "'s write " + std::string(name_of(b.outcome)) + ", but " +
           *shown + ": the evidence said done (W-1)";
}

// D-3, both ways, under a rule set that settles (its stated promise, as data): the boundary read
// is settled when it came at or after the app's declared bound past step d — not before the bound
// past d's delivery, and surely once the bound had passed since d ended (the ledger's times).
std::optional<std::string> settled_lie(const sim::Scenario& scenario, const History& run, std::uint32_t k, std::uint32_t d,
                                       const BoundaryObservation& b) {
    if (!run.rules_settle || !b.after) return std::nullopt;
    const auto& truth = run.truth();
    const auto d_timing = std::find_if(run.timings.begin(), run.timings.end(), [&](const StepTiming& st) { return st.step == d; });
    if (d_timing == run.timings.end()) return std::nullopt;
    const auto first = first_delivery(truth, *d_timing, d);
    if (!first) return std::nullopt;
    const std::optional<TimeMs> delivered = truth.attempts[*first].at_ms;
    const WindowId window = scenario.steps[d].window;
    const TimeMs bound = declared_bound_ms(scenario, window);
    const TimeMs t = b.after->at_ms;
    const std::string who = "step " + std::to_string(k) + "'s boundary read of step " + std::to_string(d) + " at t=" + std::to_string(t);
    if (b.settled && t < *delivered + bound) {
        return who + " is reported settled, but it came " + std::to_string(t - *delivered) + " ms after that step's delivery, before the app's declared bound of " +
               std::to_string(bound) + " ms (D-3)";
    }
    if (!b.settled && t >= d_timing->ended_ms + bound) {
        return who + " is reported not settled, but the app's declared bound of " + std::to_string(bound) + " ms had passed since that step ended at t=" +
               std::to_string(d_timing->ended_ms) + " (D-3)";
    }
    return std::nullopt;
}

// "not done" needs a clean reading before the delivery that lacked the write, a read that returned
// a value without it (past the declared bound under a rule set that settles), and the write not
// landed by then with nobody else touching it (W-1, V-2, D-3).
std::optional<std::string> not_done_unfounded(const sim::Scenario& scenario, const History& run, std::uint32_t d, const BoundaryLedger& L,
                                              const std::string& says) {
    const auto& truth = run.truth();
    const TimeMs bound = declared_bound_ms(scenario, scenario.steps[d].window);
    if (L.after == nullptr || L.now == nullptr) return says + "but its read returned nothing (V-2, W-1: no reading is no evidence)";
    if (shows_write(L, *L.now, L.was)) return says + "but its read at t=" + std::to_string(L.after->at_ms) + " showed it: " + sim::shown_text(*L.now) + " (W-1)";
    if (L.delivered && (L.was == nullptr || shown_already(L, *L.was))) {
        return says + "but the reading before the delivery " + (L.was == nullptr ? std::string("returned nothing") : "already showed that state: " + sim::shown_text(*L.was)) +
               ": no reading could tell its absence (V-2, W-1)";
    }
    if (run.rules_settle && L.delivered && L.after->at_ms < *L.delivered + bound) {
        return says + "on a read at t=" + std::to_string(L.after->at_ms) + ", before the app's declared bound of " + std::to_string(bound) +
               " ms past the delivery at t=" + std::to_string(*L.delivered) + " (D-3)";
    }
    const TimeMs at = L.after->at_ms;
    const bool others = L.delivered && std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.by != sim::Actor::Tool && e.at_ms >= *L.delivered && e.at_ms <= at && (L.w.element ? e.element == *L.w.element : e.window == L.window);
    });
    if (!others && write_landed_by(truth, d, L.w, at) && !not_the_tools_fault(scenario, run, d, L.w, at)) {
        return says + "but it had landed by its read at t=" + std::to_string(at) + " (W-1)";
    }
    return std::nullopt;
}

// "done" needs both readings — the one before lacking the write, the read showing it — and no later
// step of the batch delivering to the same app in between (V-1, W-1).
std::optional<std::string> done_unfounded(const sim::Scenario& scenario, const History& run, std::uint32_t k, std::uint32_t d, const BoundaryLedger& L,
                                          const std::string& says) {
    if (L.was == nullptr || shown_already(L, *L.was)) {
        return says + "but the reading before the delivery " + (L.was == nullptr ? std::string("returned nothing") : "already showed that state: " + sim::shown_text(*L.was)) +
               ": no reading could tell the write (V-1, W-1)";
    }
    if (L.now == nullptr || !shows_write(L, *L.now, L.was)) {
        return says + "but its read " + (L.now == nullptr ? std::string("returned nothing") : "did not show it: " + sim::shown_text(*L.now)) + " (V-1, W-1)";
    }
    if (const auto s = later_step_delivered_to_the_app(scenario, run, k, d, L)) {
        return says + "but step " + std::to_string(*s) + " delivered to the same app after it and before the read at t=" + std::to_string(L.after->at_ms) +
               ": the reading cannot tell whose effect it shows (W-1: unknown)";
    }
    return std::nullopt;
}

// C-4, W-1: the evidence decided "not done" — two clean readings, neither showing the write, the
// second settled (past the declared bound under a rule set that settles; its promise, as data),
// the write had not landed and nothing else could have written or undone it — no earlier delivery
// to the app still due, by its declared bound, after d was delivered.
std::optional<std::string> not_done_withheld(const sim::Scenario& scenario, const History& run, std::uint32_t d, const BoundaryLedger& L,
                                             const std::string& who, const std::string& of_d) {
    const auto& truth = run.truth();
    const bool after_clean = L.after != nullptr && L.now != nullptr && L.after->fault == sim::ReadFault::None;
    const bool before_clean = L.before != nullptr && L.was != nullptr && L.before->fault == sim::ReadFault::None;
    if (!L.delivered || !before_clean || !after_clean || L.d_timing == nullptr || shown_already(L, *L.was) || shows_write(L, *L.now, L.was)) return std::nullopt;
    const TimeMs bound = declared_bound_ms(scenario, scenario.steps[d].window);
    const TimeMs t = L.after->at_ms;
    const bool settled = !run.rules_settle || t >= L.d_timing->ended_ms + bound;
    const bool own_overrun = std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.overrun && e.step == static_cast<std::int32_t>(d);
    });
    if (!settled || own_overrun || write_landed_by(truth, d, L.w, t) || delivered_to_the_app(scenario, run, d, L, *L.delivered, t) ||
        written_by_another(run, d, L, L.before->at_ms, t) || earlier_delivery_in_flight(scenario, run, d, L, *L.delivered)) {
        return std::nullopt;
    }
    return who + " says " + of_d + " unknown, but its read at t=" + std::to_string(t) + (run.rules_settle ? ", past the app's declared bound," : "") +
           " showed it absent (" + sim::shown_text(*L.was) + " before, " + sim::shown_text(*L.now) +
           " now), read clean, nothing else delivered to the app or wrote it: the evidence said not_done (C-4, W-1)";
}

// The boundary's outcome held against the ledger, both ways: "not done" and "done" each need the
// evidence that supports them, and where the evidence decided "not done" it must be said (C-4); a
// boundary names its step (O-4) and carries the read it made (P-1).
std::optional<std::string> boundary_outcome_lie(const sim::Scenario& scenario, const History& run, std::uint32_t k, std::uint32_t d,
                                                const StepReport& rep) {
    const BoundaryObservation& b = *rep.dependency;
    const std::string who = "step " + std::to_string(k) + "'s boundary";
    const std::string of_d = "step " + std::to_string(d) + "'s write";
    if (b.dependency != d) return who + " names step " + std::to_string(b.dependency) + ", but the step depends on step " + std::to_string(d) + " (O-4)";
    if (b.snapshot.correlation_id && *b.snapshot.correlation_id != "step-" + std::to_string(d)) {
        return who + "'s snapshot correlates " + sim::shown_text(*b.snapshot.correlation_id) + ", not step-" + std::to_string(d) + " (O-4)";
    }
    const BoundaryLedger L = ledger_of(scenario, run, k, d);
    if (L.w.kinds.empty()) return std::nullopt;
    if (L.after != nullptr && !b.after) {
        return who + " read what step " + std::to_string(d) + " writes at t=" + std::to_string(L.after->at_ms) + ", but its report carries no reading after (P-1)";
    }
    switch (b.outcome) {
        case WriteOutcome::NotDone: return not_done_unfounded(scenario, run, d, L, who + " says " + of_d + " not_done, ");
        case WriteOutcome::Done: return done_unfounded(scenario, run, k, d, L, who + " says " + of_d + " done, ");
        case WriteOutcome::Unknown: return not_done_withheld(scenario, run, d, L, who, of_d);
    }
    return std::nullopt;
}

// Progress where the tool made no read at all: a dependent step held back at its boundary without
// one read of the post's feed or the window's marker, though step d's effect had landed before step
// k began (past the declared bound under a rule set that settles), the reading before was clean
// and lacked it, the feed is always readable and the request declared it, reads are never faulted,
// nothing moved or removed a control up to step k's end, and nothing else wrote it or was delivered
// to its app. (Typed text: typed_write_left_unread.)
std::optional<std::string> shown_write_left_unread(const sim::Scenario& scenario, const History& run, std::uint32_t k, std::uint32_t d,
                                                   const StepReport& rep) {
    const bool held_back = !rep.result.ok && rep.result.error && rep.result.error->kind == ErrorKind::Escalate;
    if (!held_back || scenario.faults.read_failure_permille != 0 || scenario.faults.stale_read_permille != 0) return std::nullopt;
    const BoundaryLedger L = ledger_of(scenario, run, k, d);
    if (L.w.kinds.empty() || L.typed() || L.after != nullptr || L.k_timing == nullptr || !L.delivered) return std::nullopt;
    if (L.before == nullptr || L.was == nullptr || L.before->fault != sim::ReadFault::None || shown_already(L, *L.was)) return std::nullopt;
    if (!L.save()) {
        const sim::Control* feed = control_anywhere(scenario, *L.w.element).control;
        if (feed == nullptr || feed->readability != sim::Readability::Readable || d >= run.requests.size() || !run.requests[d].writes) return std::nullopt;
    }
    const TimeMs began = L.k_timing->began_ms;
    if (tree_moved_by(scenario, run, L.k_timing->ended_ms) || !write_landed_by(run.truth(), d, L.w, began)) return std::nullopt;
    if (run.rules_settle && began - *L.delivered < declared_bound_ms(scenario, scenario.steps[d].window)) return std::nullopt;
    if (written_by_another(run, d, L, L.before->at_ms, began) || delivered_to_the_app(scenario, run, d, L, *L.delivered, began)) return std::nullopt;
    return "step " + std::to_string(k) + " was held back at its boundary without reading what step " + std::to_string(d) + " writes (" +
           (L.save() ? std::string("the window's unsaved marker") : std::string("the feed")) + "), but step " + std::to_string(d) +
           "'s effect had landed before step " + std::to_string(k) + " began at t=" + std::to_string(began) +
           ", in a readable place nobody else wrote: one read would have cleared it (B-3, O-4, C-4)";
}

// O-1, O-4: the boundary's judgement is the one seed 004's table gives the snapshots the report
// carries, under the boundary's promise as the SPEC states it: the write done is the expected state,
// done and not_done the known ones (W-1), every one of the seed's fields required. The oracle is
// seed_expectation (checks/observation_checks.h, the seed's ten conditions written again), never
// the tool's rows or its contract. The snapshots themselves restate `after`, `settled` and
// `outcome`, which are judged above.
std::optional<std::string> judgement_not_the_seeds(std::uint32_t k, const BoundaryObservation& b) {
    ObservationCase c;
    c.action = ObservedAction{b.snapshot.correlation_id.value_or(""), b.snapshot.target.value_or(""), "done"};
    for (const std::string_view f : seed_field_names) c.contract.required_fields.emplace_back(f);
    c.contract.known_states = {"done", "not_done"};
    c.snapshot = b.snapshot;
    c.previous = b.previous;
    const SeedExpectation e = seed_expectation(c);
    // The deciding row's order is part of the reported judgement (the dependency's "rule N").
    if (b.judgement.outcome == e.outcome && b.judgement.reason == e.reason && b.judgement.order == e.order) return std::nullopt;
    return "step " + std::to_string(k) + "'s boundary judged step " + std::to_string(b.dependency) + "'s observation " +
           std::string(name_of(b.judgement.outcome)) + " (" + (b.judgement.reason.empty() ? "no reason" : b.judgement.reason) +
           ", rule " + std::to_string(b.judgement.order) + "), but seed 004's table gives its snapshots " + std::string(name_of(e.outcome)) + " (" + std::string(e.reason) +
           ", order " + std::to_string(e.order) + "; O-1, O-4): " + observation_case_line(c);
}

}  // namespace

CheckResult dependent_step_only_after_observed(const sim::Scenario& scenario, const History& run) {
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
            if (auto lie = settled_lie(scenario, run, k, d, b)) return CheckResult::violated(std::string(name), k, *lie);
            if (auto lie = boundary_outcome_lie(scenario, run, k, d, *rep)) return CheckResult::violated(std::string(name), k, *lie);
            if (auto lie = judgement_not_the_seeds(k, b)) return CheckResult::violated(std::string(name), k, *lie);
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
        if (rep != nullptr && rep->dependency) {
            if (auto withheld = go_ahead_withheld(scenario, run, k, d, *rep)) return CheckResult::violated(std::string(name), k, *withheld);
            if (auto unread = shown_write_left_unread(scenario, run, k, d, *rep)) return CheckResult::violated(std::string(name), k, *unread);
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
                                             std::string(name_of(o)) + " (" + rep->dependency->judgement.reason + ", O-4)");
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
