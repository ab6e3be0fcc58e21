// The claim table (checks/claim_table.h): every report field has a row, every claim is judged
// both ways or declares its gap — proven by tampering with real reports — and a row that
// overstates the checks fails the proof.
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "checks/checks.h"
#include "checks/claim_table.h"
#include "harness/claim_proof.h"
#include "harness/run.h"
#include "sim/build.h"

using namespace deskcheck;
using namespace deskcheck::props;

BOOST_AUTO_TEST_CASE(P1_claim_table_rows_are_well_formed) {
    std::set<std::pair<std::string_view, std::string_view>> seen;
    const auto types = claim_report_types();
    for (const ClaimRow& r : claim_table()) {
        BOOST_TEST_CONTEXT(r.type << "." << r.field) {
            BOOST_TEST(seen.insert({r.type, r.field}).second, "two rows for one field");
            BOOST_TEST((std::find(types.begin(), types.end(), r.type) != types.end()));
            BOOST_TEST(!r.fact.empty());
            if (r.kind != ClaimKind::Claim) {
                BOOST_TEST(r.made_up == nullptr);
                BOOST_TEST(r.left_out == nullptr);
                BOOST_TEST(r.undo_made_up == nullptr);
                BOOST_TEST(r.undo_left_out == nullptr);
                BOOST_TEST(r.gap.empty());
                continue;
            }
            // A claim names the checks that judge it, each a real property (none only in a declared gap).
            BOOST_TEST((!r.check.empty() || !r.gap.empty()));
            std::size_t at = 0;
            while (at < r.check.size()) {
                const std::size_t end = std::min(r.check.find(' ', at), r.check.size());
                const std::string_view name = r.check.substr(at, end - at);
                const bool r0 = std::find(std::begin(r0_property_names), std::end(r0_property_names), name) != std::end(r0_property_names);
                // The undo tool's rows name R0 properties, the desktop tool's rows the campaign's.
                BOOST_TEST((r.undo_made_up != nullptr ? r0 : find_check(name) != nullptr), "no property " << name);
                at = end + 1;
            }
            const bool kept = (r.made_up != nullptr && r.left_out != nullptr) || (r.undo_made_up != nullptr && r.undo_left_out != nullptr);
            // Without tampers only a gap that says why (the runner does not keep the report).
            BOOST_TEST((kept || !r.gap.empty()));
            if (!r.gap.empty() && kept) {
                BOOST_TEST((r.gap.starts_with("both:") || r.gap.starts_with("made_up:") || r.gap.starts_with("left_out:")));
            }
        }
    }
}

// 1,200 cases per rule set: a write that reconciles with a readable second read (W-4), the rarest
// claim, comes a few times in a thousand cases; at 400 some seeds show none.
BOOST_AUTO_TEST_CASE(P1_claim_table_every_claim_is_judged_both_ways_or_declares_its_gap) {
    const auto proofs = prove_claims(1200, 7);
    std::size_t judged_directions = 0;
    for (const TamperProof& p : proofs) {
        const ClaimRow* row = nullptr;
        for (const ClaimRow& r : claim_table()) {
            if (r.type == p.type && r.field == p.field) row = &r;
        }
        BOOST_TEST_REQUIRE(row != nullptr);
        BOOST_TEST_CONTEXT(p.type << "." << p.field << " " << p.direction << ": caught " << p.caught << " of " << p.applied) {
            BOOST_TEST(proof_holds(*row, p));
            if (!gap_covers(*row, p.direction)) {
                BOOST_TEST(p.applied > 0u, "the tamper never fitted a report: the population does not show the claim");
                ++judged_directions;
            }
        }
    }
    BOOST_TEST(judged_directions >= 70u);
}

