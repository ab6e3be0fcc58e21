// Negative proofs (label `negative`, STYLE 13): for every check, a deliberately wrong
// implementation it must catch. Each test runs the property under RapidCheck with a fixed seed
// (tests/negative_support.h), asserts — with Boost, outside any property — that it FAILS, that the
// shrunk counterexample (decoded from the JSON RapidCheck printed) is small, with the bound stated
// per test, and that the same scenario passes once the bug is switched off: the bug, not the
// desktop, is what the check caught.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <ostream>
#include <sstream>

#include <string>
#include <utility>
#include <variant>

#include "model/tool.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/generators_rc.h"
#include "harness/run.h"
#include "harness/shrink.h"
#include "sim/scenario_json.h"
#include "sim/validate.h"
#include "tests/negative_support.h"
#include "tests/scenario_builders.h"

using namespace deskcheck;
using namespace deskcheck::props;
using namespace deskcheck::negative;

namespace {

constexpr std::uint64_t seed = 1234;
constexpr int cases_max = 3000;  // the search stops at the first failure; runs take ~0.1 ms

RunOptions current_with(Mutation m, bool agent_retries = false) {
    RunOptions o;
    o.rules = &current_rules();
    o.mutation = m;
    o.agent_retries = agent_retries;
    return o;
}

// Logs the result and returns the shrunk counterexample (fails the test when there is none).
sim::Scenario caught(const SearchResult& r, const std::string& what) {
    BOOST_TEST_MESSAGE(what << ": " << (r.failed ? "caught" : r.gave_up ? "gave up" : "NOT caught") << " after "
                            << r.cases_passed << " passing cases");
    BOOST_TEST_REQUIRE(r.failed, what << " was not caught: " << r.description);
    BOOST_TEST_REQUIRE(r.counterexample.has_value(), "the counterexample did not decode:\n" << r.json);
    BOOST_TEST_MESSAGE("  shrunk to " << to_string(size_of(*r.counterexample)) << "; " << r.description);
    BOOST_TEST_MESSAGE("  counterexample:\n" << r.json);
    return *r.counterexample;
}

// The same scenario with the bug switched off: the check does not report a violation.
void holds_without_the_bug(const std::string& check, const sim::Scenario& s, const RunOptions& options) {
    const RunResult run = run_scenario(s, options);
    const CheckResult r = run_check(*find_check(check), s, run, options);
    BOOST_TEST(r.status != CheckStatus::Violated,
               check << " fails even without the bug: " << (r.violation ? r.violation->explanation : ""));
}

}  // namespace

// ---- verdict_sound -------------------------------------------------------------------------------

// A verifier that says "changed = success, unchanged = failure" (V-5, V-7, D-2: typing the
// selected text over itself changes nothing; V-4: a hotkey's unrelated change is no success).
// Bound: 1 window, 1 step.
BOOST_AUTO_TEST_CASE(V1_V5_changed_means_success_verifier_is_caught_by_verdict_sound) {
    RunOptions naive;
    naive.rules = &changed_means_success_rules();
    rcgen::GenOptions readable;  // every control readable, no faults: the proof is about the logic, not V-2
    readable.build.unreadable = false;
    readable.build.swarm_faults = false;
    const sim::Scenario s = caught(
        find_violation("verdict_sound", naive, readable, seed, cases_max, current_with(Mutation::None)), "changed = success");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 1u);
    BOOST_TEST(z.steps <= 1u);
    holds_without_the_bug("verdict_sound", s, current_with(Mutation::None));
}

// V-2: an unreadable value read as "". Bound: 1 window, 1 step.
BOOST_AUTO_TEST_CASE(V2_unreadable_as_empty_is_caught_by_verdict_sound) {
    const sim::Scenario s = caught(find_violation("verdict_sound", current_with(Mutation::UnreadableAsEmpty), {}, seed, cases_max, current_with(Mutation::None)),
                           "unreadable as empty");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 1u);
    BOOST_TEST(z.steps <= 1u);
    holds_without_the_bug("verdict_sound", s, current_with(Mutation::None));
}

// ---- no_resend_after_unknown ---------------------------------------------------------------------

