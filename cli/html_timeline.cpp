// build_timeline(): one replayed run -> lanes and items (cli/html_timeline.h). Everything drawn comes
// from the ground-truth ledger (sim/ground_truth.h), the run's step timings and the tool's report;
// the trace only supplies the order of things within one millisecond.
#include "cli/html_timeline.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <sstream>

#include "cli/report.h"
#include "model/evidence.h"
#include "sim/trace.h"

namespace deskcheck::cli::html {
namespace {

// ---- the trace joined with the ledger -----------------------------------------------------------

// For each ledger record, the index of its line in the trace (the Sim appends both together).
struct TraceIndex {
    std::vector<std::size_t> delivered, attempts, effects, reads, changes, requests, events, launches;
    std::vector<std::pair<std::size_t, std::size_t>> steps;  // parallel to run.timings: begin / end note
    std::vector<std::pair<std::size_t, std::uint32_t>> launch_steps;  // "step N begins: launch"
    std::vector<std::size_t> notes;  // "batch ends: ..."
    std::optional<std::size_t> tool_returned;
};

std::string window_subject(WindowId w, std::optional<ElementId> e) { return sim::subject_of(w, e); }

std::optional<std::uint32_t> note_step(std::string_view text, std::string_view what) {
    // "step 12 begins: ..." / "step 12 ends: ..."
    if (text.rfind("step ", 0) != 0) return std::nullopt;
    const auto space = text.find(' ', 5);
    if (space == std::string_view::npos || text.substr(space + 1, what.size()) != what) return std::nullopt;
    std::uint32_t n = 0;
    for (std::size_t i = 5; i < space; ++i) {
        if (text[i] < '0' || text[i] > '9' || n > 1'000'000) return std::nullopt;
        n = n * 10 + static_cast<std::uint32_t>(text[i] - '0');
    }
    return n;
}

constexpr std::size_t no_position = static_cast<std::size_t>(-1);

void index_note(const sim::TraceEvent& e, std::size_t pos, TraceIndex& ix, std::size_t& open_step) {
    const std::string_view text = e.detail;
    if (const auto n = note_step(text, "begins: ")) {
        if (text.find("begins: launch ") != std::string_view::npos) ix.launch_steps.emplace_back(pos, *n);
        else open_step = pos;
    } else if (note_step(text, "ends: ")) {
        ix.steps.emplace_back(open_step == no_position ? pos : open_step, pos);
        open_step = no_position;
    } else if (text.rfind("tool returned", 0) == 0) {
        ix.tool_returned = pos;
    } else if (text.rfind("batch ends", 0) == 0) {
        ix.notes.push_back(pos);
    }
}

// A fired event prints one line, and a second one ("#i outcome") when it had an outcome; the
// ledger's detail is the first line, or the first line + ": " + the outcome.
bool first_line_of(const sim::FiredEvent& fired, std::string_view line) {
    const std::string_view d = fired.detail;
    return d == line || (d.size() > line.size() + 1 && d.substr(0, line.size()) == line && d.substr(line.size(), 2) == ": ");
}

TraceIndex index_trace(const sim::Trace& trace, const sim::GroundTruth& truth) {
    TraceIndex ix;
    std::size_t open_step = no_position;
    std::size_t attempt = 0;
    for (std::size_t pos = 0; pos < trace.events.size(); ++pos) {
        const auto& e = trace.events[pos];
        switch (e.kind) {
            case sim::TraceKind::Deliver: ix.delivered.push_back(pos); break;
            case sim::TraceKind::Attempt:
                while (attempt < truth.attempts.size() && truth.attempts[attempt].outcome == sim::AttemptOutcome::Delivered) {
                    ix.attempts.push_back(0);  // delivered attempts are drawn as deliveries
                    ++attempt;
                }
                ix.attempts.push_back(pos);
                ++attempt;
                break;
            case sim::TraceKind::Effect: ix.effects.push_back(pos); break;
            case sim::TraceKind::Read: ix.reads.push_back(pos); break;
            case sim::TraceKind::Foreground: ix.changes.push_back(pos); break;
            case sim::TraceKind::Request: ix.requests.push_back(pos); break;
            case sim::TraceKind::Launch: ix.launches.push_back(pos); break;
            case sim::TraceKind::Event:
                if (ix.events.size() < truth.events.size() && first_line_of(truth.events[ix.events.size()], e.detail)) {
                    ix.events.push_back(pos);
                }
                break;
            case sim::TraceKind::Note: index_note(e, pos, ix, open_step); break;
            case sim::TraceKind::Cursor: break;
        }
    }
    while (ix.attempts.size() < truth.attempts.size() && truth.attempts[ix.attempts.size()].outcome == sim::AttemptOutcome::Delivered) {
        ix.attempts.push_back(0);
    }
    return ix;
}

// Every ledger record found its line, and the subjects agree where the trace names one.
bool index_is_exact(const TraceIndex& ix, const sim::Trace& trace, const props::RunResult& run) {
    const auto& truth = run.truth();
    bool exact = ix.delivered.size() == truth.delivered.size() && ix.attempts.size() == truth.attempts.size() &&
                 ix.effects.size() == truth.effects.size() && ix.reads.size() == truth.reads.size() &&
                 ix.changes.size() == truth.foreground_changes.size() &&
                 ix.requests.size() == truth.foreground_requests.size() && ix.events.size() == truth.events.size() &&
                 ix.launches.size() == truth.launches.size() && ix.steps.size() == run.timings.size();
    for (std::size_t i = 0; exact && i < ix.delivered.size(); ++i) {
        const auto& d = truth.delivered[i];
        exact = trace.events[ix.delivered[i]].subject == window_subject(d.window, d.element);
    }
    for (std::size_t i = 0; exact && i < ix.reads.size(); ++i) {
        const auto& r = truth.reads[i];
        exact = trace.events[ix.reads[i]].subject == window_subject(r.window, r.element == 0 ? std::nullopt : std::optional(r.element));
    }
    for (std::size_t i = 0; exact && i < ix.steps.size(); ++i) {
        exact = note_step(trace.events[ix.steps[i].second].detail, "ends: ") == run.timings[i].step;
    }
    return exact;
}

// ---- building ------------------------------------------------------------------------------------

class Builder {
public:
    Builder(const RunView& view, Timeline& out)
        : view_(view), scenario_(*view.scenario), run_(*view.run), truth_(view.run->truth()), trace_(view.run->trace()),
          out_(out) {
        index_ = index_trace(trace_, truth_);
        out_.order_exact = index_is_exact(index_, trace_, run_);
    }

