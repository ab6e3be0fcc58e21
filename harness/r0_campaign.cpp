// The failure_leaves_nothing campaign (harness/r0_campaign.h).
#include "harness/r0_campaign.h"

#include <algorithm>
#include <array>

#include "model/shown.h"
#include "harness/r0_bench.h"
#include "harness/r0_check.h"

namespace deskcheck::r0 {
namespace {

class RecordingChoices final : public sim::R0Choices {
public:
    RecordingChoices(sim::R0Choices& inner, std::vector<std::uint32_t>& out) : inner_(inner), out_(out) {}
    std::uint32_t pick(std::uint32_t bound) override {
        const std::uint32_t v = inner_.pick(bound);
        out_.push_back(v);
        return v;
    }

private:
    sim::R0Choices& inner_;
    std::vector<std::uint32_t>& out_;
};

std::uint64_t mix(std::uint64_t h, std::string_view text) { return fnv1a64("\n", fnv1a64(text, h)); }

std::uint64_t report_digest(std::uint64_t h, const TaskReport& t) {
    h = mix(h, t.task_id + (t.ok ? " ok" : " not ok") + (t.refused ? " refused" : "") + " failed " +
                   (t.failed_step ? std::to_string(*t.failed_step) : "-") + " " + t.error);
    for (const UndoStepReport& s : t.steps) {
        h = mix(h, std::to_string(s.step) + " " + std::string(to_string(s.op)) + " " + std::string(to_string(s.state)) +
                       (s.journaled ? " journaled " : " ") + s.error + " " + std::string(to_string(s.undo)) + " " + s.undo_error);
    }
    return h;
}

// Everything a case's run did that a check could look at (R0CaseResult::digest).
std::uint64_t run_digest(const R0Run& run) {
    std::uint64_t h = fnv1a64_offset;
    if (run.journal) {
        for (const std::string& line : *run.journal) h = mix(h, line);
    }
    for (const std::string& line : sim::state_diff(run.fixture->initial, run.final_state, 1'000)) h = mix(h, "state " + line);
    for (const sim::OpRecord& op : run.truth.ops) h = mix(h, "op " + op.what + " " + op.path + " " + op.result);
    const ApplyReport& r = run.report;
    h = mix(h, "apply " + r.task_id + (r.finished ? " finished" : "") + (r.refused ? " refused" : "") + " " + std::to_string(r.executed) +
                   " " + std::to_string(r.rolled_back));
    if (run.task) h = report_digest(h, *run.task);
    if (run.recovery_reports) {
        for (const TaskReport& t : *run.recovery_reports) h = report_digest(mix(h, "recovery"), t);
    }
    return h;
}

// One crash in four; 0 (no crash) is the simplest answer.
constexpr std::uint32_t crash_one_in = 4;

// The crash part of a case (see r0_campaign.h): the kill points from `c`, the run, its judgement.
void crash_and_recover(sim::R0Choices& c, R0CaseResult& r, std::optional<std::uint32_t> fail_at,
                       std::optional<sim::OpFault> fault, const UndoPolicy* policy, const R0Recovery* recovery) {
    const CrashRun whole = run_crash_and_recover(r.fixture, fail_at, fault, 0, 0, policy, recovery);
    if (whole.events == 0) return;  // nothing to be killed at
    R0CrashPoint& p = r.crash;
    p.events = whole.events;
    p.at_event = 1 + c.pick(static_cast<std::uint32_t>(whole.events));
    if (c.pick(2) == 1) {
        const CrashRun probe = run_crash_and_recover(r.fixture, fail_at, fault, p.at_event, 0, policy, recovery);
        if (probe.recovery_events > 0) {
            p.recovery_events = probe.recovery_events;
            p.recovery_at_event = 1 + c.pick(static_cast<std::uint32_t>(probe.recovery_events));
        }
    }
    const CrashRun run = run_crash_and_recover(r.fixture, fail_at, fault, p.at_event, p.recovery_at_event, policy, recovery);
    r.digest = run_digest(run.run);
    p.crashed = run.crashed;
    p.undone_by_recovery = run.undone_by_recovery;
    r.violation = run.error.empty() ? failure_leaves_nothing(run.run) : std::optional<std::string>(run.error);
}

// One case in four of those not killed (a decision after the crash's, 3 of [0, 4): shrinking goes
// towards the failure case) runs the normal path and undoes the finished task instead; one
// of two of those has an operation of the undo fail (after the apply's `apply_ops`, 1..U of the
// U operations the same undo makes without the fault); one of two of the others is killed at an
// event of the task or its undo (1..E) and recovered: a task killed after it finished and before
// its undo began is kept, one killed in its undo is undone to the end.
constexpr std::uint32_t normal_undo_one_in = 4;

void normal_then_undo(sim::R0Choices& c, R0CaseResult& r, std::size_t apply_ops, const UndoPolicy* policy) {
    r.normal_then_undo = true;
    if (c.pick(2) == 1) {
        auto dry_adapter = make_adapter("deskcheck", nullptr);
        const R0Run dry = run_normal_then_undo(*dry_adapter, r.fixture);
        if (dry.truth.ops.size() > apply_ops) {
            const auto undo_ops = static_cast<std::uint32_t>(dry.truth.ops.size() - apply_ops);
            const std::size_t op = apply_ops + 1 + c.pick(undo_ops);
            r.undo_fault = sim::OpFault{op, static_cast<sim::OpFaultKind>(c.pick(4))};
        }
    }
    if (!r.undo_fault && c.pick(2) == 1) {  // killed somewhere in the task or its undo, then recovered
        const CrashRun whole = run_crash_and_recover(r.fixture, std::nullopt, std::nullopt, 0, 0, policy, nullptr, true);
        if (whole.events > 0) {
            R0CrashPoint& p = r.crash;
            p.events = whole.events;
            p.at_event = 1 + c.pick(static_cast<std::uint32_t>(whole.events));
            const CrashRun run = run_crash_and_recover(r.fixture, std::nullopt, std::nullopt, p.at_event, 0, policy, nullptr, true);
            p.crashed = run.crashed;
            p.undone_by_recovery = run.undone_by_recovery;
            r.digest = run_digest(run.run);
            r.violation = !run.error.empty() ? std::optional<std::string>(run.error)
                          : run.run.crashed  ? failure_leaves_nothing(run.run)
                                             : undo_restores(run.run);
            return;
        }
    }
    auto adapter = make_adapter("deskcheck", policy);
    const R0Run run = run_normal_then_undo(*adapter, r.fixture, r.undo_fault);
    r.digest = run_digest(run);
    r.violation = undo_restores(run);
}

// One case in eight of the failure cases (the last decision, so that shrinking goes towards a path
// inside the root) has one file step's path (or a move's destination) leave the root: the
// task must be refused at that step before anything acts.
constexpr std::uint32_t leaving_root_one_in = 8;

void lead_out_of_the_root(sim::R0Choices& c, R0CaseResult& r) {
    std::vector<std::size_t> file_steps;
    for (std::size_t i = 0; i < r.fixture.steps.size(); ++i) {
        if (is_file_op(r.fixture.steps[i].op)) file_steps.push_back(i);
    }
    if (file_steps.empty()) return;
    TaskStep& step = r.fixture.steps[file_steps[c.pick(static_cast<std::uint32_t>(file_steps.size()))]];
    std::string& path = step.op == StepOp::FileMove && c.pick(2) == 1 ? step.to : step.path;
    // Before the path, or (the last) after it: an empty last segment.
    static constexpr std::array<const char*, 5> ways{"../", "/", "./", "a/../../", "/"};
    const std::uint32_t way = c.pick(static_cast<std::uint32_t>(ways.size()));
    path = way + 1 == ways.size() ? path + ways[way] : ways[way] + path;
    r.leaves_root = true;
}

R0CaseResult run_with(sim::R0Choices& source, const UndoPolicy* policy, const R0Recovery* recovery) {
    R0CaseResult r;
    RecordingChoices c(source, r.choices);
    r.fixture = sim::generate_r0_fixture(c);
    std::size_t ops = 0;
    {
        auto dry_adapter = make_adapter("deskcheck", nullptr);
        sim::World dry(r.fixture.initial, r.fixture.others, std::nullopt);
        dry_adapter->apply(dry, r.fixture, std::nullopt, r.fixture.allow_irreversible);
        ops = dry.ops();
    }
    r.point = sim::generate_r0_failure(c, r.fixture, ops);
    if (c.pick(crash_one_in) == crash_one_in - 1) {
        crash_and_recover(c, r, r.point.at_operation ? std::nullopt : std::optional<std::uint32_t>(r.point.step),
                          r.point.at_operation ? std::optional<sim::OpFault>(r.point.fault) : std::nullopt, policy, recovery);
        if (r.crash.crashed) return r;
    }
    if (c.pick(normal_undo_one_in) == normal_undo_one_in - 1) {
        normal_then_undo(c, r, ops, policy);
        return r;
    }
    if (c.pick(leaving_root_one_in) == leaving_root_one_in - 1) lead_out_of_the_root(c, r);
    auto adapter = make_adapter("deskcheck", policy);
    const R0Run run = r.point.at_operation
                          ? run_once(*adapter, r.fixture, std::nullopt, r.point.fault, r.fixture.allow_irreversible)
                          : run_once(*adapter, r.fixture, r.point.step, std::nullopt, r.fixture.allow_irreversible);
    r.digest = run_digest(run);
    r.violation = failure_leaves_nothing(run);
    return r;
}

std::size_t size_of(const R0CaseResult& c) {
    std::size_t s = c.fixture.steps.size() * 1000 + c.fixture.initial.fs.size() * 100 + c.fixture.others.size() * 100 +
                    c.fixture.initial.windows.size() * 100;
    for (const std::uint32_t v : c.choices) s += v;
    return s;
}

}  // namespace

R0CaseResult run_r0_case(const std::vector<std::uint32_t>& choices, const UndoPolicy* policy, const R0Recovery* recovery) {
    sim::R0ListChoices c(choices);
    return run_with(c, policy, recovery);
}

R0CaseResult run_r0_case(sim::Prng& rng, const UndoPolicy* policy, const R0Recovery* recovery) {
    sim::R0PrngChoices c(rng);
    return run_with(c, policy, recovery);
}

R0CaseResult shrink_r0_case(const R0CaseResult& failing, const UndoPolicy* policy, const R0Recovery* recovery) {
    R0CaseResult best = failing;
    std::size_t attempts = 0;
    auto try_candidate = [&](std::vector<std::uint32_t> candidate) {
        if (attempts >= r0_shrink_attempts_max) return false;
        ++attempts;
        R0CaseResult r = run_r0_case(candidate, policy, recovery);
        if (!r.violation || size_of(r) >= size_of(best)) return false;
        best = std::move(r);
        return true;
    };
    bool progress = true;
    while (progress && attempts < r0_shrink_attempts_max) {
        progress = false;
        for (std::size_t i = 0; i < best.choices.size(); ++i) {  // delete one decision
            std::vector<std::uint32_t> c = best.choices;
            c.erase(c.begin() + static_cast<std::ptrdiff_t>(i));
            if (try_candidate(std::move(c))) progress = true;
        }
        // Delete a block of decisions (a step's, an existing file's), alone or with the decision
        // before it made smaller by one (the count the block belonged to): the decisions after it
        // keep their places, so a crash decision (one value of four) survives the shrink.
        for (const std::size_t len : {2u, 3u, 4u, 5u, 6u}) {
            for (std::size_t i = 0; i + len <= best.choices.size(); ++i) {
                std::vector<std::uint32_t> c = best.choices;
                c.erase(c.begin() + static_cast<std::ptrdiff_t>(i), c.begin() + static_cast<std::ptrdiff_t>(i + len));
                if (try_candidate(std::move(c))) progress = true;
            }
            for (std::size_t i = 0; i + 1 + len <= best.choices.size(); ++i) {
                if (best.choices[i] == 0) continue;
                std::vector<std::uint32_t> c = best.choices;
                --c[i];
                c.erase(c.begin() + static_cast<std::ptrdiff_t>(i + 1), c.begin() + static_cast<std::ptrdiff_t>(i + 1 + len));
                if (try_candidate(std::move(c))) progress = true;
            }
        }
        for (std::size_t i = 0; i < best.choices.size(); ++i) {  // make one decision simpler
            for (const std::uint32_t v : {0u, best.choices[i] / 2, best.choices[i] > 0 ? best.choices[i] - 1 : 0u}) {
                if (v >= best.choices[i]) continue;
                std::vector<std::uint32_t> c = best.choices;
                c[i] = v;
                if (try_candidate(std::move(c))) {
                    progress = true;
                    break;
                }
            }
        }
    }
    return best;
}

R0CampaignResult run_r0_campaign(std::uint64_t seed, std::size_t cases, const UndoPolicy* policy, const R0Recovery* recovery,
                                 const std::function<bool()>& stop, std::vector<std::uint64_t>* digests) {
    R0CampaignResult out;
    out.seed = seed;
    sim::Prng master(seed);
    for (std::size_t i = 0; i < cases; ++i) {
        out.interrupted = stop && stop();
        if (out.interrupted) break;
        sim::Prng rng = master.split();
        R0CaseResult r = run_r0_case(rng, policy, recovery);
        ++out.cases;
        if (digests != nullptr) digests->push_back(r.digest);
        out.crashed += r.crash.crashed ? 1 : 0;
        out.recovered += r.crash.crashed && r.crash.undone_by_recovery > 0 ? 1 : 0;
        out.recovery_crashed += r.crash.recovery_at_event != 0 ? 1 : 0;
        out.normal_undo += r.normal_then_undo ? 1 : 0;
        out.undo_faulted += r.undo_fault ? 1 : 0;
        out.leaving_root += r.leaves_root ? 1 : 0;
        out.at_operation += r.point.at_operation ? 1 : 0;
        out.with_others += r.fixture.others.empty() ? 0 : 1;
        out.with_ui += r.fixture.initial.windows.empty() ? 0 : 1;
        bool null_value = false;
        for (const auto& w : r.fixture.initial.windows) {
            for (const auto& c : w.controls) null_value = null_value || (!c.button && !c.value);
        }
        out.null_values += null_value ? 1 : 0;
        if (r.violation) {
            out.violations = 1;
            out.first = r;
            out.shrunk = shrink_r0_case(r, policy, recovery);
            break;
        }
    }
    return out;
}

std::string_view property_of(const R0CaseResult& c) { return c.normal_then_undo ? "undo_restores" : "failure_leaves_nothing"; }

std::string describe_case(const R0CaseResult& c) {
    std::string s = std::to_string(c.fixture.steps.size()) + " step(s):";
    for (const TaskStep& t : c.fixture.steps) {
        s += " " + std::string(to_string(t.op));
        if (is_file_op(t.op)) s += " " + t.path + (t.op == StepOp::FileMove ? " -> " + t.to : "");
        else s += " w" + std::to_string(t.window) + (t.element != 0 ? "/e" + std::to_string(t.element) : "");
        s += ";";
    }
    if (c.normal_then_undo) {
        s += " the task finishes and is undone";
        if (c.undo_fault) s += "; operation " + std::to_string(c.undo_fault->op) + " (of the undo) fails (" + std::string(sim::to_string(c.undo_fault->kind)) + ")";
        return s;
    }
    if (c.leaves_root) s += " a path leaves the root;";
    if (c.point.at_operation) s += " operation " + std::to_string(c.point.fault.op) + " fails (" + std::string(sim::to_string(c.point.fault.kind)) + ")";
    else s += " the post-check of step " + std::to_string(c.point.step) + " fails";
    if (c.crash.crashed) {
        s += "; killed at event " + std::to_string(c.crash.at_event) + " of " + std::to_string(c.crash.events) +
             " (journal appends and operations), recovered from the journal";
        if (c.crash.recovery_at_event != 0)
            s += ", the recovery killed at its event " + std::to_string(c.crash.recovery_at_event) + " of " +
                 std::to_string(c.crash.recovery_events) + " and run again";
    }
    return s;
}

}  // namespace deskcheck::r0