// B-2: the batch re-sends a step whose verdict was Unknown. Bound: 1 window, 1 step.
BOOST_AUTO_TEST_CASE(B2_retry_unknown_once_is_caught_by_no_resend_after_unknown) {
    const sim::Scenario s = caught(
        find_violation("no_resend_after_unknown", current_with(Mutation::RetryUnknownOnce, true), {}, seed, cases_max, current_with(Mutation::None, true)),
        "retry unknown once");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 1u);
    BOOST_TEST(z.steps <= 1u);
    BOOST_TEST(z.controls <= 0u);  // a click at a point on an empty window (the shrinker turns clicks by ref into that)
    holds_without_the_bug("no_resend_after_unknown", s, current_with(Mutation::None, true));
}

// ---- foreground_returned -------------------------------------------------------------------------

// F-5/F-6: the guard gives the foreground back only on the happy path. Bound: 2 windows (the one
// in front and the borrowed one), 1 step (a borrow whose delivery fails), no control, no event.
BOOST_AUTO_TEST_CASE(F5_F6_no_give_back_on_failure_is_caught_by_foreground_returned) {
    const sim::Scenario s = caught(
        find_violation("foreground_returned", current_with(Mutation::NoGiveBackOnFailure, true), {}, seed, cases_max, current_with(Mutation::None, true)),
        "no give-back on failure");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 2u);
    BOOST_TEST(z.steps <= 1u);
    BOOST_TEST(z.controls <= 0u);
    BOOST_TEST(z.events <= 0u);
    holds_without_the_bug("foreground_returned", s, current_with(Mutation::None, true));
}

// F-4: the guard restores the foreground over a window that took it by itself. A rarer
// coincidence (a borrow, and another window coming to the front while it is held): up to 20000
// cases (about 2 s). Bound: 3 windows (the one in front, the borrowed one, the one that comes to
// the front), 1 control, and 3 steps and events together: the generator's population (the fault
// rates of sim/build.cpp) decides which of two equally small shapes the shrinker reaches — 2 steps
// and 1 event (a second step borrows while another window is in front), or 1 step and 2 events
// (a popup of the first owner's app, then the user's click).
BOOST_AUTO_TEST_CASE(F4_restore_over_another_window_is_caught_by_foreground_returned) {
    const sim::Scenario s = caught(find_violation("foreground_returned", current_with(Mutation::RestoreOverAnotherWindow, true),
                                                  {}, seed, 20'000, current_with(Mutation::None, true)),
                                   "restore over another window");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 3u);
    BOOST_TEST(z.steps + z.events <= 3u);
    BOOST_TEST(z.steps <= 2u);
    BOOST_TEST(z.events <= 2u);
    BOOST_TEST(z.controls <= 1u);
    holds_without_the_bug("foreground_returned", s, current_with(Mutation::None, true));
}

// F-3 after F-4, F-7: a batch's WPF-like target whose input lands after the F-3 watch of its last
// step, inside the wait the rule set states (D-3), pulls itself forward after a batch whose hold
// another window took. The desktop is judged after that pull has landed: a tool that lets go before
// its input lands (Mutation::LetsGoBeforeLanding, which also skips the wait before that watch) leaves
// the WPF window in front. The scenario is a regression file (a rare situation, kept).
BOOST_AUTO_TEST_CASE(F7_a_pull_after_the_watch_of_a_lost_hold_is_judged_by_foreground_returned) {
    std::ifstream in("corpus/regressions/rare-current-wpf-input-lands-after-the-watch-of-a-lost-hold.json", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const auto decoded = sim::decode_document(text.str());
    BOOST_TEST_REQUIRE(std::holds_alternative<sim::ScenarioDocument>(decoded));
    const sim::Scenario& s = std::get<sim::ScenarioDocument>(decoded).scenario;
    const RunOptions bad = current_with(Mutation::LetsGoBeforeLanding);
    const RunResult run = run_scenario(s, bad);
    const CheckResult r = run_check(*find_check("foreground_returned"), s, run, bad);
    BOOST_TEST_REQUIRE(r.status == CheckStatus::Violated);
    BOOST_TEST(r.violation->explanation.find("ended with w2 in front; expected w4") != std::string::npos, r.violation->explanation);
    holds_without_the_bug("foreground_returned", s, current_with(Mutation::None));
}

// ---- click_lands_on_target -----------------------------------------------------------------------

// E-5: coordinate clicks skip the occlusion check. Bound: 2 windows (the target and the window
// over it), 1 step, no event, no control.
BOOST_AUTO_TEST_CASE(E5_click_without_hit_test_is_caught_by_click_lands_on_target) {
    const sim::Scenario s = caught(
        find_violation("click_lands_on_target", current_with(Mutation::ClickWithoutHitTest), {}, seed, cases_max, current_with(Mutation::None)),
        "click without hit test");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 2u);
    BOOST_TEST(z.steps <= 1u);
    BOOST_TEST(z.events <= 0u);
    BOOST_TEST(z.controls <= 0u);
    holds_without_the_bug("click_lands_on_target", s, current_with(Mutation::None));
}

