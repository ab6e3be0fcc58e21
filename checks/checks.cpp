#include "checks/checks.h"
#include "checks/claim_checks.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>
#include <map>
#include <set>

namespace deskcheck::props {

std::string_view to_string(CheckStatus s) {
    switch (s) {
        case CheckStatus::Holds: return "holds";
        case CheckStatus::Violated: return "violated";
        case CheckStatus::CannotJudge: return "cannot_judge";
    }
    return "?";
}

CheckResult CheckResult::holds(std::uint32_t judged_items) {
    CheckResult r;
    r.judged = judged_items;
    return r;
}
CheckResult CheckResult::cannot_judge(std::string why) {
    CheckResult r;
    r.status = CheckStatus::CannotJudge;
    r.why_not_judged = std::move(why);
    return r;
}
CheckResult CheckResult::violated(std::string property, std::optional<std::uint32_t> step, std::string explanation) {
    CheckResult r;
    r.status = CheckStatus::Violated;
    r.violation = Violation{std::move(property), step, std::move(explanation)};
    return r;
}

TimeMs declared_bound_ms(const sim::Scenario& scenario, WindowId w) {
    for (const auto& window : scenario.windows) {
        if (window.id != w) continue;
        for (const auto& app : scenario.apps) {
            if (app.pid == window.pid) return app.latency_ms_max + app.feed_latency_ms;
        }
        return 0;
    }
    return 0;
}

namespace {

using sim::EffectKind;

// E-6: a logical pixel of a stretched window covers monitor/window physical pixels; a point
// delivered in logical space comes back within half of that (at least 1 px of integer rounding).
std::int32_t dpi_tolerance_px(const sim::Scenario& s, WindowId w);

std::string w_e(WindowId w, std::optional<ElementId> e) { return sim::subject_of(w, e); }

bool control_of_window(const sim::Scenario& s, WindowId w, ElementId e) {
    const auto* win = sim::find_window(s, w);
    if (win == nullptr) return false;
    return std::any_of(win->controls.begin(), win->controls.end(), [&](const sim::Control& c) { return c.id == e; });
}

// Same process, or owned (transitively, bounded) by the target.
bool related(const sim::Scenario& s, WindowId w, WindowId target) {
    if (w == target) return true;
    const auto* tw = sim::find_window(s, target);
    const auto* ww = sim::find_window(s, w);
    if (tw == nullptr || ww == nullptr) return false;
    if (tw->pid == ww->pid) return true;
    for (std::size_t i = 0; i < sim::windows_max && ww != nullptr && ww->owner; ++i) {
        if (*ww->owner == target) return true;
        ww = sim::find_window(s, *ww->owner);
    }
    return false;
}

std::int32_t dpi_tolerance_px(const sim::Scenario& s, WindowId id) {
    const auto* w = sim::find_window(s, id);
    if (w == nullptr || s.monitors.empty()) return 1;
    const sim::Monitor* primary = &s.monitors.front();
    const sim::Monitor* on = nullptr;
    for (const auto& m : s.monitors) {
        if (m.primary) primary = &m;
        if (on == nullptr && m.bounds.contains(Point{w->bounds.left, w->bounds.top})) on = &m;
    }
    if (on == nullptr) on = primary;
    const std::int64_t monitor = on->dpi;
    const std::int64_t window = w->awareness == DpiAwareness::Unaware  ? 96
                              : w->awareness == DpiAwareness::System   ? primary->dpi
                                                                        : monitor;
    if (monitor == window) return 0;  // no scaling, nothing to round (E-6)
    const std::int64_t big = std::max(monitor, window);
    const std::int64_t small = std::max<std::int64_t>(1, std::min(monitor, window));
    return static_cast<std::int32_t>(std::max<std::int64_t>(1, (big + 2 * small - 1) / (2 * small)));
}

std::optional<TimeMs> first_attempt_ms(const History& run, const StepTiming& t) {
    for (std::size_t i = t.attempts_begin; i < t.attempts_end && i < run.truth().attempts.size(); ++i) {
        if (run.truth().attempts[i].step == static_cast<std::int32_t>(t.step)) return run.truth().attempts[i].at_ms;
    }
    return std::nullopt;
}

bool is_retry(const History& run, std::size_t report) {
    return report < run.timings.size() && run.timings[report].agent_retry;
}

std::optional<TimeMs> first_delivery_ms(const History& run, const StepTiming& t) {
    for (std::size_t i = t.attempts_begin; i < t.attempts_end && i < run.truth().attempts.size(); ++i) {
        const auto& a = run.truth().attempts[i];
        if (a.outcome == sim::AttemptOutcome::Delivered && a.step == static_cast<std::int32_t>(t.step)) return a.at_ms;
    }
    return std::nullopt;
}

}  // namespace

// ---- no_resend_after_unknown (B-2, W-2) ---------------------------------------------------------

CheckResult no_resend_after_unknown(const sim::Scenario& scenario, const History& run) {
    const auto& truth = run.truth();
    std::uint32_t judged = 0;
    for (std::size_t k = 0; k < scenario.steps.size(); ++k) {
        const auto step = static_cast<std::int32_t>(k);
        const auto sent = std::count_if(truth.attempts.begin(), truth.attempts.end(),
                                        [&](const sim::Attempt& a) { return a.step == step; });
        const bool retried = std::find(run.agent_retried.begin(), run.agent_retried.end(), k) != run.agent_retried.end();
        const long allowed = retried ? 2 : 1;
        if (sent > allowed) {
            return CheckResult::violated("no_resend_after_unknown", static_cast<std::uint32_t>(k),
                                         "step " + std::to_string(k) + " was sent " + std::to_string(sent) +
                                             " times; at most " + std::to_string(allowed) +
                                             (retried ? " (one W-2 retry after a not_done)" : " (B-2: never re-sent)"));
        }
        // One submit per Enter the step typed (a text may hold several); one post or submit per click.
        const auto& text = scenario.steps[k].text;
        const std::size_t intended = std::max<std::size_t>(
            1, static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r')));
        for (EffectKind kind : {EffectKind::FormSubmitted, EffectKind::CommentPosted}) {
            const auto n = truth.count(kind, step);
            if (n > intended) {
                return CheckResult::violated("no_resend_after_unknown", static_cast<std::uint32_t>(k),
                                             "non-idempotent effect " + std::string(sim::to_string(kind)) + " happened " +
                                                 std::to_string(n) + " times for step " + std::to_string(k) +
                                                 (retried ? " (W-2: the agent retried a not_done whose first send had landed; D-3)" : " (W-2)"));
            }
        }
        ++judged;
    }
    // W-2 both ways, on the tool's answer to "may I send it again?": a confirmed not_done (Absent, or
    // an error with nothing of the step delivered and nothing thrown) or an unknown with a key may
    // be retried, and the tool must say so; anything else must not.
    for (const History::RetryAdvice& a : run.retry_advice) {
        if (a.report >= run.steps.size() || a.report >= run.timings.size()) continue;
        const StepReport& s = run.steps[a.report];
        const bool reached = reached_the_app(run, run.timings[a.report], s.index);
        const bool not_done = s.result.verdict == Verdict::Absent || (s.result.error && !reached);  // Absent answers ok:false (B-1)
        const bool done = s.result.verdict == Verdict::Confirmed;
        const bool w2_allows = not_done || (a.has_key && !done);
        if (a.allowed == w2_allows) {
            ++judged;
            continue;
        }
        const std::string what = "step " + std::to_string(s.index) + (not_done ? " was a confirmed not_done" : done ? " was done" : " ended unknown") +
                                 (a.has_key ? " with an idempotency key" : " without an idempotency key");
        return CheckResult::violated("no_resend_after_unknown", s.index,
                                     a.allowed ? "the tool allowed the agent to send it again, but " + what +
                                                     " (W-2: a non-idempotent write is retried only on a confirmed not_done or with a key)"
                                               : "the tool forbade the agent to send it again, but " + what + " (W-2 allows that retry)");
    }
    return CheckResult::holds(judged);
}

// ---- batch_stops_at_first_failure (B-1) ---------------------------------------------------------

// B-1 the other way: Unknown continues. Every step before `until` (the one that stopped the run,
// or the end) ran and answered — launches aside, which are no steps of a batch.
std::optional<Violation> step_left_unrun(const sim::Scenario& scenario, const History& run, std::size_t until) {
    std::vector<bool> ran(scenario.steps.size(), false);
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        if (!is_retry(run, i) && run.steps[i].index < ran.size()) ran[run.steps[i].index] = true;
    }
    for (std::size_t k = 0; k < until && k < scenario.steps.size(); ++k) {
        if (scenario.steps[k].kind == sim::StepKind::Launch || ran[k]) continue;
        return Violation{"batch_stops_at_first_failure", static_cast<std::uint32_t>(k),
                         "step " + std::to_string(k) + " never ran, though no step before it failed (B-1: Unknown continues)"};
    }
    return std::nullopt;
}

CheckResult batch_stops_at_first_failure(const sim::Scenario& scenario, const History& run) {
    std::optional<std::size_t> first;
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        if (is_retry(run, i)) continue;
        if (!run.steps[i].result.ok) {
            first = i;
            break;
        }
    }
    const std::size_t until = first ? run.steps[*first].index : scenario.steps.size();
    if (auto v = step_left_unrun(scenario, run, until)) return CheckResult::violated(v->property, v->step, v->explanation);
    if (!first) return CheckResult::holds(static_cast<std::uint32_t>(run.steps.size()));
    const StepReport& failed = run.steps[*first];
    const std::uint32_t f = failed.index;
    if (!run.stopped_at || *run.stopped_at != f) {
        return CheckResult::violated("batch_stops_at_first_failure", f,
                                     "step " + std::to_string(f) + " failed but the run did not stop there");
    }
    for (std::size_t i = *first + 1; i < run.steps.size(); ++i) {
        if (!is_retry(run, i)) {
            return CheckResult::violated("batch_stops_at_first_failure", run.steps[i].index,
                                         "step " + std::to_string(run.steps[i].index) + " ran after step " +
                                             std::to_string(f) + " failed (B-1)");
        }
    }
    for (const auto& a : run.truth().attempts) {
        if (a.step > static_cast<std::int32_t>(f)) {
            return CheckResult::violated("batch_stops_at_first_failure", static_cast<std::uint32_t>(a.step),
                                         "step " + std::to_string(a.step) + " was delivered after step " +
                                             std::to_string(f) + " failed (B-1)");
        }
    }
    const auto& r = failed.result;
    const bool evidence = r.error ? !r.error->detail.empty() : (r.evidence.after.has_value() && r.evidence.delivered);
    if (!evidence) {
        return CheckResult::violated("batch_stops_at_first_failure", f,
                                     "the failing step's report carries no evidence (B-1, P-1)");
    }
    return CheckResult::holds(static_cast<std::uint32_t>(*first + 1));
}

