// ---- verdict_decisive (V-1, V-3, V-5, V-7, D-3) -------------------------------------------------
//
// verdict_sound catches a verdict that says too much; this one catches a verdict that says too
// little. Unknown is always sound and, said too often, useless: an agent that hears Unknown after
// every write it could have judged has to re-read everything itself. So when the deciding reads of
// an observable promise were readable, fresh (no stale fault) and settled (the last one at or after
// the app's declared latency bound past the delivery), and nothing but this step touched the
// element, the evidence tells — the verdict must be Confirmed or Absent. A clean reading that
// showed the promise kept asks for Confirmed even before the state settled (C-4): a click's state
// flipped, typing's text arrived, a select-all's selection covered the text.
//
// Decided from the scenario (what the step promises, checks/promise.h) and the ledger (reads,
// deliveries, effects, the app's declared bound) alone; nothing in model/ is called. The situations
// where Unknown stays right although the reads were good are the rule set's documented exceptions,
// each named below and in docs/properties.md:
//   - V-4: a hotkey other than Ctrl+A promises nothing it can be judged Absent on;
//   - V-8: the agent had no ref to the element (an opaque tree): nothing the tool may read;
//   - V-6: typing with Tab, Enter or another control key may have moved the focus or submitted
//     (asked only for the Confirmed its segment's arrival shows);
//   - V-1: typing whose text the element already held before cannot show the text arriving (unless
//     the rule set's stated promise is "set to X": the value is the text spliced into the selection);
//   - W-5: someone else (the user, an app event, another step's late effect) changed the element
//     between the step's start and its last deciding read;
//   - D-3: an effect of this step landed after its last read (beyond the declared bound: S-7);
//   - D-3: the last read came before the app's declared bound — only where the rule set does not
//     wait (one immediate read) or the bound is longer than the wait it states: a rule set that
//     settles and cut its stated wait short is told so (settle_cut_short).
#include <algorithm>
#include <string>

#include "checks/checks.h"
#include "checks/claim_checks.h"
#include "checks/promise.h"

