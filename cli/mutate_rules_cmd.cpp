// deskcheck mutate-rules: mutation testing of the verdict rules (properties/rule_mutation.h).
// For every row of a rule set, every mutation of it runs the campaign on the mutated set; the table
// says which the properties kill, which survive, and which are equivalent on the diff-rules
// catalogue (cli/situations.h).
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <mutex>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/report.h"
#include "cli/situations.h"
#include "model/evidence.h"
#include "properties/rule_mutation.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;

// A full run of both shipped sets stays well under two minutes on a 2-core machine (README).
constexpr std::uint64_t mutate_cases_default = 20000;
constexpr std::uint64_t mutate_cases_max = 1'000'000;
constexpr std::uint64_t mutate_jobs_max = 64;

enum class Outcome { Killed, Survived, Equivalent };

char letter(Outcome o) {
    switch (o) {
        case Outcome::Killed: return 'K';
        case Outcome::Survived: return 'S';
        case Outcome::Equivalent: return 'E';
    }
    return '?';
}

std::string_view outcome_name(Outcome o) {
    switch (o) {
        case Outcome::Killed: return "killed";
        case Outcome::Survived: return "survived";
        case Outcome::Equivalent: return "equivalent";
    }
    return "?";
}

struct MutantReport {
    props::RuleMutation mutation;
    std::string id;
    Outcome outcome = Outcome::Survived;
    std::optional<std::size_t> same_as;   // index of the identical mutant listed first
    std::optional<props::Kill> kill;
    std::string file;                     // the killing counterexample ("" when none or not written)
    std::string replay;
    std::optional<std::size_t> situation; // a catalogue situation where the mutant decides differently
    bool selected = true;                 // false: left out by --row
};

struct SetReport {
    const RuleSet* rules = nullptr;
    std::vector<MutantReport> mutants;
    double seconds = 0;
    std::uint32_t killed = 0, survived = 0, equivalent = 0, distinct = 0;
    std::uint32_t non_equivalent() const { return killed + survived; }
};

struct Settings {
    std::vector<const RuleSet*> sets;
    std::optional<std::string> row;  // only this row's mutations
    props::CampaignOptions campaign;
    fs::path out = "build/mutate-rules";
    bool json = false;
    std::uint32_t jobs = 1;
};

std::string file_stem(const std::string& id) {
    std::string out = id;
    for (char& c : out) {
        if (c == ':' || c == '/' || c == '=') c = '-';
    }
    return out;
}

void write_kill(MutantReport& m, const RuleSet& rules, const fs::path& out) {
    std::error_code ec;
    fs::create_directories(out, ec);
    const fs::path file = out / (file_stem(m.id) + ".json");
    const sim::ScenarioDocument doc = props::counterexample_document(m.kill->counterexample, std::string(rules.name));
    const std::string error = write_text_file(file, sim::encode_document_text(doc));
    if (!error.empty()) {
        std::cerr << "deskcheck mutate-rules: counterexample not written: " << error << "\n";
        return;
    }
    m.file = file.string();
    m.replay = "deskcheck replay " + m.file + " --rule-mutation " + m.id;
}

int readable_count(const Snapshot& s) {
    return int{s.value.has_value()} + int{s.selection.has_value()} + int{s.toggled.has_value()} +
           int{s.expanded.has_value()} + int{s.selected.has_value()};
}

// The situation to show for a surviving mutant: of those where it decides differently, the most
// ordinary one — settled, with the most readings readable (the first of equals).
std::optional<std::size_t> telling_difference(const RuleSet& a, const RuleSet& b, std::span<const Situation> situations) {
    std::optional<std::size_t> best;
    int best_rank = -1;
    for (std::size_t i : props::differences(a, b, situations)) {
        const Situation& s = situations[i];
        const int rank = (s.timing.settled ? 100 : 0) + readable_count(s.before) + readable_count(s.after);
        if (rank > best_rank) {
            best = i;
            best_rank = rank;
        }
    }
    return best;
}

// One mutant: equivalent on the catalogue, else the campaign until its first kill.
void judge_mutant(MutantReport& m, const RuleSet& rules, std::span<const Situation> situations,
                  props::OriginalViolations& original, const Settings& s) {
    const props::MutatedRules mutant(rules, m.mutation);
    m.situation = telling_difference(rules, mutant.rules(), situations);
    if (!m.situation) {
        m.outcome = Outcome::Equivalent;
        return;
    }
    m.kill = props::first_kill(mutant.rules(), m.id, s.campaign, original);
    m.outcome = m.kill ? Outcome::Killed : Outcome::Survived;
    if (m.kill) write_kill(m, rules, s.out);
}