// ---- foreground_returned (F-1..F-6) -------------------------------------------------------------
//
// An independent reference: from the scenario (who is related to whom, F-3), the ground-truth ledger
// (foreground history, requests, deliveries, F24 presses) and the run's own configuration (the F-3
// watch), decide who must own the front when each call of the tool is over. Nothing in model/ is
// called. Each segment (a batch, or a single action) is judged on its own.

namespace {

bool segment_reports_change(const History& run, const Segment& seg) {
    for (std::size_t i : seg.reports) {
        if (run.steps[i].result.evidence.foreground.changed_by) return true;
    }
    if (seg.write && seg.write->foreground.changed_by) return true;  // a write_once call's (W-4 wait included)
    return seg.batch_report && run.batches[*seg.batch_report].foreground.changed_by.has_value();
}

bool related_to_any_target(const History& run, const sim::Scenario& scenario, const Segment& seg, WindowId w) {
    for (std::size_t i : seg.reports) {
        if (related(scenario, w, run.steps[i].request.target)) return true;
    }
    return false;
}

// The tool had delivered (in any segment) to a window of the process that came to the front:
// the tool cannot tell that move from the app's reaction (F-3).
bool delivered_to_relative_before(const History& run, const sim::Scenario& scenario, const sim::ForegroundChange& c) {
    const auto& attempts = run.truth().attempts;
    for (std::size_t i = 0; i < c.attempts_before && i < attempts.size(); ++i) {
        const auto& a = attempts[i];
        if (a.step >= 0 && a.outcome == sim::AttemptOutcome::Delivered && related(scenario, c.to, a.window)) return true;
    }
    return false;
}

// The targets the segment had delivered something to before foreground change `change`.
std::vector<WindowId> targets_so_far(const History& run, const Segment& seg, std::size_t change,
                                     bool delivered_only = true) {
    std::vector<WindowId> out;
    const auto& c = run.truth().foreground_changes[change];
    for (std::size_t i : seg.reports) {
        if (i >= run.timings.size() || run.timings[i].changes_begin > change) continue;
        // Delivered before the change: its app's grabs are the tool's doing. A target only attempted
        // (the delivery failed) counts for the target window itself (F-3 watches it), not its relatives.
        const auto& t = run.timings[i];
        const bool attempted_before = t.attempts_begin < c.attempts_before && first_attempt_ms(run, t).has_value();
        const bool delivered = std::any_of(run.truth().attempts.begin() + static_cast<std::ptrdiff_t>(t.attempts_begin),
                                           run.truth().attempts.begin() + static_cast<std::ptrdiff_t>(std::min(t.attempts_end, c.attempts_before)),
                                           [&](const sim::Attempt& a) { return a.outcome == sim::AttemptOutcome::Delivered && a.step >= 0; });
        if (attempted_before && (delivered || !delivered_only || c.to == run.steps[i].request.target)) {
            out.push_back(run.steps[i].request.target);
        }
    }
    if (delivered_only) return out;
    // A target the tool brought to the front (a borrow, even one whose delivery never happened) is
    // under the F-3 watch too: its windows coming forward look like its app's reaction.
    const auto& changes = run.truth().foreground_changes;
    for (std::size_t k = seg.changes_begin; k < change && k < changes.size(); ++k) {
        if (changes[k].by != sim::Actor::Tool) continue;
        for (std::size_t i : seg.reports) {
            if (run.steps[i].request.target == changes[k].to) out.push_back(changes[k].to);
        }
    }
    return out;
}

// When the tool last delivered to a window related to the one that took the front.
std::optional<TimeMs> last_delivery_to_related_ms(const History& run, const sim::Scenario& scenario,
                                                  const sim::ForegroundChange& c) {
    std::optional<TimeMs> last;
    const auto& attempts = run.truth().attempts;
    for (std::size_t i = 0; i < c.attempts_before && i < attempts.size(); ++i) {
        if (attempts[i].step >= 0 && related(scenario, c.to, attempts[i].window)) last = attempts[i].at_ms;
    }
    return last;
}

// The F24 key (F-1) is a real key press the tool makes outside any step, on no window — one the
// desktop took, or failed by a fault (S-7). A press it rejected as malformed (no key in it) is no
// press: the tool never made the desktop's last input its own.
bool is_f24_press(const sim::Attempt& a) {
    return a.step == sim::no_step && a.method == DeliveryMethod::RealInput && a.window == no_window &&
           a.outcome != sim::AttemptOutcome::Rejected;
}

// How the segment's last foreground request ended, from the ledger alone (S-7: the desktop may
// refuse). `tried_f24`: refused, then F24 pressed and either the press failed or the request was
// refused again — everything F-1 asks of the tool was done.
struct LastRequest {
    const sim::ForegroundRequest* request = nullptr;
    bool refused = false;
    bool tried_f24 = false;
};

LastRequest last_request(const History& run, std::size_t begin, std::size_t end) {
    const auto& requests = run.truth().foreground_requests;
    const auto& attempts = run.truth().attempts;
    LastRequest out;
    if (end <= begin || end > requests.size()) return out;
    const auto& last = requests[end - 1];
    out.request = &last;
    out.refused = last.answer == ForegroundAnswer::Refused;
    if (!out.refused) return out;
    // Refused once, F24 pressed, refused again.
    if (end - 1 > begin) {
        const auto& prev = requests[end - 2];
        if (prev.window == last.window && prev.answer == ForegroundAnswer::Refused) {
            for (std::size_t i = prev.attempts_before; i < last.attempts_before && i < attempts.size(); ++i) {
                if (is_f24_press(attempts[i])) out.tried_f24 = true;
            }
        }
    }
    // Refused, then the F24 press itself failed (nothing to retry with).
    for (std::size_t i = last.attempts_before; i < attempts.size(); ++i) {
        if (is_f24_press(attempts[i]) && attempts[i].outcome != sim::AttemptOutcome::Delivered) out.tried_f24 = true;
        if (is_f24_press(attempts[i])) break;
    }
    return out;
}

// The segment's latest request for a rightful owner was refused even after F24, and the front never
// moved again up to the horizon: what F-1 asks was done and the desktop said no (S-7). Later requests
// for other windows (a borrow the desktop refused too) do not undo that.
bool refused_give_back_stands(const History& run, const Segment& seg, const std::vector<WindowId>& rightful,
                              std::size_t changes_end) {
    const auto& requests = run.truth().foreground_requests;
    const auto& changes = run.truth().foreground_changes;
    for (std::size_t k = std::min(seg.requests_end, requests.size()); k > seg.requests_begin; --k) {
        const auto& r = requests[k - 1];
        if (std::find(rightful.begin(), rightful.end(), r.window) == rightful.end()) continue;
        const LastRequest lr = last_request(run, seg.requests_begin, k);
        if (!lr.refused || !lr.tried_f24) return false;
        for (std::size_t i = seg.changes_begin; i < changes_end && i < changes.size(); ++i) {
            if (changes[i].at_ms > r.at_ms) return false;
        }
        return true;
    }
    return false;
}

// F-7 as SPEC states it: a WPF-like window pulls itself to the front when a UI Automation pattern
// the tool invoked in it lands. Whether the tool's input `d` is one that lands as such a pull.
bool pulls_itself_forward(const sim::Scenario& s, const sim::DeliveredInput& d) {
    const bool pattern = d.method == DeliveryMethod::UiaInvoke || d.method == DeliveryMethod::UiaToggle ||
                         d.method == DeliveryMethod::UiaExpand || d.method == DeliveryMethod::UiaSelect ||
                         d.method == DeliveryMethod::UiaSetValue;
    if (!pattern || !d.accepted || d.step == sim::no_step || !d.lands_at_ms) return false;
    const auto window = std::find_if(s.windows.begin(), s.windows.end(), [&](const auto& w) { return w.id == d.window; });
    return window != s.windows.end() && window->framework == Framework::Wpf;
}

// Whether the foreground change `c` is the app's pull that the landing of input `d` makes.
bool is_pull_of(const sim::ForegroundChange& c, const sim::DeliveredInput& d) {
    return c.by == sim::Actor::App && c.to == d.window && d.lands_at_ms == c.at_ms;
}

// The tool's input whose landing a move by the app onto its window is (nullptr: the move is no such
// pull — a steal after a latency of the app's own, F-3, or another).
const sim::DeliveredInput* pulled_forward_by(const sim::Scenario& s, const History& run, const sim::ForegroundChange& c) {
    if (c.by != sim::Actor::App) return nullptr;
    for (const auto& d : run.truth().delivered) {
        if (is_pull_of(c, d) && pulls_itself_forward(s, d)) return &d;
    }
    return nullptr;
}

// A borrow: the tool's move of the front onto a window, made during a step whose target that window
// is (a give-back onto the window from before, made by a step about another window, is none; nor is
// an app's grab put back onto the window it took the front from).
bool is_a_borrow(const History& run, std::size_t change) {
    const auto& changes = run.truth().foreground_changes;
    const auto& c = changes[change];
    if (c.by != sim::Actor::Tool) return false;
    // Putting an app's grab back (F-3) onto the window it took the front from borrows nothing, even
    // when that window is the step's target: it was in front already.
    for (std::size_t j = change; j > 0 && changes[j - 1].by != sim::Actor::Tool; --j) {
        if (changes[j - 1].by == sim::Actor::App && changes[j - 1].from == c.to) return false;
    }
    for (std::size_t i = 0; i < run.steps.size() && i < run.timings.size(); ++i) {
        const StepTiming& t = run.timings[i];
        if (change >= t.changes_begin && change < t.changes_end && run.steps[i].request.target == c.to) return true;
    }
    return false;
}

// Whether the tool's borrow of the input's window was the last move of the front before the input
// was delivered: the input went in under the tool's borrow of that window (F-7).
bool delivered_under_a_borrow(const History& run, const sim::DeliveredInput& d) {
    const auto& truth = run.truth();
    const std::size_t nth = static_cast<std::size_t>(&d - truth.delivered.data());
    std::size_t attempt = 0;
    for (std::size_t seen = 0; attempt < truth.attempts.size(); ++attempt) {
        if (truth.attempts[attempt].outcome != sim::AttemptOutcome::Delivered) continue;
        if (seen++ == nth) break;
    }
    std::optional<std::size_t> last;
    for (std::size_t k = 0; k < truth.foreground_changes.size() && truth.foreground_changes[k].attempts_before <= attempt; ++k) last = k;
    return last && truth.foreground_changes[*last].to == d.window && is_a_borrow(run, *last);
}

// Under a rule set that waits for an app's declared bound (D-3, as data), the tool's input into a
// window it borrowed for it has landed by the end of that wait — unless the landing overran the
// bound (a fault the tool cannot foresee). Such a pull the tool had time to see coming, whoever
// took the front from its borrow meanwhile. (An input into a window already in front borrows
// nothing: F-3's 350 ms watch is all SPEC asks after it.)
bool pull_within_the_stated_wait(const sim::Scenario& s, const History& run, const sim::DeliveredInput& d) {
    return run.rules_settle && !d.overrun && declared_bound_ms(s, d.window) <= run.rules_settles_within_ms &&
           delivered_under_a_borrow(run, d);
}

// The end of the segment's F-3 obligation: its last delivery or foreground move plus the watch.
std::optional<TimeMs> watch_end_ms(const History& run, const Segment& seg) {
    std::optional<TimeMs> last;
    const auto& truth = run.truth();
    for (std::size_t i : seg.reports) {
        const auto& t = run.timings[i];
        for (std::size_t k = t.attempts_begin; k < t.attempts_end && k < truth.attempts.size(); ++k) {
            const auto& a = truth.attempts[k];
            if (a.outcome == sim::AttemptOutcome::Delivered && a.step >= 0) last = std::max(last.value_or(0), a.at_ms);
        }
    }
    // A borrow or its give-back starts a watch; taking back an app's grab does not start a new one.
    const auto& changes = truth.foreground_changes;
    for (std::size_t k = seg.changes_begin; k < seg.changes_end && k < changes.size(); ++k) {
        const auto& c = changes[k];
        if (c.by != sim::Actor::Tool) continue;
        // Taking the front back to where it was before one of a run of moves by others (an app's
        // grab, another window) answers them; it starts no watch of its own.
        bool answers_a_grab = false;
        for (std::size_t j = k; j > seg.changes_begin && changes[j - 1].by != sim::Actor::Tool; --j) {
            answers_a_grab = answers_a_grab || c.to == changes[j - 1].from;
        }
        if (!answers_a_grab) last = std::max(last.value_or(0), c.at_ms);
    }
    if (!last) return std::nullopt;  // the tool touched nothing: nothing of its doing to watch for
    return *last + app_watch_ms_spec;
}

// F-1 as SPEC states it (not the tool's configuration): the user counts as busy while their last
// input is under 700 ms old; the tool waits for a pause, at most 3 s, then goes ahead anyway.
constexpr TimeMs user_idle_ms_spec = 700;
constexpr TimeMs user_wait_ms_spec_max = 3000;

// The user's last keyboard or mouse input strictly before `t` (one at `t` itself may come after).
TimeMs last_user_input_before(const sim::Scenario& s, const History& run, TimeMs t) {
    TimeMs last = s.user_last_input_ms;
    for (const auto& e : run.truth().events) {
        if (e.at_ms >= t || e.index >= s.events.size()) continue;
        const auto kind = s.events[e.index].kind;
        if (kind == sim::EventKind::UserTypes || kind == sim::EventKind::UserClicks) last = std::max(last, e.at_ms);
    }
    return last;
}

// A request that gives the front back rather than taking it: for the window in front when the
// call began, or for a window the front was taken from earlier in the call (by the tool, the user,
// another window or an app's grab) — returning the front to where it was steals nothing (F-1).
bool gives_back(const History& run, const Segment& seg, const sim::ForegroundRequest& r) {
    if (r.window == seg.foreground_before) return true;
    const auto& changes = run.truth().foreground_changes;
    for (std::size_t i = seg.changes_begin; i < changes.size(); ++i) {
        const auto& c = changes[i];
        if (c.at_ms > r.at_ms) break;
        if (c.at_ms == r.at_ms && c.by == sim::Actor::Tool && c.to == r.window) break;  // the request's own answer
        if (c.from == r.window) return true;
    }
    return false;
}

// F-1: every foreground request by which the tool takes the front for a step's target comes while
// the user is idle, or after the step has waited the 3 s out.
std::optional<Violation> took_front_from_a_busy_user(const sim::Scenario& s, const History& run) {
    const auto& requests = run.truth().foreground_requests;
    for (const Segment& seg : run.segments) for (const std::size_t i : seg.reports) {
        const StepTiming& t = run.timings[i];
        const WindowId target = run.steps[i].request.target;
        for (std::size_t k = t.requests_begin; k < t.requests_end && k < requests.size(); ++k) {
            const auto& r = requests[k];
            if (r.window != target || gives_back(run, seg, r)) continue;
            const TimeMs last = last_user_input_before(s, run, r.at_ms);
            if (r.at_ms - last >= user_idle_ms_spec || r.at_ms - t.began_ms >= user_wait_ms_spec_max) continue;
            return Violation{"foreground_returned", run.steps[i].index,
                             "the tool asked for the front of w" + std::to_string(target) + " at t=" + std::to_string(r.at_ms) +
                                 ", " + std::to_string(r.at_ms - last) + " ms after the user's last input, having waited " +
                                 std::to_string(r.at_ms - t.began_ms) + " ms (F-1: wait for a 700 ms pause, at most 3 s)"};
        }
    }
    return std::nullopt;
}

// F-6: the foreground change `change` came while a step that ended in an execution error ran.
bool in_a_failed_step(const History& run, std::size_t change) {
    for (std::size_t i = 0; i < run.steps.size() && i < run.timings.size(); ++i) {
        const StepTiming& t = run.timings[i];
        if (change >= t.changes_begin && change < t.changes_end && run.steps[i].result.error) return true;
    }
    return false;
}

// F-7 with the rule set's stated wait (D-3, as data): a WPF-like app pulls its window forward when
// the tool's input lands in it, which is why the tool borrows its front. A rule set that waits for
// an app's declared bound holds the borrowed window until the bound has passed; giving its front
// away earlier, so that the tool's own input then pulls it forward again, moves the front outside
// the borrow. Judged from the ledger alone: the tool's move onto window W (a borrow) and its move
// off W, with the tool's input delivered into W in between; the app's move onto W at the moment that
// input landed, after the move off; the move off inside the input's declared bound.
std::optional<Violation> gave_front_away_before_its_input_landed(const sim::Scenario& s, const History& run) {
    if (!run.rules_settle) return std::nullopt;
    const auto& truth = run.truth();
    const auto& changes = truth.foreground_changes;
    std::optional<std::size_t> borrow;  // the tool's move onto the window in front now
    for (std::size_t k = 0; k < changes.size(); ++k) {
        const auto& off = changes[k];
        const std::optional<std::size_t> onto = borrow;
        borrow = is_a_borrow(run, k) ? std::optional<std::size_t>(k) : std::nullopt;
        if (off.by != sim::Actor::Tool || !onto || changes[*onto].to != off.from) continue;
        if (in_a_failed_step(run, k)) continue;  // F-6: after a failure the front goes back at once
        const TimeMs bound = declared_bound_ms(s, off.from);
        if (bound > run.rules_settles_within_ms) continue;
        // The inputs delivered while the tool held W: the attempts between the two moves, each
        // Delivered attempt being the next entry of `delivered`.
        std::size_t delivered_index = 0;
        for (std::size_t a = 0; a < off.attempts_before && a < truth.attempts.size(); ++a) {
            if (truth.attempts[a].outcome != sim::AttemptOutcome::Delivered) continue;
            const std::size_t di = delivered_index++;
            if (a < changes[*onto].attempts_before || di >= truth.delivered.size()) continue;
            const auto& d = truth.delivered[di];
            if (d.window != off.from || !pulls_itself_forward(s, d)) continue;
            if (*d.lands_at_ms <= off.at_ms || off.at_ms >= d.at_ms + bound) continue;
            const bool pulled = std::any_of(changes.begin() + static_cast<std::ptrdiff_t>(k) + 1, changes.end(),
                                            [&](const sim::ForegroundChange& c) { return is_pull_of(c, d); });
            if (!pulled) continue;
            const std::uint32_t step = static_cast<std::uint32_t>(d.step);
            return Violation{"foreground_returned", step,
                             "the tool moved the front off w" + std::to_string(d.window) + " at t=" + std::to_string(off.at_ms) + ", " +
                                 std::to_string(off.at_ms - d.at_ms) + " ms after delivering step " + std::to_string(step) +
                                 "'s input into it; the input landed at t=" + std::to_string(*d.lands_at_ms) +
                                 " and pulled the window forward again (F-7). The rule set waits for an app's declared bound (" +
                                 std::to_string(bound) + " ms here, D-3), so the borrow had to last until the input landed"};
        }
    }
    return std::nullopt;
}

}  // namespace