// The negative proof of the proof: a row that says StepReport.kind is judged (no gap) when nothing
// judges it fails; the same row with its gap declared holds.
BOOST_AUTO_TEST_CASE(P1_claim_table_a_row_that_overstates_the_checks_fails_its_proof) {
    // StepReport.write_before declares a gap both ways (no check reads it yet): a row that claimed
    // it judged would fail its proof in each direction.
    const ClaimRow* gapped_row = nullptr;
    for (const ClaimRow& r : claim_table()) {
        if (r.type == "StepReport" && r.field == "write_before") gapped_row = &r;
    }
    BOOST_TEST_REQUIRE(gapped_row != nullptr);
    BOOST_TEST_REQUIRE(gap_covers(*gapped_row, "left_out"));
    ClaimRow overstated = *gapped_row;
    overstated.gap = {};
    const std::array<ClaimRow, 1> wrong{overstated};
    std::uint32_t gapped = 0;
    for (const TamperProof& p : prove_rows(wrong, 200, 3)) {
        BOOST_TEST(p.applied > 0u);
        if (!gap_covers(*gapped_row, p.direction)) continue;
        ++gapped;
        BOOST_TEST(!proof_holds(overstated, p), p.direction << " should slip through: nothing judges StepReport.write_before");
    }
    BOOST_TEST(gapped >= 1u);
    const std::array<ClaimRow, 1> honest{*gapped_row};
    for (const TamperProof& p : prove_rows(honest, 200, 3)) BOOST_TEST(proof_holds(*gapped_row, p));
    // And a check that would judge it must be named: a claim judged by a property that does not fire.
    ClaimRow delivered;
    for (const ClaimRow& r : claim_table()) {
        if (r.type == "StepReport" && r.field == "delivered") delivered = r;
    }
    delivered.check = "click_lands_on_target";
    const std::array<ClaimRow, 1> misnamed{delivered};
    for (const TamperProof& p : prove_rows(misnamed, 200, 3)) BOOST_TEST(!proof_holds(delivered, p));
}

BOOST_AUTO_TEST_CASE(F2_a_foreground_claim_of_no_shape_is_caught) {
    // F-2's shape: unchanged:true, or a borrow by:tool / by:app. A borrow whose "by" is left out, or
    // unchanged:false with no borrow, says nothing an agent can act on; each is caught on real runs.
    RunOptions options;
    options.rules = &current_rules();
    options.agent_retries = true;
    sim::Prng seeds(5);
    std::uint32_t without_by = 0;
    std::uint32_t without_borrow = 0;
    for (std::uint32_t i = 0; i < 400 && (without_by < 3 || without_borrow < 3); ++i) {
        sim::Prng rng(seeds.next());
        sim::Scenario scenario = sim::build_scenario_from_prng(rng);
        scenario.rules = "current";
        RunResult run = run_scenario(scenario, options);
        if (report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) continue;
        for (auto& step : run.steps) {
            ForegroundEvidence& fg = step.result.evidence.foreground;
            if (!fg.borrowed) continue;
            const ForegroundEvidence kept = fg;
            fg.by.clear();
            const CheckResult a = report_matches_ground_truth(scenario, run);
            BOOST_TEST((a.status == CheckStatus::Violated && a.violation->explanation.find("by whom") != std::string::npos));
            ++without_by;
            fg = kept;
            fg.borrowed = false;
            fg.by.clear();
            const CheckResult b = report_matches_ground_truth(scenario, run);
            // The shape check, or — for a borrow the ledger shows the tool made onto the step's own
            // target — the check that a borrow is not left out (it comes first).
            BOOST_TEST((b.status == CheckStatus::Violated && (b.violation->explanation.find("without a borrow") != std::string::npos ||
                                                               b.violation->explanation.find("leaves out its borrow") != std::string::npos)));
            ++without_borrow;
            fg = kept;
            break;
        }
    }
    BOOST_TEST(without_by >= 3u);
    BOOST_TEST(without_borrow >= 3u);
}

namespace {
// Real runs of `count` generated scenarios (from `seed`) under both rule sets, with agent retries:
// `visit` sees each run whose report holds, to tamper with one claim and ask the check again.
template <class Visit>
void for_each_run_whose_report_holds(std::uint64_t seed, std::uint32_t count, Visit visit) {
    for_each_generated_run(seed, count, true, [&](const sim::Scenario& scenario, RunResult& run) {
        if (report_matches_ground_truth(scenario, run).status != CheckStatus::Violated) visit(scenario, run);
    });
}
}  // namespace

