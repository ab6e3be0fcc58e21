#include "harness/claim_proof.h"

#include <algorithm>

#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/r0_bench.h"

namespace deskcheck::props {

namespace {

// What a tamper may change, saved and put back around it.
struct Saved {
    std::vector<StepReport> steps;
    std::vector<BatchReport> batches;
    std::vector<LaunchReport> launches;
    std::vector<Segment> segments;
    explicit Saved(const History& r) : steps(r.steps), batches(r.batches), launches(r.launches), segments(r.segments) {}
    void restore(History& r) const {
        r.steps = steps;
        r.batches = batches;
        r.launches = launches;
        r.segments = segments;
    }
};


// The undo tool's rows, on R0 runs of every mode: each tamper judged by the run's property; a run
// whose untampered report already fails it proves nothing and is left out.
void prove_undo_rows(std::span<const ClaimRow> table, std::uint32_t cases, std::uint64_t seed, std::vector<TamperProof>& out) {
    std::vector<std::pair<const ClaimRow*, UndoTamper>> tampers;
    const std::size_t first = out.size();
    for (const ClaimRow& row : table) {
        if (row.undo_made_up) {
            out.push_back({row.type, row.field, "made_up", 0, 0, {}, {}});
            tampers.emplace_back(&row, row.undo_made_up);
        }
        if (row.undo_left_out) {
            out.push_back({row.type, row.field, "left_out", 0, 0, {}, {}});
            tampers.emplace_back(&row, row.undo_left_out);
        }
    }
    if (tampers.empty()) return;
    r0::R0Sample sample;
    r0::sample_runs(seed, std::max<std::size_t>(50, cases / 4), sample);
    for (const r0::R0Run& run : sample.runs) {
        if (!run.task || r0::judge_run_property(run)) continue;
        const std::string_view property = run.normal_then_undo ? "undo_restores" : "failure_leaves_nothing";
        for (std::size_t t = 0; t < tampers.size(); ++t) {
            r0::R0Run tampered = run;
            if (!tampers[t].second(*tampered.task)) continue;
            TamperProof& p = out[first + t];
            ++p.applied;
            const auto why = r0::judge_run_property(tampered);
            if (!why) continue;
            if (std::find(p.fired.begin(), p.fired.end(), property) == p.fired.end()) p.fired.emplace_back(property);
            if (names_check(tampers[t].first->check, property)) {
                ++p.caught;
                if (p.example.empty()) p.example = *why;
            }
        }
    }
}

}  // namespace

std::vector<TamperProof> prove_claims(std::uint32_t cases, std::uint64_t seed) { return prove_rows(claim_table(), cases, seed); }

std::vector<TamperProof> prove_rows(std::span<const ClaimRow> table, std::uint32_t cases, std::uint64_t seed) {
    std::vector<TamperProof> out;
    std::vector<std::pair<const ClaimRow*, Tamper>> tampers;
    for (const ClaimRow& row : table) {
        if (row.made_up) {
            out.push_back({row.type, row.field, "made_up", 0, 0, {}, {}});
            tampers.emplace_back(&row, row.made_up);
        }
        if (row.left_out) {
            out.push_back({row.type, row.field, "left_out", 0, 0, {}, {}});
            tampers.emplace_back(&row, row.left_out);
        }
    }
    prove_undo_rows(table, cases, seed, out);
    for_each_generated_run(seed, cases, false, [&](const sim::Scenario& scenario, History& run) {
        const Saved saved(run);
        // A check the untampered report already violates (a known debt of `published`) proves
        // nothing about the tamper: it is left out for this case.
        std::vector<bool> violated_before;
        for (const NamedCheck& check : all_checks()) {
            violated_before.push_back(check.fn != nullptr && check.fn(scenario, run).status == CheckStatus::Violated);
        }
        for (std::size_t t = 0; t < tampers.size(); ++t) {
            if (!tampers[t].second(run)) continue;
            TamperProof& p = out[t];
            ++p.applied;
            for (std::size_t c = 0; c < all_checks().size(); ++c) {
                const NamedCheck& check = all_checks()[c];
                if (check.fn == nullptr || violated_before[c]) continue;  // `deterministic` runs the scenario again
                const CheckResult r = check.fn(scenario, run);
                if (r.status != CheckStatus::Violated) continue;
                if (std::find(p.fired.begin(), p.fired.end(), check.name) == p.fired.end()) p.fired.emplace_back(check.name);
                if (names_check(tampers[t].first->check, check.name)) {
                    ++p.caught;
                    if (p.example.empty()) p.example = r.violation->explanation;
                }
            }
            saved.restore(run);
        }
    });
    return out;
}

}  // namespace deskcheck::props