// F-5, counted from the ledger: a borrow is a move by the tool onto a segment target from a window
// that is none of the segment's targets nor related to one (moving the hold between targets, or
// taking back a target app's grab, is not a new borrow). `end`: the foreground changes counted.
bool reached_the_app(const History& run, const StepTiming& t, std::uint32_t step) {
    const auto& attempts = run.truth().attempts;
    for (std::size_t i = t.attempts_begin; i < t.attempts_end && i < attempts.size(); ++i) {
        const auto& a = attempts[i];
        if (a.step == static_cast<std::int32_t>(step) && (a.outcome == sim::AttemptOutcome::Delivered || a.outcome == sim::AttemptOutcome::Threw)) return true;
    }
    return false;
}

bool related_to_a_target(const History& run, const sim::Scenario& scenario, const Segment& seg, WindowId w) {
    return related_to_any_target(run, scenario, seg, w);
}

bool related_window(const sim::Scenario& scenario, WindowId w, WindowId target) { return related(scenario, w, target); }

bool someone_elses_move(const sim::Scenario& scenario, const History& run, const Segment& seg, std::size_t change) {
    const auto& changes = run.truth().foreground_changes;
    if (change >= changes.size()) return false;
    const auto& c = changes[change];
    if (c.by == sim::Actor::Tool || c.to == no_window) return false;
    // The windows the tool had acted on before the move: delivered to (or thrown on) by a step of
    // the run, and the segment's targets it had brought forward itself.
    const auto& attempts = run.truth().attempts;
    for (std::size_t i = 0; i < run.steps.size() && i < run.timings.size(); ++i) {
        const auto& t = run.timings[i];
        for (std::size_t k = t.attempts_begin; k < t.attempts_end && k < c.attempts_before && k < attempts.size(); ++k) {
            const auto& a = attempts[k];
            if (a.step < 0 || (a.outcome != sim::AttemptOutcome::Delivered && a.outcome != sim::AttemptOutcome::Threw)) continue;
            if (related(scenario, c.to, run.steps[i].request.target) || related(scenario, c.to, a.window)) return false;
        }
    }
    for (std::size_t k = seg.changes_begin; k < change; ++k) {
        if (changes[k].by != sim::Actor::Tool) continue;
        for (const std::size_t i : seg.reports) {
            if (run.steps[i].request.target == changes[k].to && related(scenario, c.to, changes[k].to)) return false;
        }
    }
    return true;
}

