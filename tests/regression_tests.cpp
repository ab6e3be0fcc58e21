// Every file in corpus/regressions/ is replayed and must reproduce its recorded outcome
// (DESIGN "Counterexamples"): "violated" — the header's property is still violated (a debt of
// the published rules, kept as proof the testbed finds it); "holds" — a fixed bug stays fixed.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "properties/checks.h"
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
}  // namespace

BOOST_AUTO_TEST_CASE(S1_every_regression_file_reproduces_its_recorded_outcome) {
    const auto files = regression_files();
    BOOST_TEST_REQUIRE(files.size() >= 4u);  // D-1, D-2, D-3 and at least one fixed bug
    for (const auto& file : files) {
        BOOST_TEST_CONTEXT(file.string()) {
            std::ifstream in(file);
            std::stringstream text;
            text << in.rdbuf();
            const auto decoded = sim::decode_document(text.str());
            BOOST_TEST_REQUIRE(std::holds_alternative<sim::ScenarioDocument>(decoded));
            const auto& doc = std::get<sim::ScenarioDocument>(decoded);
            BOOST_TEST_REQUIRE(doc.counterexample.has_value());
            const auto& header = *doc.counterexample;
            BOOST_TEST_REQUIRE((header.expected_outcome == "violated" || header.expected_outcome == "holds"));
            props::RunOptions options;
            const auto run = props::run_scenario(doc.scenario, options);
            if (header.expected_outcome == "violated") {
                const auto* check = props::find_check(header.property);
                BOOST_TEST_REQUIRE(check != nullptr);
                const auto r = props::run_check(*check, doc.scenario, run, options);
                BOOST_TEST(props::to_string(r.status) == "violated");
                if (r.violation && header.step) BOOST_TEST(static_cast<std::int32_t>(r.violation->step.value_or(99)) == *header.step);
            } else {
                for (const auto& check : props::all_checks()) {
                    BOOST_TEST_CONTEXT(check.name) {
                        BOOST_TEST(props::to_string(props::run_check(check, doc.scenario, run, options).status) != "violated");
                    }
                }
            }
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
