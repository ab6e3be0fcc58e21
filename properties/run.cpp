#include "properties/run.h"

#include <cassert>
#include <map>

namespace deskcheck::props {
namespace {

// Writes the tool's steps into the desktop's trace as notes, so the timeline interleaves them.
class TraceNotes final : public ToolObserver {
public:
    explicit TraceNotes(sim::Sim& s) : sim_(s) {}
    void step_begins(const Request& r) override {
        std::string text = "step " + std::to_string(r.step) + " begins: " + std::string(to_string(r.kind)) + " w" +
                           std::to_string(r.target);
        if (r.ref) text += " ref " + *r.ref;
        if (!r.text.empty()) text += " text " + sim::quoted(r.text);
        if (!r.keys.empty()) text += " keys " + r.keys;
        if (r.point) text += " at (" + std::to_string(r.point->x) + "," + std::to_string(r.point->y) + ")";
        sim_.trace().note(sim_.now_ms(), text);
    }
    void step_ends(const StepReport& s) override {
        std::string text = "step " + std::to_string(s.request.step) + " ends: ";
        if (s.result.error) {
            text += "error " + std::string(to_string(s.result.error->kind)) + " (" + s.result.error->detail + ")";
        } else if (s.result.verdict) {
            text += std::string(to_string(*s.result.verdict)) + " by rule " + s.result.evidence.rule;
        }
        const auto& fg = s.result.evidence.foreground;
        if (fg.borrowed) text += "; foreground borrowed by " + fg.by + (fg.held ? " (held)" : fg.restored ? ", restored" : ", NOT restored");
        if (fg.changed_by) text += "; foreground changed by " + *fg.changed_by;
        sim_.trace().note(sim_.now_ms(), text);
    }
    void batch_ends(const BatchReport& b) override {
        std::string text = "batch ends: " + std::to_string(b.steps.size()) + " steps, borrows " + std::to_string(b.borrows) +
                           ", give-backs " + std::to_string(b.give_backs);
        if (b.stopped_at) text += ", stopped at step " + std::to_string(*b.stopped_at);
        if (b.escalated) text += " (escalate)";
        sim_.trace().note(sim_.now_ms(), text);
    }

private:
    sim::Sim& sim_;
};

// The agent's view: a snapshot of each window the steps name, mapped back to scenario controls by
// zipping the snapshot with the element tree (same order).
std::map<ElementId, std::string> snapshot_refs(Tool& tool, sim::Sim& sim, WindowId w) {
    std::map<ElementId, std::string> out;
    const ElementTree tree = sim.element_tree(w);
    const SnapshotReport snap = tool.snapshot(w);
    for (std::size_t i = 0; i < snap.elements.size() && i < tree.nodes.size(); ++i) {
        out[tree.nodes[i].id] = snap.elements[i].ref;
    }
    return out;
}

Request request_of(const sim::Step& step, std::size_t index, const std::map<WindowId, std::map<ElementId, std::string>>& refs) {
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
        const auto w = refs.find(step.window);
        if (w != refs.end()) {
            const auto e = w->second.find(*step.control);
            if (e != w->second.end()) r.ref = e->second;
        }
    }
    return r;
}

}  // namespace

const RuleSet& rules_for(const sim::Scenario& scenario) {
    const RuleSet* r = find_rules(scenario.rules);
    return r != nullptr ? *r : current_rules();
}

RunResult run_scenario(const sim::Scenario& scenario, const RunOptions& options) {
    RunResult out;
    out.sim = std::make_unique<sim::Sim>(scenario);
    sim::Sim& desk = *out.sim;
    const RuleSet& rules = options.rules != nullptr ? *options.rules : rules_for(scenario);
    out.rules = std::string(rules.name);
    out.batch_mode = scenario.batch;
    out.foreground_at_start = desk.foreground();
    Tool tool(desk, rules, options.tool);
    TraceNotes notes(desk);
    tool.set_observer(&notes);

    std::map<WindowId, std::map<ElementId, std::string>> refs;
    for (const auto& step : scenario.steps) {
        if (step.window != no_window && refs.count(step.window) == 0 && step.kind != sim::StepKind::Launch) {
            refs[step.window] = snapshot_refs(tool, desk, step.window);
        }
    }
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
        out.requests.push_back(request_of(scenario.steps[i], i, refs));
        out.targets.push_back(scenario.steps[i].control);
    }

    // Segments between launch steps run as batches (or as single actions outside a batch).
    std::size_t i = 0;
    while (i < scenario.steps.size() && !out.stopped_at) {
        if (scenario.steps[i].kind == sim::StepKind::Launch) {
            desk.trace().note(desk.now_ms(), "step " + std::to_string(i) + " begins: launch " + sim::quoted(scenario.steps[i].app));
            out.launches.push_back(tool.launch(scenario.steps[i].app));
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < scenario.steps.size() && scenario.steps[end].kind != sim::StepKind::Launch) ++end;
        if (scenario.batch) {
            BatchReport b = tool.batch(std::span<const Request>(out.requests.data() + i, end - i));
            for (auto& s : b.steps) {
                s.index = static_cast<std::uint32_t>(i + s.index);
                out.steps.push_back(s);
            }
            if (b.stopped_at) out.stopped_at = static_cast<std::uint32_t>(i + *b.stopped_at);
            out.batches.push_back(std::move(b));
        } else {
            for (std::size_t k = i; k < end && !out.stopped_at; ++k) {
                StepReport s = tool.act_step(out.requests[k]);
                s.index = static_cast<std::uint32_t>(k);
                if (!s.result.ok) out.stopped_at = static_cast<std::uint32_t>(k);
                out.steps.push_back(std::move(s));
            }
        }
        i = end;
    }
    out.ended_ms = desk.now_ms();
    desk.trace().note(desk.now_ms(), "tool returned; letting pending effects land");
    desk.run_until_quiet(options.quiet_limit_ms);
    return out;
}

}  // namespace deskcheck::props
