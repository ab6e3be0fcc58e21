#include "harness/coverage.h"

#include <algorithm>
#include <set>

#include "sim/geometry.h"

namespace deskcheck::props {
namespace {

using Tags = std::set<std::string>;

// The window's DPI differs from its monitor's: the system stretches it (coordinates scale).
bool stretched(const sim::Scenario& s, WindowId id) {
    const sim::Window* w = sim::find_window(s, id);
    if (w == nullptr) return false;
    const sim::Monitor& m = sim::monitor_of(s.monitors, w->bounds);
    const std::uint32_t window_dpi = sim::window_dpi(w->awareness, m.dpi, sim::primary_monitor(s.monitors).dpi);
    return window_dpi != m.dpi;
}

const char* event_tag(sim::EventKind kind) {
    switch (kind) {
        case sim::EventKind::UserTypes: return "user_typing";
        case sim::EventKind::UserClicks: return "user_click";
        case sim::EventKind::WindowToFront: return "window_to_front";
        case sim::EventKind::PopupOpens: return "popup";
        case sim::EventKind::TreeReorders: return "tree_reorder";
        case sim::EventKind::ControlRemoved: return "control_removed";
        case sim::EventKind::OccluderAppears: return "occluder";
    }
    return "event";
}

std::string verdict_tag(Verdict v) {
    std::string out(to_string(v));
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return "verdict_" + out;
}

// Where in the run a moment falls (issue: every situation at every position, not only first):
// "first" up to the end of the first step, "later" in a later step, "after" past the tool's last
// answer (the quiet period: what the run set in motion lands, the F-3 watch ends).
struct Positions {
    TimeMs first_end = 0;
    TimeMs last_end = 0;
    bool known = false;
    const char* at(TimeMs t) const { return t > last_end ? "after" : t <= first_end ? "first" : "later"; }
};

Positions positions_of(const History& run) {
    Positions p;
    for (const auto& t : run.timings) {
        if (!p.known) p.first_end = t.ended_ms;
        p.last_end = std::max(p.last_end, t.ended_ms);
        p.known = true;
    }
    return p;
}

// The tag, and the tag at its position ("user_typing@later").
void tag_at(Tags& tags, const Positions& p, const char* tag, TimeMs t) {
    tags.insert(tag);
    if (p.known) tags.insert(std::string(tag) + "@" + p.at(t));
}

void tag_foreground(const sim::GroundTruth& t, const Positions& p, Tags& tags) {
    for (const auto& c : t.foreground_changes) {
        if (c.by == sim::Actor::Tool) tag_at(tags, p, "borrow", c.at_ms);
        if (c.by == sim::Actor::App) tag_at(tags, p, "app_took_foreground", c.at_ms);
        if (c.by == sim::Actor::AnotherWindow) tag_at(tags, p, "another_window_took_foreground", c.at_ms);
    }
    for (const auto& r : t.foreground_requests) {
        if (r.answer == ForegroundAnswer::Refused) tag_at(tags, p, "foreground_refused", r.at_ms);
    }
}

void tag_truth(const sim::Scenario& s, const sim::GroundTruth& t, const Positions& p, Tags& tags) {
    for (const auto& e : t.events) {
        if (e.index < s.events.size()) tag_at(tags, p, event_tag(s.events[e.index].kind), e.at_ms);
    }
    tag_foreground(t, p, tags);
    for (const auto& r : t.reads) {
        if (r.fault == sim::ReadFault::Stale) tag_at(tags, p, "stale_read", r.at_ms);
        if (r.fault == sim::ReadFault::Failed || r.fault == sim::ReadFault::Unreadable) tag_at(tags, p, "unreadable_read", r.at_ms);
    }
    for (const auto& a : t.attempts) {
        if (a.outcome == sim::AttemptOutcome::Threw) tag_at(tags, p, "delivery_exception", a.at_ms);
        if (a.outcome == sim::AttemptOutcome::Failed) tag_at(tags, p, "delivery_error", a.at_ms);
    }
    for (const auto& d : t.delivered) {
        if (!d.accepted) tag_at(tags, p, "input_ignored", d.at_ms);
        if (d.overrun) tag_at(tags, p, "latency_overrun", d.at_ms);
        if (d.landed && d.point && !(*d.landed == *d.point)) tags.insert("dpi_stretched_click");
        // Delivered onto another window than the step's (a real click on an occluder).
        const bool on_step = d.step >= 0 && static_cast<std::size_t>(d.step) < s.steps.size();
        if (on_step && d.hit_window != no_window && d.hit_window != s.steps[static_cast<std::size_t>(d.step)].window) {
            tags.insert("occluded_click");
        }
    }
}

void tag_report(const sim::Scenario& s, const RunResult& run, Tags& tags) {
    for (const auto& rep : run.steps) {
        const auto& r = rep.result;
        if (r.verdict) tags.insert(verdict_tag(*r.verdict));
        if (r.error) {
            tags.insert("error");
            tags.insert("error:" + std::string(to_string(r.error->kind)));
            if (r.error->kind == ErrorKind::TargetOccluded) tags.insert("occluded_click");
        }
        if (rep.dependency) tags.insert("dependency_observed");
        const auto& fg = r.evidence.foreground;
        if (fg.waited_for_user_ms && *fg.waited_for_user_ms > 0) tags.insert("waited_for_user");
        const sim::Window* w = sim::find_window(s, rep.request.target);
        if (fg.borrowed && fg.by == "tool" && w != nullptr && w->framework == Framework::Wpf) tags.insert("wpf_borrow");
        if (rep.request.kind == RequestKind::ClickAt && stretched(s, rep.request.target)) tags.insert("dpi_stretched_click");
    }
    for (const auto& b : run.batches) {
        if (b.foreground.waited_for_user_ms && *b.foreground.waited_for_user_ms > 0) tags.insert("waited_for_user");
    }
    if (!run.agent_retried.empty()) tags.insert("agent_retry");
    for (const auto& used : run.reused_refs) {
        if (used) tags.insert(used->focused ? "reused_focused_ref" : "reused_element_ref");
    }
    if (run.stopped_at) tags.insert("batch_stopped");
    if (!run.launches.empty()) tags.insert("launch");
}

void tag_shape(const sim::Scenario& s, Tags& tags) {
    if (!s.batch) tags.insert("single_actions");
    for (const auto& step : s.steps) {
        if (step.ref_window && *step.ref_window != step.window) tags.insert("e3_ref_of_other_window");
    }
    const auto& f = s.faults;
    if (f.read_failure_permille != 0) tags.insert("fault_read_failure");
    if (f.stale_read_permille != 0) tags.insert("fault_stale_read");
    if (f.delivery_error_permille != 0) tags.insert("fault_delivery_error");
    if (f.delivery_exception_permille != 0) tags.insert("fault_delivery_exception");
    if (f.foreground_refusal_permille != 0) tags.insert("fault_foreground_refusal");
    if (f.latency_overrun_permille != 0) tags.insert("fault_latency_overrun");
}

}  // namespace

std::vector<std::string> coverage_tags(const sim::Scenario& scenario, const RunResult& run) {
    Tags tags;
    tag_truth(scenario, run.truth(), positions_of(run), tags);
    tag_report(scenario, run, tags);
    tag_shape(scenario, tags);
    return {tags.begin(), tags.end()};
}

}  // namespace deskcheck::props