namespace deskcheck::props {
namespace {

constexpr std::string_view property = "verdict_decisive";

struct Step {
    const sim::Scenario& scenario;
    const History& run;
    const StepReport& report;
    const StepTiming& timing;
    const sim::Step& step() const { return scenario.steps[report.index]; }
    std::int32_t index() const { return static_cast<std::int32_t>(report.index); }
};

// This report's delivered attempts, as indices into truth.attempts.
std::vector<std::size_t> delivered_attempts(const Step& s) {
    std::vector<std::size_t> out;
    const auto& attempts = s.run.truth().attempts;
    for (std::size_t i = s.timing.attempts_begin; i < s.timing.attempts_end && i < attempts.size(); ++i) {
        if (attempts[i].step == s.index() && attempts[i].outcome == sim::AttemptOutcome::Delivered) out.push_back(i);
    }
    return out;
}

// V-8: the agent sent the step with a ref to its element (an opaque tree gives none).
bool ref_given(const Step& s) { return s.report.index < s.run.requests.size() && s.run.requests[s.report.index].ref.has_value(); }

// A read that returned something, without a fault.
bool clean(const sim::Read* r) { return r != nullptr && r->returned && r->fault == sim::ReadFault::None; }

// The deciding reads of one field of the step's element: the last one before the first delivery and
// the last one after the last delivery (a failed poll in between decides nothing).
struct DecidingReads {
    const sim::Read* before = nullptr;
    const sim::Read* after = nullptr;
};

DecidingReads deciding_reads(const Step& s, sim::ReadField field, const std::vector<std::size_t>& delivered) {
    DecidingReads out;
    const auto& reads = s.run.truth().reads;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < reads.size(); ++i) {
        const auto& r = reads[i];
        if (r.window != s.step().window || r.element != *s.step().control || r.field != field) continue;
        if (r.attempts_before <= delivered.front()) out.before = &r;
        if (r.attempts_before > delivered.back()) out.after = &r;
    }
    return out;
}

bool own_effect(const Step& s, const sim::Effect& e, const std::vector<std::size_t>& delivered) {
    if (e.step != s.index() || e.by != sim::Actor::Tool || !e.delivered_at_ms) return false;
    const auto& attempts = s.run.truth().attempts;
    return std::any_of(delivered.begin(), delivered.end(), [&](std::size_t i) { return attempts[i].at_ms == *e.delivered_at_ms; });
}

// Why the evidence could not tell (Unknown is right), or nullopt when it could.
std::optional<std::string> why_indecisive(const Step& s, sim::EffectKind promised) {
    const auto& st = s.step();
    const ElementId element = *st.control;
    if (!ref_given(s)) return "V-8: the agent had no ref to the element (an opaque tree)";
    if (st.kind == sim::StepKind::Type) {
        if (has_control_keys(st.text)) return "V-6: the text has a navigation or submit key";
        if (!s.timing.before.value || s.timing.before_holds_step_text) return "V-1: the text was there before";
    }
    const auto delivered = delivered_attempts(s);
    if (delivered.empty()) return "nothing was delivered";
    const auto& truth = s.run.truth();
    const sim::Attempt& last = truth.attempts[delivered.back()];
    // The bound the app declares (its latency plus its feed delay: sim::Desktop::declared_latency_ms).
    const TimeMs settled_at = last.at_ms + declared_bound_ms(s.scenario, st.window);
    TimeMs last_read = s.timing.began_ms;
    for (const sim::ReadField field : deciding_fields(promised)) {
        const auto [before, after] = deciding_reads(s, field, delivered);
        // Ctrl+A is judged on the state after alone (V-3); the others compare.
        const bool needs_before = promised != sim::EffectKind::SelectionChanged;
        const std::string name(sim::to_string(field));
        if (needs_before && before == nullptr) return "no read of " + name + " before";
        if (after == nullptr) return "no read of " + name + " after";
        for (const sim::Read* r : {needs_before ? before : after, after}) {
            if (!r->returned || r->fault != sim::ReadFault::None) {
                return "a deciding read of " + name + " was " + (r->fault == sim::ReadFault::None ? "unreadable" : std::string(sim::to_string(r->fault)));
            }
        }
        if (after->at_ms < settled_at) return "D-3: the last read came before the app's latency bound";
        last_read = std::max(last_read, after->at_ms);
    }
    for (const auto& e : truth.effects) {
        if (e.window != st.window || e.element != element) continue;
        const bool own = own_effect(s, e, delivered);
        if (!own && e.at_ms >= s.timing.began_ms && e.at_ms <= last_read) return "W-5: someone else changed the element";
        if (own && e.at_ms > last_read) return "D-3: this step's effect landed after its last read";
    }
    return std::nullopt;
}

bool landed_by(const Step& s, sim::EffectKind promised, TimeMs t) {
    const auto delivered = delivered_attempts(s);
    for (const auto& e : s.run.truth().effects) {
        if (e.kind == promised && e.window == s.step().window && e.element == *s.step().control && e.at_ms <= t &&
            own_effect(s, e, delivered)) {
            return true;
        }
    }
    return false;
}

// ---- hotkeys (V-4, V-9): Confirmed when the reading the rule set promises changed by the step ----

struct PromisedReading {
    sim::ReadField field;        // the read's field
    sim::EffectKind effect;      // the step's own effect that changes it
    bool window_level = false;   // the window's marker, not the element's
};

std::vector<PromisedReading> readings_of(Promise p) {
    using sim::EffectKind;
    switch (p) {
        case Promise::DirtyCleared: return {{sim::ReadField::Dirty, EffectKind::Saved, true}};
        case Promise::ValueChanged: return {{sim::ReadField::Value, EffectKind::ValueChanged}};
        case Promise::SelectionChanged: return {{sim::ReadField::Selection, EffectKind::SelectionChanged}};
        case Promise::ValueOrSelectionChanged: return {{sim::ReadField::Value, EffectKind::ValueChanged}, {sim::ReadField::Selection, EffectKind::SelectionChanged}};
        default: return {};
    }
}

// A hotkey left Unknown although a reading its rule set promises (expected_promise: the SPEC and
// the rule set's stated hotkey promise, as data) was read clean before the delivery and clean,
// settled, after it, and changed by the step's own effect with nobody else touching it: the
// evidence said Confirmed (V-4) — or although the tool never read it at all, before or after (a
// reading it did not ask for is not one the desktop withheld). Absent is never demanded of a
// hotkey: "nothing changed" is Unknown (V-4).
std::optional<std::string> hotkey_withheld(const Step& s) {
    const auto& st = s.step();
    if (st.kind != sim::StepKind::Hotkey || !st.control) return std::nullopt;
    const sim::Control* control = control_in(s.scenario, st.window, *st.control);
    if (control == nullptr || control->kind != sim::ControlKind::Edit) return std::nullopt;
    if (promised_effect(s.scenario, st) == sim::EffectKind::SelectionChanged) return std::nullopt;  // Ctrl+A: V-3, judged below
    if (!ref_given(s)) return std::nullopt;  // V-8
    const auto delivered = delivered_attempts(s);
    if (delivered.empty()) return std::nullopt;
    const auto& truth = s.run.truth();
    const TimeMs settled_at = truth.attempts[delivered.back()].at_ms + declared_bound_ms(s.scenario, st.window);
    // Every reading the promise names must have been read clean before and clean, settled, after
    // (V-4: "value unreadable -> Unknown"), and one of them changed by the step's own effect.
    const std::vector<PromisedReading> readings = readings_of(expected_promise(s.scenario, st, true, s.run.rules_hotkeys_by_intent));
    std::optional<std::string> withheld;
    for (const PromisedReading& p : readings) {
        const auto of_it = [&](const sim::Read& r) {
            return r.window == st.window && r.field == p.field && (p.window_level || r.element == *st.control);
        };
        const sim::Read* before = nullptr;
        const sim::Read* after = nullptr;
        for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < truth.reads.size(); ++i) {
            const auto& r = truth.reads[i];
            if (!of_it(r)) continue;
            if (r.attempts_before <= delivered.front()) before = &r;
            if (r.attempts_before > delivered.back()) after = &r;
        }
        if (before == nullptr && after == nullptr) {
            // Not a reading the desktop withheld: one the tool never asked for, before or after.
            return "Unknown without ever reading the " + std::string(sim::to_string(p.field)) +
                   " its rule set promises for this hotkey (" + std::string(st.keys) +
                   "): the evidence that decides it was never asked for (V-4, V-9)";
        }
        if (before == nullptr || after == nullptr || !before->returned || !after->returned || before->fault != sim::ReadFault::None ||
            after->fault != sim::ReadFault::None || after->at_ms < settled_at) {
            return std::nullopt;
        }
        if (*before->returned == *after->returned || withheld) continue;
        if (p.window_level && !(before->returned->same_as("true") && after->returned->same_as("false"))) continue;
        bool own = false;
        bool other = false;
        bool late = false;
        for (const auto& e : truth.effects) {
            if (e.window != st.window || (!p.window_level && e.element != *st.control)) continue;
            if (p.window_level && e.kind != sim::EffectKind::Saved && e.kind != sim::EffectKind::DirtyChanged) continue;
            const bool mine = own_effect(s, e, delivered);
            if (mine && e.kind == p.effect && e.at_ms <= after->at_ms) own = true;
            if (mine && e.at_ms > after->at_ms) late = true;
            if (!mine && e.at_ms >= s.timing.began_ms && e.at_ms <= after->at_ms) other = true;
        }
        if (!own || other || late) continue;
        withheld = "Unknown, although the " + std::string(sim::to_string(p.field)) + " its rule set promises for this hotkey (" + std::string(st.keys) +
               ") read " + before->returned->shown() + " before and " + after->returned->shown() + " after, clean and settled, changed by the step's own " +
               std::string(sim::to_string(p.effect)) + ": the verdict should be Confirmed (V-4, V-9)";
    }
    return withheld;
}

