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

// What a check said, for the test log: status, step and explanation or why it could not judge.
std::string described(const props::CheckResult& r) {
    std::string out(props::to_string(r.status));
    if (r.violation) {
        out += " at step " + (r.violation->step ? std::to_string(*r.violation->step) : std::string("-")) + ": " +
               r.violation->explanation;
    }
    if (r.status == props::CheckStatus::CannotJudge) out += ": " + r.why_not_judged;
    return out;
}

// The header's property must be violated on `run`, at the header's step when it names one.
void require_violated(const props::NamedCheck& check, const sim::Scenario& scenario, const props::RunResult& run,
                      const props::RunOptions& options, const sim::CounterexampleHeader& header) {
    const auto r = props::run_check(check, scenario, run, options);
    BOOST_TEST((r.status == props::CheckStatus::Violated), check.name << ": " << described(r));
    if (r.violation && header.step) {
        BOOST_TEST(static_cast<std::int32_t>(r.violation->step.value_or(99)) == *header.step,
                   check.name << " is violated at another step than the header's: " << described(r));
    }
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

    // As `deskcheck replay` runs it (the agent retries a not_done once, W-2).
    props::RunOptions options;
    options.agent_retries = true;
    const auto run = props::run_scenario(doc.scenario, options);
    if (header.expected_outcome == "violated") {
        require_violated(*check, doc.scenario, run, options, header);
    } else {
        for (const auto& other : props::all_checks()) {
            const auto r = props::run_check(other, doc.scenario, run, options);
            if (other.name == check->name) {
                BOOST_TEST((r.status == props::CheckStatus::Holds), other.name << ": " << described(r));
            } else {
                BOOST_TEST((r.status != props::CheckStatus::Violated), other.name << ": " << described(r));
            }
        }
    }

    if (header.mutation) {
        BOOST_TEST_CONTEXT("with mutation " << to_string(*header.mutation)) {
            props::RunOptions mutated = options;
            mutated.mutation = *header.mutation;
            const auto bug = props::run_scenario(doc.scenario, mutated);
            require_violated(*check, doc.scenario, bug, mutated, header);
        }
    }
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