std::uint32_t borrows_in(const History& run, const sim::Scenario& scenario, const Segment& seg, std::size_t end) {
    std::uint32_t n = 0;
    const auto& changes = run.truth().foreground_changes;
    for (std::size_t i = seg.changes_begin; i < end && i < changes.size(); ++i) {
        const auto& c = changes[i];
        if (c.by != sim::Actor::Tool) continue;
        if (related_to_any_target(run, scenario, seg, c.to) && !related_to_any_target(run, scenario, seg, c.from)) ++n;
    }
    return n;
}

namespace {

// The horizon a segment is judged to: the tool's return — and for its last call, when nothing of
// the tool runs after it, the end of the F-3 watch (an app grab the tool should still have been
// watching for, after it returned, is judged too), or the landing of a pull it had to foresee.
struct Horizon {
    std::size_t changes_end = 0;
    WindowId front_after = no_window;
};

// The landing of the segment's last pattern input into a WPF-like window it borrowed, when the rule
// set's stated wait covers it (F-7, D-3): the pull it makes is a consequence of the run the tool had
// time to see coming, after whatever watch its last move started.
std::optional<TimeMs> last_foreseen_pull_ms(const sim::Scenario& s, const History& run, const Segment& seg) {
    std::optional<TimeMs> last;
    for (const auto& d : run.truth().delivered) {
        if (d.at_ms < seg.began_ms || d.at_ms > seg.ended_ms || !pulls_itself_forward(s, d)) continue;
        if (pull_within_the_stated_wait(s, run, d)) last = std::max(last.value_or(0), *d.lands_at_ms);
    }
    return last;
}

Horizon judging_horizon(const sim::Scenario& scenario, const History& run, const Segment& seg, bool last_call) {
    const auto& changes = run.truth().foreground_changes;
    Horizon h{seg.changes_end, seg.foreground_after};
    if (!last_call) return h;
    auto horizon = watch_end_ms(run, seg);
    if (const auto pull = last_foreseen_pull_ms(scenario, run, seg); pull && horizon) horizon = std::max(*horizon, *pull);
    // A launch after the segment (F-8) is the tool at work again: judge only up to it.
    std::optional<TimeMs> launch_at;
    for (const auto& l : run.truth().launches) {
        if (l.at_ms >= seg.ended_ms && (!launch_at || l.at_ms < *launch_at)) launch_at = l.at_ms;
    }
    while (horizon && h.changes_end < changes.size() && changes[h.changes_end].at_ms <= *horizon &&
           (!launch_at || changes[h.changes_end].at_ms < *launch_at)) {
        h.front_after = changes[h.changes_end++].to;
    }
    return h;
}

// Who should hold the front once the tool and its targets' apps undo their moves: the window from
// before, or whoever else (the user, another window, an unrelated app) took it last (F-4: left
// alone). After a grab by a target's app, the tool may give back to any earlier owner: between two
// polls it cannot see who held the front before the grab.
struct Owners {
    WindowId owner = no_window;
    std::vector<WindowId> acceptable;
    bool someone_else = false;          // someone else took the front while the tool ran (F-4)
    WindowId owner_in_call = no_window;
};

Owners rightful_owners(const sim::Scenario& scenario, const History& run, const Segment& seg, std::size_t changes_end) {
    const auto& changes = run.truth().foreground_changes;
    Owners o;
    o.owner = seg.foreground_before;
    o.owner_in_call = o.owner;
    std::vector<WindowId> owners{o.owner};
    o.acceptable = {o.owner};
    for (std::size_t i = seg.changes_begin; i < changes_end && i < changes.size(); ++i) {
        const auto& c = changes[i];
        if (c.by == sim::Actor::Tool) continue;
        const auto acted = targets_so_far(run, seg, i);
        const bool related_to_targets = std::any_of(acted.begin(), acted.end(), [&](WindowId t) { return related(scenario, c.to, t); });
        const auto tried = targets_so_far(run, seg, i, false);
        const bool related_to_tried = std::any_of(tried.begin(), tried.end(), [&](WindowId t) { return related(scenario, c.to, t); });
        if (c.by == sim::Actor::App && !related_to_targets && related_to_tried) {
            // A grab by a relative of a target whose delivery failed: the tool cannot tell it from
            // the app's reaction (F-3) — giving it back and leaving it are both acceptable.
            owners.push_back(c.to);
            o.acceptable = owners;
            continue;
        }
        if (c.by == sim::Actor::App && related_to_targets) {
            const auto last = last_delivery_to_related_ms(run, scenario, c);
            o.acceptable = owners;
            const sim::DeliveredInput* pull = pulled_forward_by(scenario, run, c);
            const bool foreseen = pull != nullptr && pull_within_the_stated_wait(scenario, run, *pull);
            if (last && c.at_ms > *last + app_watch_ms_spec && !foreseen) {
                // After the F-3 watch of the delivery that could have caused it: the tool no longer
                // owes a give-back, and may still recognise its target's app — either is right.
                // Not so for the landing of its own pattern input into a WPF-like window (F-7) that
                // the rule set's stated wait covers: it waits that out before it lets go and watches.
                owners.push_back(c.to);
                o.acceptable = owners;
            }
            continue;
        }
        // A user (or another window) bringing a target's window forward after the tool acted on
        // it looks like an app grab to the tool (F-3 names the window, not who moved it): giving
        // it back and leaving it are both right, and it is not "someone else" for F-4 — with
        // nothing in front before, a target's window may still be left in front.
        if (related_to_targets || related_to_tried || delivered_to_relative_before(run, scenario, c)) {
            owners.push_back(c.to);
            o.acceptable = owners;
            continue;
        }
        o.owner = c.to;
        // F-4: a step of the call that began right after the move looked at the front then (every
        // step does, as it begins): the earlier owners are no longer the tool's to give back to.
        bool seen_at_a_step_start = false;
        for (const std::size_t k : seg.reports) seen_at_a_step_start = seen_at_a_step_start || run.timings[k].changes_begin == i + 1;
        if (seen_at_a_step_start) owners.clear();
        owners.push_back(o.owner);
        if (i < seg.changes_end) {  // while the tool ran: the report must say so (F-4)
            o.someone_else = true;
            o.owner_in_call = o.owner;
        }
        o.acceptable = {o.owner};
    }
    return o;
}

// The segment left the front with a window none of the rightful owners is: a violation, or (S-7:
// the desktop may refuse the give-back) a reason it cannot be judged — excused only when the ledger
// shows the tool asked for a rightful owner, pressed F24 and was refused again (or the press failed).
struct WrongFront {
    std::optional<std::string> violation;
    std::optional<std::string> not_judged;
};

WrongFront front_left_wrong(const History& run, const Segment& seg, const Owners& o, const Horizon& h) {
    const LastRequest lr = last_request(run, seg.requests_begin, seg.requests_end);
    const bool asked_rightful = lr.request != nullptr && std::find(o.acceptable.begin(), o.acceptable.end(), lr.request->window) != o.acceptable.end();
    if (lr.refused && asked_rightful && !lr.tried_f24) {
        return {"the give-back to w" + std::to_string(lr.request->window) + " was refused and the tool did not press F24 and ask again (F-1)", {}};
    }
    const std::string refused = "the desktop refused the give-back to the rightful window even after F24 (S-7)";
    if (lr.refused && asked_rightful && h.front_after == seg.foreground_after) return {{}, refused};
    if (refused_give_back_stands(run, seg, o.acceptable, h.changes_end)) return {{}, refused};
    return {std::string(seg.batch ? "the batch" : "the single action") + " ended with w" + std::to_string(h.front_after) + " in front; expected w" +
                std::to_string(o.acceptable.back()) + " (before: w" + std::to_string(seg.foreground_before) + ")" +
                (h.changes_end > seg.changes_end ? ", judged through the F-3 watch after the tool returned" : ""),
            {}};
}

// F-5: a batch borrows once. Any move by someone else during the call allows another borrow, also
// one that F-3 leaves open (the user bringing back a window the tool once delivered to looks like
// that app's grab, and the tool may take it for F-4's "another window").
std::optional<std::string> borrowed_twice(const sim::Scenario& scenario, const History& run, const Segment& seg, const Owners& o) {
    if (!seg.batch) return std::nullopt;
    const auto& changes = run.truth().foreground_changes;
    const std::uint32_t borrows = borrows_in(run, scenario, seg, seg.changes_end);
    const bool moved_by_others = std::any_of(changes.begin() + static_cast<std::ptrdiff_t>(std::min(seg.changes_begin, changes.size())),
                                             changes.begin() + static_cast<std::ptrdiff_t>(std::min(seg.changes_end, changes.size())),
                                             [](const sim::ForegroundChange& c) { return c.by != sim::Actor::Tool; });
    if (borrows <= 1 || o.someone_else || moved_by_others) return std::nullopt;
    return "the batch took the foreground from another window " + std::to_string(borrows) + " times with nobody else moving it in between (F-5)";
}

}  // namespace

