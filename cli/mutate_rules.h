// The engine of `deskcheck mutate-rules` (cli/mutate_rules_cmd.cpp), shared with `deskcheck
// nightly`: every mutation of every row of the verdict rule sets (harness/rule_mutation.h) and
// of the observation rules (harness/observation_mutation.h), each judged killed, survived or
// equivalent, as one report per rule set in one shape.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace deskcheck::cli {

enum class MutantOutcome { Killed, Survived, Equivalent, NotRun };
std::string_view outcome_name(MutantOutcome o);

// A situation where a surviving mutant decides differently, as printed.
struct ShownSituation {
    std::string label;
    std::string original;       // verdict / outcome
    std::string original_rule;  // the deciding row
    std::string mutant;
    std::string mutant_rule;
};

struct MutantReport {
    std::string id;                       // "<set>:<row>:<operation>"
    std::size_t row = 0;                  // index into the set's rows
    std::size_t column = 0;               // index into SetReport::columns
    std::string operation;
    MutantOutcome outcome = MutantOutcome::NotRun;
    std::optional<std::size_t> same_as;   // index of the identical mutant listed first
    std::string property;                 // the killing check
    std::uint32_t cases = 0;              // the killing case's index + 1
    std::uint32_t budget = 0;             // the cases it was given: --cases, or more for a rare row (row_reach)
    std::string file;                     // the killing counterexample ("" when none or not written)
    std::string write_error;              // why the counterexample could not be written (exit 5)
    std::string replay;
    std::optional<ShownSituation> situation;  // for a survivor
    bool selected = true;                 // false: left out by --row
};

struct SetReport {
    std::string name;
    std::string catalogue;                // what equivalence was judged on
    std::vector<std::string> row_ids;
    std::vector<std::string> row_decisions;  // each row's verdict / outcome
    std::vector<std::string> columns;     // "Confirmed", ..., "remove", "earlier", "later", "negate"
    std::string legend;                   // the table's notes
    std::vector<MutantReport> mutants;
    double seconds = 0;
    std::uint32_t killed = 0, survived = 0, equivalent = 0, distinct = 0, not_run = 0;
    std::uint32_t non_equivalent() const { return killed + survived; }
};

struct MutateSettings {
    std::vector<std::string> sets;        // "published", "current", "observation"
    std::optional<std::string> row;       // only this row's mutations
    std::vector<std::string> only;        // non-empty: only these mutants (ids), e.g. earlier survivors
    std::uint64_t seed = 1;
    std::uint32_t cases = 20000;
    bool shrink = true;
    std::filesystem::path out = "build/mutate-rules";
    std::uint32_t jobs = 1;
    bool progress = true;                 // a line per mutant on stderr
    std::function<bool()> stop;           // asked before each mutant: true leaves the rest not run
};

// The rule sets mutate-rules knows, in the order of a run over all of them.
std::vector<std::string> mutable_rule_sets();

std::vector<SetReport> run_mutate_rules(const MutateSettings& s);

void print_set_report(const SetReport& r, const MutateSettings& s, std::ostream& out);
void print_score(const SetReport& r, std::ostream& out);
nlohmann::ordered_json set_report_json(const SetReport& r);

// The ids of the distinct surviving mutations of the reports, in report order.
std::vector<std::string> surviving_ids(const std::vector<SetReport>& reports);

// The baseline of explained survivors (corpus/mutate-rules/explained.json: {"explained": {id:
// reason}}); an error message when it cannot be read.
struct ExplainedSurvivors {
    std::map<std::string, std::string> reasons;
    std::string error;
};
ExplainedSurvivors read_explained_survivors(const std::filesystem::path& file);
// The survivors that the baseline does not explain, in order.
std::vector<std::string> unexplained(const std::vector<std::string>& survivors, const ExplainedSurvivors& baseline);

}  // namespace deskcheck::cli