BOOST_AUTO_TEST_CASE(V9_a_promise_the_step_does_not_make_is_caught_both_ways) {
    // The promise a judged step reports is its action's (expected_promise): one left out (Nothing
    // where the action promises a reading) and one made up (a reading where it promises nothing)
    // are both caught, on real runs of both rule sets.
    std::uint32_t left_out = 0;
    std::uint32_t made_up = 0;
    for_each_run_whose_report_holds(9, 300, [&](const sim::Scenario& scenario, RunResult& run) {
        for (auto& step : run.steps) {
            if (!step.result.verdict) continue;
            Promise& p = step.result.evidence.promise;
            const Promise kept = p;
            p = kept == Promise::Nothing ? Promise::ValueChanged : Promise::Nothing;
            const CheckResult r = report_matches_ground_truth(scenario, run);
            BOOST_TEST((r.status == CheckStatus::Violated && r.violation->explanation.find("reports the promise") != std::string::npos));
            ++(kept == Promise::Nothing ? made_up : left_out);
            p = kept;
            break;
        }
    });
    BOOST_TEST(left_out >= 10u);
    BOOST_TEST(made_up >= 10u);
}

BOOST_AUTO_TEST_CASE(P1_an_error_the_ledger_does_not_show_is_caught_both_ways) {
    // The error a step ends on states a fact (checks/error_check.cpp): a kind the ledger does not
    // show (delivery_failed said of a delivery that threw, element_not_found of a ref of another
    // window) and one that hides what the desktop said (exception where the delivery failed) are
    // each caught, on real runs of both rule sets.
    std::uint32_t hidden_throw = 0;
    std::uint32_t hidden_failure = 0;
    std::uint32_t made_up = 0;
    for_each_run_whose_report_holds(12, 400, [&](const sim::Scenario& scenario, RunResult& run) {
        for (auto& step : run.steps) {
            if (!step.result.error) continue;
            ErrorKind& kind = step.result.error->kind;
            const ErrorKind kept = kind;
            std::uint32_t* count = nullptr;
            if (kept == ErrorKind::Exception) {
                kind = ErrorKind::DeliveryFailed;
                count = &hidden_throw;
            } else if (kept == ErrorKind::DeliveryFailed) {
                kind = ErrorKind::Exception;
                count = &hidden_failure;
            } else if (kept == ErrorKind::CrossWindowRef) {
                kind = ErrorKind::ElementNotFound;
                count = &made_up;
            } else {
                continue;
            }
            // The batch's report names the error it stopped with (B-1): tampered alike, so that only
            // the step's error is held against the ledger.
            for (auto& b : run.batches) {
                if (b.stop_error && b.stop_error->kind == kept) b.stop_error->kind = kind;
            }
            const CheckResult r = report_matches_ground_truth(scenario, run);
            const bool caught = r.status == CheckStatus::Violated && r.violation->explanation.find(" ends ") != std::string::npos;
            BOOST_TEST(caught,
                       "tampered " << to_string(kept) << " -> " << to_string(kind) << ": " << (r.violation ? r.violation->explanation : "holds"));
            ++*count;
            for (auto& b : run.batches) {
                if (b.stop_error && b.stop_error->kind == kind) b.stop_error->kind = kept;
            }
            kind = kept;
            break;
        }
    });
    BOOST_TEST(hidden_throw >= 10u);
    BOOST_TEST(hidden_failure >= 10u);
    BOOST_TEST(made_up >= 5u);
}

BOOST_AUTO_TEST_CASE(W1_a_write_that_never_reached_the_app_must_be_said_not_done) {
    // Decisiveness: a write whose action ended on an error with nothing of it delivered is not_done
    // (the tool knows from the desktop's answers). Saying unknown (and escalating) instead is caught.
    std::uint32_t tried = 0;
    for_each_generated_run(11, 3000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if (tried >= 3 || report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) return;
        for (Segment& seg : run.segments) {
            if (!seg.write || seg.write->outcome != WriteOutcome::NotDone || !seg.write->act.error) continue;
            const WriteReport kept = *seg.write;
            seg.write->outcome = WriteOutcome::Unknown;
            seg.write->escalate = true;
            const CheckResult r = report_matches_ground_truth(scenario, run);
            BOOST_TEST((r.status == CheckStatus::Violated && r.violation->explanation.find("cannot have been made") != std::string::npos),
                       "a not_done said as unknown slipped through");
            *seg.write = kept;
            ++tried;
            break;
        }
    });
    BOOST_TEST(tried >= 3u);
}