void progress_line(const SetReport& r, std::size_t i, std::size_t selected, std::size_t done) {
    const MutantReport& m = r.mutants[i];
    std::cerr << "  [" << done << "/" << selected << "] " << m.id << ": " << outcome_name(m.outcome);
    if (m.kill) std::cerr << " by " << m.kill->property << " after " << m.kill->cases << " cases";
    std::cerr << "\n";
}

// Runs the distinct mutants in `work` on `jobs` threads. Each thread keeps its own cache of the
// original's violations; a mutant's report is written by the one thread that judged it.
void judge_all(SetReport& r, const std::vector<std::size_t>& work, std::span<const Situation> situations,
               const Settings& s, std::size_t selected_count) {
    std::atomic<std::size_t> next{0};
    std::mutex progress;
    std::size_t done = 0;
    const auto worker = [&] {
        props::OriginalViolations original(*r.rules, s.campaign);
        for (std::size_t k = next++; k < work.size(); k = next++) {
            judge_mutant(r.mutants[work[k]], *r.rules, situations, original, s);
            const std::lock_guard<std::mutex> lock(progress);
            progress_line(r, work[k], selected_count, ++done);
        }
    };
    std::vector<std::thread> threads;
    for (std::uint32_t t = 1; t < s.jobs; ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
}

SetReport mutate_set(const RuleSet& rules, std::span<const Situation> situations, const Settings& s) {
    const auto started = std::chrono::steady_clock::now();
    SetReport r;
    r.rules = &rules;
    const auto mutations = props::enumerate_mutations(rules);
    std::size_t count = 0;
    for (std::size_t i = 0; i < mutations.size(); ++i) {
        MutantReport m;
        m.mutation = mutations[i];
        m.id = props::mutation_id(rules, mutations[i]);
        m.selected = !s.row || rules.rules[mutations[i].row].id == *s.row;
        count += m.selected ? 1 : 0;
        r.mutants.push_back(std::move(m));
    }
    std::vector<std::size_t> work;
    for (std::size_t i = 0; i < mutations.size(); ++i) {
        if (!r.mutants[i].selected) continue;
        const auto twin = props::duplicate_of(rules, mutations, i);
        if (twin && r.mutants[*twin].selected) r.mutants[i].same_as = *twin;
        else work.push_back(i);
    }
    std::cerr << "deskcheck mutate-rules: " << rules.name << ": " << count << " mutations of " << rules.rules.size()
              << " rows (" << work.size() << " distinct), seed " << s.campaign.seed << ", up to " << s.campaign.cases
              << " cases each, " << s.jobs << (s.jobs == 1 ? " job\n" : " jobs\n");
    judge_all(r, work, situations, s, count);
    for (auto& m : r.mutants) {
        if (!m.selected) continue;
        if (m.same_as) {
            const MutantReport& first = r.mutants[*m.same_as];
            m.outcome = first.outcome;
            m.kill = first.kill;
            m.file = first.file;
            m.replay = first.replay;
            m.situation = first.situation;
            continue;
        }
        ++r.distinct;
        if (m.outcome == Outcome::Killed) ++r.killed;
        if (m.outcome == Outcome::Survived) ++r.survived;
        if (m.outcome == Outcome::Equivalent) ++r.equivalent;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
}

// The column of a mutation in the table.
int column_of(const props::RuleMutation& m) {
    switch (m.kind) {
        case props::RuleMutationKind::Verdict: return static_cast<int>(m.verdict);  // 0..2
        case props::RuleMutationKind::Remove: return 3;
        case props::RuleMutationKind::Earlier: return 4;
        case props::RuleMutationKind::Later: return 5;
        case props::RuleMutationKind::Negate: return 6;
    }
    return 6;
}

constexpr std::array<std::string_view, 7> column_names{"Confirmed", "Absent", "Unknown", "remove", "earlier", "later", "negate"};

void print_table(const SetReport& r, const Settings& s, std::ostream& out) {
    const RuleSet& rules = *r.rules;
    out << "mutate-rules " << rules.name << ": seed " << s.campaign.seed << ", up to " << s.campaign.cases
        << " cases per mutant\n\n  " << std::left << std::setw(36) << "ROW" << std::setw(10) << "VERDICT";
    for (auto c : column_names) out << std::setw(10) << c;
    out << "\n";
    for (std::size_t row = 0; row < rules.rules.size(); ++row) {
        if (s.row && rules.rules[row].id != *s.row) continue;
        std::array<char, 7> cells;
        cells.fill('.');
        for (const auto& m : r.mutants) {
            if (m.selected && m.mutation.row == row) cells[static_cast<std::size_t>(column_of(m.mutation))] = letter(m.outcome);
        }
        out << "  " << std::setw(36) << rules.rules[row].id << std::setw(10) << to_string(rules.rules[row].verdict);
        for (char c : cells) out << std::setw(10) << c;
        out << "\n";
    }
    out << "\n  K killed, S survived, E equivalent (judges every diff-rules situation like the original), . no such\n"
           "  mutation. Verdict columns: the row's verdict replaced by that one. A move swaps the row with its\n"
           "  neighbour of the same action kind, so \"later\" of a row and \"earlier\" of the next are one mutant.\n";
}

void print_kills(const SetReport& r, std::ostream& out) {
    if (r.killed == 0) return;
    out << "\nkilled (property, cases until the first kill, replay of the shrunk counterexample):\n";
    for (const auto& m : r.mutants) {
        if (!m.selected || m.outcome != Outcome::Killed || m.same_as || !m.kill) continue;
        out << "  " << std::left << std::setw(52) << m.id << " " << m.kill->property << " after " << m.kill->cases
            << (m.kill->cases == 1 ? " case" : " cases") << "\n";
        if (!m.replay.empty()) out << "      " << m.replay << "\n";
    }
}

void print_survivors(const SetReport& r, std::span<const CatalogueSituation> catalogue, const Settings& s,
                     std::ostream& out) {
    if (r.survived == 0) return;
    out << "\nsurviving mutations of " << r.rules->name << " (no property noticed them in " << s.campaign.cases
        << " cases), each with a diff-rules situation where the mutated set decides differently:\n";
    for (const auto& m : r.mutants) {
        if (!m.selected || m.outcome != Outcome::Survived || m.same_as || !m.situation) continue;
        const CatalogueSituation& c = catalogue[*m.situation];
        const Situation sit{c.action, c.before, c.after, Timing{c.settled}};
        const props::MutatedRules mutant(*r.rules, m.mutation);
        const Judgement was = judge(*r.rules, sit);
        const Judgement now = judge(mutant.rules(), sit);
        out << "  " << m.id << "\n      " << c.label << "\n      original: " << to_string(was.verdict) << " (" << was.rule
            << ")   mutant: " << to_string(now.verdict) << " (" << now.rule << ")\n";
    }
}

void print_score(const SetReport& r, std::ostream& out) {
    out << "\nscore " << r.rules->name << ": " << r.killed << "/" << r.non_equivalent() << " non-equivalent mutations killed ("
        << r.survived << " survived, " << r.equivalent << " equivalent; " << r.distinct << " distinct mutants) in "
        << std::fixed << std::setprecision(1) << r.seconds << " s\n";
}

nlohmann::ordered_json situation_json(std::span<const CatalogueSituation> catalogue, const MutantReport& m,
                                      const RuleSet& rules) {
    if (!m.situation || m.outcome != Outcome::Survived) return nullptr;
    const CatalogueSituation& c = catalogue[*m.situation];
    const Situation sit{c.action, c.before, c.after, Timing{c.settled}};
    const props::MutatedRules mutant(rules, m.mutation);
    const Judgement was = judge(rules, sit);
    const Judgement now = judge(mutant.rules(), sit);
    return {{"label", c.label},
            {"original", {{"verdict", to_string(was.verdict)}, {"rule", was.rule}}},
            {"mutant", {{"verdict", to_string(now.verdict)}, {"rule", now.rule}}}};
}

nlohmann::ordered_json set_json(const SetReport& r, std::span<const CatalogueSituation> catalogue) {
    const RuleSet& rules = *r.rules;
    nlohmann::ordered_json j{{"rules", rules.name},
                             {"rows", rules.rules.size()},
                             {"seconds", r.seconds},
                             {"distinct", r.distinct},
                             {"killed", r.killed},
                             {"survived", r.survived},
                             {"equivalent", r.equivalent},
                             {"non_equivalent", r.non_equivalent()}};
    j["mutants"] = nlohmann::ordered_json::array();
    for (const auto& m : r.mutants) {
        if (!m.selected) continue;
        nlohmann::ordered_json mj{{"id", m.id},
                                  {"row", rules.rules[m.mutation.row].id},
                                  {"row_index", m.mutation.row},
                                  {"mutation", props::operation_name(m.mutation)},
                                  {"outcome", outcome_name(m.outcome)},
                                  {"same_as", m.same_as ? nlohmann::ordered_json(r.mutants[*m.same_as].id) : nullptr}};
        mj["property"] = m.kill ? nlohmann::ordered_json(m.kill->property) : nullptr;
        mj["cases"] = m.kill ? nlohmann::ordered_json(m.kill->cases) : nullptr;
        mj["file"] = m.file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.file);
        mj["replay"] = m.replay.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.replay);
        mj["situation"] = situation_json(catalogue, m, rules);
        j["mutants"].push_back(mj);
    }
    return j;
}

