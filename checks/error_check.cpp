// The error a step report names (ToolResult.error's kind), held against the ledger and the scenario:
// part of report_matches_ground_truth. Each kind states a fact about the desktop or the request, and
// the fact is re-derived here, never from the tool's locator, guard or hit test:
//
//   delivery_failed    an attempt of the step came back failed or rejected (and none threw)
//   exception          an attempt of the step threw (F-6)
//   element_not_found  the step's control was gone (an event removed it before the step ended), its
//                      window has no tree (an opaque Electron window), or another control of the
//                      window carries the same identity and the tree changed, so that the path may
//                      no longer lead to it (E-2: the path first; never resolve to a wrong element)
//   cross_window_ref   the ref was taken in another window than the target (E-3); both ways
//   window_not_found   the target window was not shown: declared hidden, and no event showed it
//                      before the step ended
//   bad_request        the agent's request: a click without a ref, or a coordinate click without
//                      frame or point
//   target_occluded    a coordinate click, or a click by ref (its real click at the element's centre)
//   foreground_refused the desktop refused a request for the target's front during the step (F-1)
//   escalate           the step depends on an earlier one (B-3) or was a write (W-4)
//
// And the other way: an attempt that failed, was rejected or threw is the step's last act, so the
// step must end on delivery_failed / exception (P-1: the tool does not hide what the desktop said).
#include <algorithm>
#include <functional>
#include <string>

#include "checks/claim_checks.h"