BOOST_AUTO_TEST_CASE(F2_a_borrow_or_a_restore_left_out_of_a_step_is_caught) {
    // F-2 both ways: a step whose target the tool brought to the front (from outside the call's
    // targets) reports the borrow; a single action whose give-back stood reports it restored.
    std::uint32_t borrows = 0;
    std::uint32_t restores = 0;
    for_each_generated_run(13, 3000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if ((borrows >= 3 && restores >= 3) || report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) return;
        for (StepReport& step : run.steps) {
            ForegroundEvidence& fg = step.result.evidence.foreground;
            if (!fg.borrowed || fg.by != "tool") continue;
            const ForegroundEvidence kept = fg;
            if (fg.restored && restores < 3) {
                fg.restored = false;
                const CheckResult r = report_matches_ground_truth(scenario, run);
                if (r.status == CheckStatus::Violated && r.violation->explanation.find("was not restored") != std::string::npos) ++restores;
                fg = kept;
            }
            fg = ForegroundEvidence{};
            fg.unchanged = true;
            const CheckResult b = report_matches_ground_truth(scenario, run);
            BOOST_TEST((b.status == CheckStatus::Violated), "a borrow left out of step " << step.index << " slipped through");
            if (b.status == CheckStatus::Violated && b.violation->explanation.find("leaves out its borrow") != std::string::npos) ++borrows;
            fg = kept;
            break;
        }
    });
    BOOST_TEST(borrows >= 3u);
    BOOST_TEST(restores >= 3u);
}

BOOST_AUTO_TEST_CASE(F2_F3_an_app_grab_put_back_said_not_restored_is_caught) {
    // F-2, F-3 the other way: a step or a write whose evidence says the app took the front and it
    // was restored, turned into restored:false, is caught when the tool's put-back to the window the
    // grab took it from was the last move before the answer.
    std::uint32_t caught = 0;
    std::uint32_t tried = 0;
    for_each_generated_run(29, 6000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if (caught >= 3 || report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) return;
        for (StepReport& step : run.steps) {
            ForegroundEvidence& fg = step.result.evidence.foreground;
            if (!fg.borrowed || fg.by != "app" || !fg.restored) continue;
            ++tried;
            fg.restored = false;
            const CheckResult r = report_matches_ground_truth(scenario, run);
            fg.restored = true;
            if (r.status == CheckStatus::Violated && r.violation->explanation.find("put it back") != std::string::npos) ++caught;
            break;
        }
    });
    BOOST_TEST_MESSAGE("app grabs put back: " << tried << " tried, " << caught << " caught");
    BOOST_TEST(caught >= 3u);
}

BOOST_AUTO_TEST_CASE(F4_another_windows_move_left_out_of_a_whole_write_call_is_caught) {
    // F-4 for write_once's whole call: its evidence covers the step, so a changedBy the step had to
    // report, dropped from the call's evidence, is caught.
    std::uint32_t caught = 0;
    for_each_generated_run(31, 20000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if (caught >= 3 || report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) return;
        for (Segment& seg : run.segments) {
            if (!seg.write || !seg.write->foreground.changed_by) continue;
            const auto kept = seg.write->foreground.changed_by;
            seg.write->foreground.changed_by.reset();
            const CheckResult r = report_matches_ground_truth(scenario, run);
            seg.write->foreground.changed_by = kept;
            if (r.status == CheckStatus::Violated && r.violation->explanation.find("leaves out changedBy") != std::string::npos) ++caught;
            break;
        }
    });
    BOOST_TEST(caught >= 3u);
}