CheckResult foreground_returned(const sim::Scenario& scenario, const History& run) {
    std::uint32_t judged = 0;
    std::uint32_t not_judged = 0;
    std::string why_not;
    if (run.timings.size() != run.steps.size()) return CheckResult::cannot_judge("step timings missing");
    if (auto v = took_front_from_a_busy_user(scenario, run)) {
        return CheckResult::violated(v->property, v->step, v->explanation);
    }
    if (auto v = gave_front_away_before_its_input_landed(scenario, run)) {
        return CheckResult::violated(v->property, v->step, v->explanation);
    }
    for (std::size_t si = 0; si < run.segments.size(); ++si) {
        const Segment& seg = run.segments[si];
        const std::optional<std::uint32_t> step =
            seg.reports.empty() ? std::nullopt : std::optional<std::uint32_t>(run.steps[seg.reports.back()].index);
        const Horizon h = judging_horizon(scenario, run, seg, si + 1 == run.segments.size());
        const Owners o = rightful_owners(scenario, run, seg, h.changes_end);
        // Nothing in front before (F-1 records before = none): there is nothing to give back to, so
        // leaving the target (or a window of its app) in front is right, and so is nothing.
        const bool nothing_before = seg.foreground_before == no_window;
        const bool ok = std::find(o.acceptable.begin(), o.acceptable.end(), h.front_after) != o.acceptable.end() ||
                        (nothing_before && !o.someone_else && related_to_any_target(run, scenario, seg, h.front_after));
        if (!ok) {
            const WrongFront wrong = front_left_wrong(run, seg, o, h);
            if (wrong.violation) return CheckResult::violated("foreground_returned", step, *wrong.violation);
            ++not_judged;
            why_not = *wrong.not_judged;
            continue;
        }
        if (o.someone_else && seg.foreground_after == o.owner_in_call && o.owner_in_call != seg.foreground_before &&
            !related_to_any_target(run, scenario, seg, o.owner_in_call) && !segment_reports_change(run, seg)) {
            return CheckResult::violated("foreground_returned", step, "another window took the foreground and the report does not say so (F-4)");
        }
        if (auto twice = borrowed_twice(scenario, run, seg, o)) return CheckResult::violated("foreground_returned", step, *twice);
        ++judged;
    }
    if (judged == 0 && not_judged > 0) return CheckResult::cannot_judge(why_not);
    CheckResult r = CheckResult::holds(judged);
    r.not_judged_items = not_judged;
    r.why_partly_not_judged = why_not;
    return r;
}

// ---- verdict_sound (V-1, V-2, D-1..D-3) ---------------------------------------------------------

namespace {

struct StepFacts {
    const sim::Scenario& scenario;
    const StepReport& report;
    const StepTiming& timing;
    const History& run;
    std::int32_t step() const { return static_cast<std::int32_t>(report.index); }
    WindowId window() const { return report.request.target; }
};

// The effects that would make this step's promise true (its own effects only).
std::vector<EffectKind> promised_effects(const ActionFacts& f) {
    switch (f.kind) {
        case ActionKind::SelectAll: return {EffectKind::SelectionChanged};
        case ActionKind::Hotkey:
            switch (f.intent) {
                case HotkeyIntent::Save: return {EffectKind::Saved};
                case HotkeyIntent::Edit: return {EffectKind::ValueChanged};
                case HotkeyIntent::Navigate: return {EffectKind::SelectionChanged};
                case HotkeyIntent::Focus:
                case HotkeyIntent::Other: return {};
            }
            return {};
        case ActionKind::TypeText:
        case ActionKind::TypeWithNavigation: return {EffectKind::ValueChanged};
        case ActionKind::ClickStateful:
            if (f.click_state == ClickState::Toggle) return {EffectKind::Toggled};
            if (f.click_state == ClickState::Expand) return {EffectKind::Expanded};
            return {EffectKind::Selected};
        case ActionKind::Unverifiable: return {};
    }
    return {};
}

// Caused by a delivery of this very report (an agent retry shares the step's index).
bool caused_by_this_report(const sim::Effect& e, const StepFacts& s) {
    if (e.step != s.step()) return false;
    if (!e.delivered_at_ms) return true;
    const auto& attempts = s.run.truth().attempts;
    for (std::size_t i = s.timing.attempts_begin; i < s.timing.attempts_end && i < attempts.size(); ++i) {
        if (attempts[i].step == s.step() && attempts[i].at_ms == *e.delivered_at_ms) return true;
    }
    return false;
}

bool effect_matches(const sim::Effect& e, const StepFacts& s, const std::vector<EffectKind>& kinds) {
    if (e.step != s.step() || e.window != s.window()) return false;
    if (!caused_by_this_report(e, s)) return false;
    if (std::find(kinds.begin(), kinds.end(), e.kind) == kinds.end()) return false;
    const bool window_level = e.kind == EffectKind::Saved;
    return window_level || (s.report.element && e.element == *s.report.element);
}

// When the verdict was formed: the step's last read of its element (the end of the step if none).
TimeMs decision_ms(const StepFacts& s) {
    TimeMs at = s.timing.ended_ms;
    bool any = false;
    const auto& reads = s.run.truth().reads;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < reads.size(); ++i) {
        if (s.report.element && reads[i].element == *s.report.element) {
            at = reads[i].at_ms;
            any = true;
        }
    }
    return any ? at : s.timing.ended_ms;
}

