// The R0 bench (harness/r0_bench.h): adapters, rows, figures.
#include "harness/r0_bench.h"

#include <algorithm>
#include <cassert>

#include "sim/r0_generate.h"

namespace deskcheck::r0 {
namespace {

}  // namespace

ApplyReport apply_report_of(const TaskReport& t) {
    ApplyReport r;
    r.task_id = t.task_id;
    r.finished = t.ok;
    r.refused = t.refused;
    r.executed = t.executed();
    r.rolled_back = t.restored();
    for (const UndoStepReport& s : t.steps) {
        if (s.undo == UndoState::Restored) r.restored_steps.push_back(s.step);
        if (s.undo == UndoState::Failed) r.undo_failed_steps.push_back(s.step);
        if (s.undo == UndoState::NotUndoable) r.not_undoable_steps.push_back(s.step);
    }
    return r;
}

namespace {
ApplyReport from_task_report(const TaskReport& t) { return apply_report_of(t); }

// The tool under test: model/undo.h.
class DeskcheckAdapter final : public R0Adapter {
public:
    explicit DeskcheckAdapter(const UndoPolicy* policy) : policy_(policy) {}
    ApplyReport apply(sim::World& world, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at,
                      bool allow_irreversible) override {
        tool_.emplace(UndoPorts{&world.files(), &world.desktop(), &journal_}, policy_);
        Task task{"r0-" + f.name + "-" + std::to_string(++tasks_), f.steps, allow_irreversible};
        const PostCheck post_check = [fail_at](std::uint32_t step) -> std::optional<std::string> {
            if (fail_at && step == *fail_at) return "injected failure (R0 bench)";
            return std::nullopt;
        };
        last_task_ = task.id;
        last_report_ = tool_->run(task, post_check);
        return from_task_report(*last_report_);
    }
    ApplyReport undo(sim::World&) override {
        assert(tool_.has_value());
        last_report_ = tool_->undo(last_task_);
        return from_task_report(*last_report_);
    }
    std::optional<std::vector<std::string>> journal() const override { return journal_.lines(); }
    std::optional<TaskReport> last_report() const override { return last_report_; }

private:
    const UndoPolicy* policy_;
    MemoryJournal journal_;
    std::optional<UndoTool> tool_;
    std::string last_task_;
    std::optional<TaskReport> last_report_;
    std::size_t tasks_ = 0;
};

// writes, never rolls back, keeps no journal.
class NaiveAdapter final : public R0Adapter {
public:
    ApplyReport apply(sim::World& world, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, bool) override {
        ApplyReport r;
        r.finished = true;
        for (std::uint32_t i = 0; i < f.steps.size(); ++i) {
            ++r.executed;
            const bool acted = act(world, f.steps[i]);
            if (!acted || (fail_at && *fail_at == i + 1)) {
                r.finished = false;
                break;
            }
        }
        steps_ = r.executed;
        return r;
    }
    ApplyReport undo(sim::World&) override {
        ApplyReport r;
        r.executed = steps_;
        return r;
    }
    std::optional<std::vector<std::string>> journal() const override { return std::nullopt; }

private:
    static bool act(sim::World& world, const TaskStep& s) {
        Files& fs = world.files();
        Desktop& d = world.desktop();
        switch (s.op) {
            case StepOp::FileWrite:
                for (const auto& a : ancestors_of(s.path)) fs.make_folder(a);
                return fs.write(s.path, s.bytes).ok();
            case StepOp::FileMkdir:
                for (const auto& a : ancestors_of(s.path)) fs.make_folder(a);
                return fs.make_folder(s.path).ok();
            case StepOp::FileMove:
                for (const auto& a : ancestors_of(s.to)) fs.make_folder(a);
                return fs.move(s.path, s.to).ok();
            case StepOp::UiType: return d.set_value(s.window, s.element, s.text) == DeliveryStatus::Delivered;
            case StepOp::UiMove: return d.move_window(s.window, s.rect) == DeliveryStatus::Delivered;
            case StepOp::UiInvoke: {
                Input in;
                in.method = DeliveryMethod::UiaInvoke;
                in.window = s.window;
                in.element = s.element;
                return d.deliver(in) == DeliveryStatus::Delivered;
            }
        }
        return false;
    }
    std::size_t steps_ = 0;
};

std::string point_of(RowKind kind, std::optional<std::uint32_t> step, std::optional<sim::OpFault> fault) {
    switch (kind) {
        case RowKind::Step: return "step " + std::to_string(*step);
        case RowKind::Operation: return "op " + std::to_string(fault->op) + " " + std::string(to_string(fault->kind));
        case RowKind::UndoFault: return "step " + std::to_string(*step) + ", undo op " + std::to_string(fault->op) + " fails";
        case RowKind::Normal: return "normal + undo";
    }
    return "?";
}

void count(Ratio& r, bool ok) {
    ++r.of;
    if (ok) ++r.ok;
}

}  // namespace

// When nothing was at stake, even a tool that never rolls back leaves nothing: the row measures nothing.
bool at_stake(const R0Run& run) {
    for (const sim::OpRecord& op : run.truth.ops) {
        if (op.result != "ok") continue;
        bool needed = op.what == "make_folder";
        if (needed) {
            needed = std::any_of(run.truth.others_done.begin(), run.truth.others_done.end(),
                                 [&](const sim::OtherWrite& o) { return o.path.rfind(op.path + "/", 0) == 0; });
        }
        if (!needed) return true;
    }
    return false;
}

namespace {

R0Row make_row(const sim::R0Fixture& f, RowKind kind, std::optional<std::uint32_t> step, std::optional<sim::OpFault> fault,
               const R0Run& run) {
    R0Row row;
    row.fixture = f.name;
    row.kind = kind;
    row.point = point_of(kind, step, fault);
    row.executed = run.report.executed;
    row.rolled_back = run.report.rolled_back;
    row.refused = run.report.refused;
    row.judgement = judge_r0_run(run);
    if (kind != RowKind::Normal && !at_stake(run) && !run.report.refused) {
        row.applicable = false;
        row.note = "n/a: nothing changed before the failure (but folders another program needs)";
    }
    return row;
}

// an undo that itself failed is reported (and journaled) as failed, never counted restored.
bool undo_failure_reported(R0Row& row, const R0Run& run) {
    const bool ok = row.judgement.honest && row.judgement.traceability && !run.report.undo_failed_steps.empty();
    row.note = ok ? "undo failed, reported as failed" : "an undo failed and was not reported";
    return ok;
}

std::vector<sim::OpFaultKind> faults_for(const std::string& what) {
    if (what == "write") return {sim::OpFaultKind::NoSpace, sim::OpFaultKind::PermissionDenied, sim::OpFaultKind::PartialWrite};
    if (what == "make_folder" || what == "move" || what == "remove") return {sim::OpFaultKind::NoSpace, sim::OpFaultKind::PermissionDenied};
    return {sim::OpFaultKind::UiFailure};
}

void bench_fixture(const std::string& name, const sim::R0Fixture& f, const UndoPolicy* policy, R0BenchResult& out) {
    std::vector<sim::OpRecord> ops;
    {
        auto adapter = make_adapter(name, policy);
        sim::World dry(f.initial, f.others, std::nullopt);
        adapter->apply(dry, f, std::nullopt, f.allow_irreversible);
        ops = dry.truth().ops;
    }
    for (std::uint32_t k = 1; k <= f.steps.size(); ++k) {
        auto adapter = make_adapter(name, policy);
        R0Row row = make_row(f, RowKind::Step, k, std::nullopt, run_once(*adapter, f, k, std::nullopt, f.allow_irreversible));
        row.pass = row.judgement.all();
        out.rows.push_back(std::move(row));
    }
    for (const sim::OpRecord& op : ops) {
        for (const sim::OpFaultKind kind : faults_for(op.what)) {
            auto adapter = make_adapter(name, policy);
            const sim::OpFault fault{op.index, kind};
            const R0Run run = run_once(*adapter, f, std::nullopt, fault, f.allow_irreversible);
            // The task failed on its own and the fault hit its rollback: an undo that itself failed.
            const bool in_undo = !run.report.undo_failed_steps.empty();
            R0Row row = make_row(f, in_undo ? RowKind::UndoFault : RowKind::Operation, std::nullopt, fault, run);
            row.point = "op " + std::to_string(fault.op) + " " + std::string(to_string(kind)) + (in_undo ? " (in the undo)" : "");
            row.pass = in_undo ? undo_failure_reported(row, run) : row.judgement.all();
            out.rows.push_back(std::move(row));
        }
    }
    if (!ops.empty()) {
        auto adapter = make_adapter(name, policy);
        const auto last = static_cast<std::uint32_t>(f.steps.size());
        const sim::OpFault fault{ops.size() + 1, sim::OpFaultKind::PermissionDenied};
        const R0Run run = run_once(*adapter, f, last, fault, f.allow_irreversible);
        if (run.truth.ops.size() >= fault.op) {  // the rollback reached an operation to fail
            R0Row row = make_row(f, RowKind::UndoFault, last, fault, run);
            row.pass = undo_failure_reported(row, run);
            out.rows.push_back(std::move(row));
        }
    }
    auto adapter = make_adapter(name, policy);
    const R0Run run = run_normal_then_undo(*adapter, f);
    R0Row row = make_row(f, RowKind::Normal, std::nullopt, std::nullopt, run);
    std::size_t invokes = 0;
    for (std::size_t i = 0; i < f.steps.size(); ++i) invokes += not_undoable(f, i) ? 1 : 0;
    row.has_irreversible = invokes > 0;
    bool can_finish = true;
    for (std::size_t i = 0; i < f.steps.size(); ++i) can_finish = can_finish && reference_before(f.initial, f.steps, i).has_value();
    if (!run.normal_finished) {
        row.note = can_finish ? "the normal path did not finish, though it can" : "n/a: the task cannot finish here";
        row.pass = false;
        row.applicable = !can_finish ? false : true;
        out.rows.push_back(std::move(row));
        return;
    }
    const auto wrong = undo_restores(run);
    row.pass = !wrong;
    if (wrong && row.judgement.all()) row.judgement.why.push_back(*wrong);
    if (invokes > 0) row.note = row.pass ? "not undoable (allowed), said so" : "a step that cannot be undone was not declared";
    out.rows.push_back(std::move(row));
}

}  // namespace

bool R0Figures::all_full() const {
    return residue.full() && rollback.full() && traceability.full() && normal_undo.full() && irreversible_reported.full() &&
           undo_failure_reported.full();
}

std::unique_ptr<R0Adapter> make_adapter(const std::string& name, const UndoPolicy* policy) {
    if (name == "deskcheck") return std::make_unique<DeskcheckAdapter>(policy);
    if (name == "naive") return std::make_unique<NaiveAdapter>();
    return nullptr;
}

R0Run run_once(R0Adapter& adapter, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at,
               std::optional<sim::OpFault> fault, bool allow_irreversible) {
    sim::World world(f.initial, f.others, fault);
    R0Run run;
    run.fixture = &f;
    run.allow_irreversible = allow_irreversible;
    run.failed_after_step = fail_at;
    run.fault = fault;
    run.report = adapter.apply(world, f, fail_at, allow_irreversible);
    run.final_state = world.state();
    run.truth = world.truth();
    run.journal = adapter.journal();
    run.task = adapter.last_report();
    return run;
}

R0Run run_normal_then_undo(R0Adapter& adapter, const sim::R0Fixture& f, std::optional<sim::OpFault> fault) {
    sim::World world(f.initial, f.others, fault);
    R0Run run;
    run.fixture = &f;
    run.allow_irreversible = true;
    run.normal_then_undo = true;
    run.fault = fault;
    const ApplyReport applied = adapter.apply(world, f, std::nullopt, true);
    run.normal_finished = applied.finished;
    if (!applied.finished) {
        run.report = applied;
        run.final_state = world.state();
        run.truth = world.truth();
        run.journal = adapter.journal();
        run.task = adapter.last_report();
        return run;
    }
    run.report = adapter.undo(world);
    run.task = adapter.last_report();
    if (run.task) {  // the in-process tool: the same task undone again must find nothing to undo
        const sim::WorldState before = world.state();
        const std::size_t ops = world.truth().ops.size();
        const auto lines = adapter.journal();
        adapter.undo(world);
        run.second_undo = adapter.last_report();
        run.second_undo_acted = !(world.state() == before) || world.truth().ops.size() != ops || adapter.journal() != lines;
    }
    run.final_state = world.state();
    run.truth = world.truth();
    run.journal = adapter.journal();
    return run;
}

R0BenchResult run_r0_bench(const std::string& adapter, const std::vector<sim::R0Fixture>& fixtures, const UndoPolicy* policy,
                           const StopRequest& stop) {
    R0BenchResult out;
    out.adapter = adapter;
    for (const sim::R0Fixture& f : fixtures) {
        out.interrupted = stop && stop();
        if (out.interrupted) break;
        bench_fixture(adapter, f, policy, out);
        ++out.fixtures_done;
    }
    out.figures = tally_rows(out.rows);
    return out;
}

R0Figures tally_rows(const std::vector<R0Row>& rows) {
    R0Figures figures;
    R0BenchResult out;
    for (const R0Row& row : rows) {
        if (!row.applicable) {
            ++out.figures.not_applicable;
        } else if (row.kind == RowKind::Step || row.kind == RowKind::Operation) {
            count(out.figures.residue, row.judgement.residue);
            count(out.figures.rollback, row.judgement.rollback);
            count(out.figures.traceability, row.judgement.traceability);
        } else if (row.kind == RowKind::UndoFault) {
            count(out.figures.undo_failure_reported, row.pass);
        } else if (!row.has_irreversible) {
            count(out.figures.normal_undo, row.pass);
        } else {
            count(out.figures.irreversible_reported, row.pass);
        }
    }
    figures = out.figures;
    return figures;
}

std::vector<sim::R0Fixture> generated_fixtures(std::uint64_t seed, std::size_t count) {
    std::vector<sim::R0Fixture> out;
    sim::Prng rng(seed);
    for (std::size_t i = 0; i < count; ++i) {
        sim::R0PrngChoices choices(rng);
        sim::R0Fixture f = sim::generate_r0_fixture(choices);
        f.name = "generated-" + std::to_string(seed) + "-" + std::to_string(i + 1);
        out.push_back(std::move(f));
    }
    return out;
}

void sample_runs(std::uint64_t seed, std::size_t count, R0Sample& out) {
    out.fixtures = generated_fixtures(seed, count);
    out.runs.clear();
    for (std::size_t i = 0; i < out.fixtures.size(); ++i) {
        const sim::R0Fixture& f = out.fixtures[i];
        const auto steps = static_cast<std::uint32_t>(f.steps.size());
        auto failing = make_adapter("deskcheck");
        out.runs.push_back(run_once(*failing, f, 1 + static_cast<std::uint32_t>(i) % steps, std::nullopt, f.allow_irreversible));
        auto dry = make_adapter("deskcheck");
        const std::size_t apply_ops = run_once(*dry, f, std::nullopt, std::nullopt, f.allow_irreversible).truth.ops.size();
        if (apply_ops > 0) {  // an operation of the apply fails
            auto faulted = make_adapter("deskcheck");
            const sim::OpFault fault{1 + i % apply_ops, static_cast<sim::OpFaultKind>(i % 4)};
            out.runs.push_back(run_once(*faulted, f, std::nullopt, fault, f.allow_irreversible));
        }
        auto normal = make_adapter("deskcheck");
        out.runs.push_back(run_normal_then_undo(*normal, f));
        const std::size_t ops = out.runs.back().truth.ops.size();
        if (ops > 0) {  // the last operation fails (the undo's, when it has one)
            auto undo_faulted = make_adapter("deskcheck");
            out.runs.push_back(run_normal_then_undo(*undo_faulted, f, sim::OpFault{ops, sim::OpFaultKind::NoSpace}));
        }
    }
}

std::optional<std::string> judge_run_property(const R0Run& run) {
    return run.normal_then_undo ? undo_restores(run) : failure_leaves_nothing(run);
}

}  // namespace deskcheck::r0