BOOST_AUTO_TEST_CASE(D3_a_settled_state_said_not_settled_is_caught) {
    // Under `current` (it settles), a step whose state settled — its wait saw two polls in a row
    // past the app's bound reading the same — is turned into settled:false: caught, with its reason.
    std::uint32_t caught = 0;
    for_each_generated_run(23, 3000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if (caught >= 3 || scenario.rules != "current" || report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) return;
        for (StepReport& step : run.steps) {
            if (!step.result.evidence.settled) continue;
            step.result.evidence.settled = false;
            const CheckResult r = report_matches_ground_truth(scenario, run);
            step.result.evidence.settled = true;
            caught += r.status == CheckStatus::Violated && r.violation->explanation.find("says not settled") != std::string::npos ? 1 : 0;
        }
    });
    BOOST_TEST(caught >= 3u);
}

BOOST_AUTO_TEST_CASE(P1_ok_is_the_absence_of_an_error_both_ways) {
    // A step that answered ok with a verdict, turned into "not ok" without an error (a single action
    // too, where no batch stops on it), and an error said with ok:true: both caught by their shape.
    std::uint32_t not_ok = 0, ok_with_error = 0;
    for_each_generated_run(22, 2000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if ((not_ok >= 3 && ok_with_error >= 3) || report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) return;
        for (StepReport& step : run.steps) {
            const ToolResult kept = step.result;
            if (kept.ok && kept.verdict && *kept.verdict != Verdict::Absent && not_ok < 3) {
                step.result.ok = false;
                const CheckResult r = report_matches_ground_truth(scenario, run);
                BOOST_TEST((r.status == CheckStatus::Violated), "ok:false without an error slipped through at step " << step.index);
                not_ok += r.status == CheckStatus::Violated && r.violation->explanation.find("without an error") != std::string::npos ? 1 : 0;
            } else if (!kept.ok && kept.error && ok_with_error < 3) {
                step.result.ok = true;
                const CheckResult r = report_matches_ground_truth(scenario, run);
                ok_with_error += r.status == CheckStatus::Violated && r.violation->explanation.find("reports ok together with") != std::string::npos ? 1 : 0;
            }
            step.result = kept;
        }
    });
    BOOST_TEST(not_ok >= 3u);
    BOOST_TEST(ok_with_error >= 3u);
}

BOOST_AUTO_TEST_CASE(F1_F2_a_batch_borrow_claim_left_out_is_caught) {
    // F-1, F-2 for the batch: the borrow it reports is claimed as the ledger shows it — the wait for
    // the user, the F24 retry, and for a hold lost to someone else its time. Each is dropped from
    // batch reports that carry it; each drop is caught, with its own message, on some generated run.
    std::uint32_t waited = 0, retried = 0, lost = 0;
    for_each_generated_run(21, 20000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if ((waited >= 3 && retried >= 3 && lost >= 3) || report_matches_ground_truth(scenario, run).status == CheckStatus::Violated) return;
        for (BatchReport& b : run.batches) {
            ForegroundEvidence& fg = b.foreground;
            if (!fg.borrowed || fg.by != "tool") continue;
            const ForegroundEvidence kept = fg;
            const auto caught = [&](std::string_view what) {
                const CheckResult r = report_matches_ground_truth(scenario, run);
                fg = kept;
                return r.status == CheckStatus::Violated && r.violation->explanation.find(what) != std::string::npos;
            };
            if (fg.waited_for_user_ms) {
                fg.waited_for_user_ms.reset();
                waited += caught("leaves out waitedForUserMs of its borrow") ? 1 : 0;
            }
            if (fg.retried_after_refusal) {
                fg.retried_after_refusal = false;
                retried += caught("leaves out retriedAfterRefusal: its borrow") ? 1 : 0;
            }
            if (!fg.restored && fg.changed_by && fg.duration_ms > 0) {
                fg.duration_ms = 0;
                lost += caught("next looked at") ? 1 : 0;
            }
        }
    });
    BOOST_TEST(waited >= 3u);
    BOOST_TEST(retried >= 3u);
    BOOST_TEST(lost >= 3u);
}