// E-6: monitor/window instead of window/monitor. Bound: 1 window, 1 step.
BOOST_AUTO_TEST_CASE(E6_inverted_dpi_is_caught_by_click_lands_on_target) {
    const sim::Scenario s = caught(find_violation("click_lands_on_target", current_with(Mutation::InvertedDpi), {}, seed, cases_max, current_with(Mutation::None)),
                           "inverted DPI");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 1u);
    BOOST_TEST(z.steps <= 1u);
    BOOST_TEST(z.controls <= 0u);
    holds_without_the_bug("click_lands_on_target", s, current_with(Mutation::None));
}

// ---- ref_never_crosses_windows -------------------------------------------------------------------

// E-3: a ref of window A resolves in window B. Two windows of one app with the same automation
// ids; the agent uses A's ref with target B. Hand-built (the generator builds E-3 steps only when
// validate accepts them), then found by the generator too. Bound: 2 windows, 1 step.
BOOST_AUTO_TEST_CASE(E3_ignore_window_binding_is_caught_by_ref_never_crosses_windows) {
    using namespace deskcheck::testing;
    sim::Scenario s = desk();
    app(s, 1, 0, 0);
    auto& a = window(s, 1, 1, Rect{0, 0, 600, 400});
    control(a, 11, sim::ControlKind::Edit, Rect{10, 40, 500, 70}).automation_id = "text";
    auto& b = window(s, 2, 1, Rect{700, 0, 1300, 400});
    control(b, 21, sim::ControlKind::Edit, Rect{710, 40, 1200, 70}).automation_id = "text";
    s.foreground = 1;
    sim::Step step;
    step.kind = sim::StepKind::Type;
    step.window = 2;      // the target: window B
    step.control = 11;    // an element of window A...
    step.ref_window = 1;  // ...whose ref comes from A's snapshot (E-3)
    step.text = "abc";
    s.steps.push_back(step);
    const auto invalid = sim::validate(s);
    BOOST_TEST_REQUIRE(!invalid.has_value(),
                       "BLOCKED: sim::validate rejects an E-3 step (a control of its ref_window used on another "
                       "target): "
                           << (invalid ? invalid->path + ": " + invalid->reason : "") << " — until it accepts it, neither "
                           << "this proof nor the generator's E-3 steps can run");
    const RunOptions bug = current_with(Mutation::IgnoreWindowBinding);
    const RunResult run = run_scenario(s, bug);
    BOOST_TEST(ref_never_crosses_windows(s, run).status == CheckStatus::Violated);
    holds_without_the_bug("ref_never_crosses_windows", s, current_with(Mutation::None));
    const sim::Scenario found = caught(find_violation("ref_never_crosses_windows", bug, {}, seed, cases_max, current_with(Mutation::None)),
                                       "ignore window binding");
    BOOST_TEST(size_of(found).windows <= 2u);
    BOOST_TEST(size_of(found).steps <= 1u);
    BOOST_TEST(size_of(found).controls <= 1u);
}

// ---- report_matches_ground_truth -----------------------------------------------------------------

