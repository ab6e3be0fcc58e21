// Every file in corpus/regressions/ is replayed and must reproduce its recorded outcome
// (DESIGN "Counterexamples"). Each file is its own CTest test, `S1_regression_<file stem>`
// (label `regression`): tests/CMakeLists.txt globs the folder and runs the one test case below
// with the file after `--`. Outcomes:
//   "violated" — the header's property is still violated (at the header's step, when given): a debt
//                of the published rules, kept as proof the testbed finds it;
//   "holds"    — a fixed bug stays fixed: the header's property holds (not judged is a failure: a
//                file that cannot be judged proves nothing) and no other check is violated.
// A header "mutation" names a tool mutation that puts the bug back: the file is also run with it,
// and the header's property must be violated there (at the header's step, when given) — so the
// file can still fail, and does whenever the check stops seeing the bug.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/recorded_outcome.h"
#include "sim/scenario_json.h"

using namespace deskcheck;

namespace {

std::vector<std::filesystem::path> regression_files() {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator("corpus/regressions")) {
        if (e.path().extension() == ".json") out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The file after `--` on the command line (Boost.Test leaves it in the master suite's argv).
std::optional<std::string> file_argument() {
    const auto& suite = boost::unit_test::framework::master_test_suite();
    if (suite.argc < 2) return std::nullopt;
    return std::string(suite.argv[suite.argc - 1]);
}

}  // namespace

// Registered once per file by tests/CMakeLists.txt; disabled so that running the executable
// without a file does not run it (CTest names it explicitly with --run_test).
BOOST_AUTO_TEST_CASE(S1_regression_file_reproduces_its_recorded_outcome, *boost::unit_test::disabled()) {
    const auto file = file_argument();
    BOOST_TEST_REQUIRE(file.has_value(), "usage: regression_tests --run_test=<this test> -- corpus/regressions/FILE.json");
    BOOST_TEST_MESSAGE("file " << *file);
    std::ifstream in(*file, std::ios::binary);
    BOOST_TEST_REQUIRE(static_cast<bool>(in), "cannot open " << *file);
    std::stringstream text;
    text << in.rdbuf();
    const auto decoded = sim::decode_document(text.str());
    if (const auto* error = std::get_if<sim::DecodeError>(&decoded)) BOOST_FAIL(*file << ": " << error->message());
    const auto& doc = std::get<sim::ScenarioDocument>(decoded);
    BOOST_TEST_REQUIRE(doc.counterexample.has_value(), *file << " has no counterexample header");
    const auto& header = *doc.counterexample;
    BOOST_TEST_REQUIRE((header.expected_outcome == "violated" || header.expected_outcome == "holds"),
                       "outcome \"" << header.expected_outcome << "\" (expected \"violated\" or \"holds\")");
    const auto* check = props::find_check(header.property);
    BOOST_TEST_REQUIRE(check != nullptr, "unknown property \"" << header.property << "\"");

    // As `deskcheck replay` runs it (the agent retries a not_done once, W-2), judged by the one
    // rule replay uses (harness/recorded_outcome.h).
    props::RunOptions options;
    options.agent_retries = true;
    const auto run = props::run_scenario(doc.scenario, options);
    std::vector<props::PropertyOutcome> as_recorded;
    for (const auto& c : props::all_checks()) as_recorded.push_back({std::string(c.name), props::run_check(c, doc.scenario, run, options)});
    std::optional<props::CheckResult> with_mutation;
    if (header.mutation) {
        props::RunOptions mutated = options;
        mutated.mutation = *header.mutation;
        with_mutation = props::run_check(*check, doc.scenario, props::run_scenario(doc.scenario, mutated), mutated);
    }
    const auto judged = props::recorded_outcome(header, as_recorded, with_mutation);
    BOOST_TEST(judged.reproduced, *file << ": " << judged.why);
}

BOOST_AUTO_TEST_CASE(D1_D2_D3_the_published_debts_are_in_the_regression_corpus) {
    std::vector<std::string> debts;
    for (const auto& file : regression_files()) {
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        const auto decoded = sim::decode_document(text.str());
        if (!std::holds_alternative<sim::ScenarioDocument>(decoded)) continue;
        const auto& doc = std::get<sim::ScenarioDocument>(decoded);
        if (!doc.counterexample || doc.counterexample->rules != "published") continue;
        debts.push_back(doc.counterexample->summary.substr(0, 3));
    }
    for (const char* d : {"D-1", "D-2", "D-3"}) {
        BOOST_TEST_CONTEXT(d) { BOOST_TEST(std::count(debts.begin(), debts.end(), std::string(d)) >= 1); }
    }
}

// The rule itself can fail: each way a replay can differ from its header is "not reproduced".
BOOST_AUTO_TEST_CASE(S1_recorded_outcome_not_reproduced_each_way) {
    using props::CheckResult;
    sim::CounterexampleHeader h;
    h.property = "verdict_sound";
    h.expected_outcome = "violated";
    h.step = 1;
    const auto violated_at = [](std::uint32_t step) { return CheckResult::violated("verdict_sound", step, "V-1: x"); };
    const std::vector<props::PropertyOutcome> at_1{{"verdict_sound", violated_at(1)}, {"deterministic", CheckResult::holds(1)}};
    const std::vector<props::PropertyOutcome> at_2{{"verdict_sound", violated_at(2)}, {"deterministic", CheckResult::holds(1)}};
    BOOST_TEST(props::recorded_outcome(h, at_1, std::nullopt).reproduced);
    BOOST_TEST(!props::recorded_outcome(h, at_2, std::nullopt).reproduced);  // another step
    h.step.reset();
    BOOST_TEST(props::recorded_outcome(h, at_2, std::nullopt).reproduced);

    h.expected_outcome = "holds";
    const std::vector<props::PropertyOutcome> clean{{"verdict_sound", CheckResult::holds(3)}, {"deterministic", CheckResult::holds(1)}};
    const std::vector<props::PropertyOutcome> other{{"verdict_sound", CheckResult::holds(3)},
                                                    {"deterministic", CheckResult::violated("deterministic", std::nullopt, "S-1")}};
    const std::vector<props::PropertyOutcome> unjudged{{"verdict_sound", CheckResult::cannot_judge("no step")}};
    BOOST_TEST(props::recorded_outcome(h, clean, std::nullopt).reproduced);
    BOOST_TEST(!props::recorded_outcome(h, other, std::nullopt).reproduced);  // another property violated
    BOOST_TEST(!props::recorded_outcome(h, unjudged, std::nullopt).reproduced);  // not judged proves nothing
    BOOST_TEST(!props::recorded_outcome(h, at_1, std::nullopt).reproduced);

    h.mutation = Mutation::UnreadableAsEmpty;  // the bug put back must violate the property again
    BOOST_TEST(props::recorded_outcome(h, clean, violated_at(0)).reproduced);
    BOOST_TEST(!props::recorded_outcome(h, clean, CheckResult::holds(3)).reproduced);
    BOOST_TEST(!props::recorded_outcome(h, clean, std::nullopt).reproduced);

    h.expected_outcome = "fixed";
    BOOST_TEST(!props::recorded_outcome(h, clean, violated_at(0)).reproduced);

    BOOST_TEST(props::recorded_observation_outcome("o", {{"o", "x"}}).reproduced);
    BOOST_TEST(!props::recorded_observation_outcome("o", {{"p", "x"}}).reproduced);
}