// C-4 under a rule set that settles: a click's promised state (a toggle or an expander flipped, a
// list item selected) was read clean after the delivery, differing from the clean read before it,
// and the step's own promised effect had landed by then with nobody else touching the element: the
// evidence showed the change, so Unknown withholds a Confirmed (V-1) — a later poll that loses the
// reading does not take that evidence back.
std::optional<std::string> click_confirmed_withheld(const Step& s, sim::EffectKind promised) {
    const auto& st = s.step();
    if (!s.run.rules_settle || st.kind != sim::StepKind::Click || !st.control) return std::nullopt;
    const sim::ReadField field = promised == sim::EffectKind::Toggled    ? sim::ReadField::Toggled
                                 : promised == sim::EffectKind::Expanded ? sim::ReadField::Expanded
                                 : promised == sim::EffectKind::Selected ? sim::ReadField::Selected
                                                                         : sim::ReadField::Value;
    if (field == sim::ReadField::Value) return std::nullopt;
    if (!ref_given(s)) return std::nullopt;  // V-8
    const auto delivered = delivered_attempts(s);
    if (delivered.empty()) return std::nullopt;
    const auto& truth = s.run.truth();
    const sim::Read* before = nullptr;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < truth.reads.size(); ++i) {
        const auto& r = truth.reads[i];
        if (r.window == st.window && r.element == *st.control && r.field == field && r.attempts_before <= delivered.front()) before = &r;
    }
    if (before == nullptr || !before->returned || before->fault != sim::ReadFault::None) return std::nullopt;
    if (field == sim::ReadField::Selected && !before->returned->same_as("false")) return std::nullopt;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < truth.reads.size(); ++i) {
        const auto& r = truth.reads[i];
        if (r.window != st.window || r.element != *st.control || r.field != field || r.attempts_before <= delivered.back()) continue;
        if (!r.returned || r.fault != sim::ReadFault::None || *r.returned == *before->returned) continue;
        bool own = false;
        bool other = false;
        for (const auto& e : truth.effects) {
            if (e.window != st.window || e.element != *st.control || e.at_ms > r.at_ms) continue;
            const bool mine = own_effect(s, e, delivered);
            own = own || (mine && e.kind == promised);
            other = other || (!mine && e.at_ms >= s.timing.began_ms);
        }
        if (!own || other) continue;
        return "Unknown, although its read of " + std::string(sim::to_string(field)) + " at " + t_at(r.at_ms) + " showed " + r.returned->shown() +
               " (clean; " + before->returned->shown() + " before), the step's own " + std::string(sim::to_string(promised)) +
               " landed: the verdict should be Confirmed (V-1, C-4)";
    }
    return std::nullopt;
}