// One row per wrong tool that a check of what the tool reports (or of how decisive its verdicts
// are) must catch: the mutation, the check, a word the violation must carry, the search budget and
// the bounds on the shrunk counterexample (windows, steps).
namespace {

struct ReportProof {
    const char* name;
    Mutation mutation;
    const char* check;
    const char* needle;
    int cases;
    std::size_t windows_max;
    std::size_t steps_max;
};

constexpr ReportProof report_proofs[] = {
    // F-2: the guard says restored:true although the desktop refused the give-back. Bound: 1 step.
    // The search meets a case that needs a step in front only for the draws it uses (the borrow's
    // F24 delivered, the click after it not); the shrinker's reseeded drops remove it.
    {"F2_restored_despite_refusal", Mutation::RestoredDespiteRefusal, "report_matches_ground_truth", "refused", 20'000, 2, 1},
    // F-1 both ways: the report leaves out the F24 retry the ledger shows, or claims one it does not.
    {"F1_retry_claim_dropped", Mutation::RetryClaimDropped, "report_matches_ground_truth", "leaves out retriedAfterRefusal",
     20'000, 2, 1},
    {"F1_retry_claim_made_up", Mutation::RetryClaimMadeUp, "report_matches_ground_truth", "reports retriedAfterRefusal",
     cases_max, 2, 1},
    // P-1: the after-readback is the before snapshot, never read.
    {"P1_phantom_readback", Mutation::PhantomReadback, "report_matches_ground_truth", "phantom", cases_max, 1, 1},
    // W-1: a step left Unknown because its state had not settled says not_done; its effect lands
    // (within the app's bound, or after the tool answered).
    {"W1_not_done_despite_effect", Mutation::NotDoneDespiteEffect, "report_matches_ground_truth", "not_done", cases_max, 1, 1},
    // V-1: every Absent the evidence supports is said as Unknown — sound, and useless.
    {"V1_unknown_instead_of_absent", Mutation::UnknownInsteadOfAbsent, "verdict_decisive", "should be Absent", cases_max, 1, 1},
    // C-4: a Confirmed the evidence showed before the state settled is said as Unknown.
    {"C4_unknown_instead_of_confirmed", Mutation::UnknownInsteadOfConfirmed, "verdict_decisive", "should be Confirmed", cases_max, 1, 1},
    // V-5, V-6: typing is never judged; a reading that showed the text arrive asked for Confirmed.
    {"V5_V6_unknown_for_typing", Mutation::UnknownForTyping, "verdict_decisive", "by the step's own update: the verdict should be Confirmed", cases_max, 1, 1},
    // D-3: `current` stops polling after 100 ms, before the bound of a slower app it states it waits for.
    {"D3_settle_cut_short", Mutation::SettleCutShort, "verdict_decisive", "before the app's declared bound", cases_max, 1, 1},
    // E-2: a shared identity given up on while the path still leads to the element.
    {"E2_shared_identity_gives_up", Mutation::SharedIdentityGivesUp, "report_matches_ground_truth", "was there, under its identity", cases_max, 1, 1},
    // E-5: a coordinate click refused as covered where the desktop's hit test found the target.
    {"E5_occluded_whatever_hit", Mutation::OccludedWhateverHit, "report_matches_ground_truth", "itself at the point", cases_max, 1, 1},
    // F-1: the guard takes the front while the user is busy, without waiting for a pause.
    {"F1_no_user_wait", Mutation::NoUserWait, "foreground_returned", "F-1: wait", cases_max, 2, 1},
    // B-3, O-4: a dependent step runs without observing its dependency.
    {"B3_skip_boundary_observation", Mutation::SkipBoundaryObservation, "dependent_step_only_after_observed",
     "no observation", cases_max, 1, 2},
    // O-4: a dependent step runs on needs_evidence (an unreadable feed, a stale read).
    {"O4_proceed_on_needs_evidence", Mutation::ProceedOnNeedsEvidence, "dependent_step_only_after_observed",
     "needs_evidence", cases_max, 2, 2},
    // B-3 progress: no dependent step ever goes ahead, though its boundary read showed the write.
    {"B3_escalate_every_dependency", Mutation::EscalateEveryDependency, "dependent_step_only_after_observed",
     "the evidence said go ahead", cases_max, 1, 2},
    // E-4: a classic button gets a posted click, which it ignores while its window is inactive.
    {"E4_posted_click_to_buttons", Mutation::PostedClickToButtons, "input_fits_the_control",
     "a classic button ignores a posted click while inactive", cases_max, 2, 1},
    // E-4: a classic edit gets ctrl+a/c/x/v/z as posted keys, which it ignores while its window is
    // inactive (it takes those chords only as the edit messages they stand for).
    {"E4_posted_chords_to_edits", Mutation::PostedChordsToEdits, "input_fits_the_control",
     "only as an edit message", cases_max, 2, 1},
    // F-7 under `current`: the borrowed window's front is given away before the tool's input into it
    // lands, and the WPF-like app pulls it forward again.
    {"F7_lets_go_before_landing", Mutation::LetsGoBeforeLanding, "foreground_returned",
     "pulled the window forward again", cases_max, 2, 1},
    // V-4 made useless: a hotkey's state is read without the unsaved marker, so a save stays Unknown.
    {"V4_hotkey_marker_unread", Mutation::HotkeyMarkerUnread, "verdict_decisive", "never asked for", cases_max, 2, 1},
    // F-7: every step takes the foreground, though only WPF/WinUI-like apps need it.
    {"F7_borrow_for_every_window", Mutation::BorrowForEveryWindow, "input_fits_the_control",
     "only WPF/WinUI-like apps need a borrow", cases_max, 2, 1},
    // W-2: the retry rule lets the agent re-send an unknown post or submit that carries no key.
    {"W2_retry_unknown_write", Mutation::RetryUnknownWrite, "no_resend_after_unknown", "non-idempotent", cases_max, 1, 1},
    // W-2: the key never reaches the desktop, so the agent's harmless repeat posts twice.
    {"W2_drop_idempotency_key", Mutation::DropIdempotencyKey, "no_resend_after_unknown", "non-idempotent", cases_max, 1, 1},
    // E-3: the focused_ref names the element acted on; the agent, sending it for the element that
    // truly had the focus, reaches the wrong one.
    // W-2 progress: the retry rule forbids every retry, a confirmed not_done's too.
    {"W2_never_allow_retry", Mutation::NeverAllowRetry, "no_resend_after_unknown", "W-2 allows that retry", cases_max, 1, 1},
    {"E3_focused_ref_is_acted_element", Mutation::FocusedRefIsActedElement, "ref_never_crosses_windows", "resolved to", cases_max, 1, 2},
};

std::ostream& operator<<(std::ostream& os, const ReportProof& p) { return os << p.name; }

}  // namespace

BOOST_DATA_TEST_CASE(report_and_decisiveness_mutations_are_caught, boost::unit_test::data::make(report_proofs), proof) {
    const sim::Scenario s = caught(find_violation(proof.check, current_with(proof.mutation, true), {}, seed, proof.cases,
                                                  current_with(Mutation::None, true), proof.needle),
                                   proof.name);
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= proof.windows_max);
    BOOST_TEST(z.steps <= proof.steps_max);
    if (proof.mutation == Mutation::RestoredDespiteRefusal) BOOST_TEST(s.faults.foreground_refusal_permille > 0u);
    holds_without_the_bug(proof.check, s, current_with(Mutation::None, true));
}

// The shrinker's reseeded drops (harness/shrink.h, ShrinkOptions::reseeds). The F-2 case the
// search above meets, as the plain passes leave it: w2 in front and a click on it that borrows
// nothing but uses delivery draws, then a click on w3 that borrows; 30 % delivery errors, every
// foreground request refused unless the tool has the last input. The bug needs the borrow's F24
// delivered and the click after it not: dropping the first step moves those draws. Without
// reseeds the shrink stops at 2 steps; with them the first step goes and the bug stays.
BOOST_AUTO_TEST_CASE(shrink_drops_a_step_kept_only_for_its_draws) {
    using namespace deskcheck::testing;
    sim::Scenario s = desk();
    s.monitors.front().bounds = Rect{0, 0, 1280, 720};
    s.seed = 1017032159;
    s.batch = true;
    s.user_last_input_ms = -10'000;
    app(s, 200, 0, 0);
    app(s, 300, 0, 0);
    window(s, 2, 200, Rect{0, 256, 400, 556}, Framework::Electron, DpiAwareness::Unaware);
    window(s, 3, 300, Rect{0, 0, 400, 300}, Framework::Wpf, DpiAwareness::Unaware);
    s.foreground = 2;
    s.faults.delivery_error_permille = 300;
    s.faults.foreground_refusal_permille = 1000;
    sim::Step click;
    click.kind = sim::StepKind::ClickAt;
    click.frame = "main";
    click.window = 2;
    click.point = Point{199, 300};
    s.steps.push_back(click);
    click.window = 3;
    click.point = Point{199, 44};
    s.steps.push_back(click);
    BOOST_REQUIRE(!sim::validate(s).has_value());

    const RunOptions bug = current_with(Mutation::RestoredDespiteRefusal, true);
    const RunOptions fixed = current_with(Mutation::None, true);
    const StillFails still = [&](const sim::Scenario& x) {
        const auto v = violation_of("report_matches_ground_truth", x, bug);
        return v && v->find("refused") != std::string::npos && !violation_of("report_matches_ground_truth", x, fixed);
    };
    BOOST_REQUIRE(still(s));
    ShrinkOptions plain;
    plain.reseeds = 0;
    BOOST_TEST(size_of(shrink_scenario(s, still, plain).scenario).steps == 2u);
    const ShrinkResult r = shrink_scenario(s, still, ShrinkOptions{});
    BOOST_TEST(size_of(r.scenario).steps == 1u);
    BOOST_TEST(r.scenario.steps.front().window == 3u);
    BOOST_TEST(still(r.scenario));
    BOOST_TEST(r.scenario.seed != s.seed);
}

// F-8: a launch report is a claim too. A launchable "calc" (pid 3, hidden window 3) on a desk with
// notepad (w1); the step launches it, then one that names an app that is not installed. Each
// tampered report (the wrong window, a false launch_failed, a made-up success) is caught; the
// report as the tool gave it holds.
BOOST_AUTO_TEST_CASE(F8_a_false_launch_report_is_caught_by_report_matches_ground_truth) {
    using namespace deskcheck::testing;
    sim::Scenario s = desk();
    app(s, 1, 0, 0);
    window(s, 1, 1, Rect{0, 0, 800, 600});
    auto& calc = app(s, 3, 0, 0);
    calc.name = "calc";
    calc.launchable = true;
    window(s, 3, 3, Rect{300, 300, 600, 600});
    s.hidden.push_back(3);
    s.foreground = 1;
    s.batch = true;
    sim::Step launch;
    launch.kind = sim::StepKind::Launch;
    launch.app = "calc";
    s.steps.push_back(launch);
    launch.app = "not-installed";
    s.steps.push_back(launch);
    BOOST_REQUIRE(!sim::validate(s).has_value());
    const RunOptions options = current_with(Mutation::None);
    RunResult run = run_scenario(s, options);
    const NamedCheck& check = *find_check("report_matches_ground_truth");
    BOOST_REQUIRE(run.launches.size() == 2u);
    BOOST_TEST(run.launches[0].ok);
    BOOST_TEST(run.launches[0].window.value_or(0) == 3u);
    BOOST_TEST(!run.launches[1].ok);
    BOOST_TEST((run_check(check, s, run, options).status == CheckStatus::Holds));

    // Each lie is told on the run itself, then taken back (a RunResult owns its desktop: no copies).
    auto lie_caught = [&](std::size_t i, LaunchReport lie, const std::string& needle) {
        const LaunchReport told = std::exchange(run.launches[i], std::move(lie));
        const CheckResult r = run_check(check, s, run, options);
        run.launches[i] = told;
        BOOST_TEST((r.status == CheckStatus::Violated), needle << " was not caught");
        if (r.violation) BOOST_TEST(r.violation->explanation.find(needle) != std::string::npos, r.violation->explanation);
    };
    LaunchReport wrong_window = run.launches[0];
    wrong_window.window = 1;
    lie_caught(0, wrong_window, "claims w1 as its new window");
    lie_caught(0, LaunchReport{false, std::nullopt, Error{ErrorKind::LaunchFailed, "said"}, {}}, "reports launch_failed, but it showed w3");
    lie_caught(1, LaunchReport{true, 3, std::nullopt, {}}, "claims w3 as its new window, but it showed no window");
    BOOST_TEST((run_check(check, s, run, options).status == CheckStatus::Holds));
}

// ---- batch_stops_at_first_failure ----------------------------------------------------------------

// B-1: a batch that goes on after a failure. No Mutation switches the tool's batch into this, so
// the naive batch is a test-side runner (negative_support.h: run_without_stopping) over the real
// Tool. Bound: 1 window, 2 steps (the failure and one after it).
BOOST_AUTO_TEST_CASE(B1_batch_that_does_not_stop_is_caught_by_batch_stops_at_first_failure) {
    const SearchResult r = search(
        []() {
            const sim::Scenario s = *rcgen::scenarios();
            const RunResult run = run_without_stopping(s, current_rules());
            const CheckResult c = batch_stops_at_first_failure(s, run);
            if (c.status == CheckStatus::Violated) RC_FAIL(c.violation->explanation);
        },
        seed, cases_max);
    const sim::Scenario s = caught(r, "batch that does not stop");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 1u);
    BOOST_TEST(z.steps <= 2u);
    const RunResult run = run_scenario(s, current_with(Mutation::None));
    BOOST_TEST(batch_stops_at_first_failure(s, run).status != CheckStatus::Violated);
}

