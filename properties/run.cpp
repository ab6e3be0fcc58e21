#include "properties/run.h"

#include "model/write.h"
#include "properties/mutations.h"

#include <cassert>
#include <map>

namespace deskcheck::props {

TrueState true_state(const sim::Sim& s, WindowId window, std::optional<ElementId> control) {
    TrueState t;
    if (control) {
        t.value = s.true_value(*control);
        t.selection = s.true_selection(*control);
        t.toggled = s.true_toggled(*control);
        t.expanded = s.true_expanded(*control);
        t.selected = s.true_selected(*control);
    }
    t.dirty = window != no_window && s.true_dirty(window);
    t.foreground = s.true_foreground();
    return t;
}

namespace {

// Writes the tool's steps into the desktop's trace as notes (so the timeline interleaves them)
// and records each step's timing and true state for the checks.
class Recorder final : public ToolObserver {
public:
    Recorder(sim::Sim& s, RunResult& out) : sim_(s), out_(out) {}

    void step_begins(const Request& r) override {
        StepTiming t;
        t.step = r.step >= 0 ? static_cast<std::uint32_t>(r.step) : 0;
        t.began_ms = sim_.now_ms();
        t.before = true_state(sim_, r.target, target_of(t.step));
        t.attempts_begin = sim_.truth().attempts.size();
        t.reads_begin = sim_.truth().reads.size();
        t.changes_begin = sim_.truth().foreground_changes.size();
        t.requests_begin = sim_.truth().foreground_requests.size();
        t.agent_retry = retrying;
        open_ = t;
        if (!sim_.trace().on) return;
        std::string text = "step " + std::to_string(r.step) + " begins: " + std::string(to_string(r.kind)) + " w" +
                           std::to_string(r.target);
        if (r.ref) text += " ref " + *r.ref;
        if (!r.text.empty()) text += " text " + sim::quoted(r.text);
        if (!r.keys.empty()) text += " keys " + r.keys;
        if (r.point) text += " at (" + std::to_string(r.point->x) + "," + std::to_string(r.point->y) + ")";
        if (retrying) text += " (agent retry, W-2)";
        sim_.trace().note(sim_.now_ms(), text);
    }

    void step_ends(const StepReport& s) override {
        StepTiming t = open_.value_or(StepTiming{});
        t.ended_ms = sim_.now_ms();
        t.after = true_state(sim_, s.request.target, target_of(t.step));
        t.attempts_end = sim_.truth().attempts.size();
        t.reads_end = sim_.truth().reads.size();
        t.changes_end = sim_.truth().foreground_changes.size();
        t.requests_end = sim_.truth().foreground_requests.size();
        out_.timings.push_back(t);
        open_.reset();
        if (!sim_.trace().on) return;
        std::string text = "step " + std::to_string(s.request.step) + " ends: ";
        if (s.result.error) {
            text += "error " + std::string(to_string(s.result.error->kind)) + " (" + s.result.error->detail + ")";
        } else if (s.result.verdict) {
            text += std::string(to_string(*s.result.verdict)) + " by rule " + s.result.evidence.rule;
        }
        const auto& fg = s.result.evidence.foreground;
        if (fg.borrowed) {
            text += "; foreground borrowed by " + fg.by + (fg.held ? " (held)" : fg.restored ? ", restored" : ", NOT restored");
        }
        if (fg.changed_by) text += "; foreground changed by " + *fg.changed_by;
        sim_.trace().note(sim_.now_ms(), text);
    }

    void batch_ends(const BatchReport& b) override {
        if (!sim_.trace().on) return;
        std::string text = "batch ends: " + std::to_string(b.steps.size()) + " steps, borrows " +
                           std::to_string(b.borrows) + ", give-backs " + std::to_string(b.give_backs);
        if (b.stopped_at) text += ", stopped at its step " + std::to_string(*b.stopped_at);
        if (b.escalated) text += " (escalate)";
        if (b.foreground.changed_by) text += "; foreground changed by " + *b.foreground.changed_by;
        sim_.trace().note(sim_.now_ms(), text);
    }

