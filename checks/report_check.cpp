// ---- report_matches_ground_truth (P-1, F-2, W-1, W-3) -------------------------------------------
//
// Every claim in the tool's report is true in the ground truth: the readbacks it quotes are what
// the desktop served, the delivery it names is the one that happened, its foreground evidence
// (borrowed / restored / unchanged / changed_by / durationMs / waitedForUserMs) is what the
// foreground history and the foreground requests show, and a not_done (Absent) is never said of
// an effect of the step that landed.
//
// An oracle, not a mirror: it decides from the ledger (sim::GroundTruth) and the scenario alone,
// never by calling the tool's helpers (no related_to_target, no verdict rules, no ToolConfig).
// The printed form of a reading is the sim's ("start,length", "true"/"false", the raw value).
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "checks/checks.h"
#include "checks/claim_checks.h"
#include "checks/promise.h"

namespace deskcheck::props {
namespace {

using sim::EffectKind;

constexpr std::string_view property = "report_matches_ground_truth";
// F-1 as SPEC states it (not the tool's configuration): busy under 700 ms, wait at most 3 s.
constexpr TimeMs user_idle_ms_spec = 700;
constexpr TimeMs user_wait_ms_spec_max = 3000;

using Lie = std::optional<std::string>;

// One StepReport with the ledger slices that belong to it.
struct Claim {
    const sim::Scenario& scenario;
    const History& run;
    const StepReport& report;
    const StepTiming& timing;
    const Segment& segment;
    std::int32_t step() const { return static_cast<std::int32_t>(report.index); }
    const sim::Step& scenario_step() const { return scenario.steps[report.index]; }
    const sim::GroundTruth& truth() const { return run.truth(); }
    std::string name() const { return "step " + std::to_string(report.index); }
};


// The reading as the sim prints it into Read::returned (sim/sim_reads.cpp).
std::optional<std::string> printed(const std::optional<std::string>& v) { return v; }
std::optional<std::string> printed(const std::optional<Selection>& s) {
    if (!s) return std::nullopt;
    return std::to_string(s->start) + "," + std::to_string(s->length);
}
std::optional<std::string> printed(const std::optional<bool>& b) {
    if (!b) return std::nullopt;
    return std::string(*b ? "true" : "false");
}

struct Reading {
    sim::ReadField field;
    std::optional<std::string> value;
};

std::array<Reading, 6> readings_of(const Snapshot& s) {
    using F = sim::ReadField;
    return {Reading{F::Value, printed(s.value)},       Reading{F::Selection, printed(s.selection)},
            Reading{F::Toggled, printed(s.toggled)},   Reading{F::Expanded, printed(s.expanded)},
            Reading{F::Selected, printed(s.selected)}, Reading{F::Dirty, printed(s.dirty)}};
}

// The step's reads of one field of its element (the dirty marker: of its window).
std::vector<const sim::Read*> reads_of(const Claim& c, sim::ReadField field) {
    const auto& reads = c.truth().reads;
    const auto& step = c.scenario_step();
    const ElementId element = field == sim::ReadField::Dirty ? 0 : step.control.value_or(0);
    std::vector<const sim::Read*> out;
    for (std::size_t i = c.timing.reads_begin; i < c.timing.reads_end && i < reads.size(); ++i) {
        const auto& r = reads[i];
        if (r.window == step.window && r.element == element && r.field == field) out.push_back(&r);
    }
    return out;
}

// Index (into truth.attempts) of this report's first attempt / first Delivered attempt.
std::optional<std::size_t> first_attempt(const Claim& c, bool delivered_only) {
    const auto& attempts = c.truth().attempts;
    for (std::size_t i = c.timing.attempts_begin; i < c.timing.attempts_end && i < attempts.size(); ++i) {
        if (attempts[i].step != c.step()) continue;
        if (!delivered_only || attempts[i].outcome == sim::AttemptOutcome::Delivered) return i;
    }
    return std::nullopt;
}

// P-1: `before` is one of the reads taken before the first delivery attempt.
Lie before_lie(const Claim& c, const Reading& claimed) {
    const auto attempt = first_attempt(c, false);
    std::vector<const sim::Read*> candidates;
    for (const auto* r : reads_of(c, claimed.field)) {
        if (!attempt || r->attempts_before <= *attempt) candidates.push_back(r);
    }
    if (candidates.empty()) {
        if (!claimed.value) return std::nullopt;  // not read, and no reading claimed
        return c.name() + " reports before." + std::string(sim::to_string(claimed.field)) + "=" + shown(claimed.value) +
               ", but it read no " + std::string(sim::to_string(claimed.field)) + " before delivering (P-1)";
    }
    // The claim kept once, compared with each read by length and digests (S-8: not reread per read).
    const std::optional<sim::Kept> claim = sim::kept(claimed.value);
    for (const auto* r : candidates) {
        if (r->returned == claim) return std::nullopt;
    }
    return c.name() + " reports before." + std::string(sim::to_string(claimed.field)) + "=" + shown(claimed.value) + ", but the read at " +
           t_at(candidates.front()->at_ms) + " returned " + shown(candidates.front()->returned) + " (P-1, V-2)";
}

// P-1: `after` is the last read of the step, taken after the delivery when something was delivered.
Lie after_lie(const Claim& c, const Reading& claimed) {
    const auto reads = reads_of(c, claimed.field);
    const auto what = [&] { return c.name() + " reports after." + std::string(sim::to_string(claimed.field)) + "=" + shown(claimed.value); };
    if (reads.empty()) {
        if (!claimed.value) return std::nullopt;
        return what() + ", but it never read " + std::string(sim::to_string(claimed.field)) + " (P-1: a phantom readback)";
    }
    const sim::Read& last = *reads.back();
    if (!sim::same(last.returned, claimed.value)) {
        return what() + ", but its last read of it at " + t_at(last.at_ms) + " returned " + shown(last.returned) + " (P-1, V-2)";
    }
    const auto delivered = first_attempt(c, true);
    if (claimed.value && delivered && last.attempts_before <= *delivered) {
        return what() + ", but it read " + std::string(sim::to_string(claimed.field)) + " only before the delivery at " +
               t_at(c.truth().attempts[*delivered].at_ms) + " (P-1: a phantom readback)";
    }
    return std::nullopt;
}

Lie readback_lie(const Claim& c) {
    const auto& ev = c.report.result.evidence;
    // Both ways: a reading of the element the step took is quoted, not dropped (P-1).
    if ((!ev.before || !ev.after) && c.report.element) {
        const auto attempt = first_attempt(c, false);
        const auto delivered = first_attempt(c, true);
        const auto& reads = c.truth().reads;
        for (std::size_t i = c.timing.reads_begin; i < c.timing.reads_end && i < reads.size(); ++i) {
            const auto& r = reads[i];
            if (r.element != *c.report.element || r.window != c.report.request.target) continue;
            if (!ev.before && (!attempt || r.attempts_before <= *attempt)) {
                return c.name() + " quotes no reading before, but it read " + std::string(sim::to_string(r.field)) + " of its element at " + t_at(r.at_ms) + " (P-1)";
            }
            if (!ev.after && delivered && r.attempts_before > *delivered) {
                return c.name() + " quotes no reading after, but it read " + std::string(sim::to_string(r.field)) + " of its element at " + t_at(r.at_ms) +
                       " after the delivery (P-1)";
            }
        }
    }
    if (ev.before) {
        for (const auto& r : readings_of(*ev.before)) {
            if (auto lie = before_lie(c, r)) return lie;
        }
    }
    if (ev.after) {
        for (const auto& r : readings_of(*ev.after)) {
            if (auto lie = after_lie(c, r)) return lie;
        }
    }
    return std::nullopt;
}

// One poll of a step's element after its delivery: the reads made at one instant, the readings
// they returned per field (nullopt: not read, or unreadable).
struct Poll {
    TimeMs at_ms = 0;
    std::array<std::optional<sim::Kept>, 6> fields;  // indexed by sim::ReadField
    std::array<bool, 6> asked{};
};

std::vector<Poll> polls_after(const Claim& c, std::size_t delivered) {
    std::vector<Poll> out;
    const auto& reads = c.truth().reads;
    for (std::size_t i = c.timing.reads_begin; i < c.timing.reads_end && i < reads.size(); ++i) {
        const auto& r = reads[i];
        if (r.element != *c.report.element || r.attempts_before <= delivered) continue;
        if (out.empty() || out.back().at_ms != r.at_ms) out.push_back(Poll{r.at_ms, {}, {}});
        const auto f = static_cast<std::size_t>(r.field);
        if (f >= out.back().fields.size()) continue;
        out.back().asked[f] = true;
        if (r.returned) out.back().fields[f] = r.returned;
    }
    return out;
}

// D-3 the other way, under a rule set that settles (its stated promise, as data): the state settled
// once two polls in a row, both at or after the app's declared bound past the first poll after the
// delivery (when the wait began), read every field they asked, the same: the step says settled.
// (A poll the wait did not reach is no evidence either way; one that lost a field is not stable.)
Lie settled_left_out(const Claim& c, std::size_t delivered, TimeMs bound) {
    if (!c.run.rules_settle) return std::nullopt;
    // The polls: the element's reads after the delivery, with the window's dirty marker read beside them.
    std::vector<Poll> polls;
    const auto& reads = c.truth().reads;
    const WindowId window = c.truth().attempts[delivered].window;
    for (std::size_t i = c.timing.reads_begin; i < c.timing.reads_end && i < reads.size(); ++i) {
        const auto& r = reads[i];
        const bool mine = r.element == *c.report.element || (r.field == sim::ReadField::Dirty && r.window == window);
        if (!mine || r.attempts_before <= delivered) continue;
        if (polls.empty() || polls.back().at_ms != r.at_ms) polls.push_back(Poll{r.at_ms, {}, {}});
        const auto f = static_cast<std::size_t>(r.field);
        if (f >= polls.back().fields.size()) continue;
        polls.back().asked[f] = true;
        if (r.returned && r.fault == sim::ReadFault::None) polls.back().fields[f] = r.returned;
    }
    if (polls.empty()) return std::nullopt;
    const TimeMs began = polls.front().at_ms;
    for (std::size_t k = 1; k < polls.size(); ++k) {
        const Poll& a = polls[k - 1];
        const Poll& b = polls[k];
        if (a.at_ms < began + bound) continue;
        bool same = true;
        for (std::size_t f = 0; f < a.fields.size() && same; ++f) {
            if (!a.asked[f] && !b.asked[f]) continue;
            same = a.fields[f] && b.fields[f] && *a.fields[f] == *b.fields[f];
        }
        if (!same) continue;
        return c.name() + " says not settled, but its reads at " + t_at(a.at_ms) + " and " + t_at(b.at_ms) + ", both " +
               std::to_string(bound) + " ms (the app's declared bound) or more after its wait began at " + t_at(began) +
               ", read every field the same (D-3)";
    }
    return std::nullopt;
}

// D-3: settle_ms is the time from the delivery to the last read of the element in the step;
// settled:true needs that read at or after the app's declared bound past the delivery.
Lie settle_lie(const Claim& c) {
    const auto& ev = c.report.result.evidence;
    const auto delivered = first_attempt(c, true);
    if (!delivered || !c.report.element) {
        if (ev.settled) return c.name() + " reports settled, but nothing of it was delivered to an element (D-3)";
        return std::nullopt;
    }
    const sim::Attempt& d = c.truth().attempts[*delivered];
    const sim::Read* last = nullptr;
    const auto& reads = c.truth().reads;
    for (std::size_t i = c.timing.reads_begin; i < c.timing.reads_end && i < reads.size(); ++i) {
        const auto& r = reads[i];
        if (r.element == *c.report.element && r.at_ms >= d.at_ms && r.attempts_before > *delivered) last = &r;
    }
    const TimeMs waited = last != nullptr ? last->at_ms - d.at_ms : 0;
    if (ev.settle_ms != waited) {
        return c.name() + " reports waiting " + std::to_string(ev.settle_ms) + " ms for the state to settle, but its last read came " +
               std::to_string(waited) + " ms after the delivery at " + t_at(d.at_ms) + " (D-3)";
    }
    const TimeMs bound = declared_bound_ms(c.scenario, last ? last->window : d.window);
    if (!ev.settled) return settled_left_out(c, *delivered, bound);
    if (last == nullptr || last->at_ms < d.at_ms + bound) {
        return c.name() + " reports settled, but its last read came " + std::to_string(waited) + " ms after the delivery, before the app's declared bound of " +
               std::to_string(bound) + " ms (D-3)";
    }
    // A state still changing past its bound has not settled: the last two polls, both past it, read
    // a field differently (the user typing, an effect overrunning).
    const auto polls = polls_after(c, *delivered);
    if (polls.size() >= 2) {
        const Poll& a = polls[polls.size() - 2];
        const Poll& b = polls.back();
        for (std::size_t f = 0; a.at_ms >= d.at_ms + bound && f < b.fields.size(); ++f) {
            if (a.fields[f] && b.fields[f] && !(*a.fields[f] == *b.fields[f])) {
                return c.name() + " reports settled, but its " + std::string(sim::to_string(static_cast<sim::ReadField>(f))) +
                       " still changed between its last two reads at " + t_at(a.at_ms) + " and " + t_at(b.at_ms) + ", both past the bound (D-3)";
            }
        }
    }
    return std::nullopt;
}

// E-3: an action that ran to its verdict hands back its element and the focused element as refs,
// both ways: a ref for the element it names (none without one), and a focused_ref exactly when an
// element truly had the focus in the target window as it answered (StepTiming::focus_after). That
// each ref stands for its element is judged where the agent uses it for a later step on that element
// (the runner's reused_refs): the step must reach that element (ref_never_crosses_windows).
Lie refs_lie(const Claim& c) {
    const StepReport& r = c.report;
    if (r.element_ref && !r.element) return c.name() + " hands back element_ref " + *r.element_ref + " but names no element (E-3)";
    const bool answered = r.result.ok && r.result.verdict && r.delivered && r.request.kind != RequestKind::Observe;
    if (!answered) return std::nullopt;
    if (r.element && !r.element_ref && c.timing.element_there_after) {
        return c.name() + " names element e" + std::to_string(*r.element) + " but hands back no ref for it (E-3)";
    }
    // An Electron window's tree is opaque: it shows no element to hand a ref for (the scenario's framework).
    const sim::Window* w = sim::find_window(c.scenario, r.request.target);
    const bool opaque = w != nullptr && w->framework == Framework::Electron;
    const auto& focus = c.timing.focus_after;
    if (focus && !r.focused_ref && !opaque) {
        return c.name() + " hands back no focused_ref, but e" + std::to_string(*focus) + " had the focus in " +
               w_name(r.request.target) + " when it answered (E-3)";
    }
    if (!focus && r.focused_ref) {
        return c.name() + " hands back focused_ref " + *r.focused_ref + ", but nothing had the focus in " + w_name(r.request.target) +
               " when it answered (E-3)";
    }
    return std::nullopt;
}

bool control_of_window(const sim::Scenario& s, WindowId w, ElementId e) {
    for (const auto& win : s.windows) {
        if (win.id != w) continue;
        return std::any_of(win.controls.begin(), win.controls.end(), [&](const sim::Control& x) { return x.id == e; });
    }
    return false;
}

// P-1: delivered ⇔ a Delivered attempt of this step; the method named is the one attempted.
Lie delivery_lie(const Claim& c) {
    const auto& ev = c.report.result.evidence;
    const auto attempt = first_attempt(c, false);
    const auto delivered = first_attempt(c, true);
    if (ev.delivered && !delivered) {
        return c.name() + " reports delivered:true, but no attempt of it was delivered (" +
               (attempt ? std::string(sim::to_string(c.truth().attempts[*attempt].outcome)) : std::string("none made")) + ")";
    }
    if (!ev.delivered && delivered) {
        return c.name() + " reports nothing delivered, but its " +
               std::string(name_of(c.truth().attempts[*delivered].method)) + " was delivered at " +
               t_at(c.truth().attempts[*delivered].at_ms);
    }
    if (c.report.delivered != delivered.has_value()) {
        return c.name() + (c.report.delivered ? " says in its step report that it delivered, but no attempt of it was delivered"
                                              : " says in its step report that nothing was delivered, but an attempt of it was") + " (P-1)";
    }
    if (!ev.delivery.empty() && !attempt) return c.name() + " reports delivery by " + ev.delivery + ", but nothing was sent";
    if (ev.delivery.empty() && attempt) {
        return c.name() + " names no delivery method, but it attempted " +
               std::string(name_of(c.truth().attempts[*attempt].method)) + " (P-1)";
    }
    if (!attempt) return std::nullopt;
    const sim::Attempt& a = c.truth().attempts[*attempt];
    if (ev.delivery != name_of(a.method)) {
        return c.name() + " reports delivery by " + ev.delivery + ", but it sent " + std::string(name_of(a.method));
    }
    const bool own_window = a.window == c.report.request.target ||
                            (c.report.element && control_of_window(c.scenario, a.window, *c.report.element));
    if (delivered && !own_window) {
        return c.name() + " reports a delivery to " + w_name(c.report.request.target) + ", but it went to " + w_name(a.window);
    }
    // E-1..E-3: the element it names is the one its input went to (both ways, when it went to one).
    const sim::Attempt& d = c.truth().attempts[delivered ? *delivered : *attempt];
    if (d.element && c.report.element != d.element) {
        return c.name() + (c.report.element ? " names element e" + std::to_string(*c.report.element) : " names no element") +
               ", but its input went to e" + std::to_string(*d.element) + " (E-3, P-1)";
    }
    return std::nullopt;
}

// V-9, P-1: the promise a judged step reports is the one its action makes — read from the scenario
// and the rule set's stated hotkey promise (expected_promise), both ways: a promise the step does not
// make, or none where it makes one.
Lie promise_lie(const Claim& c) {
    if (!c.report.result.verdict) return std::nullopt;  // ended before it judged (an error)
    const std::size_t i = c.report.index;
    const bool has_ref = i < c.run.requests.size() && c.run.requests[i].ref.has_value();
    const Promise expected = expected_promise(c.scenario, c.scenario_step(), has_ref, c.run.rules_hotkeys_by_intent);
    const Promise said = c.report.result.evidence.promise;
    if (said == expected) return std::nullopt;
    return c.name() + " reports the promise '" + std::string(name_of(said)) + "', but the action promises '" +
           std::string(name_of(expected)) + "' (V-9)";
}

// P-1: `changes` names exactly the readings that differ between the before and after it quotes
// (those quotes are held against the reads by readback_lie): "NAME" when both were read and
// differ, "NAME: (unreadable)" when one of the two was not read.
Lie changes_lie(const Claim& c) {
    const auto& ev = c.report.result.evidence;
    if (!ev.before || !ev.after) {
        if (ev.changes.empty()) return std::nullopt;
        return c.name() + " lists changes (" + ev.changes.front() + ") without both a before and an after reading (P-1)";
    }
    std::vector<std::string> expected;
    auto field = [&](const char* name, const auto& a, const auto& b) {
        if (a.has_value() != b.has_value()) expected.push_back(std::string(name) + ": (unreadable)");
        else if (a && *a != *b) expected.emplace_back(name);
    };
    field("value", ev.before->value, ev.after->value);
    field("selection", ev.before->selection, ev.after->selection);
    field("toggled", ev.before->toggled, ev.after->toggled);
    field("expanded", ev.before->expanded, ev.after->expanded);
    field("selected", ev.before->selected, ev.after->selected);
    field("dirty", ev.before->dirty, ev.after->dirty);
    if (ev.changes == expected) return std::nullopt;
    std::string listed, want;
    for (const auto& s : ev.changes) listed += (listed.empty() ? "" : ", ") + s;
    for (const auto& s : expected) want += (want.empty() ? "" : ", ") + s;
    return c.name() + " lists changes [" + listed + "], but its before and after differ in [" + want + "] (P-1)";
}

// ---- foreground (F-2) ----------------------------------------------------------------------------

struct Range {
    std::size_t changes_begin = 0, changes_end = 0;
    std::size_t requests_begin = 0, requests_end = 0;
    TimeMs began_ms = 0, ended_ms = 0;
};

bool tool_change_in(const History& run, std::size_t begin, std::size_t end, std::optional<WindowId> to = std::nullopt) {
    const auto& changes = run.truth().foreground_changes;
    for (std::size_t i = begin; i < end && i < changes.size(); ++i) {
        if (changes[i].by == sim::Actor::Tool && (!to || changes[i].to == *to)) return true;
    }
    return false;
}

// A foreground move the tool did not ask for: by the user, another window or an app — or by the
// desktop activating the window a real click of the tool landed on (no granted request for it).
const sim::ForegroundChange* unrequested_change_in(const History& run, const Range& g) {
    const auto& changes = run.truth().foreground_changes;
    const auto& requests = run.truth().foreground_requests;
    for (std::size_t i = g.changes_begin; i < g.changes_end && i < changes.size(); ++i) {
        const auto& c = changes[i];
        if (c.by != sim::Actor::Tool) return &c;
        bool requested = false;
        for (std::size_t k = g.requests_begin; k < g.requests_end && k < requests.size(); ++k) {
            const auto& r = requests[k];
            requested = requested || (r.answer == ForegroundAnswer::Granted && r.window == c.to && r.at_ms == c.at_ms);
        }
        if (!requested) return &c;
    }
    return nullptr;
}

// The window in front right after request `r` (index into foreground_requests): the last change at
// or before its time, else the scenario's first foreground.
// Only changes up to the end of the claim's range count: a later call may move it at the same ms.
WindowId front_after(const sim::Scenario& s, const History& run, const sim::ForegroundRequest& r, std::size_t changes_end) {
    WindowId front = s.foreground;
    const auto& changes = run.truth().foreground_changes;
    for (std::size_t i = 0; i < changes_end && i < changes.size(); ++i) {
        if (changes[i].at_ms > r.at_ms) break;
        front = changes[i].to;
    }
    return front;
}

// The move request `r` made, when it is a borrow: granted, it brought a window related to a target
// of its call to the front from one related to none (a give-back goes the other way).
const sim::ForegroundChange* borrow_made_by(const sim::Scenario& s, const History& run, const Range& g, const sim::ForegroundRequest& r) {
    if (r.answer != ForegroundAnswer::Granted) return nullptr;
    const auto& ch = run.truth().foreground_changes;
    const std::size_t index = static_cast<std::size_t>(&r - run.truth().foreground_requests.data());
    for (const auto& seg : run.segments) {
        if (index < seg.requests_begin || index >= seg.requests_end) continue;
        for (std::size_t i = g.changes_begin; i < g.changes_end && i < ch.size(); ++i) {
            const auto& c = ch[i];
            if (c.by == sim::Actor::Tool && c.at_ms == r.at_ms && c.to == r.window && c.from != no_window &&
                related_to_a_target(run, s, seg, c.to) && !related_to_a_target(run, s, seg, c.from)) {
                return &c;
            }
        }
    }
    return nullptr;
}

// F-2 restored:true: the last request of the range (the final give-back) was granted and the window
// it asked for held the front right after.
Lie restored_lie(const sim::Scenario& s, const History& run, const Range& g, const std::string& who) {
    const auto& requests = run.truth().foreground_requests;
    if (g.requests_end <= g.requests_begin || g.requests_end > requests.size()) {
        // Vacuous only when the tool borrowed from nothing (no window was in front to give back to).
        const auto& changes = run.truth().foreground_changes;
        for (std::size_t i = g.changes_begin; i < g.changes_end && i < changes.size(); ++i) {
            if (changes[i].by == sim::Actor::Tool && changes[i].from == no_window) return std::nullopt;
        }
        return who + " reports restored:true, but the tool made no give-back request (F-2)";
    }
    const auto& last = requests[g.requests_end - 1];
    if (const auto* borrow = borrow_made_by(s, run, g, last)) {
        return who + " reports restored:true, but its last foreground request (" + w_name(last.window) + " at " + t_at(last.at_ms) +
               ") is the borrow itself, from " + w_name(borrow->from) + ": no give-back request followed (F-2)";
    }
    if (last.answer != ForegroundAnswer::Granted) {
        return who + " reports restored:true, but the give-back request for " + w_name(last.window) + " at " +
               t_at(last.at_ms) + " was refused (" + last.reason + ") (F-2)";
    }
    const WindowId front = front_after(s, run, last, g.changes_end);
    if (front != last.window) {
        return who + " reports restored:true, but after the give-back to " + w_name(last.window) + " at " +
               t_at(last.at_ms) + " " + w_name(front) + " was in front (F-2)";
    }
    return std::nullopt;
}

// The last input (the user's, or a real key/click of the tool) at or before `t`, as the desktop's
// last-input clock counts it (F-1). The tool's own inputs at `t` itself count only when
// `tool_inputs_at_t`: at the end of a wait, those made at that same millisecond came after it.
TimeMs last_input_at(const sim::Scenario& s, const History& run, TimeMs t, bool tool_inputs_at_t) {
    TimeMs last = s.user_last_input_ms;
    for (const auto& e : run.truth().events) {
        if (e.at_ms > t || e.index >= s.events.size()) continue;
        const auto kind = s.events[e.index].kind;
        if (kind == sim::EventKind::UserTypes || kind == sim::EventKind::UserClicks) last = std::max(last, e.at_ms);
    }
    for (const auto& a : run.truth().attempts) {
        const bool before = a.at_ms < t || (tool_inputs_at_t && a.at_ms == t);
        if (before && a.outcome == sim::AttemptOutcome::Delivered && a.method == DeliveryMethod::RealInput) {
            last = std::max(last, a.at_ms);
        }
    }
    return last;
}

// F-1 waitedForUserMs = W: the wait began at w0 with the user busy (last input under 700 ms old),
// ended W later with the user idle (or at the 3 s limit), and the foreground request followed at
// once. With a borrow, some request of the range must be that request.
Lie waited_lie(const sim::Scenario& s, const History& run, const Range& g, const ForegroundEvidence& fg,
               const std::string& who) {
    if (!fg.waited_for_user_ms) return std::nullopt;
    const TimeMs w = *fg.waited_for_user_ms;
    const std::string what = who + " reports waitedForUserMs=" + std::to_string(w);
    if (w <= 0 || w > user_wait_ms_spec_max) return what + ", outside (0, 3000] (F-1)";
    if (w > g.ended_ms - g.began_ms) return what + ", longer than the call itself (F-1)";
    if (!(fg.borrowed && fg.by == "tool")) return std::nullopt;  // no request to anchor it (the target came forward)
    const auto& requests = run.truth().foreground_requests;
    for (std::size_t i = g.requests_begin; i < g.requests_end && i < requests.size(); ++i) {
        const TimeMs w1 = requests[i].at_ms;
        const TimeMs w0 = w1 - w;
        if (w0 < g.began_ms) continue;
        // The wait makes no input of its own: every tool input at w0 came before it, none at w1 did.
        const bool busy_at_start = w0 - last_input_at(s, run, w0, true) < user_idle_ms_spec;
        const bool idle_at_end = w1 - last_input_at(s, run, w1, false) >= user_idle_ms_spec || w == user_wait_ms_spec_max;
        if (busy_at_start && idle_at_end) return std::nullopt;
    }
    return what + ", but no foreground request follows a wait that long that began while the user was busy (F-1)";
}

// F-2 durationMs: within the call (a held borrow may date from an earlier step of the batch); for a
// single action's own borrow, exactly borrow to give-back.
Lie duration_lie(const Claim* step, const History& run, const Range& g, const ForegroundEvidence& fg,
                 const std::string& who) {
    if (!fg.borrowed) return std::nullopt;
    const std::string what = who + " reports durationMs=" + std::to_string(fg.duration_ms);
    if (fg.duration_ms < 0 || fg.duration_ms > g.ended_ms - g.began_ms) return what + ", outside the call's time (F-2)";
    // F-3: an app's grab lasts from the grab to its put-back at most — no longer than some move of
    // the front by someone other than the tool stood (until the next move, or the call's end).
    if (fg.by == "app") {
        const auto& ch = run.truth().foreground_changes;
        std::optional<TimeMs> longest;
        for (std::size_t i = g.changes_begin; i < g.changes_end && i < ch.size(); ++i) {
            if (ch[i].by == sim::Actor::Tool) continue;
            TimeMs until = i + 1 < ch.size() ? ch[i + 1].at_ms : g.ended_ms;
            if (i + 1 >= g.changes_end) until = std::max(until, g.ended_ms);
            longest = std::max(longest.value_or(0), until - ch[i].at_ms);
        }
        if (longest && fg.duration_ms > *longest) {
            return what + ", longer than any move of the front by someone other than the tool stood (" + std::to_string(*longest) +
                   " ms) (F-2, F-3)";
        }
    }
    if (step == nullptr || step->segment.batch || fg.by != "tool" || fg.held) return std::nullopt;
    const WindowId target = step->report.request.target;
    const auto& changes = run.truth().foreground_changes;
    std::optional<TimeMs> borrowed_at;
    for (std::size_t i = step->timing.changes_begin; i < step->timing.changes_end && i < changes.size() && !borrowed_at; ++i) {
        if (changes[i].by == sim::Actor::Tool && changes[i].to == target) borrowed_at = changes[i].at_ms;
    }
    if (!borrowed_at) return std::nullopt;  // judged by borrowed_lie
    const auto& requests = run.truth().foreground_requests;
    const sim::ForegroundRequest* give_back = nullptr;
    for (std::size_t i = step->timing.requests_begin; i < step->timing.requests_end && i < requests.size() && !give_back; ++i) {
        if (requests[i].window != target && requests[i].at_ms >= *borrowed_at) give_back = &requests[i];
    }
    // Someone else took the front off the target before any give-back: the borrow ended then, and
    // the tool can only see it at its next look, before the step ends.
    for (std::size_t i = step->timing.changes_begin; i < step->timing.changes_end && i < changes.size(); ++i) {
        const auto& c = changes[i];
        if (c.at_ms < *borrowed_at || c.from != target) continue;
        if (c.by == sim::Actor::Tool || (give_back != nullptr && c.at_ms >= give_back->at_ms)) break;
        const TimeMs least = c.at_ms - *borrowed_at;
        const TimeMs most = (give_back != nullptr ? give_back->at_ms : step->timing.ended_ms) - *borrowed_at;
        if (fg.duration_ms >= least && fg.duration_ms <= most) return std::nullopt;
        return what + ", but the borrow at " + t_at(*borrowed_at) + " ended when " + std::string(sim::to_string(c.by)) + " moved the front to " +
               w_name(c.to) + " at " + t_at(c.at_ms) + " (F-2)";
    }
    if (give_back != nullptr) {
        const TimeMs exact = give_back->at_ms - *borrowed_at;
        if (fg.duration_ms == exact) return std::nullopt;
        return what + ", but the borrow at " + t_at(*borrowed_at) + " was given back at " + t_at(give_back->at_ms) + " (F-2)";
    }
    return std::nullopt;  // no give-back request (another window had taken the front): the bounds above
}

// F-1 retriedAfterRefusal, from the ledger: in the range, a foreground request the desktop refused,
// then the F24 key pressed (a real key press on no window, outside any step, delivered), then a
// request for the same window again. A press that failed or threw is no retry.
bool retried_after_refusal_in(const History& run, const Range& g) {
    const auto& requests = run.truth().foreground_requests;
    const auto& attempts = run.truth().attempts;
    const std::size_t end = std::min(g.requests_end, requests.size());
    for (std::size_t i = g.requests_begin; i < end; ++i) {
        if (requests[i].answer != ForegroundAnswer::Refused) continue;
        for (std::size_t j = i + 1; j < end; ++j) {
            if (requests[j].window != requests[i].window) continue;
            for (std::size_t k = requests[i].attempts_before; k < requests[j].attempts_before && k < attempts.size(); ++k) {
                const auto& a = attempts[k];
                if (a.step == sim::no_step && a.method == DeliveryMethod::RealInput && a.window == no_window &&
                    a.outcome == sim::AttemptOutcome::Delivered) {
                    return true;
                }
            }
            break;
        }
    }
    return false;
}

// F-2, F-3 the other way: an app's grab put back is reported restored. The last move of the front
// in the claim's range by someone other than the tool took it from window Y; every move after it is
// the tool's, the last one onto Y; so Y held the front again when the call answered.
Lie app_restore_left_out(const History& run, const Range& g, const ForegroundEvidence& fg, const std::string& who) {
    if (!fg.borrowed || fg.by != "app" || fg.restored) return std::nullopt;
    const auto& changes = run.truth().foreground_changes;
    const std::size_t end = std::min(g.changes_end, changes.size());
    std::optional<std::size_t> grab;
    for (std::size_t i = g.changes_begin; i < end; ++i) {
        if (changes[i].by != sim::Actor::Tool) grab = i;
    }
    if (!grab || *grab + 1 >= end) return std::nullopt;
    const auto& taken = changes[*grab];
    const auto& put_back = changes[end - 1];
    if (taken.from == no_window || put_back.to != taken.from) return std::nullopt;
    return who + " says the front was not restored, but after " + w_name(taken.to) + " took it from " + w_name(taken.from) + " at " +
           t_at(taken.at_ms) + " the tool put it back at " + t_at(put_back.at_ms) + ", and nobody moved it again before the answer (F-2, F-3)";
}

Lie foreground_lie(const sim::Scenario& s, const History& run, const Range& g, const Range& since_segment,
                   const ForegroundEvidence& fg, const Claim* step, const std::string& who) {
    if (fg.retried_after_refusal && !retried_after_refusal_in(run, since_segment)) {
        return who + " reports retriedAfterRefusal, but no request was refused, followed by F24 and asked again (F-1)";
    }
    if (fg.unchanged && fg.borrowed) return who + " reports both unchanged:true and borrowed:true (F-2)";
    // F-2's shape: either nothing was borrowed (unchanged:true) or a borrow by the tool or the app.
    if (!fg.unchanged && !fg.borrowed) return who + " reports unchanged:false without a borrow (F-2: which was it?)";
    if (fg.borrowed != (fg.by == "tool" || fg.by == "app")) {
        return who + (fg.borrowed ? " reports a borrow without saying by whom (by:tool or by:app, F-2, F-3)"
                                  : " says by:" + fg.by + " of a borrow it does not report (F-2)");
    }
    if (fg.borrowed && fg.by == "tool" && !tool_change_in(run, since_segment.changes_begin, g.changes_end)) {
        return who + " reports borrowed by the tool, but the tool moved no window to the front (F-2)";
    }
    if (fg.borrowed && fg.by == "app" && unrequested_change_in(run, since_segment) == nullptr) {
        return who + " reports the app took the foreground (by:app), but only the tool's requests moved it (F-3)";
    }
    if (fg.changed_by && unrequested_change_in(run, since_segment) == nullptr) {
        return who + " reports changedBy:" + *fg.changed_by + ", but nobody but the tool moved the foreground (F-4)";
    }
    if (fg.borrowed && fg.restored) {
        if (auto lie = restored_lie(s, run, g, who)) return lie;
    }
    if (auto lie = app_restore_left_out(run, g, fg, who)) return lie;
    if (auto lie = duration_lie(step, run, since_segment, fg, who)) return lie;
    return waited_lie(s, run, since_segment, fg, who);
}

// `w` had the front since the call began, by the time `at`: when the call began, or moved there by
// someone other than the tool. A request for it is a give-back (F-1, F-4), not a borrow.
bool had_the_front(const Claim& c, WindowId w, TimeMs at) {
    if (c.segment.foreground_before == w) return true;
    const auto& changes = c.truth().foreground_changes;
    for (std::size_t i = c.segment.changes_begin; i < changes.size() && changes[i].at_ms <= at; ++i) {
        if (changes[i].to == w && changes[i].by != sim::Actor::Tool) return true;
    }
    return false;
}

// The desktop answered a last-input query of the step with an input under 700 ms old (SPEC F-1's
// constant), and a borrow of the step's target (not a give-back) followed later in the step: what it
// said, or nullopt.
std::optional<std::string> told_busy_before_request(const Claim& c) {
    const auto& t = c.timing;
    const auto& truth = c.truth();
    const WindowId target = c.report.request.target;
    for (const auto& q : truth.idle_queries) {
        // The step's queries: in its time, after its first request's place (a query of the step
        // before at the same instant came before that step's own request).
        if (q.at_ms < t.began_ms || q.at_ms > t.ended_ms || q.requests_before < t.requests_begin) continue;
        if (q.at_ms - q.last_input_ms >= user_idle_ms_spec) continue;
        for (std::size_t i = q.requests_before; i < t.requests_end && i < truth.foreground_requests.size(); ++i) {
            const auto& r = truth.foreground_requests[i];
            if (r.window == target && !had_the_front(c, target, r.at_ms)) {
                return "at " + t_at(q.at_ms) + " the last input was " + std::to_string(q.at_ms - q.last_input_ms) +
                       " ms old, and the front of " + w_name(target) + " was asked for at " + t_at(r.at_ms);
            }
        }
    }
    return std::nullopt;
}

// F-2 the other way: the tool brought the step's target to the front during the step from a window
// related to none of the call's targets (a borrow, not a move of the hold nor an app's grab put
// back): the step reports a borrow. A single action that gave it back, with nobody else moving the
// front during the step and its first window in front again as it answered, reports it restored.
Lie borrow_left_out(const Claim& c) {
    const auto& fg = c.report.result.evidence.foreground;
    const auto& t = c.timing;
    const auto& changes = c.truth().foreground_changes;
    const WindowId target = c.report.request.target;
    const sim::ForegroundChange* borrow = nullptr;
    bool others = false;
    for (std::size_t i = t.changes_begin; i < t.changes_end && i < changes.size(); ++i) {
        const auto& ch = changes[i];
        others = others || ch.by != sim::Actor::Tool;
        if (borrow == nullptr && ch.by == sim::Actor::Tool && ch.to == target && !related_to_a_target(c.run, c.scenario, c.segment, ch.from)) borrow = &ch;
    }
    if (borrow == nullptr) return std::nullopt;
    if (!fg.borrowed) {
        return c.name() + " leaves out its borrow: the tool brought " + w_name(target) + " to the front from " + w_name(borrow->from) +
               " at " + t_at(borrow->at_ms) + " (F-2)";
    }
    const bool back = t.after.foreground == borrow->from;
    if (!c.segment.batch && fg.by == "tool" && !fg.restored && !others && back && tool_change_in(c.run, t.changes_begin, t.changes_end, borrow->from)) {
        return c.name() + " says the front was not restored, but the tool gave it back to " + w_name(borrow->from) +
               ", which was in front when the step answered, and nobody else moved it (F-2)";
    }
    return std::nullopt;
}


// F-4's "another window" as SPEC words it: a move of the front by someone other than the tool (the
// user, another window, an app) to a window related to no target of the call, nor to any window a
// step had delivered to before it (a window of such an app coming forward is that app's reaction,
// F-3).
bool another_windows_move(const sim::Scenario& s, const History& run, const Segment& seg, const sim::ForegroundChange& c) {
    if (c.by == sim::Actor::Tool || c.to == no_window || related_to_a_target(run, s, seg, c.to)) return false;
    const auto& attempts = run.truth().attempts;
    for (std::size_t i = 0; i < c.attempts_before && i < attempts.size(); ++i) {
        const auto& a = attempts[i];
        if (a.step >= 0 && a.outcome == sim::AttemptOutcome::Delivered && related_window(s, c.to, a.window)) return false;
    }
    return true;
}

// The time of the tool's next act after foreground change `c` within a range: its next foreground
// request or delivery attempt at or after the change; `until` when it made none. `acted` says
// whether there was one.
TimeMs next_act_after(const History& run, const sim::ForegroundChange& c, std::size_t requests_begin, std::size_t requests_end,
                      std::size_t attempts_end, TimeMs until, bool& acted) {
    const auto& requests = run.truth().foreground_requests;
    const auto& attempts = run.truth().attempts;
    TimeMs next = until;
    acted = false;
    for (std::size_t k = requests_begin; k < requests_end && k < requests.size(); ++k) {
        if (requests[k].at_ms >= c.at_ms && requests[k].attempts_before >= c.attempts_before) {
            next = std::min(next, requests[k].at_ms);
            acted = true;
        }
    }
    if (c.attempts_before < attempts_end && c.attempts_before < attempts.size()) {
        next = std::min(next, attempts[c.attempts_before].at_ms);
        acted = true;
    }
    return next;
}

// Change `i` was undone or overtaken before the tool's next act at `next`: a later change came
// before it (or someone else's at that very ms, before the tool looked).
bool superseded_before(const std::vector<sim::ForegroundChange>& ch, std::size_t i, std::size_t end, TimeMs next) {
    for (std::size_t j = i + 1; j < end && j < ch.size(); ++j) {
        if (ch[j].at_ms < next || (ch[j].by != sim::Actor::Tool && ch[j].at_ms <= next)) return true;
    }
    return false;
}

Lie held_after_someone_else(const Claim& c);
Lie another_window_left_out(const Claim& c);
Lie pointer_left_moved(const Claim& c);

Lie step_foreground_lie(const Claim& c) {
    const auto& fg = c.report.result.evidence.foreground;
    const auto& t = c.timing;
    const auto& seg = c.segment;
    const Range step{t.changes_begin, t.changes_end, t.requests_begin, t.requests_end, t.began_ms, t.ended_ms};
    const Range since{seg.changes_begin, t.changes_end, seg.requests_begin, t.requests_end, seg.began_ms, t.ended_ms};
    if (auto lie = borrow_left_out(c)) return lie;
    if (fg.unchanged && tool_change_in(c.run, t.changes_begin, t.changes_end)) {
        return c.name() + " reports the foreground unchanged:true, but the tool moved it during the step (F-2)";
    }
    // Both ways: a single action's evidence covers all of its own requests (borrow, give-back, the
    // F-3 watch), so a refusal it answered with F24 and a second request is a claim it must make.
    if (!seg.batch && !fg.retried_after_refusal && retried_after_refusal_in(c.run, step)) {
        return c.name() + " leaves out retriedAfterRefusal: a request was refused, F24 pressed and the request made again "
                          "during the step (F-1)";
    }
    // F-1 the other way: the desktop told the step the user was busy (an input under 700 ms old) and
    // a request for the target's front followed in the step: the tool waited, and says how long.
    if (!fg.waited_for_user_ms && fg.borrowed && fg.by == "tool") {
        if (auto busy = told_busy_before_request(c)) return c.name() + " leaves out waitedForUserMs: " + *busy + " (F-1)";
    }
    // F-5: a hold is a batch's; a batch step the tool borrowed for keeps it (unless it failed: then
    // it gave back), and says whom it owes the front to — a window that held the front in the call.
    if (fg.held && !seg.batch) return c.name() + " reports the foreground held, outside a batch (F-5)";
    if (fg.held && !fg.borrowed) return c.name() + " reports the foreground held without a borrow (F-5)";
    if (seg.batch && fg.borrowed && fg.by == "tool" && !fg.held && c.report.result.ok) {
        return c.name() + " leaves out that the batch holds the front it borrowed for its next steps (F-5)";
    }
    if (fg.held && !fg.prev) return c.name() + " holds the front without saying whom it goes back to (F-5)";
    if (fg.prev) {
        const auto& ch = c.run.truth().foreground_changes;
        bool was_front = *fg.prev == seg.foreground_before;
        for (std::size_t i = seg.changes_begin; i < t.changes_end && i < ch.size() && !was_front; ++i) {
            was_front = ch[i].from == *fg.prev || ch[i].to == *fg.prev;
        }
        if (!was_front) return c.name() + " owes the front to " + w_name(*fg.prev) + ", which never held it during the call (F-5)";
    }
    // A held borrow (F-5) may date from an earlier step of the batch; an own borrow is in the step.
    const bool own = !fg.held && !seg.batch;
    if (own && fg.borrowed && fg.by == "tool" && !tool_change_in(c.run, t.changes_begin, t.changes_end, c.report.request.target)) {
        return c.name() + " reports borrowed by the tool, but the tool did not bring " + w_name(c.report.request.target) +
               " to the front during the step (F-2)";
    }
    // F-1 in a batch: the borrow this very step made (its target brought forward by the tool within
    // the step) was refused, F24 pressed and the request made again: the step says so.
    if (seg.batch && fg.borrowed && fg.by == "tool" && !fg.retried_after_refusal &&
        tool_change_in(c.run, t.changes_begin, t.changes_end, c.report.request.target) && retried_after_refusal_in(c.run, step)) {
        return c.name() + " leaves out retriedAfterRefusal: its own borrow was refused, F24 pressed and the request made again (F-1)";
    }
    // F-5, F-7: a batch holds the front only for a control that needs it: a WPF-like window's (the
    // others take their input in the background, E-4).
    if (fg.held) {
        const auto* w = sim::find_window(c.scenario, c.report.request.target);
        if (w != nullptr && w->framework != Framework::Wpf) {
            return c.name() + " reports the foreground held, but " + w_name(c.report.request.target) +
                   " takes its input in the background: no borrow to hold (F-5, F-7)";
        }
    }
    if (auto lie = another_window_left_out(c)) return lie;
    if (auto lie = pointer_left_moved(c)) return lie;
    if (auto lie = held_after_someone_else(c)) return lie;
    return foreground_lie(c.scenario, c.run, step, since, fg, &c, c.name());
}

// F-4 per step, both ways: someone else moved the front during the step to another window (F-4's,
// see another_windows_move) — not back to the window in front when the step began — and it still
// stood at the tool's next act (a foreground request, a delivery attempt) or, for a step that does
// not hold the front, when the step answered: the tool saw it, and the step reports changedBy.
Lie another_window_left_out(const Claim& c) {
    const auto& fg = c.report.result.evidence.foreground;
    if (fg.changed_by) return std::nullopt;
    const auto& t = c.timing;
    const auto& ch = c.run.truth().foreground_changes;
    for (std::size_t i = t.changes_begin; i < t.changes_end && i < ch.size(); ++i) {
        const auto& m = ch[i];
        if (m.to == t.before.foreground || !another_windows_move(c.scenario, c.run, c.segment, m)) continue;
        // A move onto the window the step had itself asked the front back for (a give-back the
        // desktop refused): the tool cannot tell it from its own request taking effect, as for the batch.
        const auto& requests = c.run.truth().foreground_requests;
        bool asked = false;
        for (std::size_t k = t.requests_begin; k < t.requests_end && k < requests.size(); ++k) {
            asked = asked || (requests[k].at_ms <= m.at_ms && requests[k].window == m.to);
        }
        if (asked) continue;
        bool acted = false;
        const TimeMs next = next_act_after(c.run, m, t.requests_begin, t.requests_end, t.attempts_end, t.ended_ms, acted);
        if (fg.held && !acted) continue;  // a held step does not look again after its delivery
        if (superseded_before(ch, i, t.changes_end, next)) continue;
        return c.name() + " leaves out changedBy: " + std::string(sim::to_string(m.by)) + " moved the front to " + w_name(m.to) + " at " +
               t_at(m.at_ms) + ", and it was still there when the tool next looked (F-4)";
    }
    return std::nullopt;
}

// E-5: a real click puts the pointer back. Walking the run's real clicks and the cursor's moves in
// order, the tool's move to this step's click point, at the click, is followed at once by its move
// back to where the pointer was before.
Lie pointer_left_moved(const Claim& c) {
    const auto& moves = c.truth().cursor_moves;
    const auto& t = c.timing;
    std::size_t next = 0;
    for (const auto& d : c.truth().delivered) {
        if (d.method != DeliveryMethod::RealInput || !d.point || d.step < 0) continue;
        std::optional<std::size_t> k;
        for (std::size_t j = next; j < moves.size() && !k; ++j) {
            if (moves[j].at_ms == d.at_ms && moves[j].by == sim::Actor::Tool && moves[j].to == *d.point) k = j;
        }
        if (!k) continue;
        const bool known = *k > 0;  // where the pointer was before the click
        const Point before = known ? moves[*k - 1].to : Point{};
        const bool back = known && *k + 1 < moves.size() && moves[*k + 1].by == sim::Actor::Tool && moves[*k + 1].to == before &&
                          moves[*k + 1].at_ms == d.at_ms;
        next = back ? *k + 2 : *k + 1;  // the move back is no later click's move to its point
        if (d.step != c.step() || d.at_ms < t.began_ms || d.at_ms > t.ended_ms || !known) continue;
        if (!back) {
            return c.name() + " made a real click at " + t_at(d.at_ms) + " and did not put the pointer back to (" + std::to_string(before.x) +
                   "," + std::to_string(before.y) + ") (E-5)";
        }
    }
    return std::nullopt;
}

// F-4, F-5: a batch step says it holds the front, but the last move of the front up to its answer
// was someone else's (F-4), and the tool saw it — it came before the step began (each step looks at
// the front as it begins), or the step reports it (changedBy) and it is the only such move: the
// front is theirs, not the batch's.
Lie held_after_someone_else(const Claim& c) {
    const auto& fg = c.report.result.evidence.foreground;
    const auto& t = c.timing;
    const auto& seg = c.segment;
    if (!seg.batch || !fg.held || t.changes_end <= seg.changes_begin) return std::nullopt;
    const auto& ch = c.run.truth().foreground_changes;
    const std::size_t last = t.changes_end - 1;
    if (last >= ch.size() || ch[last].by == sim::Actor::App) return std::nullopt;
    // Seen: before the step began (the tool looks at every step start), or named by the step's
    // changedBy when it is the segment's only move by anyone but the tool (an app's grab the tool
    // also reports would leave it unclear which move the changedBy names).
    std::size_t moves = 0;
    for (std::size_t j = seg.changes_begin; j < t.changes_end && j < ch.size(); ++j) moves += ch[j].by != sim::Actor::Tool ? 1 : 0;
    const bool seen = last < t.changes_begin || (fg.changed_by.has_value() && moves == 1);
    if (!seen || !someone_elses_move(c.scenario, c.run, seg, last)) return std::nullopt;
    return c.name() + " reports the front held, but " + std::string(sim::to_string(ch[last].by)) + " moved it to " + w_name(ch[last].to) +
           " at " + t_at(ch[last].at_ms) + " and nobody moved it since (F-4, F-5)";
}

// F-5: while a batch holds the front (a step answered ok with held:true, and neither the user nor
// another window moved the front since — to any window, a batch target's too: the front is then
// theirs), the tool does not give it back to the window it was taken from before the batch's last
// step: the give-back is the batch's, once, at its end.
Lie give_back_mid_batch(const History& run, const Segment& seg) {
    if (!seg.batch || seg.reports.size() < 2) return std::nullopt;
    const auto& ch = run.truth().foreground_changes;
    bool holding = false;
    std::vector<WindowId> held_targets;  // every window a step of the batch held: the front moved back onto one stays the batch's
    for (std::size_t x = 0; x + 1 < seg.reports.size(); ++x) {
        const auto& rep = run.steps[seg.reports[x]];
        const auto& t = run.timings[seg.reports[x]];
        bool taken = false;  // the user or another window moved the front during this step (it may not have seen it)
        for (std::size_t j = t.changes_begin; j < t.changes_end && j < ch.size(); ++j) {
            if (ch[j].by == sim::Actor::User || ch[j].by == sim::Actor::AnotherWindow) {
                holding = false;
                taken = true;
            }
            if (holding && ch[j].by == sim::Actor::Tool && ch[j].to == seg.foreground_before && ch[j].to != rep.request.target &&
                std::find(held_targets.begin(), held_targets.end(), ch[j].to) == held_targets.end()) {
                return "step " + std::to_string(rep.index) + ": the tool gave the front back to " + w_name(ch[j].to) + " at " + t_at(ch[j].at_ms) +
                       " while the batch held it and had more steps to run (F-5)";
            }
        }
        if (rep.result.evidence.foreground.held && rep.result.ok) held_targets.push_back(rep.request.target);
        if (rep.result.evidence.foreground.held && rep.result.ok && !taken) {
            holding = true;
        }
    }
    return std::nullopt;
}

// F-4 for the batch, both ways: someone else took the front from the batch's held borrow — the
// change right before was the tool's move onto a window a step of the batch then held (held:true),
// and the taker is another window (another_windows_move) that the tool had not itself asked the
// front back for — and it still stood at the tool's next act (or the batch's end): the batch
// reports changedBy.
Lie batch_left_out_another_window(const sim::Scenario& s, const History& run, const Segment& seg, const BatchReport& b) {
    if (b.foreground.changed_by || b.borrows == 0) return std::nullopt;
    const auto& ch = run.truth().foreground_changes;
    const auto& requests = run.truth().foreground_requests;
    for (std::size_t i = seg.changes_begin + 1; i < seg.changes_end && i < ch.size(); ++i) {
        const auto& m = ch[i];
        const auto& onto = ch[i - 1];
        if (onto.by != sim::Actor::Tool || onto.to != m.from || !related_to_a_target(run, s, seg, m.from)) continue;
        bool while_held = false;
        for (const std::size_t k : seg.reports) {
            const auto& tk = run.timings[k];
            if (!run.steps[k].result.evidence.foreground.held || run.steps[k].request.target != onto.to) continue;
            while_held = while_held || (i - 1 >= tk.changes_begin && i - 1 < tk.changes_end);
        }
        if (!while_held || !another_windows_move(s, run, seg, m)) continue;
        bool asked = false;
        for (std::size_t k = seg.requests_begin; k < seg.requests_end && k < requests.size(); ++k) {
            asked = asked || (requests[k].at_ms <= m.at_ms && requests[k].window == m.to);
        }
        if (asked) continue;  // a give-back the desktop had refused: the tool's own doing
        bool acted = false;
        const TimeMs next = next_act_after(run, m, seg.requests_begin, seg.requests_end, run.truth().attempts.size(), seg.ended_ms, acted);
        if (superseded_before(ch, i, seg.changes_end, std::min(next, seg.ended_ms))) continue;
        return "the batch leaves out changedBy: " + std::string(sim::to_string(m.by)) + " took the held front to " + w_name(m.to) + " at " +
               t_at(m.at_ms) + ", and it was still there when the tool next looked (F-4)";
    }
    return std::nullopt;
}

// F-4, F-5: a step that holds the front does not look at it again after its delivery; the next step
// does, as it begins. Another window (another_windows_move) that took the front after the held
// step's last act and still had it when the next step of the batch began was seen then: the held
// step or that next step reports changedBy (after the batch's last step: the batch report).
Lie held_front_taken_unreported(const sim::Scenario& s, const History& run, const Segment& seg, const BatchReport& b) {
    const auto& ch = run.truth().foreground_changes;
    for (std::size_t x = 0; x < seg.reports.size(); ++x) {
        const auto& rep = run.steps[seg.reports[x]];
        const auto& t = run.timings[seg.reports[x]];
        if (!rep.result.ok || !rep.result.evidence.foreground.held || rep.result.evidence.foreground.changed_by) continue;
        const bool last = x + 1 == seg.reports.size();
        const std::size_t look = last ? seg.changes_end : run.timings[seg.reports[x + 1]].changes_begin;
        if (look == 0 || look <= t.changes_begin || look - 1 >= ch.size()) continue;
        const std::size_t i = look - 1;  // the last move before the next look: it stood then
        if (i >= t.changes_end || !another_windows_move(s, run, seg, ch[i])) continue;
        bool acted = false;
        next_act_after(run, ch[i], t.requests_begin, t.requests_end, t.attempts_end, t.ended_ms, acted);
        if (acted) continue;  // judged within the step (another_window_left_out)
        if (last) {
            if (b.foreground.changed_by) continue;
        } else {
            const auto& next = run.steps[seg.reports[x + 1]];
            const auto& nt = run.timings[seg.reports[x + 1]];
            if (nt.before.foreground != ch[i].to || next.result.evidence.foreground.changed_by) continue;
        }
        return "step " + std::to_string(rep.index) + " held the front, " + std::string(sim::to_string(ch[i].by)) + " took it to " + w_name(ch[i].to) +
               " at " + t_at(ch[i].at_ms) + " and it was still there when the batch next looked, but neither that step nor " +
               (last ? std::string("the batch report") : "step " + std::to_string(run.steps[seg.reports[x + 1]].index)) + " reports changedBy (F-4)";
    }
    return std::nullopt;
}

// F-2, F-4: a batch's held borrow (the move `last`, made in seg.reports[by_step]) that someone else
// took and kept until the batch had surely looked, with no request for the front after it: its
// durationMs lies between that move and that look.
Lie lost_hold_duration_lie(const sim::Scenario& s, const History& run, const Segment& seg, const ForegroundEvidence& fg,
                           std::size_t by_step, std::size_t last_move) {
    const auto& ch = run.truth().foreground_changes;
    // The first move off the borrowed window after the borrow.
    const std::size_t i = last_move + 1;
    if (i >= seg.changes_end || i >= ch.size() || ch[i].from != ch[last_move].to || ch[i].by == sim::Actor::Tool) return std::nullopt;
    // When the batch had surely looked: as the first later step began after the move (every step
    // looks at the front as it begins) when another window (F-4's) took it; the batch's end otherwise.
    // A move onto a window related to a target of the call may be taken for the target's own app
    // (F-3): the batch may notice it only later, up to its end.
    TimeMs look = seg.ended_ms;
    std::size_t look_changes = seg.changes_end;
    const bool unrelated = another_windows_move(s, run, seg, ch[i]);
    for (std::size_t x = by_step + 1; x < seg.reports.size() && unrelated; ++x) {
        const auto& tx = run.timings[seg.reports[x]];
        if (tx.changes_begin > i) {
            look = tx.began_ms;
            look_changes = tx.changes_begin;
            break;
        }
    }
    if (i + 1 < look_changes && i + 1 < ch.size()) return std::nullopt;  // moved again before the look: not judged here
    // The tool asked for the front again after the borrow (a give-back, refused or not, to whatever
    // window — the target itself when it was the owner — or a put-back): the borrow's time may run to
    // that request (judged as a give-back's, duration_lie).
    const auto& requests = run.truth().foreground_requests;
    for (std::size_t k = seg.requests_begin; k < seg.requests_end && k < requests.size(); ++k) {
        if (requests[k].at_ms > ch[last_move].at_ms || (requests[k].at_ms == ch[last_move].at_ms && requests[k].window != ch[last_move].to)) return std::nullopt;
    }
    const TimeMs least = ch[i].at_ms - ch[last_move].at_ms;
    const TimeMs most = look - ch[last_move].at_ms;
    if (fg.duration_ms >= least && fg.duration_ms <= most) return std::nullopt;
    return "the batch reports durationMs=" + std::to_string(fg.duration_ms) + " for its borrow at " + t_at(ch[last_move].at_ms) + ", but " +
           std::string(sim::to_string(ch[i].by)) + " took the front to " + w_name(ch[i].to) + " at " + t_at(ch[i].at_ms) +
           " and the batch next looked at " + t_at(look) + ": between " + std::to_string(least) + " and " + std::to_string(most) + " ms (F-2, F-4)";
}

// F-1, F-2 for the batch, the other way: the borrow a batch reports (borrowed by the tool) is its
// last one — the last move by the tool of a step's target to the front within that step (a move of
// the held front from one target to the next included). What the ledger shows of it is claimed:
//  - the step was told the user was busy before asking for the target's front: waitedForUserMs;
//  - its request was refused, F24 pressed and the request made again before it: retriedAfterRefusal;
//  - not restored, with no request for the front after it (no give-back, no put-back): someone
//    other than the tool took the front from the target and kept it until the batch had surely
//    looked (as its next step began, or at its end): the hold was lost to them (F-4), and durationMs
//    runs from the borrow to at least that move, at most that look.
Lie batch_borrow_left_out(const sim::Scenario& s, const History& run, const Segment& seg, const BatchReport& b) {
    const auto& fg = b.foreground;
    if (!fg.borrowed || fg.by != "tool") return std::nullopt;
    const auto& ch = run.truth().foreground_changes;
    std::optional<std::size_t> last;  // the last borrow's change
    std::optional<std::size_t> by_step;  // the position in seg.reports of the step that made it
    for (std::size_t x = 0; x < seg.reports.size(); ++x) {
        const auto& rep = run.steps[seg.reports[x]];
        const auto& t = run.timings[seg.reports[x]];
        for (std::size_t i = t.changes_begin; i < t.changes_end && i < ch.size(); ++i) {
            if (ch[i].by == sim::Actor::Tool && ch[i].to == rep.request.target) {
                last = i;
                by_step = x;
            }
        }
    }
    if (!last) return std::nullopt;
    // A move right back over someone else's (an app's grab, or a move the tool takes for one: F-3's
    // put-back onto a target that had the front) is the step's own account, not a borrow: which
    // borrow the batch reports is then not judged here.
    if (*last > 0 && ch[*last - 1].by != sim::Actor::Tool && ch[*last - 1].to == ch[*last].from) return std::nullopt;
    const Claim c{s, run, run.steps[seg.reports[*by_step]], run.timings[seg.reports[*by_step]], seg};
    const auto& t = c.timing;
    if (!fg.waited_for_user_ms) {
        if (auto busy = told_busy_before_request(c)) {
            return "the batch leaves out waitedForUserMs of its borrow in " + c.name() + ": " + *busy + " (F-1)";
        }
    }
    if (!fg.retried_after_refusal) {
        // The requests of that step up to the one that brought the target forward.
        const auto& requests = run.truth().foreground_requests;
        std::size_t upto = t.requests_begin;
        while (upto < t.requests_end && upto < requests.size() && requests[upto].at_ms <= ch[*last].at_ms) ++upto;
        if (retried_after_refusal_in(run, Range{t.changes_begin, *last + 1, t.requests_begin, upto, t.began_ms, ch[*last].at_ms})) {
            return "the batch leaves out retriedAfterRefusal: its borrow in " + c.name() +
                   " was refused, F24 pressed and the request made again (F-1)";
        }
    }
    if (fg.restored) return std::nullopt;
    return lost_hold_duration_lie(s, run, seg, fg, *by_step, *last);
}

Lie batch_foreground_lie(const sim::Scenario& s, const History& run, const Segment& seg) {
    if (!seg.batch_report || *seg.batch_report >= run.batches.size()) return std::nullopt;
    const BatchReport& b = run.batches[*seg.batch_report];
    const auto& fg = b.foreground;
    const Range g{seg.changes_begin, seg.changes_end, seg.requests_begin, seg.requests_end, seg.began_ms, seg.ended_ms};
    // F-2, F-5: the evidence agrees with the counts: a give-back needs a borrow, and a batch that
    // says it gave the front back does not say it was not restored.
    if ((b.give_backs >= 1 || b.borrows >= 1) && fg.unchanged) {
        return "the batch counts " + std::to_string(b.borrows) + " borrow(s) and " + std::to_string(b.give_backs) +
               " give-back(s), but reports the foreground unchanged:true (F-2, F-5)";
    }
    if (b.foreground_returned && b.borrows >= 1 && fg.borrowed && !fg.restored) {
        return std::string("the batch says it gave the front back (foregroundReturned), but its evidence says not restored (F-2, F-5)");
    }
    // F-2, F-3: after its last step the batch's own moves are its give-back and its watch's put-backs.
    const std::size_t after_steps = seg.reports.empty() ? seg.changes_begin : run.timings[seg.reports.back()].changes_end;
    if (fg.unchanged && tool_change_in(run, after_steps, g.changes_end)) {
        return std::string("the batch reports the foreground unchanged:true, but the tool moved it after its last step (F-2, F-3)");
    }
    if (auto lie = batch_left_out_another_window(s, run, seg, b)) return lie;
    if (auto lie = held_front_taken_unreported(s, run, seg, b)) return lie;
    if (auto lie = batch_borrow_left_out(s, run, seg, b)) return lie;
    return foreground_lie(s, run, g, g, fg, nullptr, "the batch");
}

// A single action sent through write_once: its evidence covers the whole call (the step and the
// watched reconciling wait, WriteReport::foreground), so it is judged on the segment's range. The
// step's claim lends the exact borrow-to-give-back durationMs of the step's own borrow (F-2).
Lie write_foreground_lie(const sim::Scenario& s, const History& run, const Segment& seg, const Claim* step) {
    if (!seg.write) return std::nullopt;
    const auto& fg = seg.write->foreground;
    const std::string who = "the write of " + (step != nullptr ? step->name() : std::string("a single action"));
    const Range g{seg.changes_begin, seg.changes_end, seg.requests_begin, seg.requests_end, seg.began_ms, seg.ended_ms};
    if (fg.unchanged && tool_change_in(run, g.changes_begin, g.changes_end)) {
        return who + " reports the foreground unchanged:true, but the tool moved it during the call (F-2)";
    }
    if (step != nullptr) {
        // F-4 for the whole call: it covers the step, so another window's move the step had to
        // report (it still stood when the tool next looked) is the call's to report too.
        StepReport as_call = step->report;
        as_call.result.evidence.foreground = fg;
        if (auto lie = another_window_left_out(Claim{s, run, as_call, step->timing, seg})) return who + ": " + *lie;
    }
    return foreground_lie(s, run, g, g, fg, step, who);
}

// ---- the verdict as a write outcome (W-1) --------------------------------------------------------

// The promised effect of this very report (an agent retry shares the step's index), landed at any
// time — the runner lets pending effects land after the tool returned.
const sim::Effect* effect_of_report(const Claim& c, EffectKind kind) {
    const auto& attempts = c.truth().attempts;
    const auto& step = c.scenario_step();
    for (const auto& e : c.truth().effects) {
        if (e.step != c.step() || e.kind != kind || e.window != step.window || e.element != *step.control) continue;
        for (std::size_t i = c.timing.attempts_begin; i < c.timing.attempts_end && i < attempts.size(); ++i) {
            const auto& a = attempts[i];
            if (a.step == c.step() && a.outcome == sim::AttemptOutcome::Delivered && e.delivered_at_ms == a.at_ms) return &e;
        }
    }
    return nullptr;
}

// Why the ledger cannot blame the tool for a not_done said of an effect that landed: a fault the
// tool does not promise to survive stood between the effect and the tool's reads (STYLE 5).
std::optional<std::string> hidden_by_a_fault(const Claim& c, const sim::Effect& landed) {
    if (landed.overrun) return "a not_done step's effect landed beyond its app's declared latency bound (S-7)";
    const auto& step = c.scenario_step();
    for (const auto& e : c.truth().effects) {
        if (e.window != step.window || e.element != landed.element || e.at_ms < c.timing.began_ms ||
            e.at_ms > c.timing.ended_ms || &e == &landed) {
            continue;
        }
        if (e.overrun) return "another delivery's effect undid a not_done step's effect, beyond its app's latency bound (S-7)";
        if (e.by == sim::Actor::User) return "the user changed a not_done step's element while it ran (W-5)";
    }
    const auto& reads = c.truth().reads;
    for (std::size_t i = c.timing.reads_begin; i < c.timing.reads_end && i < reads.size(); ++i) {
        const auto& r = reads[i];
        if (r.window == step.window && r.element == landed.element && r.fault == sim::ReadFault::Stale) {
            return "a stale read (S-7) of a not_done step's element fed its verdict";
        }
    }
    return std::nullopt;
}

struct WriteOutcome {
    Lie lie;
    std::optional<std::string> cannot_judge;
};

WriteOutcome write_outcome_lie(const Claim& c) {
    const auto& v = c.report.result.verdict;
    if (!v || *v == Verdict::Unknown) return {};
    if (*v == Verdict::Confirmed && !first_attempt(c, true)) {
        return {c.name() + " reports done (Confirmed), but nothing of it was delivered (W-1)", std::nullopt};
    }
    if (*v != Verdict::Absent) return {};
    const auto kind = promised_effect(c.scenario, c.scenario_step());
    if (!kind) return {};
    const sim::Effect* e = effect_of_report(c, *kind);
    if (e == nullptr) return {};
    if (auto why = hidden_by_a_fault(c, *e)) return {std::nullopt, why};
    const std::string what = c.name() + " reports not_done (Absent), but its " + std::string(sim::to_string(*kind)) +
                             " landed on " + sim::subject_of(e->window, e->element) + " at " + t_at(e->at_ms);
    if (e->at_ms > c.timing.ended_ms) return {what + ", after the tool answered (W-1, D-3)", std::nullopt};
    // The text replaced an identical selection: the value did not change (W-1, D-2).
    const auto& before = c.timing.before.value;
    if (*kind == EffectKind::ValueChanged && before && e->detail == *before) {
        return {what + ", leaving the value as it was (W-1, D-2: the text replaced an identical selection)", std::nullopt};
    }
    // Landed after the last read of its element: the read was readable, not timely (D-3).
    std::optional<TimeMs> last_read;
    const auto& reads = c.truth().reads;
    for (std::size_t i = c.timing.reads_begin; i < c.timing.reads_end && i < reads.size(); ++i) {
        if (reads[i].window == e->window && reads[i].element == e->element) last_read = reads[i].at_ms;
    }
    if (last_read && e->at_ms > *last_read) return {what + ", after its last read at " + t_at(*last_read) + " (W-1, D-3)", std::nullopt};
    return {what + " (W-1)", std::nullopt};
}

// V-3..V-8: which verdict rows apply is a fact of the request and the control acted on, re-derived
// here from the scenario (SPEC's wording, not the tool's tables): typing with a ref is plain text
// (V-5) or, with Tab, Enter or a line break in it, text with navigation (V-6); a hotkey with a ref is
// the strict Ctrl+A (V-3) or another hotkey (V-4); a click on a control with a toggle, expand or
// selected state is a stateful click (V-7), on any other (a plain button) unverifiable, as are
// typing or a hotkey without a ref and a click by coordinates (V-8). Judged on steps that answered
// with a verdict; a click on a control whose role is not its kind's is not judged (the tool sees
// only the role).
std::optional<ActionKind> expected_kind(const Claim& c) {
    const sim::Step& st = c.scenario_step();
    const bool ref = c.report.request.ref.has_value();
    switch (st.kind) {
        case sim::StepKind::Type:
            if (!ref) return ActionKind::Unverifiable;
            return st.text.find_first_of("\t\r\n") != std::string::npos ? ActionKind::TypeWithNavigation : ActionKind::TypeText;
        case sim::StepKind::Hotkey: {
            if (!ref) return ActionKind::Unverifiable;
            std::string k;
            for (const char ch : st.keys) {
                if (ch != ' ') k += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            }
            return k == "ctrl+a" || k == "control+a" ? ActionKind::SelectAll : ActionKind::Hotkey;
        }
        case sim::StepKind::Click: {
            const auto held = control_anywhere(c.scenario, c.report.element ? c.report.element : st.control);
            if (!ref || held.control == nullptr) return std::nullopt;
            // The UIA control type a control of each kind shows (a check box, a tree item, a list item;
            // a button): a control shown under another role is left unjudged.
            const auto k = held.control->kind;
            const std::string& role = held.control->role;
            if (k == sim::ControlKind::Toggle) return role == "CheckBox" ? std::optional(ActionKind::ClickStateful) : std::nullopt;
            if (k == sim::ControlKind::Expander) return role == "TreeItem" ? std::optional(ActionKind::ClickStateful) : std::nullopt;
            if (k == sim::ControlKind::ListItem) return role == "ListItem" ? std::optional(ActionKind::ClickStateful) : std::nullopt;
            const bool button = k == sim::ControlKind::Button || k == sim::ControlKind::SubmitButton || k == sim::ControlKind::PostButton;
            return button && role == "Button" ? std::optional(ActionKind::Unverifiable) : std::nullopt;
        }
        case sim::StepKind::ClickAt: return ActionKind::Unverifiable;
        default: return std::nullopt;
    }
}

Lie kind_lie(const Claim& c) {
    if (!c.report.result.verdict) return std::nullopt;
    const auto want = expected_kind(c);
    if (!want || *want == c.report.kind) return std::nullopt;
    return c.name() + " says its action is " + std::string(name_of(c.report.kind)) + ", but " +
           std::string(name_of(c.report.request.kind)) + " on " + sim::subject_of(c.scenario_step().window, c.report.element) + " is " +
           std::string(name_of(*want)) + " (V-3..V-8)";
}

// P-1, B-1: ok is the absence of an execution error, both ways — an answer is ok with a verdict, or
// not ok with the error that says why; and Absent is the one verdict that is a failure (a confirmed
// not_done stops a batch), so an ok result never says Absent and a verdict-bearing failure says it.
Lie ok_shape_lie(const Claim& c) {
    const ToolResult& r = c.report.result;
    const std::string verdict = r.verdict ? std::string(name_of(*r.verdict)) : "no verdict";
    if (r.ok && r.error) return c.name() + " reports ok together with the error " + std::string(name_of(r.error->kind)) + " (P-1)";
    if (r.ok && r.verdict == Verdict::Absent) return c.name() + " reports ok with the verdict Absent, a failure (B-1)";
    if (!r.ok && !r.error && r.verdict != Verdict::Absent) {
        return c.name() + " reports not ok, without an error, with " + verdict + " (P-1: a failure says why)";
    }
    return std::nullopt;
}

// F-8: what a launch report claims — the new window, or launch_failed — against what the launch
// showed (the ledger's launch record: the app's pid, the windows that appeared).
Lie launch_lie(const LaunchReport& report, const sim::LaunchRecord& record) {
    const std::string app = "the launch of " + sim::quoted(record.app);
    std::string showed = record.shown.empty() ? "showed no window" : "showed";
    for (const WindowId w : record.shown) showed += " " + w_name(w);
    if (report.ok == report.error.has_value()) return app + (report.ok ? " reports ok and an error" : " reports neither ok nor an error");
    if (report.error) {
        if (report.window) return app + " reports an error and a window " + w_name(*report.window);
        if (report.error->kind != ErrorKind::LaunchFailed) return app + " fails with " + std::string(name_of(report.error->kind)) + ", not launch_failed";
        if (record.pid && !record.shown.empty()) return app + " reports launch_failed, but it " + showed + " (F-8)";
        return std::nullopt;
    }
    if (!report.window) return app + " reports ok without a window (F-8)";
    if (std::find(record.shown.begin(), record.shown.end(), *report.window) == record.shown.end()) {
        return app + " claims " + w_name(*report.window) + " as its new window, but it " + showed + " (F-8)";
    }
    return std::nullopt;
}

}  // namespace

CheckResult report_matches_ground_truth(const sim::Scenario& scenario, const History& run) {
    if (run.timings.size() != run.steps.size()) return CheckResult::cannot_judge("step timings missing");
    std::uint32_t judged = 0;
    std::optional<std::string> not_judged;
    for (const Segment& seg : run.segments) {
        for (const std::size_t i : seg.reports) {
            const StepReport& report = run.steps[i];
            if (report.index >= scenario.steps.size()) continue;
            const Claim c{scenario, run, report, run.timings[i], seg};
            Lie lie = ok_shape_lie(c);
            if (!lie) lie = kind_lie(c);
            if (!lie) lie = delivery_lie(c);
            if (!lie) lie = readback_lie(c);
            if (!lie) lie = changes_lie(c);
            if (!lie) lie = settle_lie(c);
            if (!lie) lie = promise_lie(c);
            if (!lie) lie = refs_lie(c);
            if (!lie) lie = step_error_lie(scenario, run, report, c.timing, seg);
            if (!lie) lie = step_foreground_lie(c);
            const WriteOutcome w = lie ? WriteOutcome{} : write_outcome_lie(c);
            if (!lie) lie = w.lie;
            if (lie) return CheckResult::violated(std::string(property), report.index, *lie);
            if (w.cannot_judge) not_judged = w.cannot_judge;
            ++judged;
        }
        std::optional<Claim> last;
        if (!seg.reports.empty() && run.steps[seg.reports.back()].index < scenario.steps.size()) {
            last.emplace(Claim{scenario, run, run.steps[seg.reports.back()], run.timings[seg.reports.back()], seg});
        }
        if (auto lie = write_foreground_lie(scenario, run, seg, last ? &*last : nullptr)) {
            return CheckResult::violated(std::string(property), last ? std::optional<std::uint32_t>(last->report.index) : std::nullopt, *lie);
        }
        const ClaimJudgement batch = batch_report_claims(scenario, run, seg);
        if (batch.lie) return CheckResult::violated(std::string(property), last ? std::optional<std::uint32_t>(last->report.index) : std::nullopt, *batch.lie);
        const ClaimJudgement write = write_report_claims(scenario, run, seg);
        if (write.lie) return CheckResult::violated(std::string(property), last ? std::optional<std::uint32_t>(last->report.index) : std::nullopt, *write.lie);
        if (write.cannot_judge) not_judged = write.cannot_judge;
        if (auto lie = give_back_mid_batch(run, seg)) {
            return CheckResult::violated(std::string(property), last ? std::optional<std::uint32_t>(last->report.index) : std::nullopt, *lie);
        }
        if (auto lie = batch_foreground_lie(scenario, run, seg)) {
            const std::optional<std::uint32_t> step =
                seg.reports.empty() ? std::nullopt : std::optional<std::uint32_t>(run.steps[seg.reports.back()].index);
            return CheckResult::violated(std::string(property), step, *lie);
        }
    }
    // Launches, in order: the k-th report is the tool's account of the desktop's k-th launch.
    const auto& records = run.truth().launches;
    if (records.size() != run.launches.size()) {
        return CheckResult::violated(std::string(property), std::nullopt,
                                     std::to_string(run.launches.size()) + " launch reports for " +
                                         std::to_string(records.size()) + " launches the desktop saw (F-8)");
    }
    std::size_t launch = 0;
    for (std::uint32_t k = 0; k < scenario.steps.size() && launch < records.size(); ++k) {
        if (scenario.steps[k].kind != sim::StepKind::Launch) continue;
        if (auto lie = launch_lie(run.launches[launch], records[launch])) return CheckResult::violated(std::string(property), k, *lie);
        ++launch;
        ++judged;
    }
    if (not_judged) return CheckResult::cannot_judge(*not_judged);
    return CheckResult::holds(judged);
}

}  // namespace deskcheck::props
