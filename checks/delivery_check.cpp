// input_fits_the_control (SPEC E-4, F-7, P-1): every input carries the text or keys its step asked
// for, and the tool chooses each input's delivery by the control —
// its own window handle, its window's framework, its class — so that the app acts on it; and it
// takes the foreground only for a window whose app ignores input in the background.
//
// Decided from the scenario and the ground truth alone: which app ignored or refused an input is
// what the desktop recorded (an accepted flag, a rejected attempt), and which windows need a borrow
// is the scenario's framework of the step's target (F-7: WPF/WinUI-like apps ignore posted input
// while inactive; every other framework takes edit messages, click messages, UIA patterns and
// posted keys in the background, seed 003 §2). The tool's own choice of delivery is never read.
//
// What excuses an input the app ignored or refused: something other than the tool changed what the
// choice depended on while the step ran, before the input went out — the foreground moved by the
// user, an app or another window (the app then saw an inactive window the tool had in front), or a
// scenario event removed the control (it was there when the tool resolved it). Those inputs are not
// judged, and counted as such.
#include <algorithm>
#include <string>

#include "checks/checks.h"
#include "checks/claim_checks.h"

namespace deskcheck::props {
namespace {

constexpr std::string_view name = "input_fits_the_control";

std::string subject(WindowId w, std::optional<ElementId> e) { return sim::subject_of(w, e); }

// The foreground moved by someone other than the tool during the step, before attempt `attempt`.
bool foreground_moved_by_others(const sim::GroundTruth& truth, const StepTiming& t, std::size_t attempt) {
    for (std::size_t i = t.changes_begin; i < t.changes_end && i < truth.foreground_changes.size(); ++i) {
        const auto& c = truth.foreground_changes[i];
        if (c.by != sim::Actor::Tool && c.attempts_before <= attempt) return true;
    }
    return false;
}

// A scenario event that removed `element` fired during the step, at or before the attempt.
bool removed_during_step(const sim::Scenario& s, const sim::GroundTruth& truth, const StepTiming& t,
                         const sim::Attempt& a) {
    if (!a.element) return false;
    for (const auto& f : truth.events) {
        if (f.at_ms < t.began_ms || f.at_ms > a.at_ms || f.index >= s.events.size()) continue;
        const auto& e = s.events[f.index];
        if (e.kind == sim::EventKind::ControlRemoved && e.control == *a.element) return true;
    }
    return false;
}

// Whether `target` was in front, before foreground change `change` (or request `request`), since the
// tool was called: at the call, or moved there by someone else — a change back to it is a give-back
// (F-1, F-4: the front is owed to whoever had it), not a borrow.
bool owed_the_front(const sim::GroundTruth& truth, const Segment* seg, const StepTiming& t, WindowId target,
                    std::size_t attempts_before, TimeMs at) {
    if (t.before.foreground == target) return true;
    if (seg == nullptr) return false;
    if (seg->foreground_before == target) return true;
    for (std::size_t i = seg->changes_begin; i < truth.foreground_changes.size(); ++i) {
        const auto& c = truth.foreground_changes[i];
        if (c.at_ms > at || c.attempts_before > attempts_before) break;
        if (c.to == target && c.by != sim::Actor::Tool) return true;
    }
    return false;
}

// When the tool took the front for `target` during the step, as a borrow: a change by the tool to
// it, or a request for it the desktop refused, that was not a give-back.
std::optional<TimeMs> borrowed(const sim::GroundTruth& truth, const StepTiming& t, const Segment* seg, WindowId target) {
    for (std::size_t i = t.changes_begin; i < t.changes_end && i < truth.foreground_changes.size(); ++i) {
        const auto& c = truth.foreground_changes[i];
        if (c.by != sim::Actor::Tool || c.to != target) continue;
        if (!owed_the_front(truth, seg, t, target, c.attempts_before, c.at_ms)) return c.at_ms;
    }
    for (std::size_t i = t.requests_begin; i < t.requests_end && i < truth.foreground_requests.size(); ++i) {
        const auto& r = truth.foreground_requests[i];
        if (r.window != target || r.answer != ForegroundAnswer::Refused) continue;
        if (!owed_the_front(truth, seg, t, target, r.attempts_before, r.at_ms)) return r.at_ms;
    }
    return std::nullopt;
}

const Segment* segment_of(const History& run, std::size_t report) {
    for (const auto& s : run.segments) {
        if (std::find(s.reports.begin(), s.reports.end(), report) != s.reports.end()) return &s;
    }
    return nullptr;
}

// E-4, by the kind of input alone (whatever the app made of it): a click step's input is a click —
// a click message, a posted click, a UI Automation pattern of a click, or a real click at a point —
// never keys or an edit message; text typed by ref into an edit control with its own handle in a
// classic (Win32, WinForms) window goes as edit messages ("edit controls get edit messages").
std::optional<std::string> wrong_kind_of_input(const sim::Scenario& scenario, const sim::Step& step, const sim::Attempt& a,
                                               const sim::DeliveredInput* d) {
    const std::string what = std::string(name_of(a.method)) + " to " + subject(a.window, a.element) + " at " + t_at(a.at_ms);
    if (step.kind == sim::StepKind::Click || step.kind == sim::StepKind::ClickAt) {
        const bool not_a_click = a.method == DeliveryMethod::PostedKeys || a.method == DeliveryMethod::EditMessage ||
                                 a.method == DeliveryMethod::UiaSetValue ||
                                 (a.method == DeliveryMethod::RealInput && d != nullptr && !d->point);
        if (not_a_click) return "the tool sent " + what + " for a click step: that input clicks nothing (E-4)";
    }
    if (step.kind == sim::StepKind::Type && step.control && a.element && a.method != DeliveryMethod::EditMessage) {
        const sim::Window* w = sim::find_window(scenario, a.window);
        const sim::Control* c = nullptr;
        if (w != nullptr) {
            for (const auto& x : w->controls) c = x.id == *a.element ? &x : c;
        }
        const bool classic = w != nullptr && (w->framework == Framework::Win32 || w->framework == Framework::WinForms);
        if (classic && c != nullptr && c->kind == sim::ControlKind::Edit && c->own_handle) {
            return "the tool sent " + what + " to type into an edit control with its own handle in a " + std::string(name_of(w->framework)) +
                   " window: edit controls get edit messages (E-4)";
        }
    }
    return std::nullopt;
}

// What an input carries is what the agent asked for: the step's text, the step's keys (P-1).
std::optional<std::string> not_what_was_asked(const sim::Step& step, std::uint32_t k, const sim::Attempt& a, const sim::DeliveredInput* d) {
    if (d == nullptr) return std::nullopt;
    const auto carried = [&](std::string_view what, const std::string& sent, const std::string& asked) {
        return "the tool delivered the " + std::string(what) + " " + sim::shown_text(sent) + " to " + subject(a.window, a.element) + " at " +
               t_at(a.at_ms) + ", but step " + std::to_string(k) + " asked for " + sim::shown_text(asked) + " (P-1)";
    };
    if (step.kind == sim::StepKind::Type && d->text != step.text) return carried("text", d->text, step.text);
    if (step.kind == sim::StepKind::Hotkey && d->keys != step.keys) return carried("keys", d->keys, step.keys);
    return std::nullopt;
}

}  // namespace

CheckResult input_fits_the_control(const sim::Scenario& scenario, const History& run) {
    const auto& truth = run.truth();
    std::uint32_t judged = 0;
    std::uint32_t excused = 0;
    // The k-th Delivered attempt is the k-th DeliveredInput (sim/ground_truth.h: both are appended
    // by the same deliver() call).
    std::vector<std::size_t> delivered_of(truth.attempts.size(), truth.delivered.size());
    for (std::size_t i = 0, k = 0; i < truth.attempts.size(); ++i) {
        if (truth.attempts[i].outcome == sim::AttemptOutcome::Delivered) delivered_of[i] = k++;
    }
    for (std::size_t r = 0; r < run.steps.size() && r < run.timings.size(); ++r) {
        const auto& t = run.timings[r];
        const std::uint32_t k = run.steps[r].index;
        if (k >= scenario.steps.size()) continue;
        const auto& step = scenario.steps[k];
        for (std::size_t i = t.attempts_begin; i < t.attempts_end && i < truth.attempts.size(); ++i) {
            const auto& a = truth.attempts[i];
            if (a.step != static_cast<std::int32_t>(k)) continue;
            if (a.outcome == sim::AttemptOutcome::Failed || a.outcome == sim::AttemptOutcome::Threw) continue;  // faults
            const sim::DeliveredInput* d =
                a.outcome == sim::AttemptOutcome::Delivered && delivered_of[i] < truth.delivered.size() ? &truth.delivered[delivered_of[i]] : nullptr;
            if (auto why = not_what_was_asked(step, k, a, d)) return CheckResult::violated(std::string(name), k, *why);
            if (auto why = wrong_kind_of_input(scenario, step, a, d)) return CheckResult::violated(std::string(name), k, *why);
            if (d != nullptr && d->accepted) {
                ++judged;
                continue;
            }
            if (foreground_moved_by_others(truth, t, i) || removed_during_step(scenario, truth, t, a)) {
                ++excused;
                continue;
            }
            const std::string what = std::string(name_of(a.method)) + " to " + subject(a.window, a.element);
            if (d == nullptr) {
                return CheckResult::violated(std::string(name), k,
                                             "the tool sent " + what + " at " + t_at(a.at_ms) + ", which the desktop cannot deliver: " + a.reason +
                                                 " — delivery is chosen per control (E-4)");
            }
            return CheckResult::violated(std::string(name), k,
                                         "the tool sent " + what + " at " + t_at(a.at_ms) + ", which the app ignored: " + d->ignored_reason +
                                             " — delivery is chosen per control (E-4, F-7)");
        }
        // F-7, seed 003 §2: only a WPF/WinUI-like window needs the foreground. A coordinate click is
        // left out: where its point lands on a classic button, a real click is one way to make it work.
        if (step.kind == sim::StepKind::Launch || step.kind == sim::StepKind::ClickAt) continue;
        const sim::Window* w = sim::find_window(scenario, step.window);
        if (w == nullptr || w->framework == Framework::Wpf) continue;
        if (auto at = borrowed(truth, t, segment_of(run, r), step.window)) {
            return CheckResult::violated(std::string(name), k,
                                         "the tool took the foreground for " + w_name(step.window) + " at " + t_at(*at) + ", a " +
                                             std::string(name_of(w->framework)) +
                                             " window whose controls take input in the background (F-7: only WPF/WinUI-like apps need a borrow)");
        }
        ++judged;
    }
    CheckResult out = CheckResult::holds(judged);
    if (excused > 0) {
        out.not_judged_items = excused;
        out.why_partly_not_judged = "the foreground or the control changed by another hand while the step ran, before its input went out";
    }
    return out;
}

}  // namespace deskcheck::props