    bool retrying = false;

private:
    std::optional<ElementId> target_of(std::uint32_t step) const {
        return step < out_.targets.size() ? out_.targets[step] : std::nullopt;
    }
    sim::Sim& sim_;
    RunResult& out_;
    std::optional<StepTiming> open_;
};

// The agent's view: a snapshot of each window the steps name, mapped back to scenario controls by
// zipping the snapshot with the element tree (same order).
std::map<ElementId, std::string> snapshot_refs(Tool& tool, Desktop& sim, WindowId w) {
    std::map<ElementId, std::string> out;
    const TreePtr tree_ptr = sim.element_tree(w);
    const ElementTree& tree = *tree_ptr;
    const SnapshotReport snap = tool.snapshot(w);
    for (std::size_t i = 0; i < snap.elements.size() && i < tree.nodes.size(); ++i) {
        out[tree.nodes[i].id] = snap.elements[i].ref;
    }
    return out;
}

using RefMaps = std::map<WindowId, std::map<ElementId, std::string>>;

Request request_of(const sim::Step& step, std::size_t index, const RefMaps& refs) {
    Request r;
    r.target = step.window;
    r.step = static_cast<std::int32_t>(index);
    r.text = step.text;
    r.keys = step.keys;
    r.frame = step.frame;
    r.point = step.point;
    r.depends_on = step.depends_on;
    switch (step.kind) {
        case sim::StepKind::Type: r.kind = RequestKind::Type; break;
        case sim::StepKind::Hotkey: r.kind = RequestKind::Hotkey; break;
        case sim::StepKind::Click: r.kind = RequestKind::Click; break;
        case sim::StepKind::ClickAt: r.kind = RequestKind::ClickAt; break;
        case sim::StepKind::Launch:
        case sim::StepKind::Observe: r.kind = RequestKind::Observe; break;
    }
    if (step.control) {
        const auto w = refs.find(step.ref_window.value_or(step.window));
        if (w != refs.end()) {
            const auto e = w->second.find(*step.control);
            if (e != w->second.end()) r.ref = e->second;
        }
    }
    return r;
}

// Whether this agent sends the same request again: not after a ref, window or request error (it
// would have to re-snapshot first), nor after an error once something was delivered or a delivery
// that threw (it leaves those to a person, key or not).
bool retry_could_help(const ToolResult& r) {
    if (!r.error) return true;
    if (r.evidence.delivered) return false;
    return r.error->kind == ErrorKind::DeliveryFailed || r.error->kind == ErrorKind::ForegroundRefused;
}

// W-2: the agent retries when the one retry rule of model/write.h allows it (a not_done, or an
// unknown with an idempotency key) and a retry can help.
bool agent_may_retry(const StepReport& s, const sim::Step& step) {
    return may_retry_write(attempt_outcome(s.result), step.idempotency_key.has_value()) && retry_could_help(s.result);
}

class Runner {
public:
    Runner(const sim::Scenario& scenario, const RunOptions& options, RunResult& out)
        : scenario_(scenario), options_(options), out_(out) {}

    void run() {
        out_.sim = std::make_unique<sim::Sim>(scenario_, sim::SimOptions{options_.trace});
        sim::Sim& desk = *out_.sim;
        const RuleSet& rules = options_.rules != nullptr ? *options_.rules : rules_for(scenario_);
        out_.rules = std::string(rules.name);
        out_.config = with_mutation(options_.tool, options_.mutation);
        out_.batch_mode = scenario_.batch;
        out_.foreground_at_start = desk.foreground();
        Tool tool(desk, rules, out_.config);
        Recorder recorder(desk, out_);
        tool.set_observer(&recorder);
        out_.requests = agent_requests(tool, desk, scenario_);
        for (const auto& step : scenario_.steps) out_.targets.push_back(step.control);
        run_segments(tool, desk);
        if (options_.agent_retries && out_.stopped_at) retry_once(tool, desk, recorder);
        out_.ended_ms = desk.now_ms();
        desk.trace().note(desk.now_ms(), "tool returned; letting pending effects land");
        desk.run_until_quiet(options_.quiet_limit_ms);
    }

private:
    Segment open_segment(sim::Sim& desk, bool batch) const {
        Segment seg;
        seg.batch = batch;
        seg.began_ms = desk.now_ms();
        seg.foreground_before = desk.true_foreground();
        seg.changes_begin = desk.truth().foreground_changes.size();
        seg.requests_begin = desk.truth().foreground_requests.size();
        return seg;
    }
    void close_segment(sim::Sim& desk, Segment seg) {
        seg.ended_ms = desk.now_ms();
        seg.foreground_after = desk.true_foreground();
        seg.changes_end = desk.truth().foreground_changes.size();
        seg.requests_end = desk.truth().foreground_requests.size();
        out_.segments.push_back(std::move(seg));
    }