// C-4 for Ctrl+A (V-3): judged on the state after, not on a change, so a clean reading of the value
// and the selection after the delivery that showed the text covered tells Confirmed, settled or
// not. Nobody else touched the element from the step's start to its answer, nothing changed it between those
// reads and the tool's answer (what they returned is the true state then), and it covers the text.
std::optional<std::string> select_all_confirmed_withheld(const Step& s, sim::EffectKind promised) {
    const auto& st = s.step();
    if (promised != sim::EffectKind::SelectionChanged || st.kind != sim::StepKind::Hotkey || !st.control) return std::nullopt;
    if (!ref_given(s)) return std::nullopt;  // V-8
    const auto& t = s.timing;
    if (!covers(t.after)) return std::nullopt;
    const auto delivered = delivered_attempts(s);
    if (delivered.empty()) return std::nullopt;
    const auto& truth = s.run.truth();
    const sim::Read* value = deciding_reads(s, sim::ReadField::Value, delivered).after;
    const sim::Read* selection = deciding_reads(s, sim::ReadField::Selection, delivered).after;
    if (!clean(value) || !clean(selection)) return std::nullopt;
    // What was read is the state the tool answered on (the ledger prints a selection "start,length").
    const Selection& sel = *t.after.selection;
    if (!(*value->returned == *t.after.value) || !selection->returned->same_as(std::to_string(sel.start) + "," + std::to_string(sel.length))) {
        return std::nullopt;
    }
    for (const auto& e : truth.effects) {
        if (e.window != st.window || e.element != *st.control || e.at_ms < t.began_ms || e.at_ms > t.ended_ms) continue;
        if (!own_effect(s, e, delivered)) return std::nullopt;  // W-5
    }
    return "Unknown, although its reads after the delivery (value " + value->returned->shown() + ", selection " + selection->returned->shown() +
           ", clean) showed the text covered, as it still was when the tool answered: the verdict should be Confirmed (V-3, C-4)";
}

