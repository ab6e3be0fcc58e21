#include "harness/run.h"

#include "model/write.h"
#include "harness/mutations.h"
#include "sim/build.h"

#include <cassert>
#include <map>

namespace deskcheck::props {

TrueState true_state(const sim::Sim& s, WindowId window, std::optional<ElementId> control) {
    TrueState t;
    if (control) {
        const sim::Sim::ValueView value = s.true_value_view(*control);
        if (value.kept != nullptr) t.value = *value.kept;
        t.value_text_length = value.text != nullptr ? length_ignoring_trailing_newlines(*value.text) : 0;
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
// B-3, O-4: how a trace line tells the boundary observation made before a step.
std::string boundary_text(const BoundaryObservation& b) {
    std::string text = "boundary: step " + std::to_string(b.dependency) + " observed once -> " +
                       std::string(to_string(b.judgement.outcome)) + " (" + b.judgement.reason + ")";
    if (b.after) {
        const bool dirty = b.writes && b.writes->shape == WriteShape::ClearsDirty;
        text += ", read " + (dirty ? show_flag(b.after->dirty) : show_value(b.after->value)) + " at t=" + std::to_string(b.after->at_ms);
        text += b.settled ? " (settled)" : " (not settled)";
    }
    return text;
}

// D-2, V-1, V-6 of the true value `at` (with `before` and its selection from the step's start).
ValueFacts value_facts(const std::optional<std::string>& before, const std::optional<Selection>& selection,
                       const std::string& text, const std::optional<std::string>& at) {
    ValueFacts f;
    if (!at) return f;
    f.holds_text = at->find(text) != std::string::npos;
    f.holds_segment = at->find(text.substr(0, text.find_first_of("\t\r\n\x1b"))) != std::string::npos;
    if (!before || !selection) return f;
    const auto size = static_cast<std::int64_t>(before->size());
    const auto sel = *selection;
    if (sel.start < 0 || sel.length < 0 || sel.start + sel.length > size) return f;
    const auto start = static_cast<std::size_t>(sel.start);
    const auto end = static_cast<std::size_t>(sel.start + sel.length);
    f.set = at->size() == before->size() - (end - start) + text.size() && at->compare(0, start, *before, 0, start) == 0 &&
            at->compare(start, text.size(), text) == 0 && at->compare(start + text.size(), std::string::npos, *before, end) == 0;
    return f;
}

class Recorder final : public ToolObserver {
public:
    Recorder(sim::Sim& s, RunResult& out) : sim_(s), out_(out) {}

    void step_begins(const Request& r) override {
        StepTiming t;
        t.step = r.step >= 0 ? static_cast<std::uint32_t>(r.step) : 0;
        t.began_ms = sim_.now_ms();
        t.before = true_state(sim_, r.target, target_of(t.step));
        before_value_ = true_value(t.step);
        t.attempts_begin = sim_.truth().attempts.size();
        t.reads_begin = sim_.truth().reads.size();
        t.began_reads = t.reads_begin;
        t.changes_begin = sim_.truth().foreground_changes.size();
        t.requests_begin = sim_.truth().foreground_requests.size();
        t.agent_retry = retrying;
        open_ = t;
        if (!sim_.trace().on) return;
        std::string text = "step " + std::to_string(r.step) + " begins: " + std::string(to_string(r.kind)) + " w" +
                           std::to_string(r.target);
        if (r.ref) text += " ref " + *r.ref;
        if (!r.text.empty()) text += " text " + sim::shown_text(r.text);
        if (!r.keys.empty()) text += " keys " + r.keys;
        if (r.point) text += " at (" + std::to_string(r.point->x) + "," + std::to_string(r.point->y) + ")";
        if (retrying) text += " (agent retry, W-2)";
        sim_.trace().note(sim_.now_ms(), text);
    }

    // The boundary's read belongs to the step's dependency, not to the step: the step's own reads,
    // and the true state of its element it starts from, begin after it. The foreground accounting
    // keeps the wait: the front the step began with stays its `before` (F-2, F-4).
    void boundary_observed(const Request& r, const BoundaryObservation&) override {
        if (!open_) return;
        const WindowId front_at_start = open_->before.foreground;
        open_->before = true_state(sim_, r.target, target_of(open_->step));
        open_->before.foreground = front_at_start;
        before_value_ = true_value(open_->step);
        open_->reads_begin = sim_.truth().reads.size();
    }

    void step_ends(const StepReport& s) override {
        StepTiming t = open_.value_or(StepTiming{});
        t.ended_ms = sim_.now_ms();
        t.after = true_state(sim_, s.request.target, target_of(t.step));
        decide_from_whole_values(t, s);
        t.attempts_end = sim_.truth().attempts.size();
        t.reads_end = sim_.truth().reads.size();
        t.changes_end = sim_.truth().foreground_changes.size();
        t.requests_end = sim_.truth().foreground_requests.size();
        if (sim_.true_shown(s.request.target)) t.focus_after = sim_.true_focus(s.request.target);  // as the port serves it
        t.element_there_after = s.element && sim_.true_exists(*s.element);
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
        if (s.dependency) text += "; " + boundary_text(*s.dependency);
        sim_.trace().note(sim_.now_ms(), text);
    }

    // S-8: what the checks need of the whole values (TrueState keeps digests of long ones).
    std::optional<std::string> true_value(std::uint32_t step) const {
        const auto control = target_of(step);
        return control ? sim_.true_value(*control) : std::nullopt;
    }
    void decide_from_whole_values(StepTiming& t, const StepReport& s) {
        const auto& steps = sim_.scenario().steps;
        if (before_value_ && t.step < steps.size()) t.before_holds_step_text = before_value_->find(steps[t.step].text) != std::string::npos;
        const std::optional<std::string> after = true_value(t.step);
        t.at_before = value_facts(before_value_, t.before.selection, s.facts.text, before_value_);
        t.at_after = value_facts(before_value_, t.before.selection, s.facts.text, after);
        before_value_.reset();
    }

    void batch_ends(const BatchReport& b) override {
        if (!sim_.trace().on) return;
        std::string text = "batch ends: " + std::to_string(b.steps.size()) + " steps, borrows " +
                           std::to_string(b.borrows) + ", give-backs " + std::to_string(b.give_backs);
        if (b.stopped_at) text += ", stopped at its step " + std::to_string(*b.stopped_at);
        if (b.escalated) text += " (escalate)";
        const auto& fg = b.foreground;
        if (fg.borrowed) text += "; foreground borrowed by " + fg.by + (fg.restored ? ", restored" : ", NOT restored");
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
    std::optional<std::string> before_value_;  // the open step's true value at `before`, whole
};

// The agent's view: a snapshot of each window the steps name, mapped back to scenario controls by
// zipping the snapshot with the element tree (same order).
std::map<ElementId, std::string> snapshot_refs(Tool& tool, Desktop& sim, WindowId w, std::uint64_t& handed) {
    std::map<ElementId, std::string> out;
    const TreePtr tree_ptr = sim.element_tree(w);
    const ElementTree& tree = *tree_ptr;
    const SnapshotReport snap = tool.snapshot(w);
    handed += snap.elements.size();
    for (std::size_t i = 0; i < snap.elements.size() && i < tree.nodes.size(); ++i) {
        out[tree.nodes[i].id] = snap.elements[i].ref;
    }
    return out;
}

using RefMaps = std::map<WindowId, std::map<ElementId, std::string>>;

std::optional<std::string> ref_of(const RefMaps& refs, WindowId window, ElementId element) {
    const auto w = refs.find(window);
    if (w == refs.end()) return std::nullopt;
    const auto e = w->second.find(element);
    if (e == w->second.end()) return std::nullopt;
    return e->second;
}

// W-1: the agent knows what its click writes (the tool cannot): a post's comment appears in its
// feed, a submit's status text in the form's status line. The tool reads it at a boundary (B-3).
std::optional<WriteDeclaration> declared_click_write(const sim::Scenario& scenario, const sim::Step& step, const RefMaps& refs) {
    if (step.kind != sim::StepKind::Click || !step.control) return std::nullopt;
    for (const auto& w : scenario.windows) {
        for (const auto& c : w.controls) {
            if (c.id != *step.control) continue;
            if (c.kind != sim::ControlKind::PostButton && c.kind != sim::ControlKind::SubmitButton) return std::nullopt;
            if (c.feed == 0 || c.comment.empty()) return std::nullopt;
            for (const auto& fw : scenario.windows) {
                for (const auto& f : fw.controls) {
                    if (f.id == c.feed) return WriteDeclaration{ref_of(refs, fw.id, f.id), WriteShape::AppendsText, c.comment};
                }
            }
            return std::nullopt;
        }
    }
    return std::nullopt;
}

Request request_of(const sim::Scenario& scenario, const sim::Step& step, std::size_t index, const RefMaps& refs) {
    Request r;
    r.idempotency_key = step.idempotency_key;
    r.writes = declared_click_write(scenario, step, refs);
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
// that threw — unless the step carries an idempotency key, which makes the repeat harmless (W-2).
bool retry_could_help(const ToolResult& r, bool has_key) {
    if (!r.error) return true;
    if (has_key && (r.evidence.delivered || r.error->kind == ErrorKind::Exception)) return true;
    if (r.evidence.delivered) return false;
    return r.error->kind == ErrorKind::DeliveryFailed || r.error->kind == ErrorKind::ForegroundRefused;
}

// W-2: the agent retries when the tool's one retry rule (model/write.h) allows it (a not_done, or
// an unknown with an idempotency key) and a retry can help. The tool's answer is kept: a claim.
bool agent_may_retry(const Tool& tool, const StepReport& s, const sim::Step& step, std::size_t report,
                     std::vector<RunResult::RetryAdvice>& asked) {
    const bool key = step.idempotency_key.has_value();
    const bool allowed = tool.may_retry(attempt_outcome(s.result), key);
    asked.push_back({report, key, allowed});
    return allowed && retry_could_help(s.result, key);
}

bool non_idempotent_click(const sim::Scenario& scenario, const sim::Step& step) {
    if (step.kind != sim::StepKind::Click || !step.control) return false;
    for (const auto& w : scenario.windows) {
        for (const auto& c : w.controls) {
            if (c.id == *step.control) return c.kind == sim::ControlKind::PostButton || c.kind == sim::ControlKind::SubmitButton;
        }
    }
    return false;
}

class Runner {
public:
    Runner(const sim::Scenario& scenario, const RunOptions& options, RunResult& out)
        : scenario_(scenario), options_(options), out_(out) {}

    void run() {
        out_.sim = std::make_unique<sim::Sim>(scenario_, sim::SimOptions{options_.trace});
        out_.ledger = &out_.sim->truth();
        sim::Sim& desk = *out_.sim;
        const RuleSet& rules = options_.rules != nullptr ? *options_.rules : rules_for(scenario_);
        out_.rules = std::string(rules.name);
        out_.rules_settle = rules.settles;
        out_.rules_hotkeys_by_intent = rules.hotkeys_promise_their_intent;
        out_.rules_typing_sets_value = rules.typing_sets_value;
        out_.rules_settles_within_ms = rules.settles_within_ms;
        out_.config = with_mutation(options_.tool, options_.mutation);
        out_.batch_mode = scenario_.batch;
        out_.foreground_at_start = desk.foreground();
        Tool tool(desk, rules, out_.config);
        Recorder recorder(desk, out_);
        tool.set_observer(&recorder);
        out_.requests = agent_requests(tool, desk, scenario_, &out_.refs_handed);
        out_.reused_refs.resize(scenario_.steps.size());
        for (const auto& step : scenario_.steps) out_.targets.push_back(step.control);
        out_.steps.reserve(scenario_.steps.size() + 1);  // + the agent's one retry
        run_segments(tool, desk);
        if (options_.agent_retries) retry_once(tool, desk, recorder);
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
        seg.reads_begin = desk.truth().reads.size();
        return seg;
    }
    void close_segment(sim::Sim& desk, Segment seg) {
        seg.ended_ms = desk.now_ms();
        seg.foreground_after = desk.true_foreground();
        seg.changes_end = desk.truth().foreground_changes.size();
        seg.requests_end = desk.truth().foreground_requests.size();
        seg.reads_end = desk.truth().reads.size();
        out_.segments.push_back(std::move(seg));
    }

    // Segments between launch steps run as batches (or as single actions outside a batch).
    void run_segments(Tool& tool, sim::Sim& desk) {
        std::size_t i = 0;
        while (i < scenario_.steps.size() && !out_.stopped_at) {
            if (scenario_.steps[i].kind == sim::StepKind::Launch) {
                if (desk.trace().on) desk.trace().note(desk.now_ms(), "step " + std::to_string(i) + " begins: launch " +
                                                     sim::shown_text(scenario_.steps[i].app));
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
        for (std::size_t k = begin; k < end; ++k) use_handed_ref(k);  // the whole batch is sent at once
        BatchReport b = tool.batch(std::span<const Request>(out_.requests.data() + begin, end - begin));
        for (auto& s : b.steps) {
            s.index = static_cast<std::uint32_t>(begin + s.index);
            seg.reports.push_back(out_.steps.size());
            out_.steps.push_back(std::move(s));
            remember_handed_refs(out_.steps.size() - 1);
        }
        b.steps.clear();  // moved into out_.steps
        if (b.stopped_at) out_.stopped_at = static_cast<std::uint32_t>(begin + *b.stopped_at);
        seg.batch_report = out_.batches.size();
        out_.batches.push_back(std::move(b));
        close_segment(desk, std::move(seg));
    }

    // Outside a batch, the agent sends a post or a submit whose effect it knows (a declared
    // AppendsText write) through write_once (model/write.h): read, send once, reconcile by reading
    // (W-4) — the boundary's reads and classification, never a second send. The whole call is the
    // segment: its foreground evidence (the watched reconciling wait included) goes with it.
    StepReport single_action(Tool& tool, sim::Sim& desk, const Request& r, Segment& seg) {
        if (!r.writes || r.writes->shape != WriteShape::AppendsText || !r.writes->ref) return tool.act_step(r);
        WriteSpec spec;
        spec.action = r;
        spec.verify_window = r.target;
        spec.verify_ref = *r.writes->ref;
        spec.expect_text = r.writes->text;
        spec.idempotency_key = r.idempotency_key;
        WriteReport w = write_once(tool, spec);
        if (desk.trace().on) {
            std::string text = "agent: write " + std::to_string(r.step) + " reconciled -> " + std::string(to_string(w.outcome)) +
                               (w.reconciled_by_reading ? " (by a second read, W-4)" : "") + (w.escalate ? "; escalate" : "");
            const auto& fg = w.foreground;
            if (w.watched_wait && fg.borrowed && fg != w.step.result.evidence.foreground) {
                text += "; foreground borrowed by " + fg.by + (fg.restored ? ", restored" : ", NOT restored");
            }
            if (w.watched_wait && fg.changed_by) text += "; foreground changed by " + *fg.changed_by;
            desk.trace().note(desk.now_ms(), text);
        }
        StepReport step = std::move(w.step);
        w.step = StepReport{};
        seg.write = std::move(w);
        return step;
    }

    void run_singles(Tool& tool, sim::Sim& desk, std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end && !out_.stopped_at; ++k) {
            Segment seg = open_segment(desk, false);
            use_handed_ref(k);
            StepReport s = single_action(tool, desk, out_.requests[k], seg);
            s.index = static_cast<std::uint32_t>(k);
            if (!s.result.ok) out_.stopped_at = static_cast<std::uint32_t>(k);
            seg.reports.push_back(out_.steps.size());
            out_.steps.push_back(std::move(s));
            remember_handed_refs(out_.steps.size() - 1);
            close_segment(desk, std::move(seg));
        }
    }

    // The step this agent sends again, if any: the one that stopped the run, or else the first post
    // or submit the tool left Unknown (W-2: only when the retry rule allows it — with a key).
    std::optional<std::uint32_t> step_to_retry(const Tool& tool) {
        if (out_.steps.empty()) return std::nullopt;
        if (out_.stopped_at) {
            const std::uint32_t k = *out_.stopped_at;
            if (k >= scenario_.steps.size() ||
                !agent_may_retry(tool, out_.steps.back(), scenario_.steps[k], out_.steps.size() - 1, out_.retry_advice)) {
                return std::nullopt;
            }
            return k;
        }
        for (std::size_t i = 0; i < out_.steps.size(); ++i) {
            const StepReport& s = out_.steps[i];
            if (s.index >= scenario_.steps.size() || !s.result.ok || s.result.verdict != Verdict::Unknown) continue;
            const sim::Step& step = scenario_.steps[s.index];
            if (non_idempotent_click(scenario_, step) && agent_may_retry(tool, s, step, i, out_.retry_advice)) return s.index;
        }
        return std::nullopt;
    }

    void retry_once(Tool& tool, sim::Sim& desk, Recorder& recorder) {
        const auto which = step_to_retry(tool);
        if (!which) return;
        const std::uint32_t k = *which;
        Segment seg = open_segment(desk, false);
        recorder.retrying = true;
        StepReport s = tool.act_step(out_.requests[k]);
        recorder.retrying = false;
        s.index = k;
        out_.agent_retried.push_back(k);
        seg.reports.push_back(out_.steps.size());
        out_.steps.push_back(std::move(s));
        remember_handed_refs(out_.steps.size() - 1);
        close_segment(desk, std::move(seg));
    }

    // E-3: the refs a report hands back, by the element each stands for — the element the report
    // names (held against the ledger by report_matches_ground_truth), and the element that truly
    // had the focus when the tool answered. A later one replaces an earlier one for the same element.
    void remember_handed_refs(std::size_t i) {
        const StepReport& s = out_.steps[i];
        if (i >= out_.timings.size()) return;
        const WindowId w = s.request.target;
        if (s.element_ref) {
            ++out_.refs_handed;
            if (s.element) handed_[{w, *s.element}] = {*s.element_ref, ReusedRef{s.index, false, *s.element}};
        }
        if (s.focused_ref) {
            if (s.focused_ref != s.element_ref) ++out_.refs_handed;
            const auto& focus = out_.timings[i].focus_after;
            if (focus) handed_[{w, *focus}] = {*s.focused_ref, ReusedRef{s.index, true, *focus}};
        }
    }

    // The agent sends step k with the ref a report handed back for its element, when there is one.
    void use_handed_ref(std::size_t k) {
        const sim::Step& step = scenario_.steps[k];
        if (!step.control || step.kind == sim::StepKind::Launch) return;
        const auto it = handed_.find({step.ref_window.value_or(step.window), *step.control});
        if (it == handed_.end()) return;
        out_.requests[k].ref = it->second.first;
        out_.reused_refs[k] = it->second.second;
    }

    std::map<std::pair<WindowId, ElementId>, std::pair<std::string, ReusedRef>> handed_;
    const sim::Scenario& scenario_;
    const RunOptions& options_;
    RunResult& out_;
};

}  // namespace

std::vector<Request> agent_requests(Tool& tool, Desktop& desk, const sim::Scenario& scenario, std::uint64_t* refs_handed) {
    RefMaps refs;
    std::uint64_t handed = 0;
    for (const auto& step : scenario.steps) {
        for (WindowId w : {step.window, step.ref_window.value_or(step.window)}) {
            if (w != no_window && refs.count(w) == 0 && step.kind != sim::StepKind::Launch) {
                refs[w] = snapshot_refs(tool, desk, w, handed);
            }
        }
    }
    if (refs_handed != nullptr) *refs_handed += handed;
    std::vector<Request> out;
    out.reserve(scenario.steps.size());
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) out.push_back(request_of(scenario, scenario.steps[i], i, refs));
    return out;
}

const RuleSet* rules_named(std::string_view name) {
    for (const RuleSet* r : all_rule_sets()) {
        if (r != nullptr && std::string_view(r->name) == name) return r;
    }
    return nullptr;
}

const RuleSet& rules_for(const sim::Scenario& scenario) {
    const RuleSet* r = rules_named(scenario.rules);
    return r != nullptr ? *r : current_rules();
}

RunResult run_scenario(const sim::Scenario& scenario, const RunOptions& options) {
    RunResult out;
    Runner(scenario, options, out).run();
    return out;
}

void for_each_generated_run(std::uint64_t seed, std::uint32_t count, bool trace,
                            const std::function<void(const sim::Scenario&, RunResult&)>& visit) {
    for (const RuleSet* rules : {&current_rules(), &published_rules()}) {
        RunOptions options;
        options.rules = rules;
        options.agent_retries = true;
        options.trace = trace;
        sim::Prng seeds(seed);
        for (std::uint32_t i = 0; i < count; ++i) {
            sim::Prng rng(seeds.next());
            sim::Scenario scenario = sim::build_scenario_from_prng(rng);
            scenario.rules = std::string(rules->name);
            RunResult run = run_scenario(scenario, options);
            visit(scenario, run);
        }
    }
}

}  // namespace deskcheck::props