// ---- deterministic -------------------------------------------------------------------------------

// S-1 canary: a rule set with hidden state (the first judgement since reset is Confirmed, later
// ones Unknown) makes two runs of one scenario differ; deterministic() must say so. What it
// proves: deterministic() compares whole runs (trace and report) and catches state that survives
// from one run to the next. What it cannot prove: that the sim has no such state of its own —
// that is what S1_deterministic_holds samples. Bound: 1 window, 1 step.
BOOST_AUTO_TEST_CASE(S1_hidden_state_is_caught_by_deterministic) {
    RunOptions o;
    o.rules = &canary::rules();
    const SearchResult r = search(
        [o]() {
            const sim::Scenario s = *rcgen::scenarios();
            canary::reset();  // per case: the case, and its shrinks, behave the same every time
            const CheckResult c = deterministic(s, o);
            if (c.status == CheckStatus::Violated) RC_FAIL(c.violation->explanation);
        },
        seed, cases_max);
    const sim::Scenario s = caught(r, "hidden state");
    const Size z = size_of(s);
    BOOST_TEST(z.windows <= 1u);
    BOOST_TEST(z.steps <= 1u);
    holds_without_the_bug("deterministic", s, current_with(Mutation::None));
}

// S-1: the comparison deterministic() rests on (the trace text and the report fingerprint) tells
// apart two runs that differ only in the seed the latencies are drawn from.
BOOST_AUTO_TEST_CASE(S1_trace_comparison_tells_seeds_apart) {
    using namespace deskcheck::testing;
    sim::Scenario s = desk();
    app(s, 1, 0, 400);
    auto& w = window(s, 1, 1, Rect{0, 0, 600, 400});
    control(w, 11, sim::ControlKind::Edit, Rect{10, 40, 500, 70});
    s.foreground = 1;
    sim::Step step;
    step.kind = sim::StepKind::Type;
    step.window = 1;
    step.control = 11;
    step.text = "abc";
    s.steps.push_back(step);
    sim::Scenario other = s;
    other.seed = s.seed + 1;
    const RunResult a = run_scenario(s, current_with(Mutation::None));
    const RunResult b = run_scenario(other, current_with(Mutation::None));
    BOOST_TEST(sim::to_text(a.trace()) != sim::to_text(b.trace()));
    BOOST_TEST(deterministic(s, current_with(Mutation::None)).status == CheckStatus::Holds);
}