    // Segments between launch steps run as batches (or as single actions outside a batch).
    void run_segments(Tool& tool, sim::Sim& desk) {
        std::size_t i = 0;
        while (i < scenario_.steps.size() && !out_.stopped_at) {
            if (scenario_.steps[i].kind == sim::StepKind::Launch) {
                if (desk.trace().on) desk.trace().note(desk.now_ms(), "step " + std::to_string(i) + " begins: launch " +
                                                     sim::quoted(scenario_.steps[i].app));
                out_.launches.push_back(tool.launch(scenario_.steps[i].app));
                ++i;
                continue;
            }
            std::size_t end = i;
            while (end < scenario_.steps.size() && scenario_.steps[end].kind != sim::StepKind::Launch) ++end;
            if (scenario_.batch) run_batch(tool, desk, i, end);
            else run_singles(tool, desk, i, end);
            i = end;
        }
    }

    void run_batch(Tool& tool, sim::Sim& desk, std::size_t begin, std::size_t end) {
        Segment seg = open_segment(desk, true);
        BatchReport b = tool.batch(std::span<const Request>(out_.requests.data() + begin, end - begin));
        for (auto& s : b.steps) {
            s.index = static_cast<std::uint32_t>(begin + s.index);
            seg.reports.push_back(out_.steps.size());
            out_.steps.push_back(s);
        }
        if (b.stopped_at) out_.stopped_at = static_cast<std::uint32_t>(begin + *b.stopped_at);
        seg.batch_report = out_.batches.size();
        out_.batches.push_back(std::move(b));
        close_segment(desk, std::move(seg));
    }

    void run_singles(Tool& tool, sim::Sim& desk, std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end && !out_.stopped_at; ++k) {
            Segment seg = open_segment(desk, false);
            StepReport s = tool.act_step(out_.requests[k]);
            s.index = static_cast<std::uint32_t>(k);
            if (!s.result.ok) out_.stopped_at = static_cast<std::uint32_t>(k);
            seg.reports.push_back(out_.steps.size());
            out_.steps.push_back(std::move(s));
            close_segment(desk, std::move(seg));
        }
    }

    void retry_once(Tool& tool, sim::Sim& desk, Recorder& recorder) {
        const std::uint32_t k = *out_.stopped_at;
        if (out_.steps.empty() || k >= scenario_.steps.size()) return;
        if (!agent_may_retry(out_.steps.back(), scenario_.steps[k])) return;
        Segment seg = open_segment(desk, false);
        recorder.retrying = true;
        StepReport s = tool.act_step(out_.requests[k]);
        recorder.retrying = false;
        s.index = k;
        out_.agent_retried.push_back(k);
        seg.reports.push_back(out_.steps.size());
        out_.steps.push_back(std::move(s));
        close_segment(desk, std::move(seg));
    }

    const sim::Scenario& scenario_;
    const RunOptions& options_;
    RunResult& out_;
};

}  // namespace

std::vector<Request> agent_requests(Tool& tool, Desktop& desk, const sim::Scenario& scenario) {
    RefMaps refs;
    for (const auto& step : scenario.steps) {
        for (WindowId w : {step.window, step.ref_window.value_or(step.window)}) {
            if (w != no_window && refs.count(w) == 0 && step.kind != sim::StepKind::Launch) {
                refs[w] = snapshot_refs(tool, desk, w);
            }
        }
    }
    std::vector<Request> out;
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) out.push_back(request_of(scenario.steps[i], i, refs));
    return out;
}

const RuleSet& rules_for(const sim::Scenario& scenario) {
    const RuleSet* r = find_rules(scenario.rules);
    return r != nullptr ? *r : current_rules();
}

RunResult run_scenario(const sim::Scenario& scenario, const RunOptions& options) {
    RunResult out;
    Runner(scenario, options, out).run();
    return out;
}

}  // namespace deskcheck::props