// Did this step's promised effect land by `until_ms` (any effect, overrun or not)?
bool landed_by(const StepFacts& s, TimeMs until_ms) {
    const auto kinds = promised_effects(s.report.facts);
    for (const auto& e : s.run.truth().effects) {
        if (e.at_ms <= until_ms && effect_matches(e, s, kinds)) return true;
    }
    return false;
}

// Did it land at any time within the app's declared bound of its delivery (not an overrun)?
bool lands_within_bound(const StepFacts& s) {
    const auto delivered = first_delivery_ms(s.run, s.timing);
    if (!delivered) return false;
    const TimeMs bound = declared_bound_ms(s.scenario, s.window());
    const auto kinds = promised_effects(s.report.facts);
    for (const auto& e : s.run.truth().effects) {
        if (!e.overrun && e.at_ms <= *delivered + bound && effect_matches(e, s, kinds)) return true;
    }
    return false;
}

// Why this step cannot be judged: a fault the tool does not promise to survive shaped its reads.
std::optional<std::string> unjudgeable(const StepFacts& s) {
    const auto& truth = s.run.truth();
    // Only the reads the verdict rests on: per field, the last one before the first delivery (the
    // before-reading) and the last two of the step (the after-reading and the one it was found
    // stable against). A stale read among the polls in between decides nothing.
    std::size_t first_attempt_read = s.timing.reads_end;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < truth.reads.size(); ++i) {
        if (truth.reads[i].attempts_before > s.timing.attempts_begin) {
            first_attempt_read = i;
            break;
        }
    }
    std::map<sim::ReadField, std::vector<std::size_t>> by_field;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < truth.reads.size(); ++i) {
        const auto& r = truth.reads[i];
        const bool window_level = r.element == 0 && r.window == s.window();  // the dirty marker
        if (window_level || (s.report.element && r.element == *s.report.element)) by_field[r.field].push_back(i);
    }
    for (const auto& [field, idx] : by_field) {
        std::vector<std::size_t> deciding;
        for (auto it = idx.rbegin(); it != idx.rend(); ++it) {
            if (*it < first_attempt_read) {
                deciding.push_back(*it);
                break;
            }
        }
        for (std::size_t k = 0; k < 2 && k < idx.size(); ++k) deciding.push_back(idx[idx.size() - 1 - k]);
        for (std::size_t i : deciding) {
            if (truth.reads[i].fault == sim::ReadFault::Stale) return "a stale read (S-7) is one this verdict rests on";
        }
    }
    for (const auto& e : truth.effects) {
        if (e.at_ms < s.timing.began_ms || e.at_ms > s.timing.ended_ms || e.window != s.window()) continue;
        if (e.by == sim::Actor::User) return "the user changed the target while the step ran (W-5)";
        if (e.overrun && !caused_by_this_report(e, s)) {
            return "step " + std::to_string(e.step) + "'s effect landed during this step, beyond its app's declared latency bound (S-7)";
        }
    }
    return std::nullopt;
}

// V-2: the last read of the deciding reading returned nothing, yet the verdict is Absent.
bool absent_on_unreadable(const StepFacts& s) {
    if (!s.report.element) return false;
    const auto& truth = s.run.truth();
    const sim::ReadField field = s.report.facts.kind == ActionKind::ClickStateful
                                     ? (s.report.facts.click_state == ClickState::Toggle   ? sim::ReadField::Toggled
                                        : s.report.facts.click_state == ClickState::Expand ? sim::ReadField::Expanded
                                                                                           : sim::ReadField::Selected)
                                     : sim::ReadField::Value;
    std::optional<bool> last_unreadable;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < truth.reads.size(); ++i) {
        const auto& r = truth.reads[i];
        if (r.element == *s.report.element && r.field == field) last_unreadable = !r.returned.has_value();
    }
    return last_unreadable.value_or(false);
}

bool element_effect_in(const StepFacts& s, TimeMs from_exclusive, TimeMs to_inclusive) {
    for (const auto& e : s.run.truth().effects) {
        // Element readings only: a window-level effect (the dirty marker) does not move them.
        if (e.at_ms > from_exclusive && e.at_ms <= to_inclusive && e.window == s.window() &&
            (!s.report.element || e.element == *s.report.element)) {
            return true;
        }
    }
    return false;
}

// The true state of the element when the verdict was formed (its last read): the state captured
// at the step's start if nothing landed before the decision, the one captured at the end if
// nothing landed after it; unknown otherwise.
bool removed_in(const StepFacts& s, TimeMs from_exclusive, TimeMs to_inclusive) {
    const auto& scenario = s.scenario;
    for (const auto& f : s.run.truth().events) {
        if (f.at_ms <= from_exclusive || f.at_ms > to_inclusive || f.index >= scenario.events.size()) continue;
        const auto& ev = scenario.events[f.index];
        if (ev.kind == sim::EventKind::ControlRemoved && s.report.element && ev.control == *s.report.element) return true;
    }
    return false;
}

const TrueState* state_at_decision(const StepFacts& s) {
    const TimeMs d = decision_ms(s);
    // Nothing landed on the element, and it was not removed, between the step's start and the
    // decision: the state then is the one captured at the start, whatever happened after the
    // decision (a removal included).
    const TimeMs from = s.timing.began_ms - 1;
    if (!element_effect_in(s, from, d) && !removed_in(s, from, d)) return &s.timing.before;
    if (removed_in(s, d, s.timing.ended_ms)) return nullptr;
    const auto& a = s.timing.after;
    const auto& b = s.timing.before;
    const bool vanished = (b.value && !a.value) || (b.selected && !a.selected) || (b.toggled && !a.toggled) ||
                          (b.expanded && !a.expanded);  // removed (with an ancestor) during the step
    if (vanished) return nullptr;
    if (!element_effect_in(s, d, s.timing.ended_ms)) return &s.timing.after;
    if (!element_effect_in(s, s.timing.began_ms - 1, d)) return &s.timing.before;
    return nullptr;
}

// D-2: the true value is the typed text spliced into the true selection from before the step.
// `at` is the step's `before` or `after` (state_at_decision); the facts were decided from the whole
// values when the step ended (harness/run.cpp, S-8).
const ValueFacts& value_facts_at(const StepFacts& s, const TrueState& at) {
    assert(&at == &s.timing.before || &at == &s.timing.after);
    return &at == &s.timing.before ? s.timing.at_before : s.timing.at_after;
}

bool holds_as_set(const StepFacts& s, const TrueState& at) { return value_facts_at(s, at).set; }

// The step whose own update (delivered by the tool in an earlier step or an earlier send of this
// step, within its app's declared bound) landed on this step's element between this step's start and its decision: a change this
// step read that was not its own. Ground truth only.
std::optional<std::int32_t> earlier_update_seen(const StepFacts& s) {
    if (!s.report.element) return std::nullopt;
    const TimeMs d = decision_ms(s);
    for (const auto& e : s.run.truth().effects) {
        if (e.at_ms < s.timing.began_ms || e.at_ms > d || e.window != s.window() || e.element != *s.report.element) continue;
        if (e.by != sim::Actor::Tool || e.overrun || e.step < 0 || e.step > s.step()) continue;
        if (e.step == s.step() && caused_by_this_report(e, s)) continue;  // its own (a retry's earlier send is not)
        return e.step;
    }
    return std::nullopt;
}

// Did the step's own readings of a field of its element (the ground truth's read log, what each
// read returned) show a change: two reads that returned different things?
bool field_read_changed(const StepFacts& s, sim::ReadField field) {
    if (!s.report.element) return false;
    const auto& reads = s.run.truth().reads;
    std::optional<sim::Kept> first;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < reads.size(); ++i) {
        const sim::Read& r = reads[i];
        if (r.window != s.window() || r.element != *s.report.element || r.field != field || !r.returned) continue;
        if (!first) first = *r.returned;
        else if (!(*first == *r.returned)) return true;
    }
    return false;
}
bool value_read_changed(const StepFacts& s) { return field_read_changed(s, sim::ReadField::Value); }
bool reading_changed(const StepFacts& s) { return value_read_changed(s) || field_read_changed(s, sim::ReadField::Selection); }

// A wrong Confirmed whose reading was an earlier send's own update landing within its bound: the
// one immediate read of `published` cannot tell whose update it saw (D-3). Hotkeys stay D-1.
std::optional<std::string> confirmed_unsound_core(const StepFacts& s);
std::optional<std::string> confirmed_unsound(const StepFacts& s) {
    auto bad = confirmed_unsound_core(s);
    if (!bad || s.report.facts.kind == ActionKind::Hotkey) return bad;
    if (const auto late = earlier_update_seen(s)) {
        const std::string whose = *late == s.step() ? std::string("an earlier send's") : "step " + std::to_string(*late) + "'s";
        return *bad + ": the change it read was " + whose +
               " update, landing late but within its app's declared latency bound (D-3: readable is not timely)";
    }
    return bad;
}