// ---- STYLE 7: cannot judge is not "passed" --------------------------------------------------------

// A property whose check can never judge discards every case: RapidCheck reports "gave up" (a
// GaveUpResult, which rc::detail::checkBoostTest turns into a failure), never success. RapidCheck
// gives up once discards exceed max_discard_ratio (10) per required success.
BOOST_AUTO_TEST_CASE(V1_cannot_judge_every_case_gives_up_and_fails) {
    const SearchResult r = search([]() { RC_DISCARD("cannot judge: nothing to judge"); }, seed, 100);
    BOOST_TEST(r.gave_up);
    BOOST_TEST(!r.failed);
    BOOST_TEST(r.cases_passed == 0);
    // A percentage drawn uniformly at every size (RapidCheck's inRange narrows at small sizes).
    const auto percent = rc::Gen<int>([](const rc::Random& random, int) {
        return rc::shrinkable::just(static_cast<int>(rc::Random(random).next() % 100));
    });
    const auto discarding = [percent](int n) {
        return search([percent, n]() {
            if (*percent < n) RC_DISCARD("cannot judge");
        }, seed, 100);
    };
    // Half the cases not judged: RapidCheck alone still passes (hence the explicit budget of
    // S1_every_check_judges_most_generated_scenarios)...
    BOOST_TEST(discarding(50).gave_up == false);
    // ...it gives up only past 10 discards per required success.
    BOOST_TEST(discarding(95).gave_up == true);
}