// C-4 for typing (V-5, V-6): a reading that showed the typed text arrive by the step's own update
// tells Confirmed, settled or not, whatever the selection reads said. What typing promises is its
// text, or with Tab or Enter the text before the first navigation key (V-6: when the value did not
// change, Unknown is right: the keys may have moved the focus or submitted). The promised text was
// not in the true value when the step began (V-1); the value was read clean before the delivery and
// clean after it; the step's own update had landed by that read, nobody else touched the element
// from the step's start, and nothing changed it between that read and the tool's answer, where the
// true value holds the promised text and differs from the one at the start.
std::optional<std::string> typing_confirmed_withheld(const Step& s) {
    const auto& st = s.step();
    if (st.kind != sim::StepKind::Type || !st.control) return std::nullopt;
    if (!ref_given(s)) return std::nullopt;  // V-8
    const auto& t = s.timing;
    const bool navigates = has_control_keys(st.text);
    const auto holds = [navigates](const ValueFacts& f) { return navigates ? f.holds_segment : f.holds_text; };
    if (!t.before.value || !t.after.value || !holds(t.at_after)) return std::nullopt;
    const auto delivered = delivered_attempts(s);
    if (delivered.empty()) return std::nullopt;
    const auto& truth = s.run.truth();
    const auto [before, after] = deciding_reads(s, sim::ReadField::Value, delivered);
    const auto [selection_before, selection_after] = deciding_reads(s, sim::ReadField::Selection, delivered);
    if (!clean(before) || !clean(after)) return std::nullopt;
    // "Set to X" (a rule set that promises it, D-2): the value is the text spliced into the selection
    // read clean before, whether or not the text was there already. A value that reads the same
    // before and after shows nothing by itself: the caret's last clean read must have moved.
    const bool value_moved = !(*before->returned == *after->returned);
    const bool caret_moved = clean(selection_before) && clean(selection_after) && !(*selection_before->returned == *selection_after->returned);
    const bool set = !navigates && s.run.rules_typing_sets_value && t.at_after.set && clean(selection_before) && (value_moved || caret_moved);
    if (!set && (holds(t.at_before) || *t.before.value == *t.after.value)) return std::nullopt;
    bool own = false;
    for (const auto& e : truth.effects) {
        if (e.window != st.window || e.element != *st.control || e.at_ms < t.began_ms) continue;
        const bool mine = own_effect(s, e, delivered);
        if (e.at_ms > after->at_ms && e.at_ms <= t.ended_ms) return std::nullopt;  // the answer's value is not the one read
        if (!mine && e.at_ms <= after->at_ms) return std::nullopt;                // W-5
        own = own || (mine && e.kind == sim::EffectKind::ValueChanged && e.at_ms <= after->at_ms);
    }
    if (!own) return std::nullopt;
    return "Unknown, although its read of the value at " + t_at(after->at_ms) + " (clean; " + before->returned->shown() + " before, " +
           after->returned->shown() + " after) showed " +
           (set ? "the typed text spliced into the selection read before, the 'set to X' its rule set promises,"
                : navigates ? "the text before the first navigation key arriving" : "the typed text arriving") +
           " by the step's own update: the verdict should be Confirmed (" + (set ? "V-5, D-2" : navigates ? "V-6" : "V-5") + ", C-4)";
}