std::optional<std::string> confirmed_unsound_core(const StepFacts& s) {
    const auto& f = s.report.facts;
    const TrueState* at = state_at_decision(s);
    if (f.kind == ActionKind::SelectAll) {
        if (at == nullptr) return std::nullopt;
        return covers(*at) ? std::nullopt : std::optional<std::string>("Confirmed select-all, but the true selection does not cover the text");
    }
    if (f.kind == ActionKind::ClickStateful && f.click_state == ClickState::Select) {
        if (at == nullptr) return std::nullopt;
        return at->selected == true ? std::nullopt : std::optional<std::string>("Confirmed selection, but the item is not selected");
    }
    if (f.kind == ActionKind::TypeText && at != nullptr && holds_as_set(s, *at)) return std::nullopt;  // D-2: "set to X" holds
    if (!landed_by(s, decision_ms(s))) {
        std::string what = f.kind == ActionKind::Hotkey ? "hotkey (" + std::string(name_of(f.intent)) + ")" : std::string(name_of(f.kind));
        if (f.kind == ActionKind::Hotkey) {
            // D-1 is a Confirmed on a change the hotkey did not promise: one its readings did show.
            if (reading_changed(s)) return "Confirmed " + what + ", but no effect of this step that it promises had happened (D-1)";
            return "Confirmed " + what + ", but no effect of this step that it promises had happened and none of its readings of the value or the selection changed (V-4)";
        }
        return "Confirmed " + what + ", but no effect of this step that it promises had happened (V-1)";
    }
    if (f.kind == ActionKind::TypeText && at != nullptr && !value_facts_at(s, *at).holds_text) {
        return "Confirmed typing, but the true value does not contain the text";
    }
    if (f.kind == ActionKind::TypeWithNavigation && at != nullptr) {
        // V-6: what typing with Tab/Enter promises is the text before its first navigation key.
        if (!value_facts_at(s, *at).holds_segment) {
            return "Confirmed typing with navigation keys, but the true value does not contain the text before the first of them (V-6)";
        }
    }
    return std::nullopt;
}

std::optional<std::string> absent_unsound(const StepFacts& s) {
    const auto& f = s.report.facts;
    if (absent_on_unreadable(s)) return "Absent rests on an unreadable read (V-2)";
    if (f.kind == ActionKind::Hotkey) {
        return "Absent hotkey: V-4 answers a hotkey Confirmed or Unknown; an unchanged reading is no counter-evidence (V-1), a hotkey may have nothing to change";
    }
    if (f.kind == ActionKind::TypeWithNavigation && !value_read_changed(s)) {
        return "Absent typing with navigation keys, but none of its readings of the value changed: V-6 answers that Unknown (the keys may have moved the focus or submitted)";
    }
    const TrueState* at = state_at_decision(s);
    if (at != nullptr && f.kind == ActionKind::SelectAll && covers(*at)) return "Absent select-all, but the true selection covers the text";
    if (at != nullptr && f.kind == ActionKind::ClickStateful && f.click_state == ClickState::Select &&
        at->selected == true) {
        return "Absent selection, but the item is selected";
    }
    if (landed_by(s, decision_ms(s))) return "Absent, but this step's promised effect had already landed (D-2/V-1)";
    if (lands_within_bound(s)) return "Absent, but the effect lands later within the app's declared latency bound (D-3)";
    return std::nullopt;
}

// V-1, V-2: a Confirmed rests on a reading. The field that decides the action's promise (the state
// a click flips, the value typed into, the selection a select-all makes) was last read, after the
// delivery, as nothing: the answer rests on no reading of it.
std::optional<std::string> confirmed_on_nothing(const StepFacts& s) {
    const ActionFacts& f = s.report.facts;
    std::optional<sim::ReadField> field;
    if (f.kind == ActionKind::TypeText || f.kind == ActionKind::TypeWithNavigation) field = sim::ReadField::Value;
    if (f.kind == ActionKind::SelectAll) field = sim::ReadField::Selection;
    if (f.kind == ActionKind::ClickStateful) {
        field = f.click_state == ClickState::Toggle   ? sim::ReadField::Toggled
                : f.click_state == ClickState::Expand ? sim::ReadField::Expanded
                                                      : sim::ReadField::Selected;
    }
    if (!field || !s.report.element) return std::nullopt;
    const auto& truth = s.run.truth();
    std::optional<std::size_t> delivered;
    for (std::size_t i = s.timing.attempts_begin; i < s.timing.attempts_end && i < truth.attempts.size() && !delivered; ++i) {
        if (truth.attempts[i].step == s.step() && truth.attempts[i].outcome == sim::AttemptOutcome::Delivered) delivered = i;
    }
    if (!delivered) return std::nullopt;
    const sim::Read* last = nullptr;
    for (std::size_t i = s.timing.reads_begin; i < s.timing.reads_end && i < truth.reads.size(); ++i) {
        const auto& r = truth.reads[i];
        if (r.element == *s.report.element && r.field == *field && r.attempts_before > *delivered) last = &r;
    }
    if (last == nullptr || last->returned) return std::nullopt;
    return "Confirmed, but its last read of the " + std::string(sim::to_string(*field)) + " after the delivery, at " + t_at(last->at_ms) +
           ", returned nothing (V-1, V-2: a verdict rests on a reading)";
}

}  // namespace

CheckResult verdict_sound(const sim::Scenario& scenario, const History& run) {
    (void)scenario;
    if (run.timings.size() != run.steps.size()) return CheckResult::cannot_judge("step timings missing");
    std::uint32_t judged = 0;
    std::optional<std::string> skipped;
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const StepFacts s{scenario, run.steps[i], run.timings[i], run};
        const auto& v = s.report.result.verdict;
        if (!v || *v == Verdict::Unknown) {
            judged += v.has_value() ? 1 : 0;
            continue;
        }
        if (s.report.facts.kind == ActionKind::Unverifiable) {
            return CheckResult::violated("verdict_sound", s.report.index, "an unverifiable action was not Unknown (V-8)");
        }
        if (*v == Verdict::Confirmed) {
            if (auto why = confirmed_on_nothing(s)) return CheckResult::violated("verdict_sound", s.report.index, *why);
        }
        if (auto why = unjudgeable(s)) {
            skipped = why;
            continue;
        }
        const auto bad = *v == Verdict::Confirmed ? confirmed_unsound(s) : absent_unsound(s);
        if (bad) return CheckResult::violated("verdict_sound", s.report.index, *bad);
        ++judged;
    }
    if (judged == 0 && skipped) return CheckResult::cannot_judge(*skipped);
    return CheckResult::holds(judged);
}

// ---- click_lands_on_target (E-5, E-6) -----------------------------------------------------------

// A click on an element by ref that the tool delivered at a point (a real click, or a posted one at
// the element's centre): the point is hit-tested like a coordinate click (E-5) — the window on top
// there is the target's, and the element hit is the one meant or inside it (E-2).
std::optional<Violation> element_click_missed(const sim::Scenario& scenario, const sim::DeliveredInput& d,
                                              const sim::Step& step) {
    const auto k = static_cast<std::uint32_t>(d.step);
    // A real click lands on whatever is on top at the point; a posted one goes to the window itself.
    const WindowId on_top = d.method == DeliveryMethod::RealInput ? d.on_top.value_or(d.hit_window) : d.hit_window;
    if (on_top != step.window && !related(scenario, on_top, step.window)) {
        return Violation{"click_lands_on_target", k,
                         "the click on " + w_e(step.window, step.control) + " was delivered at a point w" +
                             std::to_string(on_top) + " covers (E-5)"};
    }
    if (d.hit_window != step.window && !related(scenario, d.hit_window, step.window)) {
        return Violation{"click_lands_on_target", k,
                         "the click on " + w_e(step.window, step.control) + " landed on w" + std::to_string(d.hit_window) + " (E-5)"};
    }
    // The element hit, or one of its ancestors, is the one meant.
    std::optional<ElementId> at = d.hit_element;
    for (std::size_t depth = 0; at && *at != 0 && depth < 64; ++depth) {
        if (at == step.control) return std::nullopt;
        const sim::Control* c = nullptr;
        for (const auto& w : scenario.windows) {
            if (w.id != d.hit_window) continue;
            for (const auto& x : w.controls) {
                if (x.id == *at) c = &x;
            }
        }
        if (c == nullptr) break;
        at = c->parent;
    }
    return Violation{"click_lands_on_target", k,
                     "the click on " + w_e(step.window, step.control) + " hit " + w_e(d.hit_window, d.hit_element) + " (E-5)"};
}