namespace deskcheck::props {
namespace {

constexpr std::uint64_t ref_table_spec = 5000;  // E-1: the ref table keeps 5000 entries (SPEC, not model/)

const sim::Control* control_of(const sim::Window* w, std::optional<ElementId> id) {
    if (w == nullptr || !id) return nullptr;
    for (const auto& c : w->controls) {
        if (c.id == *id) return &c;
    }
    return nullptr;
}

bool fired_before(const sim::Scenario& s, const sim::GroundTruth& truth, TimeMs until,
                  const std::function<bool(const sim::Event&)>& which) {
    for (const auto& f : truth.events) {
        if (f.at_ms > until || f.index >= s.events.size()) continue;
        if (which(s.events[f.index])) return true;
    }
    return false;
}

// E-2: another control of the window has the same identity (role + automationId, or role + name
// without one): a locator of the step's control may not pick it, and may give up.
bool identity_shared(const sim::Window& w, const sim::Control& c) {
    return std::any_of(w.controls.begin(), w.controls.end(), [&](const sim::Control& o) {
        if (o.id == c.id || o.role != c.role) return false;
        if (c.automation_id) return o.automation_id == c.automation_id;
        return !o.automation_id && o.name == c.name;
    });
}

// The control and every control that is or may become its ancestor: the parent chain in the
// scenario, and the new parents the tree's reorder events give it or any of those (a removal of
// one takes the control with it).
std::vector<ElementId> possible_ancestors(const sim::Scenario& s, const sim::Window& w, ElementId id) {
    std::vector<ElementId> out{id};
    const auto add = [&](ElementId e) {
        if (e == 0 || std::find(out.begin(), out.end(), e) != out.end()) return false;
        out.push_back(e);
        return true;
    };
    for (bool grew = true; grew && out.size() <= w.controls.size() + 1;) {
        grew = false;
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (const sim::Control* c = control_of(&w, out[i])) grew = add(c->parent) || grew;
            for (const auto& e : s.events) {
                if (e.kind == sim::EventKind::TreeReorders && e.control == out[i]) grew = add(e.new_parent) || grew;
            }
        }
    }
    return out;
}

// What a step's attempts did: whether one threw, and whether one failed or was rejected.
struct AttemptsSeen {
    bool threw = false;
    bool failed = false;
};

AttemptsSeen attempts_seen(const sim::GroundTruth& truth, const StepTiming& t, std::int32_t k) {
    AttemptsSeen out;
    for (std::size_t i = t.attempts_begin; i < t.attempts_end && i < truth.attempts.size(); ++i) {
        const auto& a = truth.attempts[i];
        if (a.step != k) continue;
        out.threw = out.threw || a.outcome == sim::AttemptOutcome::Threw;
        out.failed = out.failed || a.outcome == sim::AttemptOutcome::Failed || a.outcome == sim::AttemptOutcome::Rejected;
    }
    return out;
}

// The error the ledger demands and the report does not give (E-3, F-6, delivery_failed).
std::optional<std::string> error_left_out(const History& run, const StepReport& report, const sim::Step& step, const AttemptsSeen& seen,
                                          const std::string& who) {
    const auto& error = report.result.error;
    const auto ends = [&] { return who + " ends " + (error ? "on " + std::string(name_of(error->kind)) : std::string("without an error")); };
    // E-3 both ways: a ref taken in another window ends the step on cross_window_ref.
    const bool foreign_ref = step.ref_window && *step.ref_window != step.window && report.index < run.requests.size() &&
                             run.requests[report.index].ref.has_value();
    if (foreign_ref && !(error && (error->kind == ErrorKind::CrossWindowRef || error->kind == ErrorKind::WindowNotFound))) {
        return ends() + ", but its ref was taken in " + w_name(*step.ref_window) + ", not the target " + w_name(step.window) + " (E-3: cross_window_ref)";
    }
    if (seen.threw && !(error && error->kind == ErrorKind::Exception)) return ends() + ", but its delivery threw (F-6: exception)";
    if (seen.failed && !seen.threw && !(error && error->kind == ErrorKind::DeliveryFailed)) {
        return ends() + ", but the desktop failed or refused its delivery (delivery_failed)";
    }
    return std::nullopt;
}

// element_not_found: true unless the control was there, under its identity, while the step ran (E-2).
std::optional<std::string> element_not_found_lie(const sim::Scenario& scenario, const History& run, const StepTiming& t, const sim::Step& step) {
    const sim::Window* w = sim::find_window(scenario, step.window);
    const sim::Control* c = control_of(w, step.control);
    if (w == nullptr || c == nullptr) return std::nullopt;  // nothing to find: judged by ref_never_crosses_windows
    if (w->framework == Framework::Electron) return std::nullopt;
    // A shared identity excuses giving up only once the path may no longer lead to the control: E-2
    // walks the path first and uses the element there when its identity matches; only the search
    // that follows a broken path can find two. The path stands while nothing moved or removed a
    // control of the window.
    const bool excused = identity_shared(*w, *c) && fired_before(scenario, run.truth(), t.ended_ms, [&](const sim::Event& e) {
        return (e.kind == sim::EventKind::TreeReorders || e.kind == sim::EventKind::ControlRemoved) && e.window == w->id;
    });
    if (excused) return std::nullopt;
    const auto held = possible_ancestors(scenario, *w, c->id);
    const bool removed = fired_before(scenario, run.truth(), t.ended_ms, [&](const sim::Event& e) {
        return e.kind == sim::EventKind::ControlRemoved && std::find(held.begin(), held.end(), e.control) != held.end();
    });
    if (!removed) return sim::subject_of(step.window, step.control) + " was there, under its identity, while the step ran (E-2)";
    return std::nullopt;
}

// target_occluded (E-5): the desktop, asked what is at a point during the step, answered a window
// other than the target (or none). Lenient on purpose: any such answer in the step's time bears
// the claim out; only a step whose every hit test found the target itself, or that asked none,
// claims a cover the desktop never showed.
std::optional<std::string> occlusion_unseen(const History& run, const StepTiming& t, const sim::Step& step) {
    std::size_t asked = 0;
    for (const auto& h : run.truth().hit_tests) {
        if (h.at_ms < t.began_ms || h.at_ms > t.ended_ms) continue;
        ++asked;
        if (h.answer != step.window) return std::nullopt;
    }
    if (asked == 0) return "the tool never asked the desktop what was at the point during the step (E-5)";
    return "every one of the " + std::to_string(asked) + " hit test(s) during the step found " + w_name(step.window) +
           " itself at the point (E-5)";
}

// window_not_found: true only of a window the scenario hides that nothing showed before the step.
std::optional<std::string> window_not_found_lie(const sim::Scenario& scenario, const History& run, const StepTiming& t, const sim::Step& step) {
    const sim::Window* w = sim::find_window(scenario, step.window);
    if (w == nullptr) return std::nullopt;
    const bool declared_hidden = std::find(scenario.hidden.begin(), scenario.hidden.end(), step.window) != scenario.hidden.end();
    if (!declared_hidden) return w_name(step.window) + " was shown from the start";
    const auto& truth = run.truth();
    const bool shown = fired_before(scenario, truth, t.began_ms, [&](const sim::Event& e) {
        return (e.kind == sim::EventKind::PopupOpens || e.kind == sim::EventKind::OccluderAppears || e.kind == sim::EventKind::WindowToFront) &&
               e.window == step.window;
    });
    const bool launched = std::any_of(truth.launches.begin(), truth.launches.end(), [&](const sim::LaunchRecord& l) {
        return l.at_ms < t.began_ms && std::find(l.shown.begin(), l.shown.end(), step.window) != l.shown.end();
    });
    if (shown || launched) return w_name(step.window) + " was shown before the step began";
    return std::nullopt;
}

// foreground_refused (F-1): refused, then F24 pressed (taken by the desktop, or failed by a fault —
// never one it rejected as malformed), then asked again: only then is the refusal the tool's answer.
std::optional<std::string> foreground_refused_lie(const History& run, const StepTiming& t, const sim::Step& step) {
    const auto& truth = run.truth();
    bool refused = false;
    for (std::size_t i = t.requests_begin; i < t.requests_end && i < truth.foreground_requests.size(); ++i) {
        const auto& r = truth.foreground_requests[i];
        refused = refused || (r.window == step.window && r.answer == ForegroundAnswer::Refused);
    }
    if (!refused) return "no request for " + w_name(step.window) + "'s front was refused during the step (F-1)";
    for (std::size_t i = t.requests_begin; i < t.requests_end && i < truth.foreground_requests.size(); ++i) {
        const auto& r = truth.foreground_requests[i];
        if (r.window != step.window || r.answer != ForegroundAnswer::Refused) continue;
        for (std::size_t n = r.attempts_before; n < truth.attempts.size(); ++n) {
            const auto& a = truth.attempts[n];
            if (a.step != sim::no_step || a.method != DeliveryMethod::RealInput || a.window != no_window) continue;
            if (a.outcome != sim::AttemptOutcome::Rejected) return std::nullopt;
            break;
        }
    }
    return "after the desktop refused " + w_name(step.window) + "'s front the tool never pressed F24 (a key the desktop took) and asked again (F-1)";
}

// The fact that makes the error the step ends on untrue, or nullopt when the ledger bears it out.
std::optional<std::string> claimed_error_untrue(const sim::Scenario& scenario, const History& run, const StepReport& report,
                                                const StepTiming& t, const Segment& seg, const AttemptsSeen& seen) {
    const auto& step = scenario.steps[report.index];
    const sim::Window* w = sim::find_window(scenario, step.window);
    switch (report.result.error->kind) {
        case ErrorKind::DeliveryFailed: return seen.failed ? std::nullopt : std::optional<std::string>("no attempt of it failed or was refused");
        case ErrorKind::Exception: return seen.threw ? std::nullopt : std::optional<std::string>("no attempt of it threw");
        case ErrorKind::ElementNotFound: return element_not_found_lie(scenario, run, t, step);
        case ErrorKind::CrossWindowRef:
            if (!step.ref_window || *step.ref_window == step.window) return "its ref was taken in the target window (E-3)";
            return std::nullopt;
        case ErrorKind::WindowNotFound: return window_not_found_lie(scenario, run, t, step);
        case ErrorKind::BadRequest: {
            // Judged on the request the agent made (a control it found no ref for is sent without one).
            if (report.index >= run.requests.size()) return std::nullopt;
            const Request& r = run.requests[report.index];
            const bool bad = (r.kind == RequestKind::Click && !r.ref) || (r.kind == RequestKind::ClickAt && (!r.point || !r.frame));
            if (!bad) return "the request carried what its action needs";
            return std::nullopt;
        }
        case ErrorKind::TargetOccluded:
            if (step.kind != sim::StepKind::ClickAt && step.kind != sim::StepKind::Click) return "it clicks nothing (E-5)";
            // E-4, E-5, F-7: only a click that lands where the pointer is can be covered. A click by
            // ref on a window that is not WPF-like goes as a click message, a posted click or a UIA
            // pattern, which reach the control in the background whatever covers it.
            if (step.kind == sim::StepKind::Click && w != nullptr && w->framework != Framework::Wpf) {
                return w_name(step.window) + " takes a click by ref in the background, where nothing covers it (E-4, E-5)";
            }
            return occlusion_unseen(run, t, step);
        case ErrorKind::ForegroundRefused: return foreground_refused_lie(run, t, step);
        case ErrorKind::Escalate:
            if (!step.depends_on && !seg.write) return "it depends on no earlier step and is no write (B-3, W-4)";
            return std::nullopt;
        case ErrorKind::RefUnknown:
            // E-1: every ref the agent sends is one the tool handed it (a snapshot's, or a report's,
            // E-3); a table that keeps 5000 evicts none while fewer were handed out.
            if (report.index >= run.requests.size() || !run.requests[report.index].ref) return std::nullopt;
            if (run.refs_handed >= ref_table_spec) return std::nullopt;
            return "its ref " + *run.requests[report.index].ref + " was handed out by the tool in this run, which handed out " +
                   std::to_string(run.refs_handed) + " refs in all, fewer than the 5000 its table keeps (E-1)";
        case ErrorKind::LaunchFailed: return std::nullopt;  // launches: launch_lie
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> step_error_lie(const sim::Scenario& scenario, const History& run, const StepReport& report,
                                          const StepTiming& t, const Segment& seg) {
    if (report.index >= scenario.steps.size()) return std::nullopt;
    const auto& step = scenario.steps[report.index];
    const std::string who = "step " + std::to_string(report.index);
    const AttemptsSeen seen = attempts_seen(run.truth(), t, static_cast<std::int32_t>(report.index));
    if (auto lie = error_left_out(run, report, step, seen, who)) return lie;
    const auto& error = report.result.error;
    if (!error) return std::nullopt;
    if (auto untrue = claimed_error_untrue(scenario, run, report, t, seg, seen)) {
        return who + " ends on " + std::string(name_of(error->kind)) + ", but " + *untrue;
    }
    return std::nullopt;
}

}  // namespace deskcheck::props