BOOST_AUTO_TEST_CASE(D3_a_boundary_read_said_not_settled_past_the_bound_is_caught) {
    // Under `current` (it settles), the boundary waits out the earlier step's declared bound: its
    // read is settled, and saying otherwise is caught.
    RunOptions options;
    options.rules = &current_rules();
    sim::Prng seeds(17);
    std::uint32_t caught = 0;
    for (std::uint32_t i = 0; i < 3000 && caught < 3; ++i) {
        sim::Prng rng(seeds.next());
        sim::Scenario scenario = sim::build_scenario_from_prng(rng);
        scenario.rules = "current";
        RunResult run = run_scenario(scenario, options);
        if (dependent_step_only_after_observed(scenario, run).status == CheckStatus::Violated) continue;
        for (StepReport& step : run.steps) {
            if (!step.dependency || !step.dependency->settled || !step.dependency->after) continue;
            step.dependency->settled = false;
            const CheckResult r = dependent_step_only_after_observed(scenario, run);
            if (r.status == CheckStatus::Violated && r.violation->explanation.find("reported not settled") != std::string::npos) ++caught;
            step.dependency->settled = true;
            break;
        }
    }
    BOOST_TEST(caught >= 3u);
}

BOOST_AUTO_TEST_CASE(W1_a_boundary_that_saw_the_write_must_say_done) {
    // Progress on the claim, not only the act: a boundary whose read showed the earlier write
    // (clean, landed, nobody else writing it) says done; unknown there is caught.
    std::uint32_t caught = 0;
    for_each_generated_run(19, 3000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if (caught >= 3 || dependent_step_only_after_observed(scenario, run).status == CheckStatus::Violated) return;
        for (StepReport& step : run.steps) {
            if (!step.dependency || step.dependency->outcome != WriteOutcome::Done || !step.result.ok) continue;
            step.dependency->outcome = WriteOutcome::Unknown;
            const CheckResult r = dependent_step_only_after_observed(scenario, run);
            if (r.status == CheckStatus::Violated && r.violation->explanation.find("the evidence said done") != std::string::npos) ++caught;
            step.dependency->outcome = WriteOutcome::Done;
            break;
        }
    });
    BOOST_TEST(caught >= 3u);
}

BOOST_AUTO_TEST_CASE(O1_a_boundary_judgement_naming_another_row_is_caught) {
    // O-1: the boundary's judgement names the seed's deciding row ("rule N"); the same outcome and
    // reason under another row's number is caught.
    std::uint32_t caught = 0;
    for_each_generated_run(37, 3000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if (caught >= 3 || dependent_step_only_after_observed(scenario, run).status == CheckStatus::Violated) return;
        for (StepReport& step : run.steps) {
            if (!step.dependency) continue;
            const std::uint8_t kept = step.dependency->judgement.order;
            step.dependency->judgement.order = static_cast<std::uint8_t>(kept % 10U + 1U);
            const CheckResult r = dependent_step_only_after_observed(scenario, run);
            step.dependency->judgement.order = kept;
            if (r.status == CheckStatus::Violated && r.violation->explanation.find("seed 004's table") != std::string::npos) ++caught;
            break;
        }
    });
    BOOST_TEST(caught >= 3u);
}

BOOST_AUTO_TEST_CASE(B1_a_run_that_stops_before_a_failure_is_caught) {
    // B-1 the other way (Unknown continues): a run whose last step never ran, though nothing before
    // it failed, is caught — a tool that stops early, or runs nothing, passes no longer.
    std::uint32_t caught = 0;
    for_each_generated_run(23, 2000, false, [&](const sim::Scenario& scenario, RunResult& run) {
        if (caught >= 3 || run.stopped_at || !run.agent_retried.empty() || run.steps.size() < 2) return;
        if (batch_stops_at_first_failure(scenario, run).status != CheckStatus::Holds) return;
        run.steps.pop_back();
        run.timings.pop_back();
        const CheckResult r = batch_stops_at_first_failure(scenario, run);
        BOOST_TEST((r.status == CheckStatus::Violated && r.violation->explanation.find("never ran") != std::string::npos));
        ++caught;
    });
    BOOST_TEST(caught >= 3u);
}
