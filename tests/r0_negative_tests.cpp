// R0 negative proofs (SPEC ): a bench that never fails anything is decoration.
// The naive adapter scores 0 % and the command exits non-zero; each wrong undo policy is caught by
// failure_leaves_nothing with a small counterexample, and by the bench over corpus/r0/; each wrong
// recovery after a crash is caught by the campaign's in-process crash cases.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>
#include <sys/wait.h>

#include "harness/r0_bench.h"
#include "harness/r0_campaign.h"
#include "harness/r0_policies.h"
#include "tests/r0_support.h"

namespace {

using namespace deskcheck;

constexpr std::size_t negative_cases = 20'000;
constexpr std::size_t small_steps_max = 2;

void caught_small(const std::string& policy_name) {
    const r0::PolicyChoice p = r0::make_policy(policy_name);
    BOOST_REQUIRE(p.known);
    BOOST_REQUIRE(p.policy != nullptr);
    const r0::R0CampaignResult r = r0::run_r0_campaign(1, negative_cases, p.policy.get());
    BOOST_REQUIRE_MESSAGE(r.shrunk.has_value(), policy_name << ": no violation in " << negative_cases << " cases");
    BOOST_TEST_MESSAGE(policy_name << ": " << *r.shrunk->violation << " | " << r0::describe_case(*r.shrunk));
    BOOST_TEST(r.shrunk->fixture.steps.size() <= small_steps_max);
    BOOST_TEST(r.shrunk->violation.has_value());
    // The counterexample is one: it replays from its choices, and the right policy passes it.
    BOOST_TEST(r0::run_r0_case(r.shrunk->choices, p.policy.get()).violation.has_value());
    BOOST_TEST(!r0::run_r0_case(r.shrunk->choices, nullptr).violation.has_value());
    // The bench over the fixture files catches it too.
    const r0::R0BenchResult b = r0::run_r0_bench("deskcheck", r0::test::corpus_fixtures(), p.policy.get());
    BOOST_TEST(!b.figures.all_full());
}

// A wrong recovery after a crash: only the campaign's crash cases can show it, so the first
// violation is a crash case, and it shrinks to a small one the tool's own recover passes.
void wrong_recovery_caught_small(const std::string& name) {
    const r0::PolicyChoice p = r0::make_policy(name);
    BOOST_REQUIRE(p.known);
    BOOST_REQUIRE(p.policy == nullptr);
    BOOST_REQUIRE(p.recovery != nullptr);
    const r0::R0CampaignResult r = r0::run_r0_campaign(1, negative_cases, nullptr, p.recovery.get());
    BOOST_REQUIRE_MESSAGE(r.shrunk.has_value(), name << ": no violation in " << negative_cases << " cases");
    BOOST_TEST_MESSAGE(name << ": " << *r.shrunk->violation << " | " << r0::describe_case(*r.shrunk));
    BOOST_TEST(r.first->crash.crashed);
    BOOST_TEST(r.shrunk->crash.crashed);
    BOOST_TEST(r.shrunk->fixture.steps.size() <= small_steps_max);
    BOOST_TEST(r0::run_r0_case(r.shrunk->choices, nullptr, p.recovery.get()).violation.has_value());
    const r0::R0CaseResult right = r0::run_r0_case(r.shrunk->choices, nullptr, nullptr);
    BOOST_TEST(right.crash.crashed);
    BOOST_TEST(!right.violation.has_value());
}

}  // namespace

BOOST_AUTO_TEST_CASE(R7_recovery_losing_the_last_pending_intent_is_caught_small) {
    wrong_recovery_caught_small("recover-skips-last-intent");
}
BOOST_AUTO_TEST_CASE(R7_recovery_undoing_nothing_is_caught_small) { wrong_recovery_caught_small("recover-nothing"); }

BOOST_AUTO_TEST_CASE(R5_naive_adapter_scores_zero_on_every_figure) {
    auto fixtures = r0::test::corpus_fixtures();
    for (auto& f : r0::generated_fixtures(1, 8)) fixtures.push_back(std::move(f));
    const r0::R0BenchResult b = r0::run_r0_bench("naive", fixtures);
    BOOST_TEST(b.figures.residue.of > 0u);
    BOOST_TEST(b.figures.residue.ok == 0u);
    BOOST_TEST(b.figures.rollback.ok == 0u);
    BOOST_TEST(b.figures.traceability.ok == 0u);
    BOOST_TEST(b.figures.normal_undo.ok == 0u);
    BOOST_TEST(!b.figures.all_full());
}

BOOST_AUTO_TEST_CASE(R5_deskcheck_r0_with_the_naive_adapter_exits_1) {
    const char* bin = std::getenv("DESKCHECK_BIN");
    BOOST_REQUIRE(bin != nullptr);
    const std::string quiet = " > /dev/null 2>&1";
    const int naive = std::system((std::string(bin) + " r0 --adapter naive" + quiet).c_str());
    BOOST_REQUIRE(WIFEXITED(naive));
    BOOST_TEST(WEXITSTATUS(naive) == 1);
    const int tool = std::system((std::string(bin) + " r0" + quiet).c_str());
    BOOST_REQUIRE(WIFEXITED(tool));
    BOOST_TEST(WEXITSTATUS(tool) == 0);
    const int bad = std::system((std::string(bin) + " r0 --adapter nobody" + quiet).c_str());
    BOOST_REQUIRE(WIFEXITED(bad));
    BOOST_TEST(WEXITSTATUS(bad) == 2);
}

BOOST_AUTO_TEST_CASE(R3_undo_writing_empty_for_null_is_caught_small) { caught_small("null-as-empty"); }
BOOST_AUTO_TEST_CASE(R6_undo_forgetting_auto_created_folders_is_caught_small) { caught_small("forget-folders"); }
BOOST_AUTO_TEST_CASE(R1_skipping_the_failed_steps_journal_line_is_caught_small) { caught_small("skip-failed-line"); }
BOOST_AUTO_TEST_CASE(R1_undoing_in_the_wrong_order_is_caught_small) { caught_small("wrong-order"); }