    void build() {
        add_lanes();
        add_steps();
        add_launch_steps();
        add_requests();
        add_notes();
        add_deliveries();
        add_attempts();
        add_effects();
        add_reads();
        add_events();
        add_launches();
        add_foreground();
        add_highlights();
        finish();
    }

private:
    // An instant for ledger record `i` whose trace line index is `positions[i]` (when the join is exact).
    Instant instant(TimeMs at_ms, const std::vector<std::size_t>& positions, std::size_t i) const {
        if (!out_.order_exact || i >= positions.size()) return Instant{at_ms, 0};
        return Instant{at_ms, positions[i] + 1};  // order 0: "before anything of that millisecond"
    }
    Instant at_line(std::size_t pos) const {
        assert(pos < trace_.events.size());
        return Instant{trace_.events[pos].at_ms, out_.order_exact ? pos + 1 : 0};
    }
    std::string line(const std::vector<std::size_t>& positions, std::size_t i) const {
        if (!out_.order_exact || i >= positions.size()) return "";
        return sim::to_text(trace_.events[positions[i]]) + "\n";
    }
    std::string lane_of(WindowId w) {
        const std::string id = "w" + std::to_string(w);
        const bool known = std::any_of(out_.lanes.begin(), out_.lanes.end(), [&](const Lane& l) { return l.id == id; });
        if (!known && w != no_window) add_window_lane(w, "(not in the scenario)", "other windows");
        return w == no_window ? std::string("user") : id;
    }
    void push(Item item) {
        if (out_.items.size() >= page_items_max) return;
        if (item.evidence.size() > evidence_chars_max) item.evidence = truncated(item.evidence, evidence_chars_max);
        out_.items.push_back(std::move(item));
    }