std::optional<Settings> parse(Args& args) {
    Settings s;
    if (const auto name = args.option("--rules")) {
        const RuleSet* r = find_rules(*name);
        if (r == nullptr) args.fail("unknown rule set '" + *name + "' (expected published or current)");
        else s.sets.push_back(r);
    } else {
        for (const RuleSet* r : all_rule_sets()) s.sets.push_back(r);
    }
    const auto seed = args.number("--seed");
    const auto cases = args.number("--cases");
    const auto jobs = args.number("--jobs");
    if (jobs && (*jobs == 0 || *jobs > mutate_jobs_max)) args.fail("--jobs must lie in 1.." + std::to_string(mutate_jobs_max));
    if (cases && (*cases == 0 || *cases > mutate_cases_max)) args.fail("--cases must lie in 1.." + std::to_string(mutate_cases_max));
    s.row = args.option("--row");
    if (args.ok() && s.row) {
        for (const RuleSet* r : s.sets) {
            bool found = false;
            for (const Rule& row : r->rules) found = found || row.id == *s.row;
            if (!found) args.fail("rule set " + std::string(r->name) + " has no row '" + *s.row + "'");
        }
    }
    if (!args.positional().empty()) args.fail("unexpected argument '" + args.positional().front() + "'");
    if (!args.ok()) return std::nullopt;
    s.campaign.seed = seed.value_or(1);
    s.campaign.cases = static_cast<std::uint32_t>(cases.value_or(mutate_cases_default));
    s.campaign.shrink = !args.flag("--no-shrink");
    s.campaign.agent_retries = true;
    s.out = args.option("--out").value_or("build/mutate-rules");
    s.json = args.flag("--json");
    s.jobs = static_cast<std::uint32_t>(jobs.value_or(1));
    return s;
}