// A coordinate click the tool sent as a click message (E-4): to the target window, to the control
// the step meant when it names one, else to a control of the target whose bounds hold the point.
std::optional<Violation> click_message_missed(const sim::Scenario& scenario, const sim::DeliveredInput& d,
                                              const sim::Step& step) {
    const auto k = static_cast<std::uint32_t>(d.step);
    const sim::Window* w = sim::find_window(scenario, step.window);
    const sim::Control* c = nullptr;
    if (w != nullptr && d.element) {
        for (const auto& x : w->controls) {
            if (x.id == *d.element) c = &x;
        }
    }
    const bool meant = step.control ? d.element == step.control : c != nullptr && c->bounds.contains(*step.point);
    if (d.window == step.window && c != nullptr && meant) return std::nullopt;
    return Violation{"click_lands_on_target", k,
                     "the click meant for physical (" + std::to_string(step.point->x) + "," + std::to_string(step.point->y) +
                         ") on w" + std::to_string(step.window) + " was sent as a click message to " + w_e(d.window, d.element) +
                         ", not the control at the point (E-4, E-5)"};
}

CheckResult click_lands_on_target(const sim::Scenario& scenario, const History& run) {
    std::uint32_t judged = 0;
    for (const auto& d : run.truth().delivered) {
        if (d.step < 0 || static_cast<std::size_t>(d.step) >= scenario.steps.size()) continue;
        const auto& step = scenario.steps[static_cast<std::size_t>(d.step)];
        if (step.kind == sim::StepKind::Click && step.control && d.landed) {
            if (auto v = element_click_missed(scenario, d, step)) return CheckResult::violated(v->property, v->step, v->explanation);
            ++judged;
            continue;
        }
        if (step.kind != sim::StepKind::ClickAt || !step.point) continue;
        const auto k = static_cast<std::uint32_t>(d.step);
        if (d.method == DeliveryMethod::ClickMessage) {
            // E-4: a coordinate click sent as a click message to the element at the point — it
            // lands nowhere on the screen; the element is the one the scenario has under the point.
            if (auto v = click_message_missed(scenario, d, step)) return CheckResult::violated(v->property, v->step, v->explanation);
            ++judged;
            continue;
        }
        const WindowId on_top = d.on_top.value_or(d.hit_window);
        const bool rounded = d.landed && !(*d.landed == *step.point);
        if (on_top != step.window && !related(scenario, on_top, step.window) && rounded) {
            // The point meant hit the target; integer DPI rounding (E-6) moved it onto a neighbour's
            // edge. Within that rounding the tool delivered what it meant: judged, and it holds.
            const TimeMs tol = dpi_tolerance_px(scenario, step.window);
            if (std::abs(d.landed->x - step.point->x) <= tol && std::abs(d.landed->y - step.point->y) <= tol) {
                ++judged;
                continue;
            }
        }
        if (on_top != step.window && !related(scenario, on_top, step.window)) {
            return CheckResult::violated("click_lands_on_target", k,
                                         "the click meant for w" + std::to_string(step.window) +
                                             " was delivered where w" + std::to_string(on_top) + " covers the point (E-5)");
        }
        if (d.hit_window != step.window && !related(scenario, d.hit_window, step.window)) {
            return CheckResult::violated("click_lands_on_target", k,
                                         "the click meant for w" + std::to_string(step.window) + " landed on w" +
                                             std::to_string(d.hit_window) + " (E-5)");
        }
        const TimeMs tolerance = dpi_tolerance_px(scenario, step.window);
        if (!d.landed || std::abs(d.landed->x - step.point->x) > tolerance ||
            std::abs(d.landed->y - step.point->y) > tolerance) {
            const std::string at = d.landed ? "(" + std::to_string(d.landed->x) + "," + std::to_string(d.landed->y) + ")" : "nowhere";
            return CheckResult::violated("click_lands_on_target", k,
                                         "the click meant for physical (" + std::to_string(step.point->x) + "," +
                                             std::to_string(step.point->y) + ") landed at " + at + " (E-6)");
        }
        if (step.control && d.hit_element != step.control) {
            return CheckResult::violated("click_lands_on_target", k,
                                         "the click meant for " + w_e(step.window, step.control) + " hit " +
                                             w_e(d.hit_window, d.hit_element) + " (E-6)");
        }
        ++judged;
    }
    return CheckResult::holds(judged);
}

// ---- ref_never_crosses_windows (E-2, E-3) -------------------------------------------------------

// E-1 the other way: a snapshot hands the agent every element of a window the port can see into, as
// a ref. A step by ref on a control of a window shown from the start (not an Electron tree, which
// is opaque), that no event removed before the step began, went out without a ref: the snapshot
// left its element out.
std::optional<Violation> ref_left_out(const sim::Scenario& scenario, const History& run) {
    for (std::size_t r = 0; r < run.steps.size() && r < run.timings.size(); ++r) {
        const std::uint32_t k = run.steps[r].index;
        if (k >= scenario.steps.size() || k >= run.requests.size() || run.requests[k].ref) continue;
        const auto& step = scenario.steps[k];
        if (!step.control || step.kind == sim::StepKind::ClickAt || step.kind == sim::StepKind::Launch) continue;
        if (step.ref_window && *step.ref_window != step.window) continue;
        const sim::Window* w = sim::find_window(scenario, step.window);
        if (w == nullptr || w->framework == Framework::Electron || !control_of_window(scenario, step.window, *step.control)) continue;
        if (std::find(scenario.hidden.begin(), scenario.hidden.end(), step.window) != scenario.hidden.end()) continue;
        // Removed before the step began: the control, or (in the tree as it was at the start, or after
        // any move an event made) one of its ancestors. A tree that an event reordered is left alone.
        bool removed = false;
        for (const auto& e : scenario.events) {
            if (e.at_ms > run.timings[r].began_ms) continue;
            if (e.kind == sim::EventKind::TreeReorders) removed = true;
            if (e.kind != sim::EventKind::ControlRemoved) continue;
            ElementId at = *step.control;
            for (std::size_t depth = 0; at != 0 && depth < 64 && !removed; ++depth) {
                removed = at == e.control;
                const sim::Control* c = nullptr;
                for (const auto& x : w->controls) c = x.id == at ? &x : c;
                at = c != nullptr ? c->parent : 0;
            }
        }
        if (removed) continue;
        return Violation{"ref_never_crosses_windows", k,
                         "step " + std::to_string(k) + " on " + w_e(step.window, step.control) +
                             " went out without a ref: the window's snapshot left that element out (E-1)"};
    }
    return std::nullopt;
}

CheckResult ref_never_crosses_windows(const sim::Scenario& scenario, const History& run) {
    std::uint32_t judged = 0;
    if (auto v = ref_left_out(scenario, run)) return CheckResult::violated(v->property, v->step, v->explanation);
    for (const auto& a : run.truth().attempts) {
        if (a.step < 0 || static_cast<std::size_t>(a.step) >= scenario.steps.size()) continue;
        const auto& step = scenario.steps[static_cast<std::size_t>(a.step)];
        const auto k = static_cast<std::uint32_t>(a.step);
        const bool used_foreign_ref = step.ref_window && *step.ref_window != step.window && step.control &&
                                      static_cast<std::size_t>(a.step) < run.requests.size() &&
                                      run.requests[static_cast<std::size_t>(a.step)].ref.has_value();
        if (used_foreign_ref) {
            return CheckResult::violated("ref_never_crosses_windows", k,
                                         "a ref of w" + std::to_string(*step.ref_window) + " was used on w" +
                                             std::to_string(step.window) + " and something was sent (E-3)");
        }
        if (!a.element || step.kind == sim::StepKind::ClickAt) continue;
        if (!control_of_window(scenario, a.window, *a.element) || a.window != step.window) {
            return CheckResult::violated("ref_never_crosses_windows", k,
                                         "input sent to " + w_e(a.window, a.element) + ", not an element of the target w" +
                                             std::to_string(step.window) + " (E-3)");
        }
        if (step.control && *a.element != *step.control) {
            return CheckResult::violated("ref_never_crosses_windows", k,
                                         "the ref meant " + w_e(step.window, step.control) + " but resolved to " +
                                             w_e(a.window, a.element) + " (E-2: never a wrong element)");
        }
        ++judged;
    }
    return CheckResult::holds(judged);
}

// ---- the table ----------------------------------------------------------------------------------

namespace {
constexpr std::array<NamedCheck, 11> checks{
    NamedCheck{"no_resend_after_unknown", "B-2 W-2", no_resend_after_unknown},
    NamedCheck{"batch_stops_at_first_failure", "B-1", batch_stops_at_first_failure},
    NamedCheck{"foreground_returned", "F-1..F-6", foreground_returned},
    NamedCheck{"verdict_sound", "V-1 V-2 D-1..D-3", verdict_sound},
    NamedCheck{"click_lands_on_target", "E-5 E-6", click_lands_on_target},
    NamedCheck{"ref_never_crosses_windows", "E-2 E-3", ref_never_crosses_windows},
    NamedCheck{"report_matches_ground_truth", "P-1 F-2 W-1 W-3", report_matches_ground_truth},
    NamedCheck{"verdict_decisive", "V-1 V-3 V-5 V-7 D-3", verdict_decisive},
    NamedCheck{"dependent_step_only_after_observed", "B-3 O-4 W-4", dependent_step_only_after_observed},
    NamedCheck{"input_fits_the_control", "E-4 F-7", input_fits_the_control},
    NamedCheck{"deterministic", "S-1", nullptr},
};
}  // namespace

std::span<const NamedCheck> all_checks() { return checks; }

const NamedCheck* find_check(std::string_view name) {
    for (const auto& c : checks) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

}  // namespace deskcheck::props