    void add_window_lane(WindowId w, const std::string& title, const std::string& group) {
        Lane lane;
        lane.id = "w" + std::to_string(w);
        lane.kind = LaneKind::Window;
        lane.label = lane.id + (title.empty() ? "" : " " + sim::quoted(title));
        lane.group = group;
        lane.window = w;
        lane.colour = window_lanes_++;
        out_.lanes.push_back(std::move(lane));
    }

    void add_lanes();
    void add_steps();
    void add_launch_steps();
    void add_requests();
    void add_notes();
    void add_deliveries();
    void add_attempts();
    void add_effects();
    void add_reads();
    void add_events();
    void add_launches();
    void add_foreground();
    void add_highlights();
    void add_intervals(std::uint32_t step);
    void finish();
    std::string app_group(ProcessId pid) const;
    std::optional<std::pair<Instant, Instant>> step_span(std::uint32_t step) const;

    const RunView& view_;
    const sim::Scenario& scenario_;
    const props::RunResult& run_;
    const sim::GroundTruth& truth_;
    const sim::Trace& trace_;
    Timeline& out_;
    TraceIndex index_;
    std::size_t window_lanes_ = 0;
};

std::string Builder::app_group(ProcessId pid) const {
    for (const auto& app : scenario_.apps) {
        if (app.pid != pid) continue;
        return "app " + (app.name.empty() ? std::string("(no name)") : sim::quoted(app.name)) + ", pid " + std::to_string(pid) +
               ": effects land " + std::to_string(app.latency_ms_min) + "–" + std::to_string(app.latency_ms_max) + " ms after an input";
    }
    return "process " + std::to_string(pid) + " (no app declared)";
}

// The tool on top, then the windows grouped by app (apps in order of their topmost window), the user last.
void Builder::add_lanes() {
    out_.lanes.push_back(Lane{"tool", LaneKind::Tool, "tool (steps, verdicts)", "", no_window, 0});
    std::vector<ProcessId> pids;
    for (const auto& w : scenario_.windows) {
        if (std::find(pids.begin(), pids.end(), w.pid) == pids.end()) pids.push_back(w.pid);
    }
    for (const ProcessId pid : pids) {
        for (const auto& w : scenario_.windows) {
            if (w.pid != pid) continue;
            const bool hidden = std::find(scenario_.hidden.begin(), scenario_.hidden.end(), w.id) != scenario_.hidden.end();
            add_window_lane(w.id, w.title, app_group(pid));
            if (hidden) out_.lanes.back().label += " (hidden at start)";
        }
    }
    out_.lanes.push_back(Lane{"user", LaneKind::User, "user (and the desktop)", "", no_window, 0});
}

std::string verdict_class(const StepReport& s) {
    if (s.result.error) return "error";
    if (!s.result.verdict) return "none";
    switch (*s.result.verdict) {
        case Verdict::Confirmed: return "confirmed";
        case Verdict::Absent: return "absent";
        case Verdict::Unknown: return "unknown";
    }
    return "none";
}

std::string step_outcome(const StepReport& s) {
    if (s.result.error) return "error " + std::string(to_string(s.result.error->kind));
    if (s.result.verdict) return std::string(to_string(*s.result.verdict)) + " (" + s.result.evidence.rule + ")";
    return "no verdict";
}

std::string true_state_text(const props::TrueState& t) {
    std::string out = "value " + (t.value ? t.value->shown() : std::string("(unreadable)")) + ", selection " + show_selection(t.selection);
    if (t.toggled) out += ", toggled " + show_flag(t.toggled);
    if (t.expanded) out += ", expanded " + show_flag(t.expanded);
    if (t.selected) out += ", selected " + show_flag(t.selected);
    out += std::string(", dirty ") + (t.dirty ? "true" : "false") + ", front w" + std::to_string(t.foreground);
    return out;
}

void Builder::add_steps() {
    for (std::size_t k = 0; k < run_.steps.size() && k < run_.timings.size(); ++k) {
        const StepReport& s = run_.steps[k];
        const props::StepTiming& t = run_.timings[k];
        Item item;
        item.lane = "tool";
        item.kind = "step";
        item.classes = {verdict_class(s)};
        if (t.agent_retry) item.classes.push_back("retry");
        if (out_.order_exact && k < index_.steps.size()) {
            item.begin = at_line(index_.steps[k].first);
            item.end = at_line(index_.steps[k].second);
        } else {
            item.begin = Instant{t.began_ms, 0};
            item.end = Instant{t.ended_ms, 0};
        }
        item.label = "s" + std::to_string(s.index) + (t.agent_retry ? " retry " : " ") + std::string(to_string(s.request.kind)) +
                     " → " + step_outcome(s);
        std::ostringstream ev;
        ev << "step " << s.index << (t.agent_retry ? " (the agent's W-2 retry)" : "") << ": t=" << t.began_ms << "–"
           << t.ended_ms << " ms\n"
           << "verdict: " << step_outcome(s) << "\n"
           << describe_step(s) << "ground truth of the target when the step began: " << true_state_text(t.before)
           << "\nground truth when the tool answered: " << true_state_text(t.after) << "\n";
        item.evidence = ev.str();
        item.step = s.index;
        push(std::move(item));
    }
}

void Builder::add_launch_steps() {
    for (std::size_t k = 0; k < index_.launch_steps.size(); ++k) {
        const auto [pos, step] = index_.launch_steps[k];
        Item item;
        item.lane = "tool";
        item.kind = "step";
        item.classes = {"launch"};
        item.begin = at_line(pos);
        item.label = "s" + std::to_string(step) + " launch";
        item.evidence = sim::to_text(trace_.events[pos]) + "\n";
        if (k < run_.launches.size()) {
            const LaunchReport& l = run_.launches[k];
            item.evidence += std::string("launch report: ") + (l.ok ? "ok" : "failed") +
                             (l.window ? ", claimed w" + std::to_string(*l.window) : std::string()) +
                             (l.error ? ", error " + std::string(to_string(l.error->kind)) + ": " + l.error->detail : std::string()) +
                             (l.foreground.borrowed ? ", the foreground was taken and " +
                                                          std::string(l.foreground.restored ? "given back" : "NOT given back")
                                                    : std::string()) + "\n";
        }
        item.step = step;
        push(std::move(item));
    }
}

void Builder::add_requests() {
    for (std::size_t i = 0; i < truth_.foreground_requests.size(); ++i) {
        const auto& r = truth_.foreground_requests[i];
        const bool granted = r.answer == ForegroundAnswer::Granted;
        Item item;
        item.lane = "tool";
        item.kind = "request";
        item.classes = {granted ? "granted" : "refused"};
        item.row = Row::Bottom;
        item.begin = instant(r.at_ms, index_.requests, i);
        item.label = (granted ? "ask front w" : "REFUSED w") + std::to_string(r.window);
        item.evidence = line(index_.requests, i) + "request_foreground(w" + std::to_string(r.window) + ") at t=" +
                        std::to_string(r.at_ms) + " ms: " + (granted ? "granted" : "refused") +
                        (r.reason.empty() ? "" : " — " + r.reason) + "\n";
        push(std::move(item));
    }
}

void Builder::add_notes() {
    for (const std::size_t pos : index_.notes) {
        Item item;
        item.lane = "tool";
        item.kind = "note";
        item.row = Row::Bottom;
        item.begin = at_line(pos);
        item.label = "batch ends";
        item.evidence = sim::to_text(trace_.events[pos]) + "\n";
        push(std::move(item));
    }
    if (index_.tool_returned) out_.tool_returned = at_line(*index_.tool_returned);
}

std::string delivered_evidence(const sim::DeliveredInput& d) {
    std::ostringstream o;
    o << "input delivered at t=" << d.at_ms << " ms by " << (d.step >= 0 ? "step " + std::to_string(d.step) : "no step")
      << "\nmethod: " << to_string(d.method) << "\ntarget: " << sim::subject_of(d.window, d.element);
    if (!d.keys.empty()) o << "\nkeys: " << d.keys;
    if (!d.text.empty()) o << "\ntext: " << sim::quoted(d.text);
    if (d.point) o << "\npoint: (" << d.point->x << "," << d.point->y << ")";
    if (d.landed) o << "\nlanded at: (" << d.landed->x << "," << d.landed->y << ")";
    o << "\nreceived by: " << sim::subject_of(d.hit_window, d.hit_element);
    if (d.on_top) o << "\ntopmost window there: w" << *d.on_top;
    if (d.accepted) o << "\naccepted; effects due at t=" << d.lands_at_ms.value_or(d.at_ms) << " ms" << (d.overrun ? " (overrun: beyond the app's declared bound)" : "");
    else o << "\nignored by the app: " << d.ignored_reason;
    return o.str() + "\n";
}

void Builder::add_deliveries() {
    for (std::size_t i = 0; i < truth_.delivered.size(); ++i) {
        const auto& d = truth_.delivered[i];
        const WindowId w = d.hit_window != no_window ? d.hit_window : d.window;
        Item item;
        item.lane = lane_of(w);
        item.kind = "deliver";
        item.classes = {d.accepted ? "accepted" : "ignored"};
        if (d.overrun) item.classes.push_back("overrun");
        if (d.hit_window != d.window) item.classes.push_back("elsewhere");
        item.begin = instant(d.at_ms, index_.delivered, i);
        item.label = std::string(to_string(d.method)) + (d.element ? " → e" + std::to_string(*d.element) : " → w" + std::to_string(d.window));
        item.evidence = line(index_.delivered, i) + delivered_evidence(d);
        if (d.step >= 0) item.step = static_cast<std::uint32_t>(d.step);
        push(std::move(item));
    }
}

void Builder::add_attempts() {
    for (std::size_t i = 0; i < truth_.attempts.size(); ++i) {
        const auto& a = truth_.attempts[i];
        if (a.outcome == sim::AttemptOutcome::Delivered) continue;
        Item item;
        item.lane = lane_of(a.window);
        item.kind = "attempt";
        item.classes = {std::string(to_string(a.outcome))};
        item.begin = instant(a.at_ms, index_.attempts, i);
        item.label = std::string(to_string(a.method)) + " " + std::string(to_string(a.outcome));
        item.evidence = line(index_.attempts, i) + "delivery attempt at t=" + std::to_string(a.at_ms) + " ms by " +
                        (a.step >= 0 ? "step " + std::to_string(a.step) : std::string("no step")) + ": " +
                        std::string(to_string(a.method)) + " to " + sim::subject_of(a.window, a.element) + " " +
                        std::string(to_string(a.outcome)) + (a.reason.empty() ? "" : " — " + a.reason) + "\nnothing happened\n";
        if (a.step >= 0) item.step = static_cast<std::uint32_t>(a.step);
        push(std::move(item));
    }
}

// A value as evidence shows it: quoted, at most value_chars_max code points (the text timeline
// of `deskcheck replay` has it whole).
std::string shown_value(const std::string& value) {
    const std::string quoted = sim::quoted(value);
    return quoted.size() <= value_chars_max ? quoted : truncated(quoted, value_chars_max) + " (" + std::to_string(value.size()) + " bytes)";
}

// A string of the ledger (sim/kept.h): shown as shown_value shows it when kept whole, else as the
// trace shows a long value (its first code points, length and digest).
std::string shown_kept(const sim::Kept& k) { return k.whole() ? shown_value(*k.whole()) : k.shown(); }
std::string quoted_kept(const sim::Kept& k) { return k.whole() ? sim::quoted(*k.whole()) : k.shown(); }
std::string raw_kept(const sim::Kept& k) { return k.whole() ? *k.whole() : k.shown(); }

void Builder::add_effects() {
    for (std::size_t i = 0; i < truth_.effects.size(); ++i) {
        const auto& e = truth_.effects[i];
        Item item;
        item.lane = lane_of(e.window);
        item.kind = "effect";
        item.classes = {"by-" + std::string(sim::to_string(e.by))};
        if (e.overrun) item.classes.push_back("overrun");
        item.row = Row::Middle;
        item.begin = instant(e.at_ms, index_.effects, i);
        item.label = std::string(to_string(e.kind)) + (e.detail.empty() ? "" : " " + quoted_kept(e.detail));
        std::ostringstream ev;
        ev << "effect (ground truth) at t=" << e.at_ms << " ms on "
           << sim::subject_of(e.window, e.element == 0 ? std::nullopt : std::optional(e.element)) << ": " << to_string(e.kind);
        if (!e.detail.empty()) ev << " " << shown_kept(e.detail);
        ev << "\nby " << sim::to_string(e.by) << (e.step >= 0 ? ", step " + std::to_string(e.step) : std::string());
        if (e.delivered_at_ms) ev << "\ncaused by the input delivered at t=" << *e.delivered_at_ms << " ms (" << e.at_ms - *e.delivered_at_ms << " ms later)";
        if (e.overrun) ev << "\noverrun: landed beyond its app's declared latency bound (fault S-7)";
        item.evidence = ev.str() + "\n";
        if (e.step >= 0) item.step = static_cast<std::uint32_t>(e.step);
        push(std::move(item));
    }
}

std::string read_fault(sim::ReadFault fault) {
    switch (fault) {
        case sim::ReadFault::None: return "a true reading";
        case sim::ReadFault::Stale: return "STALE: the value before the latest update (fault S-7)";
        case sim::ReadFault::Failed: return "the read failed (fault S-7)";
        default: return "fault: " + std::string(sim::to_string(fault));
    }
}

void Builder::add_reads() {
    for (std::size_t i = 0; i < truth_.reads.size(); ++i) {
        const auto& r = truth_.reads[i];
        Item item;
        item.lane = lane_of(r.window);
        item.kind = "read";
        item.classes = {r.returned ? "readable" : "unreadable"};
        if ((r.fault != sim::ReadFault::None)) item.classes.push_back("fault-" + std::string(sim::to_string(r.fault)));
        if (r.fault == sim::ReadFault::Stale) item.classes.push_back("stale");
        item.row = Row::Bottom;
        item.begin = instant(r.at_ms, index_.reads, i);
        const std::string value = r.returned ? (r.field == sim::ReadField::Value ? shown_kept(*r.returned) : raw_kept(*r.returned)) : "(unreadable)";
        item.label = std::string(sim::to_string(r.field)) + " " + value + (r.fault == sim::ReadFault::Stale ? " STALE" : "");
        item.evidence = "read of " + sim::subject_of(r.window, r.element == 0 ? std::nullopt : std::optional(r.element)) + " " +
                        std::string(sim::to_string(r.field)) + " at t=" + std::to_string(r.at_ms) + " ms\nreturned: " + value + "\n" + read_fault(r.fault) +
                        "\nafter " + std::to_string(r.attempts_before) + " delivery attempts\n";
        push(std::move(item));
    }
}

std::string_view event_kind(sim::EventKind k) {
    switch (k) {
        case sim::EventKind::UserTypes: return "user types";
        case sim::EventKind::UserClicks: return "user clicks";
        case sim::EventKind::WindowToFront: return "window to front";
        case sim::EventKind::PopupOpens: return "popup opens";
        case sim::EventKind::TreeReorders: return "tree reorders";
        case sim::EventKind::ControlRemoved: return "control removed";
        case sim::EventKind::OccluderAppears: return "occluder appears";
    }
    return "event";
}

WindowId window_of_control(const sim::Scenario& scenario, ElementId control) {
    for (const auto& w : scenario.windows) {
        for (const auto& c : w.controls) {
            if (c.id == control) return w.id;
        }
    }
    return no_window;
}

void Builder::add_events() {
    for (std::size_t i = 0; i < truth_.events.size(); ++i) {
        const auto& fired = truth_.events[i];
        if (fired.index >= scenario_.events.size()) continue;
        const sim::Event& e = scenario_.events[fired.index];
        WindowId w = e.window;
        if (e.kind == sim::EventKind::TreeReorders || e.kind == sim::EventKind::ControlRemoved) w = window_of_control(scenario_, e.control);
        const bool user = e.kind == sim::EventKind::UserTypes || e.kind == sim::EventKind::UserClicks;
        Item item;
        item.lane = user ? std::string("user") : lane_of(w);
        item.kind = "event";
        item.classes = {user ? "by-user" : "by-desktop"};
        item.begin = instant(fired.at_ms, index_.events, i);
        item.label = std::string(event_kind(e.kind)) + (e.kind == sim::EventKind::UserTypes ? " " + sim::quoted(e.text) : "");
        item.evidence = line(index_.events, i) + "scenario event at t=" + std::to_string(fired.at_ms) + " ms: " + fired.detail + "\n";
        push(std::move(item));
    }
}

void Builder::add_launches() {
    for (std::size_t i = 0; i < truth_.launches.size(); ++i) {
        const auto& l = truth_.launches[i];
        Item item;
        item.lane = l.shown.empty() ? std::string("tool") : lane_of(l.shown.front());
        item.kind = "launch";
        item.begin = instant(l.at_ms, index_.launches, i);
        item.label = "launch " + sim::quoted(l.app);
        std::string shown;
        for (const auto w : l.shown) shown += " w" + std::to_string(w);
        item.evidence = line(index_.launches, i) + "launch of " + sim::quoted(l.app) + " at t=" + std::to_string(l.at_ms) +
                        " ms: " + (l.pid ? "pid " + std::to_string(*l.pid) : std::string("unknown app")) +
                        (shown.empty() ? "" : ", shows" + shown) + (l.took_foreground ? ", takes the foreground" : "") + "\n";
        push(std::move(item));
    }
}

// The front's owner over time, and each change as a hand-off: the tool's own changes are a borrow,
// or a give-back when they return the front to the window that had it when the tool's call began.
void Builder::add_foreground() {
    std::optional<Instant> since;
    WindowId owner = run_.foreground_at_start;
    for (std::size_t i = 0; i < truth_.foreground_changes.size(); ++i) {
        const auto& c = truth_.foreground_changes[i];
        const Instant at = instant(c.at_ms, index_.changes, i);
        if (owner != no_window) out_.bands.push_back(Band{owner, since, at});
        Handoff h{at, c.from, c.to, std::string(sim::to_string(c.by)), ""};
        if (c.by == sim::Actor::Tool) {
            h.kind = "tool";
            for (const auto& seg : run_.segments) {
                if (i < seg.changes_begin || i >= seg.changes_end) continue;
                h.kind = c.to == seg.foreground_before ? "give-back" : "borrow";
            }
        }
        h.evidence = line(index_.changes, i) + "foreground w" + std::to_string(c.from) + " → w" + std::to_string(c.to) +
                     " at t=" + std::to_string(c.at_ms) + " ms by " + std::string(sim::to_string(c.by)) + " (" + h.kind + ")\n";
        out_.handoffs.push_back(std::move(h));
        owner = c.to;
        since = at;
    }
    if (owner != no_window) out_.bands.push_back(Band{owner, since, std::nullopt});
    for (const auto& b : out_.bands) lane_of(b.window);
}

std::optional<std::pair<Instant, Instant>> Builder::step_span(std::uint32_t step) const {
    std::optional<std::pair<Instant, Instant>> span;
    for (const auto& item : out_.items) {
        if (item.kind != "step" || item.step != step) continue;
        const Instant end = item.end.value_or(item.begin);
        if (!span) span = std::pair{item.begin, end};
        span->first = std::min(span->first, item.begin);
        span->second = std::max(span->second, end);
    }
    return span;
}

void Builder::add_highlights() {
    for (const auto& c : view_.checks) {
        if (c.result.status != props::CheckStatus::Violated || !c.result.violation) continue;
        const auto& v = *c.result.violation;
        Highlight h{c.property, v.step, v.explanation, c.property == view_.primary_property, std::nullopt, std::nullopt};
        if (v.step) {
            if (const auto span = step_span(*v.step)) {
                h.begin = span->first;
                h.end = span->second;
            }
        }
        const bool drawn = std::any_of(out_.highlights.begin(), out_.highlights.end(),
                                       [&](const Highlight& o) { return o.step && o.step == v.step; });
        out_.highlights.push_back(h);
        if (v.step && !drawn) add_intervals(*v.step);
    }
    for (auto& item : out_.items) {
        for (const auto& h : out_.highlights) {
            if (item.kind == "step" && h.step && item.step == h.step &&
                std::find(item.classes.begin(), item.classes.end(), "violation") == item.classes.end()) {
                item.classes.push_back("violation");
            }
        }
    }
}

// The latency bound of the step's app and the tool's settle wait, both from the step's first
// delivery (none when the step delivered nothing).
void Builder::add_intervals(std::uint32_t step) {
    const auto span = step_span(step);
    std::optional<std::size_t> report;
    for (std::size_t k = 0; k < run_.steps.size(); ++k) {
        if (run_.steps[k].index == step && !report) report = k;
    }
    if (!span || !report) return;
    const StepReport& s = run_.steps[*report];
    std::optional<Instant> delivered;  // the step's first delivery: where its effects' clock starts
    for (std::size_t i = 0; i < truth_.delivered.size() && !delivered; ++i) {
        const auto& d = truth_.delivered[i];
        const Instant at = instant(d.at_ms, index_.delivered, i);
        if (d.step == static_cast<std::int32_t>(step) && at >= span->first && at <= span->second) delivered = at;
    }
    if (!delivered) return;  // nothing delivered: no effect is due, nothing to settle
    const Instant from = *delivered;
    const sim::Window* window = nullptr;
    for (const auto& w : scenario_.windows) window = w.id == s.request.target ? &w : window;
    const sim::App* app = nullptr;
    for (const auto& a : scenario_.apps) app = window != nullptr && a.pid == window->pid ? &a : app;
    if (app != nullptr) {
        out_.intervals.push_back(Interval{lane_of(s.request.target), "latency-bound", from, from.at_ms + app->latency_ms_max,
                                          "latency bound: effects due by t=" + std::to_string(from.at_ms + app->latency_ms_max) +
                                              " ms (" + std::to_string(app->latency_ms_min) + "–" +
                                              std::to_string(app->latency_ms_max) + " ms after the input)",
                                          step});
    }
    const auto settle_ms = s.result.evidence.settle_ms;
    if (run_.rules == "current") {
        out_.intervals.push_back(Interval{"tool", "settle-limit", from, from.at_ms + run_.config.settle_ms_max,
                                          "settle limit: " + std::to_string(run_.config.settle_ms_max) + " ms", step});
    }
    out_.intervals.push_back(Interval{"tool", "settle", from, from.at_ms + settle_ms,
                                      "settle window: waited " + std::to_string(settle_ms) + " ms, " +
                                          (s.result.evidence.settled ? "settled" : "not settled"),
                                      step});
}

void Builder::finish() {
    out_.end_ms = run_.ended_ms;
    for (const auto& e : trace_.events) out_.end_ms = std::max(out_.end_ms, e.at_ms);
    for (const auto& e : truth_.effects) out_.end_ms = std::max(out_.end_ms, e.at_ms);
    for (const auto& i : out_.intervals) out_.end_ms = std::max(out_.end_ms, i.to_ms);
    // Items in a fixed order: by instant, then lane, then kind (the page's bytes depend on it).
    std::stable_sort(out_.items.begin(), out_.items.end(), [](const Item& a, const Item& b) { return a.begin < b.begin; });
}

}  // namespace

Timeline build_timeline(const RunView& view) {
    assert(view.scenario != nullptr);
    assert(view.run != nullptr);
    Timeline out;
    Builder(view, out).build();
    return out;
}

}  // namespace deskcheck::cli::html