// D-3 under a rule set that settles: it states that it waits, for an app whose declared bound is
// within its stated wait (History::rules_settles_within_ms, the rule set's data), until the bound has
// passed before it answers. An Unknown whose last read of the promised state came before the bound
// cut that wait short: the reading the rule set promises to wait for might have told. (Nothing about
// what the reads showed matters here: an unreadable poll is a poll, and the wait goes on.)
std::optional<std::string> settle_cut_short(const Step& s, sim::EffectKind promised) {
    if (!s.run.rules_settle || !ref_given(s)) return std::nullopt;
    const auto delivered = delivered_attempts(s);
    if (delivered.empty()) return std::nullopt;
    const TimeMs bound = declared_bound_ms(s.scenario, s.step().window);
    if (bound > s.run.rules_settles_within_ms) return std::nullopt;
    const TimeMs due = s.run.truth().attempts[delivered.back()].at_ms + bound;
    TimeMs last = -1;
    for (const sim::ReadField field : deciding_fields(promised)) {
        const sim::Read* after = deciding_reads(s, field, delivered).after;
        if (after == nullptr) return std::nullopt;  // never read after: another matter
        last = std::max(last, after->at_ms);
    }
    if (last < 0 || last >= due) return std::nullopt;
    return "Unknown after its last read of the promised state at " + t_at(last) + ", before the app's declared bound at " + t_at(due) +
           " (" + std::to_string(bound) + " ms after the delivery): its rule set waits for a bound of up to " +
           std::to_string(s.run.rules_settles_within_ms) + " ms before it answers (D-3)";
}

}  // namespace

CheckResult verdict_decisive(const sim::Scenario& scenario, const History& run) {
    if (run.timings.size() != run.steps.size()) return CheckResult::cannot_judge("step timings missing");
    std::uint32_t judged = 0;
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const StepReport& report = run.steps[i];
        if (!report.result.verdict || report.index >= scenario.steps.size()) continue;  // an error, not a verdict
        ++judged;
        const Step s{scenario, run, report, run.timings[i]};
        if (*report.result.verdict != Verdict::Unknown) continue;
        if (auto withheld = hotkey_withheld(s)) return CheckResult::violated(std::string(property), report.index, *withheld);
        if (auto withheld = typing_confirmed_withheld(s)) return CheckResult::violated(std::string(property), report.index, *withheld);
        const auto promised = promised_effect(scenario, s.step());
        if (!promised) continue;  // nothing observable promised (V-8, V-4)
        if (auto withheld = click_confirmed_withheld(s, *promised)) return CheckResult::violated(std::string(property), report.index, *withheld);
        if (auto withheld = select_all_confirmed_withheld(s, *promised)) return CheckResult::violated(std::string(property), report.index, *withheld);
        if (auto cut = settle_cut_short(s, *promised)) return CheckResult::violated(std::string(property), report.index, *cut);
        if (why_indecisive(s, *promised)) continue;
        const bool happened = landed_by(s, *promised, run.timings[i].ended_ms);
        return CheckResult::violated(std::string(property), report.index,
                                     "Unknown, although every deciding read was readable, fresh and settled: the promised " +
                                         std::string(sim::to_string(*promised)) + (happened ? " had happened" : " had not happened") +
                                         ", so the verdict should be " + (happened ? "Confirmed" : "Absent") + " (V-1)");
    }
    return CheckResult::holds(judged);
}

}  // namespace deskcheck::props
