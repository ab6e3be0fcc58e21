#include "checks/claim_table.h"

#include <algorithm>
#include <array>

#include "checks/checks.h"

namespace deskcheck::props {

std::string_view to_string(ClaimKind k) {
    switch (k) {
        case ClaimKind::Claim: return "claim";
        case ClaimKind::Echo: return "echo";
        case ClaimKind::Account: return "account";
        case ClaimKind::Container: return "container";
    }
    return "?";
}

namespace {

// ---- where a tamper applies: the first report of a kind that fits -------------------------------

// The first element of `reports` that `fits`, changed; false when none fits.
template <class Reports, class Pred, class Mut>
bool on_first(Reports& reports, Pred fits, Mut change) {
    for (auto& r : reports) {
        if (fits(r)) {
            change(r);
            return true;
        }
    }
    return false;
}
template <class Pred, class Mut>
bool on_step(History& r, Pred fits, Mut change) { return on_first(r.steps, fits, change); }
template <class Pred, class Mut>
bool on_batch(History& r, Pred fits, Mut change) { return on_first(r.batches, fits, change); }
template <class Pred, class Mut>
bool on_launch(History& r, Pred fits, Mut change) { return on_first(r.launches, fits, change); }
template <class Pred, class Mut>
bool on_write(History& r, Pred fits, Mut change) {
    return on_first(r.segments, [&](const Segment& seg) { return seg.write && fits(*seg.write); }, [&](Segment& seg) { change(*seg.write); });
}
template <class Pred, class Mut>
bool on_boundary(History& r, Pred fits, Mut change) {
    return on_step(r, [&](const StepReport& s) { return s.dependency && fits(*s.dependency); },
                   [&](StepReport& s) { change(*s.dependency); });
}
template <class Pred, class Mut>
bool on_front(History& r, Pred fits, Mut change) {
    return on_step(r, [&](const StepReport& s) { return fits(s.result.evidence.foreground); },
                   [&](StepReport& s) { change(s.result.evidence.foreground); });
}
Evidence& ev(StepReport& s) { return s.result.evidence; }
const Evidence& ev(const StepReport& s) { return s.result.evidence; }
std::string altered(const std::string& v) { return v + "x"; }
const auto any = [](const auto&) { return true; };

// A focused_ref made up on a step that answered while nothing had the focus in its window.
bool answered_without_focus(History& r) {
    for (std::size_t i = 0; i < r.steps.size() && i < r.timings.size(); ++i) {
        StepReport& s = r.steps[i];
        const bool answered = s.result.ok && s.result.verdict && s.delivered && s.request.kind != RequestKind::Observe;
        if (!answered || s.focused_ref || r.timings[i].focus_after) continue;
        s.focused_ref = "e1";
        return true;
    }
    return false;
}

// ---- the table ----------------------------------------------------------------------------------

using K = ClaimKind;

constexpr ClaimRow row(std::string_view type, std::string_view field, ClaimKind kind, std::string_view fact, std::string_view check,
                       Tamper made_up = nullptr, Tamper left_out = nullptr, std::string_view gap = {}) {
    return ClaimRow{type, field, kind, fact, check, made_up, left_out, gap};
}

constexpr std::string_view rmgt = "report_matches_ground_truth";

// ---- the undo tool's report (model/undo.h), judged on R0 runs -----------------------------------

constexpr ClaimRow undo_row(std::string_view type, std::string_view field, ClaimKind kind, std::string_view fact,
                            UndoTamper made_up = nullptr, UndoTamper left_out = nullptr) {
    const std::string_view check = made_up != nullptr ? "failure_leaves_nothing undo_restores" : "";
    return ClaimRow{type, field, kind, fact, check, nullptr, nullptr, {}, made_up, left_out};
}
template <class Pred, class Mut>
bool on_undo_step(TaskReport& t, Pred fits, Mut change) { return on_first(t.steps, fits, change); }

const std::array rows{
    // ToolResult: the tool's answer to one action (P-2's adapter output).
    row("ToolResult", "ok", K::Claim, "the action ran without an execution error", "batch_stops_at_first_failure report_matches_ground_truth",
             +[](History& r) { return on_step(r, [](const StepReport& s) { return !s.result.ok && s.result.error; }, [](StepReport& s) { s.result.ok = true; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.result.ok; }, [](StepReport& s) { s.result.ok = false; }); }),
    row("ToolResult", "verdict", K::Claim, "Confirmed: the promised effect happened; Absent: it did not; Unknown only where the evidence could not tell",
             "verdict_sound verdict_decisive",
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.result.verdict == Verdict::Unknown; }, [](StepReport& s) { s.result.verdict = Verdict::Confirmed; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.result.verdict && *s.result.verdict != Verdict::Unknown; }, [](StepReport& s) { s.result.verdict = Verdict::Unknown; }); }),
    row("ToolResult", "evidence", K::Container, "the evidence (Evidence)", ""),
    row("ToolResult", "error", K::Claim, "an execution error happened (what: Error.kind)", "batch_stops_at_first_failure report_matches_ground_truth",
             +[](History& r) { return on_step(r, [](const StepReport& s) { return !s.result.error; }, [](StepReport& s) { s.result.error = Error{ErrorKind::DeliveryFailed, "made up"}; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.result.error.has_value(); }, [](StepReport& s) { s.result.error.reset(); }); }),
    row("Error", "kind", K::Claim, "which failure, each a fact of the ledger or the request: a failed or thrown delivery (both ways), the control gone, the ref's window (both ways), a hidden window, a malformed request, a refused front, a dependency (checks/error_check.cpp)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.result.error && s.result.error->kind != ErrorKind::BadRequest; }, [](StepReport& s) { s.result.error->kind = ErrorKind::BadRequest; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.result.error && s.result.error->kind == ErrorKind::CrossWindowRef; }, [](StepReport& s) { s.result.error->kind = ErrorKind::ElementNotFound; }); }),
    row("Error", "detail", K::Account, "text for a person; the kind is the claim", ""),
    // Evidence: what the tool saw and did for one action.
    row("Evidence", "delivery", K::Claim, "the delivery method that reached the desktop (\"\" when nothing was delivered)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).delivery.empty(); }, [](StepReport& s) { ev(s).delivery = "uia_invoke"; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return !ev(s).delivery.empty(); }, [](StepReport& s) { ev(s).delivery.clear(); }); }),
    row("Evidence", "delivered", K::Claim, "an input of this step reached the desktop", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return !ev(s).delivered; }, [](StepReport& s) { ev(s).delivered = true; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).delivered; }, [](StepReport& s) { ev(s).delivered = false; }); }),
    row("Evidence", "before", K::Claim, "the readings the desktop served before the action (Snapshot)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).before && ev(s).before->value; }, [](StepReport& s) { ev(s).before->value = altered(*ev(s).before->value); }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).before && ev(s).before->value; }, [](StepReport& s) { ev(s).before.reset(); }); }),
    row("Evidence", "after", K::Claim, "the readings the desktop served after the action (Snapshot)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->value; }, [](StepReport& s) { ev(s).after->value = altered(*ev(s).after->value); }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->value; }, [](StepReport& s) { ev(s).after.reset(); }); }),
    row("Evidence", "changes", K::Claim, "the readings that differ between before and after", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).before && ev(s).after && ev(s).changes.empty(); }, [](StepReport& s) { ev(s).changes.push_back("value"); }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return !ev(s).changes.empty(); }, [](StepReport& s) { ev(s).changes.clear(); }); }),
    row("Evidence", "promise", K::Claim, "what the action promised to change (V-9), from the action alone", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).promise == Promise::Nothing; }, [](StepReport& s) { ev(s).promise = Promise::ValueChanged; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).promise != Promise::Nothing; }, [](StepReport& s) { ev(s).promise = Promise::Nothing; }); }, "both: judged (expected_promise: the SPEC and the rule set's stated hotkey promise) only on steps that reached a verdict; a step that ended on an error is not asked"),
    row("Evidence", "rule", K::Account, "the deciding rule row's id: the verdict it gives is the claim (mutate-rules judges the rows)", ""),
    row("Evidence", "checks_ran", K::Account, "the rule rows tried, for a person reading the report", ""),
    row("Evidence", "checks_not_run", K::Account, "the rule rows that could not run and why, for a person", ""),
    row("Evidence", "settle_ms", K::Claim, "the virtual time waited after the delivery for the state to settle (D-3)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).delivered; }, [](StepReport& s) { ev(s).settle_ms += 100; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).settle_ms > 0; }, [](StepReport& s) { ev(s).settle_ms = 0; }); }),
    row("Evidence", "settled", K::Claim, "the last after-read came at or after the app's declared bound past the delivery (D-3)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && !ev(s).settled; }, [](StepReport& s) { ev(s).settled = true; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).settled; }, [](StepReport& s) { ev(s).settled = false; }); }, "left_out: only partly judged: under a rule set that settles (its stated promise, as data), settled:false is caught where two polls in a row, both past the bound from the wait's start, read every field clean and the same; a state that settled on its first poll past the bound (the tool compares only what it could read) is not demanded"),
    row("Evidence", "foreground", K::Container, "the foreground evidence of the action (ForegroundEvidence)", ""),
    // Snapshot: one reading set of the target (V-2: nullopt is unreadable, never "").
    row("Snapshot", "value", K::Claim, "the value the desktop served (nullopt: the read failed)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && !ev(s).after->value; }, [](StepReport& s) { ev(s).after->value = ""; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->value; }, [](StepReport& s) { ev(s).after->value.reset(); }); }),
    row("Snapshot", "selection", K::Claim, "the selection the desktop served", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->selection; }, [](StepReport& s) { ev(s).after->selection->length += 1; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->selection; }, [](StepReport& s) { ev(s).after->selection.reset(); }); }),
    row("Snapshot", "toggled", K::Claim, "the toggle state the desktop served", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->toggled; }, [](StepReport& s) { ev(s).after->toggled = !*ev(s).after->toggled; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->toggled; }, [](StepReport& s) { ev(s).after->toggled.reset(); }); }),
    row("Snapshot", "expanded", K::Claim, "the expand state the desktop served", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->expanded; }, [](StepReport& s) { ev(s).after->expanded = !*ev(s).after->expanded; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->expanded; }, [](StepReport& s) { ev(s).after->expanded.reset(); }); }),
    row("Snapshot", "selected", K::Claim, "the list item's selected state the desktop served", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->selected; }, [](StepReport& s) { ev(s).after->selected = !*ev(s).after->selected; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->selected; }, [](StepReport& s) { ev(s).after->selected.reset(); }); }),
    row("Snapshot", "dirty", K::Claim, "the window's unsaved-changes marker the desktop served", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->dirty; }, [](StepReport& s) { ev(s).after->dirty = !*ev(s).after->dirty; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return ev(s).after && ev(s).after->dirty; }, [](StepReport& s) { ev(s).after->dirty.reset(); }); }),
    // ForegroundEvidence (F-2), of a step, a batch, a launch or a whole write_once call.
    row("ForegroundEvidence", "unchanged", K::Claim, "the front window was the same after as before, and no one moved it meanwhile", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return !f.unchanged; }, [](ForegroundEvidence& f) { f.unchanged = true; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.unchanged; }, [](ForegroundEvidence& f) { f.unchanged = false; }); }, "left_out: unchanged:false with no move of the front is not caught"),
    row("ForegroundEvidence", "borrowed", K::Claim, "the tool took the front (or put back an app's grab)", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return !f.borrowed; }, [](ForegroundEvidence& f) { f.borrowed = true; f.by = "tool"; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.borrowed; }, [](ForegroundEvidence& f) { f.borrowed = false; f.by.clear(); }); }, "left_out: a step's own borrow left out is caught (the tool's move onto its target from outside the call's targets); a batch's or a write call's whole-call evidence that leaves one out is not"),
    row("ForegroundEvidence", "by", K::Claim, "who took the front: the tool, or the target's app", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.by == "tool"; }, [](ForegroundEvidence& f) { f.by = "app"; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.by == "app"; }, [](ForegroundEvidence& f) { f.by = "tool"; }); }),
    row("ForegroundEvidence", "restored", K::Claim, "the front went back to the window it was taken from", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.borrowed && !f.restored; }, [](ForegroundEvidence& f) { f.restored = true; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.restored; }, [](ForegroundEvidence& f) { f.restored = false; }); }, "left_out: restored:false is caught for a single action whose give-back stood until it answered, and for an app's grab the tool put back to the window it took the front from; after a batch's give-back at its end it is not"),
    row("ForegroundEvidence", "duration_ms", K::Claim, "how long the front was away from its window", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.borrowed; }, [](ForegroundEvidence& f) { f.duration_ms += 100; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.duration_ms > 0; }, [](ForegroundEvidence& f) { f.duration_ms = 0; }); }),
    row("ForegroundEvidence", "waited_for_user_ms", K::Claim, "how long the tool waited for the user to pause before taking the front (F-1)", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.borrowed && !f.waited_for_user_ms; }, [](ForegroundEvidence& f) { f.waited_for_user_ms = 500; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.waited_for_user_ms.has_value(); }, [](ForegroundEvidence& f) { f.waited_for_user_ms.reset(); }); }),
    row("ForegroundEvidence", "held", K::Claim, "a batch kept the front for its next steps (F-5): only in a batch, with a borrow, always when a batch step borrowed and went on", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.borrowed && !f.held; }, [](ForegroundEvidence& f) { f.held = true; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.held; }, [](ForegroundEvidence& f) { f.held = false; }); }),
    row("ForegroundEvidence", "prev", K::Claim, "the window the front is to go back to (F-5): one that held the front during the call", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.prev.has_value(); }, [](ForegroundEvidence& f) { *f.prev += 1; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.prev.has_value(); }, [](ForegroundEvidence& f) { f.prev.reset(); }); }),
    row("ForegroundEvidence", "changed_by", K::Claim, "a window unrelated to the target took the front and was left alone (F-4)", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return !f.changed_by; }, [](ForegroundEvidence& f) { f.changed_by = "another-window"; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.changed_by.has_value(); }, [](ForegroundEvidence& f) { f.changed_by.reset(); }); }, "left_out: required only of a window unrelated to every target and delivery of the call that still stood when the tool next looked (the step, the next step after a held one, the batch, a write's whole call for a move during its step); one of the targets' own processes is not (F-3 or F-4)"),
    row("ForegroundEvidence", "retried_after_refusal", K::Claim, "a foreground request was refused, F24 pressed, and the request sent again (F-1)", rmgt,
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return !f.retried_after_refusal; }, [](ForegroundEvidence& f) { f.retried_after_refusal = true; }); },
             +[](History& r) { return on_front(r, [](const ForegroundEvidence& f) { return f.retried_after_refusal; }, [](ForegroundEvidence& f) { f.retried_after_refusal = false; }); }),
    // StepReport: one step of a batch or a single action.
    row("StepReport", "index", K::Echo, "the step's position, as the agent numbered it", ""),
    row("StepReport", "request", K::Echo, "the request the agent sent", ""),
    row("StepReport", "result", K::Container, "the answer (ToolResult)", ""),
    row("StepReport", "kind", K::Claim, "which verdict rows apply (V-3..V-8), from the action and the element", "verdict_sound report_matches_ground_truth",
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.kind == ActionKind::Unverifiable && s.result.verdict; }, [](StepReport& s) { s.kind = ActionKind::TypeText; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.kind != ActionKind::Unverifiable && s.result.verdict; }, [](StepReport& s) { s.kind = ActionKind::Unverifiable; }); }, "both: only partly judged: re-derived from the scenario step (kind_lie) wherever the step answered with a verdict, except an observe step and a click on a control shown under a role other than its kind's"),
    row("StepReport", "facts", K::Account, "the action as the verdict rules judged it (text, keys, intent): B-3 re-judges with it", ""),
    row("StepReport", "element", K::Claim, "the element the ref resolved to: the one its input went to (E-1..E-3)", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.element.has_value(); }, [](StepReport& s) { *s.element += 1000; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.element && s.delivered; }, [](StepReport& s) { s.element.reset(); }); }),
    row("StepReport", "delivered", K::Claim, "an input of this step reached the desktop", rmgt,
             +[](History& r) { return on_step(r, [](const StepReport& s) { return !s.delivered; }, [](StepReport& s) { s.delivered = true; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.delivered; }, [](StepReport& s) { s.delivered = false; }); }),
    row("StepReport", "element_ref", K::Claim, "the element the step names, registered as a ref the agent can use again (E-3): the agent sends it for a later step on that element", "report_matches_ground_truth ref_never_crosses_windows",
             +[](History& r) { return on_step(r, [](const StepReport& s) { return !s.element && !s.element_ref; }, [](StepReport& s) { s.element_ref = "e1"; }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.element_ref.has_value(); }, [](StepReport& s) { s.element_ref.reset(); }); }),
    row("StepReport", "focused_ref", K::Claim, "the element that had the focus when the step answered, as a ref (E-3): the agent sends it for a later step on that element", "report_matches_ground_truth ref_never_crosses_windows",
             +[](History& r) { return answered_without_focus(r); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.focused_ref.has_value(); }, [](StepReport& s) { s.focused_ref.reset(); }); }),
    row("StepReport", "dependency", K::Container, "the boundary observation before a dependent step (BoundaryObservation)", ""),
    row("StepReport", "write_before", K::Claim, "the declared write's reading before delivery, kept for later boundaries (B-3)", "dependent_step_only_after_observed",
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.write_before && s.write_before->value; }, [](StepReport& s) { s.write_before->value = altered(*s.write_before->value); }); },
             +[](History& r) { return on_step(r, [](const StepReport& s) { return s.write_before && s.write_before->value; }, [](StepReport& s) { s.write_before->value.reset(); }); }, "both: the boundary judges the earlier write from the ledger, not from this reading"),
    // BatchReport (B-1, B-3, F-5).
    row("BatchReport", "steps", K::Container, "the step reports (moved into History::steps by the runner)", ""),
    row("BatchReport", "stopped_at", K::Claim, "the step whose failure stopped the batch (B-1)", rmgt,
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return !b.stopped_at; }, [](BatchReport& b) { b.stopped_at = 0; }); },
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return b.stopped_at.has_value(); }, [](BatchReport& b) { b.stopped_at.reset(); }); }),
    row("BatchReport", "stop_error", K::Claim, "the error the batch stopped with", rmgt,
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return !b.stop_error; }, [](BatchReport& b) { b.stop_error = Error{ErrorKind::DeliveryFailed, "made up"}; }); },
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return b.stop_error.has_value(); }, [](BatchReport& b) { b.stop_error.reset(); }); }),
    row("BatchReport", "borrows", K::Claim, "how many times the batch took the front (F-5: at most one)", rmgt,
             +[](History& r) { return on_batch(r, any, [](BatchReport& b) { b.borrows += 1; }); },
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return b.borrows > 0; }, [](BatchReport& b) { b.borrows = 0; }); }),
    row("BatchReport", "give_backs", K::Claim, "how many times the batch gave the front back", rmgt,
             +[](History& r) { return on_batch(r, any, [](BatchReport& b) { b.give_backs += 1; }); },
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return b.give_backs > 0; }, [](BatchReport& b) { b.give_backs = 0; }); }),
    row("BatchReport", "foreground_returned", K::Claim, "the batch gave the front back to the window it took it from (F-5)", rmgt,
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return b.borrows > 0 && !b.foreground_returned; }, [](BatchReport& b) { b.foreground_returned = true; }); },
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return b.foreground_returned; }, [](BatchReport& b) { b.foreground_returned = false; }); }),
    row("BatchReport", "escalated", K::Claim, "a dependency's observation was not `observed`: the batch stopped to ask (B-3)", rmgt,
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return !b.escalated; }, [](BatchReport& b) { b.escalated = true; }); },
             +[](History& r) { return on_batch(r, [](const BatchReport& b) { return b.escalated; }, [](BatchReport& b) { b.escalated = false; }); }),
    row("BatchReport", "foreground", K::Container, "the batch's foreground evidence (ForegroundEvidence)", ""),
    // LaunchReport (F-8).
    row("LaunchReport", "ok", K::Claim, "the app started and showed a new window", rmgt,
             +[](History& r) { return on_launch(r, [](const LaunchReport& l) { return !l.ok; }, [](LaunchReport& l) { l.ok = true; }); },
             +[](History& r) { return on_launch(r, [](const LaunchReport& l) { return l.ok; }, [](LaunchReport& l) { l.ok = false; }); }),
    row("LaunchReport", "window", K::Claim, "the new window the app showed", rmgt,
             +[](History& r) { return on_launch(r, [](const LaunchReport& l) { return l.window.has_value(); }, [](LaunchReport& l) { *l.window += 100; }); },
             +[](History& r) { return on_launch(r, [](const LaunchReport& l) { return l.window.has_value(); }, [](LaunchReport& l) { l.window.reset(); }); }),
    row("LaunchReport", "error", K::Claim, "launch_failed: no such app, or no new window", rmgt,
             +[](History& r) { return on_launch(r, [](const LaunchReport& l) { return !l.error; }, [](LaunchReport& l) { l.error = Error{ErrorKind::LaunchFailed, "made up"}; }); },
             +[](History& r) { return on_launch(r, [](const LaunchReport& l) { return l.error.has_value(); }, [](LaunchReport& l) { l.error.reset(); }); }),
    row("LaunchReport", "foreground", K::Container, "the launch's foreground evidence (ForegroundEvidence)", ""),
    // SnapshotReport (E-1): the agent's view of a window.
    row("SnapshotReport", "window", K::Echo, "the window the agent asked for", ""),
    row("SnapshotReport", "elements", K::Claim, "the window's elements, as refs (never locators)", "ref_never_crosses_windows", nullptr, nullptr,
             "the runner does not keep snapshot reports: a wrong or a missing element shows only through the refs the steps use"),
    row("ElementRef", "ref", K::Claim, "a ref that resolves to this element in this window", "ref_never_crosses_windows", nullptr, nullptr,
             "not kept by the runner (see SnapshotReport.elements)"),
    row("ElementRef", "role", K::Claim, "the element's role", "", nullptr, nullptr, "not kept by the runner (see SnapshotReport.elements)"),
    row("ElementRef", "name", K::Claim, "the element's name", "", nullptr, nullptr, "not kept by the runner (see SnapshotReport.elements)"),
    row("ElementRef", "automation_id", K::Claim, "the element's automation id", "", nullptr, nullptr, "not kept by the runner (see SnapshotReport.elements)"),
    // BoundaryObservation (B-3, O-4).
    row("BoundaryObservation", "dependency", K::Echo, "the earlier step the request names", ""),
    row("BoundaryObservation", "writes", K::Echo, "the earlier request's declared write", ""),
    row("BoundaryObservation", "before", K::Claim, "the written state's reading before the earlier step was delivered", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.before && b.before->value; }, [](BoundaryObservation& b) { b.before->value = altered(*b.before->value); }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.before && b.before->value; }, [](BoundaryObservation& b) { b.before.reset(); }); }, "left_out: a before reading dropped (none kept) is not caught: the boundary had one or not, the ledger cannot tell which read it was"),
    row("BoundaryObservation", "after", K::Claim, "the one boundary read of the written state", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && b.after->value; }, [](BoundaryObservation& b) { b.after->value = altered(*b.after->value); }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && b.after->value; }, [](BoundaryObservation& b) { b.after->value.reset(); }); }),
    row("BoundaryObservation", "settled", K::Claim, "the boundary read came at or after the app's declared bound past the earlier step (D-3)", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && !b.settled; }, [](BoundaryObservation& b) { b.settled = true; }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.settled; }, [](BoundaryObservation& b) { b.settled = false; }); }, "both: judged under a rule set that settles (its stated promise, as data): not settled before the bound past the earlier step's delivery, settled once it passed since that step ended; the immediate read a rule set that does not settle trusts is not judged"),
    row("BoundaryObservation", "outcome", K::Claim, "the earlier step's write: done, not_done, or unknown where the read could not tell", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.outcome != WriteOutcome::Done; }, [](BoundaryObservation& b) { b.outcome = WriteOutcome::Done; }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.outcome == WriteOutcome::Done; }, [](BoundaryObservation& b) { b.outcome = WriteOutcome::Unknown; }); }, "left_out: unknown is demanded to be done only where the boundary read showed the write (clean, landed, nobody else writing it, no other delivery to the app), and to be not_done only where two clean readings, the second settled, showed it absent; elsewhere unknown is sound"),
    row("BoundaryObservation", "snapshot", K::Account, "the O-4 snapshot built from `after` (its fields restate after, settled and outcome)", ""),
    row("BoundaryObservation", "previous", K::Account, "the O-4 snapshot built from `before`", ""),
    row("BoundaryObservation", "judgement", K::Claim, "seed 004's judgement of the snapshots it carries (O-1); observed: the dependent step may go (only when the earlier write really happened)", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return !b.proceeds(); }, [](BoundaryObservation& b) { b.judgement.outcome = ObservationOutcome::Observed; }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.proceeds(); }, [](BoundaryObservation& b) { b.judgement.outcome = ObservationOutcome::NeedsEvidence; }); }),
    // WriteReading: one reading of a written state.
    row("WriteReading", "value", K::Claim, "the value the desktop served (nullopt: unreadable)", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && !b.after->value && !b.after->dirty; }, [](BoundaryObservation& b) { b.after->value = ""; }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && b.after->value; }, [](BoundaryObservation& b) { b.after->value.reset(); }); }),
    row("WriteReading", "dirty", K::Claim, "the unsaved-changes marker the desktop served", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && b.after->dirty; }, [](BoundaryObservation& b) { b.after->dirty = !*b.after->dirty; }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && b.after->dirty; }, [](BoundaryObservation& b) { b.after->dirty.reset(); }); }),
    row("WriteReading", "at_ms", K::Claim, "when it was read", "dependent_step_only_after_observed",
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after.has_value(); }, [](BoundaryObservation& b) { b.after->at_ms += 1000; }); },
             +[](History& r) { return on_boundary(r, [](const BoundaryObservation& b) { return b.after && b.after->at_ms > 0; }, [](BoundaryObservation& b) { b.after->at_ms = 0; }); }),
    // WriteReport: write_once's whole call (W-1..W-5).
    row("WriteReport", "outcome", K::Claim, "done: the post showed; not_done: it never did; unknown only where the last read could not tell", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.outcome != WriteOutcome::Done; }, [](WriteReport& w) { w.outcome = WriteOutcome::Done; }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.outcome != WriteOutcome::Unknown; }, [](WriteReport& w) { w.outcome = WriteOutcome::Unknown; w.escalate = true; }); }),
    row("WriteReport", "step", K::Container, "the write action's step report (moved into History::steps by the runner)", ""),
    row("WriteReport", "act", K::Claim, "the action's answer, as its step report gives it", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.act.verdict == Verdict::Unknown; }, [](WriteReport& w) { w.act.verdict = Verdict::Confirmed; }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.act.ok; }, [](WriteReport& w) { w.act.ok = false; }); }),
    row("WriteReport", "before", K::Claim, "the feed's reading before the action", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.before.has_value(); }, [](WriteReport& w) { w.before = altered(*w.before); }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.before.has_value(); }, [](WriteReport& w) { w.before.reset(); }); }),
    row("WriteReport", "after", K::Claim, "the feed's reading after the action", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.after.has_value(); }, [](WriteReport& w) { w.after = altered(*w.after); }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.after.has_value(); }, [](WriteReport& w) { w.after.reset(); }); }),
    row("WriteReport", "reconciled", K::Claim, "the feed's reading after the reconciling wait (W-4)", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.reconciled.has_value(); }, [](WriteReport& w) { w.reconciled = altered(*w.reconciled); }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.reconciled.has_value(); }, [](WriteReport& w) { w.reconciled.reset(); }); }),
    row("WriteReport", "reconciled_by_reading", K::Claim, "a reconciling read happened after a wait (W-4)", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return !w.reconciled_by_reading; }, [](WriteReport& w) { w.reconciled_by_reading = true; }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.reconciled_by_reading; }, [](WriteReport& w) { w.reconciled_by_reading = false; }); }),
    row("WriteReport", "escalate", K::Claim, "still unknown after reconciling: stop and ask a person (W-4)", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return !w.escalate; }, [](WriteReport& w) { w.escalate = true; }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.escalate; }, [](WriteReport& w) { w.escalate = false; }); }),
    row("WriteReport", "checks_ran", K::Account, "the classification's checks, for a person", ""),
    row("WriteReport", "checks_not_run", K::Account, "the classification's checks that could not run and why", ""),
    row("WriteReport", "foreground", K::Container, "the whole call's foreground evidence (ForegroundEvidence)", ""),
    row("WriteReport", "watched_wait", K::Claim, "the reconciling wait ran, watched (F-3, F-4)", rmgt,
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return !w.watched_wait; }, [](WriteReport& w) { w.watched_wait = true; }); },
             +[](History& r) { return on_write(r, [](const WriteReport& w) { return w.watched_wait; }, [](WriteReport& w) { w.watched_wait = false; }); }),

    // TaskReport: the undo tool's report of a task it ran (rolled back on a failure), or of the undo
    // of a finished task (R-1..R-4, R-7).
    undo_row("TaskReport", "task_id", K::Claim, "the task the report is of (its journal lines name it)",
             +[](TaskReport& t) { t.task_id = altered(t.task_id); return true; },
             +[](TaskReport& t) { t.task_id.clear(); return true; }),
    undo_row("TaskReport", "ok", K::Claim, "every step ran and passed its post-check, no operation failed (an undo: every step restored)",
             +[](TaskReport& t) { return !t.ok && (t.ok = true); },
             +[](TaskReport& t) { return t.ok && !(t.ok = false); }),
    undo_row("TaskReport", "refused", K::Claim, "refused before anything acted: a step it could not undo, not allowed (R-4)",
             +[](TaskReport& t) { return !t.refused && (t.refused = true); },
             +[](TaskReport& t) { return t.refused && !(t.refused = false); }),
    undo_row("TaskReport", "failed_step", K::Claim, "the step that failed or was refused (the injected failure's, the journal's failed line's)",
             +[](TaskReport& t) { t.failed_step = t.failed_step ? *t.failed_step + 1 : 1; return true; },
             +[](TaskReport& t) { return t.failed_step.has_value() && (t.failed_step.reset(), true); }),
    undo_row("TaskReport", "error", K::Claim, "there is an error exactly when the task (or the undo) is not ok",
             +[](TaskReport& t) { return t.error.empty() && !(t.error = "made up").empty(); },
             +[](TaskReport& t) { return !t.error.empty() && (t.error.clear(), true); }),
    undo_row("TaskReport", "steps", K::Container, "one report per step of the task (an undo: per step that acted) (UndoStepReport)"),
    undo_row("UndoStepReport", "step", K::Echo, "the step's number in the task (1-based), restated"),
    undo_row("UndoStepReport", "op", K::Echo, "the step's operation, restated from the task"),
    undo_row("UndoStepReport", "state", K::Claim, "done, failed, refused or not run, as the run went",
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return s.state != StepState::Done; }, [](UndoStepReport& s) { s.state = StepState::Done; }); },
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return s.state == StepState::Done; }, [](UndoStepReport& s) { s.state = StepState::NotRun; }); }),
    undo_row("UndoStepReport", "journaled", K::Claim, "its intent line was written: it may have changed something (R-7)",
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return !s.journaled; }, [](UndoStepReport& s) { s.journaled = true; }); },
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return s.journaled; }, [](UndoStepReport& s) { s.journaled = false; }); }),
    undo_row("UndoStepReport", "error", K::Claim, "there is an error exactly when the step failed or was refused",
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return s.error.empty(); }, [](UndoStepReport& s) { s.error = "made up"; }); },
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return !s.error.empty(); }, [](UndoStepReport& s) { s.error.clear(); }); }),
    undo_row("UndoStepReport", "undo", K::Claim, "restored, failed or not undoable, as its last undo line says; none when it was not undone",
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return s.undo != UndoState::Restored; }, [](UndoStepReport& s) { s.undo = UndoState::Restored; }); },
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return s.undo != UndoState::None; }, [](UndoStepReport& s) { s.undo = UndoState::None; }); }),
    undo_row("UndoStepReport", "undo_error", K::Claim, "there is an undo error exactly when its undo failed",
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return s.undo_error.empty(); }, [](UndoStepReport& s) { s.undo_error = "made up"; }); },
             +[](TaskReport& t) { return on_undo_step(t, [](const UndoStepReport& s) { return !s.undo_error.empty(); }, [](UndoStepReport& s) { s.undo_error.clear(); }); }),
};

constexpr std::array<std::string_view, 15> report_types{
    "ToolResult", "Error", "Evidence", "Snapshot", "ForegroundEvidence", "StepReport", "BatchReport",
    "LaunchReport", "SnapshotReport", "ElementRef", "BoundaryObservation", "WriteReading", "WriteReport",
    "TaskReport", "UndoStepReport"};

}  // namespace

bool gap_covers(const ClaimRow& row, std::string_view direction) {
    if (row.gap.empty()) return false;
    return row.gap.starts_with("both:") || row.gap.starts_with(std::string(direction) + ":");
}

bool proof_holds(const ClaimRow& row, const TamperProof& p) {
    if (gap_covers(row, p.direction)) return p.caught < p.applied || p.applied == 0;
    return p.caught > 0;
}

bool names_check(std::string_view checks, std::string_view name) {
    std::size_t at = 0;
    while (at < checks.size()) {
        const std::size_t end = std::min(checks.find(' ', at), checks.size());
        if (checks.substr(at, end - at) == name) return true;
        at = end + 1;
    }
    return false;
}

std::span<const ClaimRow> claim_table() { return rows; }
std::span<const std::string_view> claim_report_types() { return report_types; }

}  // namespace deskcheck::props