constexpr std::string_view help_text =
    "usage: deskcheck mutate-rules [--rules R] [--cases N] [--seed S] [--row ROW] [--out DIR] [--no-shrink]\n"
    "                             [--jobs N] [--json]\n"
    "mutation testing of the verdict rules: for every row of the rule set (both sets when --rules is not\n"
    "given), every mutation of it -- its verdict replaced by each other verdict, the row removed, moved one\n"
    "place earlier / later among the rows of its action kind, its condition negated -- is judged on the\n"
    "diff-rules catalogue (no difference: equivalent) and otherwise run through the property campaign\n"
    "(seed S, up to N cases, default 20000; stopped at the first kill). A mutant is killed by a violation\n"
    "the unmutated set does not show on the same case (so published's known debts D-1..D-3 never kill).\n"
    "Each kill's shrunk counterexample goes to DIR (default build/mutate-rules/), replayed with\n"
    "  deskcheck replay FILE --rule-mutation ID\n"
    "--row ROW: only that row's mutations. --jobs N: mutants on N threads (default 1; the result is the\n"
    "same). Progress on stderr.\n"
    "exit: 0 every non-equivalent mutation is killed, 1 a mutation survived, 2 bad usage\n";

}  // namespace

int cmd_mutate_rules(const Argv& argv) {
    Args args("mutate-rules", argv, {"--json", "--help", "--no-shrink"}, {"--rules", "--cases", "--seed", "--row", "--out", "--jobs"});
    if (args.flag("--help")) {
        std::cout << help_text;
        return exit_ok;
    }
    const auto settings = args.ok() ? parse(args) : std::nullopt;
    if (!settings) return usage_error("mutate-rules", args.error());
    const Settings& s = *settings;
    const auto catalogue = situation_catalogue();
    std::vector<Situation> situations;
    situations.reserve(catalogue.size());
    for (const auto& c : catalogue) situations.push_back(Situation{c.action, c.before, c.after, Timing{c.settled}});
    std::vector<SetReport> reports;
    bool all_killed = true;
    for (const RuleSet* rules : s.sets) {
        reports.push_back(mutate_set(*rules, situations, s));
        all_killed = all_killed && reports.back().survived == 0;
    }
    if (s.json) {
        nlohmann::ordered_json j{{"seed", s.campaign.seed}, {"cases", s.campaign.cases}, {"situations", catalogue.size()},
                                 {"all_killed", all_killed}};
        j["rule_sets"] = nlohmann::ordered_json::array();
        for (const auto& r : reports) j["rule_sets"].push_back(set_json(r, catalogue));
        std::cout << j.dump(2) << "\n";
        return all_killed ? exit_ok : exit_violation;
    }
    for (std::size_t i = 0; i < reports.size(); ++i) {
        if (i != 0) std::cout << "\n";
        print_table(reports[i], s, std::cout);
        print_kills(reports[i], std::cout);
        print_score(reports[i], std::cout);
        print_survivors(reports[i], catalogue, s, std::cout);
    }
    if (reports.size() > 1) {
        std::cout << "\n";
        for (const auto& r : reports) print_score(r, std::cout);
    }
    return all_killed ? exit_ok : exit_violation;
}

}  // namespace deskcheck::cli
