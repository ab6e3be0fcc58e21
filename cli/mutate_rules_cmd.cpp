// deskcheck mutate-rules: mutation testing of the rule tables (cli/mutate_rules.h). The verdict
// sets (harness/rule_mutation.h): every mutation of every row runs the property campaign on the
// mutated set, equivalence judged on the diff-rules catalogue (cli/situations.h). The observation
// rules (harness/observation_mutation.h): every mutation runs the observation checks on generated
// cases, equivalence judged on seed 004's matrix and those cases. One table shape for both.
#include <algorithm>
#include <atomic>
#include <cassert>
#include <functional>
#include <memory>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <mutex>

#include "harness/run.h"
#include "cli/args.h"
#include "cli/files.h"
#include "cli/mutate_rules.h"
#include "cli/observation_file.h"
#include "cli/commands.h"
#include "cli/report.h"
#include "cli/situations.h"
#include "json/strict_parse.h"
#include "model/evidence.h"
#include "model/observation.h"
#include "harness/observation_mutation.h"
#include "harness/rule_mutation.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;

// A full run of all the sets stays well under two minutes on a 2-core machine (docs/verdict-rules.md).
constexpr std::uint64_t mutate_cases_default = 20000;
constexpr std::uint64_t mutate_cases_max = 1'000'000;
constexpr std::uint64_t mutate_jobs_max = 64;
// Row reach (props::row_reach): a mutant of a row runs until the row has decided reach_hits cases of
// the original's campaign, within reach_factor times --cases (the scan runs the original once: its
// cost is reach_factor campaigns of --cases without checks, inside the nightly's share).
constexpr std::uint32_t reach_hits = 3;
constexpr std::uint64_t reach_factor = 2;
constexpr std::uint64_t reach_cases_max = mutate_cases_max;

char letter(MutantOutcome o) {
    switch (o) {
        case MutantOutcome::Killed: return 'K';
        case MutantOutcome::Survived: return 'S';
        case MutantOutcome::Equivalent: return 'E';
        case MutantOutcome::NotRun: return '-';
    }
    return '?';
}

std::string file_stem(const std::string& id) {
    std::string out = id;
    for (char& c : out) {
        if (c == ':' || c == '/' || c == '=') c = '-';
    }
    return out;
}

bool write_file(MutantReport& m, const fs::path& out, const std::string& text) {
    std::error_code ec;
    fs::create_directories(out, ec);
    const fs::path file = out / (file_stem(m.id) + ".json");
    const std::string error = write_text_file(file, text);
    if (!error.empty()) {
        std::cerr << "deskcheck mutate-rules: counterexample not written: " << error << "\n";
        m.write_error = error;
        return false;
    }
    m.file = file.string();
    return true;
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

void progress_line(const SetReport& r, std::size_t i, std::size_t selected, std::size_t done) {
    const MutantReport& m = r.mutants[i];
    std::cerr << "  [" << done << "/" << selected << "] " << m.id << ": " << outcome_name(m.outcome);
    if (m.outcome == MutantOutcome::Killed) std::cerr << " by " << m.property << " after " << m.cases << " cases";
    std::cerr << "\n";
}

// Runs `judge(index)` for the distinct mutants in `work` on `jobs` threads; `make_judge` gives each
// thread its own judge (its own caches). A mutant's report is written by the one thread that judged it.
void judge_all(SetReport& r, const std::vector<std::size_t>& work, const MutateSettings& s, std::size_t selected_count,
               const std::function<std::function<void(MutantReport&)>()>& make_judge) {
    std::atomic<std::size_t> next{0};
    std::mutex progress;
    std::size_t done = 0;
    const auto worker = [&] {
        const auto judge = make_judge();
        for (std::size_t k = next++; k < work.size(); k = next++) {
            if (s.stop && s.stop()) continue;  // left NotRun
            judge(r.mutants[work[k]]);
            const std::lock_guard<std::mutex> lock(progress);
            if (s.progress) progress_line(r, work[k], selected_count, ++done);
        }
    };
    std::vector<std::thread> threads;
    for (std::uint32_t t = 1; t < s.jobs; ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
}

// MutateSettings::only: every mutant when empty.
bool listed(const std::vector<std::string>& only, const std::string& id) {
    return only.empty() || std::find(only.begin(), only.end(), id) != only.end();
}

// Copies each repeated move's outcome from its first listing and counts the distinct ones.
void finish(SetReport& r, std::chrono::steady_clock::time_point started) {
    for (auto& m : r.mutants) {
        if (!m.selected) continue;
        if (m.same_as) {
            const MutantReport& first = r.mutants[*m.same_as];
            m.outcome = first.outcome;
            m.property = first.property;
            m.cases = first.cases;
            m.file = first.file;
            m.replay = first.replay;
            m.situation = first.situation;
            continue;
        }
        ++r.distinct;
        if (m.outcome == MutantOutcome::Killed) ++r.killed;
        if (m.outcome == MutantOutcome::Survived) ++r.survived;
        if (m.outcome == MutantOutcome::Equivalent) ++r.equivalent;
        if (m.outcome == MutantOutcome::NotRun) ++r.not_run;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void announce(const SetReport& r, std::size_t count, std::size_t distinct, const MutateSettings& s) {
    if (!s.progress) return;
    std::cerr << "deskcheck mutate-rules: " << r.name << ": " << count << " mutations of " << r.row_ids.size()
              << " rows (" << distinct << " distinct), seed " << s.seed << ", up to " << s.cases << " cases each, "
              << s.jobs << (s.jobs == 1 ? " job\n" : " jobs\n");
}

// ---- the verdict rule sets ------------------------------------------------------------------------

// The column of a mutation in the table.
std::size_t column_of(const props::RuleMutation& m) {
    switch (m.kind) {
        case props::RuleMutationKind::Verdict: return static_cast<std::size_t>(m.verdict);  // 0..2
        case props::RuleMutationKind::Remove: return 3;
        case props::RuleMutationKind::Earlier: return 4;
        case props::RuleMutationKind::Later: return 5;
        case props::RuleMutationKind::Negate: return 6;
    }
    return 6;
}

ShownSituation shown(const CatalogueSituation& c, const RuleSet& rules, const props::RuleMutation& mutation) {
    const Situation sit{c.action, c.before, c.after, Timing{c.settled}};
    const props::MutatedRules mutant(rules, mutation);
    const Judgement was = judge(rules, sit);
    const Judgement now = judge(mutant.rules(), sit);
    return {c.label, std::string(to_string(was.verdict)), std::string(was.rule), std::string(to_string(now.verdict)),
            std::string(now.rule)};
}

// One mutant: equivalent on the catalogue, else the campaign until its first kill.
void judge_verdict_mutant(MutantReport& m, const props::RuleMutation& mutation, const RuleSet& rules,
                          std::span<const CatalogueSituation> catalogue, std::span<const Situation> situations,
                          props::OriginalViolations& original, const props::CampaignOptions& campaign,
                          const MutateSettings& s) {
    const props::MutatedRules mutant(rules, mutation);
    const auto situation = telling_difference(rules, mutant.rules(), situations);
    if (!situation) {
        m.outcome = MutantOutcome::Equivalent;
        return;
    }
    m.budget = campaign.cases;
    const auto kill = props::first_kill(mutant.rules(), m.id, campaign, original);
    if (!kill) {
        m.outcome = MutantOutcome::Survived;
        m.situation = shown(catalogue[*situation], rules, mutation);
        return;
    }
    m.outcome = MutantOutcome::Killed;
    m.property = kill->property;
    m.cases = kill->cases;
    const sim::ScenarioDocument doc = props::counterexample_document(kill->counterexample, std::string(rules.name));
    if (write_file(m, s.out, sim::encode_document_text(doc))) m.replay = "deskcheck replay " + m.file + " --rule-mutation " + m.id;
}

SetReport mutate_verdict_set(const RuleSet& rules, const MutateSettings& s) {
    const auto started = std::chrono::steady_clock::now();
    const auto catalogue = situation_catalogue();
    std::vector<Situation> situations;
    situations.reserve(catalogue.size());
    for (const auto& c : catalogue) situations.push_back(Situation{c.action, c.before, c.after, Timing{c.settled}});
    SetReport r;
    r.name = std::string(rules.name);
    r.catalogue = std::to_string(catalogue.size()) + " diff-rules situations";
    for (const Rule& row : rules.rules) {
        r.row_ids.emplace_back(row.id);
        r.row_decisions.emplace_back(to_string(row.verdict));
    }
    r.columns = {"Confirmed", "Absent", "Unknown", "remove", "earlier", "later", "negate"};
    r.legend =
        "  K killed, S survived, E equivalent (judges every diff-rules situation like the original), . no such\n"
        "  mutation. Verdict columns: the row's verdict replaced by that one. A move swaps the row with its\n"
        "  neighbour of the same action kind, so \"later\" of a row and \"earlier\" of the next are one mutant.\n";
    const auto mutations = props::enumerate_mutations(rules);
    std::size_t count = 0;
    for (const auto& mutation : mutations) {
        MutantReport m;
        m.id = props::mutation_id(rules, mutation);
        m.row = mutation.row;
        m.column = column_of(mutation);
        m.operation = props::operation_name(mutation);
        m.selected = (!s.row || rules.rules[mutation.row].id == *s.row) && listed(s.only, m.id);
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
    announce(r, count, work.size(), s);
    props::CampaignOptions campaign;
    campaign.seed = s.seed;
    campaign.cases = s.cases;
    campaign.shrink = s.shrink;
    campaign.agent_retries = true;
    // A rare row's mutants run until the row has decided a few cases (up to reach_factor times --cases).
    const auto reach_cases = static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{s.cases} * reach_factor, reach_cases_max));
    const props::RowReach reach = props::row_reach(rules, campaign, reach_cases, reach_hits);
    judge_all(r, work, s, count, [&]() -> std::function<void(MutantReport&)> {
        auto original = std::make_shared<props::OriginalViolations>(rules, campaign);
        return [&, original](MutantReport& m) {
            const std::size_t index = static_cast<std::size_t>(&m - r.mutants.data());
            props::CampaignOptions own = campaign;
            own.cases = props::reach_budget(reach, mutations[index].row, s.cases);
            judge_verdict_mutant(m, mutations[index], rules, catalogue, situations, *original, own, s);
        };
    });
    finish(r, started);
    return r;
}

// ---- the observation rules ------------------------------------------------------------------------

std::size_t observation_column(const props::ObservationMutation& m) {
    switch (m.kind) {
        case props::ObservationMutationKind::Outcome: return static_cast<std::size_t>(m.outcome);  // 0..3
        case props::ObservationMutationKind::Remove: return 4;
        case props::ObservationMutationKind::Earlier: return 5;
        case props::ObservationMutationKind::Later: return 6;
        case props::ObservationMutationKind::Negate: return 7;
    }
    return 7;
}

ShownSituation shown(const props::ObservationDifference& d) {
    return {d.label + ": " + props::observation_case_line(d.c), std::string(to_string(d.original.outcome)), d.original.reason,
            std::string(to_string(d.mutant.outcome)), d.mutant.reason};
}

SetReport mutate_observation_set(const MutateSettings& s) {
    const auto started = std::chrono::steady_clock::now();
    const props::ObservationTable rules = observation_rules();
    SetReport r;
    r.name = std::string(props::observation_rules_name);
    r.catalogue = "seed 004's 12-case matrix + the " + std::to_string(s.cases) + " generated cases";
    for (const ObservationRule& row : rules) {
        r.row_ids.emplace_back(row.reason);
        r.row_decisions.emplace_back(to_string(row.outcome));
    }
    r.columns = {"observed", "not_obs", "needs_ev", "blocked", "remove", "earlier", "later", "negate"};
    r.legend =
        "  K killed, S survived, E equivalent (judges seed 004's matrix and every generated case like the\n"
        "  original), . no such mutation. Outcome columns: the row's outcome replaced by that one (observed,\n"
        "  not_observed, needs_evidence, blocked). The ten rows are one ordered list, so \"later\" of a row and\n"
        "  \"earlier\" of the next are one mutant.\n";
    const auto mutations = props::enumerate_observation_mutations(rules);
    std::size_t count = 0;
    for (const auto& mutation : mutations) {
        MutantReport m;
        m.id = props::observation_mutation_id(rules, mutation);
        m.row = mutation.row;
        m.column = observation_column(mutation);
        m.operation = props::observation_operation_name(mutation);
        m.selected = (!s.row || rules[mutation.row].reason == *s.row) && listed(s.only, m.id);
        count += m.selected ? 1 : 0;
        r.mutants.push_back(std::move(m));
    }
    std::vector<std::size_t> work;
    for (std::size_t i = 0; i < mutations.size(); ++i) {
        if (!r.mutants[i].selected) continue;
        const auto twin = props::observation_duplicate_of(mutations, i);
        if (twin && r.mutants[*twin].selected) r.mutants[i].same_as = *twin;
        else work.push_back(i);
    }
    announce(r, count, work.size(), s);
    const props::ObservationRun run(rules, s.seed, s.cases);
    judge_all(r, work, s, count, [&]() -> std::function<void(MutantReport&)> {
        return [&](MutantReport& m) {
            const std::size_t index = static_cast<std::size_t>(&m - r.mutants.data());
            const props::MutatedObservationRules mutant(rules, mutations[index]);
            const auto result = props::judge_observation_mutant(run, mutant.table(), s.shrink);
            switch (result.outcome) {
                case props::ObservationMutantOutcome::Equivalent: m.outcome = MutantOutcome::Equivalent; return;
                case props::ObservationMutantOutcome::Survived:
                    m.outcome = MutantOutcome::Survived;
                    if (result.difference) m.situation = shown(*result.difference);
                    return;
                case props::ObservationMutantOutcome::Killed: break;
            }
            m.outcome = MutantOutcome::Killed;
            m.property = result.kill->property;
            m.cases = result.kill->cases;
            if (write_file(m, s.out, observation_counterexample_text(
                                        result.kill->counterexample,
                                        ObservationHeader{result.kill->property, s.seed, result.kill->cases,
                                                          "rule mutation " + m.id + ": " + result.kill->property + " violated: " + result.kill->explanation,
                                                          m.id}))) {
                m.replay = "deskcheck judge-snapshot " + m.file + " --rule-mutation " + m.id;
            }
        };
    });
    finish(r, started);
    return r;
}

void print_table(const SetReport& r, const MutateSettings& s, std::ostream& out) {
    out << "mutate-rules " << r.name << ": seed " << s.seed << ", up to " << s.cases << " cases per mutant\n\n  "
        << std::left << std::setw(44) << "ROW" << std::setw(16) << "DECIDES";
    for (const auto& c : r.columns) out << std::setw(10) << c;
    out << "\n";
    for (std::size_t row = 0; row < r.row_ids.size(); ++row) {
        if (s.row && r.row_ids[row] != *s.row) continue;
        std::vector<char> cells(r.columns.size(), '.');
        for (const auto& m : r.mutants) {
            if (m.selected && m.row == row) cells[m.column] = letter(m.outcome);
        }
        out << "  " << std::setw(44) << r.row_ids[row] << std::setw(16) << r.row_decisions[row];
        for (char c : cells) out << std::setw(10) << c;
        out << "\n";
    }
    out << "\n" << r.legend;
    if (r.not_run != 0) out << "  - not run (the run was stopped before it).\n";
}

void print_kills(const SetReport& r, std::ostream& out) {
    if (r.killed == 0) return;
    out << "\nkilled (property, cases until the first kill, replay of the shrunk counterexample):\n";
    for (const auto& m : r.mutants) {
        if (!m.selected || m.outcome != MutantOutcome::Killed || m.same_as) continue;
        out << "  " << std::left << std::setw(60) << m.id << " " << m.property << " after " << m.cases
            << (m.cases == 1 ? " case" : " cases") << "\n";
        if (!m.replay.empty()) out << "      " << m.replay << "\n";
    }
}

void print_survivors(const SetReport& r, const MutateSettings& s, std::ostream& out) {
    if (r.survived == 0) return;
    out << "\nsurviving mutations of " << r.name << " (no property noticed them in " << s.cases
        << " cases, or in more where the row decides rarely), each with a situation where the mutated set decides differently:\n";
    for (const auto& m : r.mutants) {
        if (!m.selected || m.outcome != MutantOutcome::Survived || m.same_as || !m.situation) continue;
        out << "  " << m.id << (m.budget > s.cases ? " (" + std::to_string(m.budget) + " cases)" : std::string()) << "\n      " << m.situation->label << "\n      original: " << m.situation->original << " ("
            << m.situation->original_rule << ")   mutant: " << m.situation->mutant << " (" << m.situation->mutant_rule << ")\n";
    }
}

nlohmann::ordered_json situation_json(const MutantReport& m) {
    if (!m.situation || m.outcome != MutantOutcome::Survived) return nullptr;
    const ShownSituation& c = *m.situation;
    return {{"label", c.label},
            {"original", {{"verdict", c.original}, {"rule", c.original_rule}}},
            {"mutant", {{"verdict", c.mutant}, {"rule", c.mutant_rule}}}};
}

std::optional<MutateSettings> parse(Args& args) {
    MutateSettings s;
    const auto known = mutable_rule_sets();
    if (const auto name = args.option("--rules")) {
        if (std::find(known.begin(), known.end(), *name) == known.end()) {
            args.fail("unknown rule set '" + *name + "' (expected published, current or observation)");
        } else {
            s.sets.push_back(*name);
        }
    } else {
        s.sets = known;
    }
    const auto seed = args.number("--seed");
    const auto cases = args.number("--cases");
    const auto jobs = args.number("--jobs");
    if (jobs && (*jobs == 0 || *jobs > mutate_jobs_max)) args.fail("--jobs must lie in 1.." + std::to_string(mutate_jobs_max));
    if (cases && (*cases == 0 || *cases > mutate_cases_max)) args.fail("--cases must lie in 1.." + std::to_string(mutate_cases_max));
    s.row = args.option("--row");
    if (args.ok() && s.row) {
        for (const auto& name : s.sets) {
            bool found = false;
            if (name == props::observation_rules_name) {
                for (const ObservationRule& row : observation_rules()) found = found || row.reason == *s.row;
            } else {
                for (const Rule& row : props::rules_named(name)->rules) found = found || row.id == *s.row;
            }
            if (!found) args.fail("rule set " + name + " has no row '" + *s.row + "'");
        }
    }
    if (!args.positional().empty()) args.fail("unexpected argument '" + args.positional().front() + "'");
    if (!args.ok()) return std::nullopt;
    s.seed = seed.value_or(1);
    s.cases = static_cast<std::uint32_t>(cases.value_or(mutate_cases_default));
    s.shrink = !args.flag("--no-shrink");
    s.out = args.option("--out").value_or("build/mutate-rules");
    s.jobs = static_cast<std::uint32_t>(jobs.value_or(1));
    return s;
}

constexpr std::string_view help_text =
    "usage: deskcheck mutate-rules [--rules R] [--cases N] [--seed S] [--row ROW] [--out DIR] [--no-shrink]\n"
    "                             [--jobs N] [--explained FILE] [--json]\n"
    "mutation testing of the rule tables `deskcheck rules` prints: for every row of the set R (published,\n"
    "current or observation; all three when --rules is not given), every mutation of it is judged on a\n"
    "catalogue (no difference: equivalent) and otherwise run against the checks (seed S, up to N cases,\n"
    "default 20000; stopped at the first kill). A mutant is killed by a violation the unmutated set does\n"
    "not show on the same case (so published's known debts D-1..D-3 never kill).\n"
    "  verdict sets: its verdict replaced by each other verdict, the row removed, moved one place earlier /\n"
    "    later among the rows of its action kind, its condition negated; catalogue: the diff-rules\n"
    "    situations; checks: the property campaign. Replay a kill with\n"
    "      deskcheck replay FILE --rule-mutation ID\n"
    "  observation (seed 004): its outcome replaced by each other outcome, removed, moved earlier / later,\n"
    "    negated; catalogue: seed 004's matrix and the generated cases; checks: the observation checks\n"
    "    (the fuzz_observation invariants). Replay a kill with\n"
    "      deskcheck judge-snapshot FILE --rule-mutation ID\n"
    "Each kill's shrunk counterexample goes to DIR (default build/mutate-rules/). --row ROW: only that row's\n"
    "mutations (an observation row is named by its reason). --jobs N: mutants on N threads (default 1; the\n"
    "result is the same). Progress on stderr.\n"
    "A surviving mutation explained in FILE (default corpus/mutate-rules/explained.json: a deliberate\n"
    "freedom of the rules, with its reason) is reported as explained, not as a survivor; an explanation\n"
    "of a mutation of the sets run that no longer survives is reported stale.\n"
    "exit: 0 every non-equivalent mutation is killed or explained, 1 an unexplained mutation survived,\n"
    "      2 bad usage (or --explained FILE unreadable),\n"
    "      5 --out is not a folder deskcheck can write in, or a counterexample could not be written\n";

}  // namespace

std::string_view outcome_name(MutantOutcome o) {
    switch (o) {
        case MutantOutcome::Killed: return "killed";
        case MutantOutcome::Survived: return "survived";
        case MutantOutcome::Equivalent: return "equivalent";
        case MutantOutcome::NotRun: return "not_run";
    }
    return "?";
}

std::vector<std::string> mutable_rule_sets() {
    std::vector<std::string> out;
    for (const RuleSet* r : all_rule_sets()) out.emplace_back(r->name);
    out.emplace_back(props::observation_rules_name);
    return out;
}

std::vector<SetReport> run_mutate_rules(const MutateSettings& s) {
    std::vector<SetReport> reports;
    for (const auto& name : s.sets) {
        if (name == props::observation_rules_name) {
            reports.push_back(mutate_observation_set(s));
        } else {
            const RuleSet* rules = props::rules_named(name);
            assert(rules != nullptr);
            reports.push_back(mutate_verdict_set(*rules, s));
        }
    }
    return reports;
}

void print_score(const SetReport& r, std::ostream& out) {
    out << "\nscore " << r.name << ": " << r.killed << "/" << r.non_equivalent() << " non-equivalent mutations killed ("
        << r.survived << " survived, " << r.equivalent << " equivalent; " << r.distinct << " distinct mutants";
    if (r.not_run != 0) out << ", " << r.not_run << " not run";
    out << ") in " << std::fixed << std::setprecision(1) << r.seconds << " s\n";
}

void print_set_report(const SetReport& r, const MutateSettings& s, std::ostream& out) {
    print_table(r, s, out);
    print_kills(r, out);
    print_score(r, out);
    print_survivors(r, s, out);
}

nlohmann::ordered_json set_report_json(const SetReport& r) {
    nlohmann::ordered_json j{{"rules", r.name},
                             {"rows", r.row_ids.size()},
                             {"catalogue", r.catalogue},
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
                                  {"row", r.row_ids[m.row]},
                                  {"row_index", m.row},
                                  {"mutation", m.operation},
                                  {"outcome", outcome_name(m.outcome)},
                                  {"same_as", m.same_as ? nlohmann::ordered_json(r.mutants[*m.same_as].id) : nullptr}};
        const bool killed = m.outcome == MutantOutcome::Killed;
        mj["property"] = killed ? nlohmann::ordered_json(m.property) : nullptr;
        mj["cases"] = killed ? nlohmann::ordered_json(m.cases) : nullptr;
        mj["budget"] = m.budget == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.budget);
        mj["file"] = m.file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.file);
        mj["replay"] = m.replay.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.replay);
        mj["situation"] = situation_json(m);
        j["mutants"].push_back(mj);
    }
    return j;
}

std::vector<std::string> surviving_ids(const std::vector<SetReport>& reports) {
    std::vector<std::string> out;
    for (const auto& r : reports) {
        for (const auto& m : r.mutants) {
            if (m.selected && !m.same_as && m.outcome == MutantOutcome::Survived) out.push_back(m.id);
        }
    }
    return out;
}

ExplainedSurvivors read_explained_survivors(const fs::path& file) {
    constexpr std::size_t baseline_bytes_max = 1 << 20;
    ExplainedSurvivors out;
    auto read = read_input_file(file, baseline_bytes_max);
    if (auto* e = std::get_if<FileError>(&read)) {
        out.error = printable(e->message);
        return out;
    }
    auto parsed = parse_json_strict(std::get<std::string>(read));
    if (const auto* bad = std::get_if<JsonTextError>(&parsed)) {
        out.error = printable(file.string() + ": " + to_string(*bad));
        return out;
    }
    try {
        const auto& j = std::get<nlohmann::json>(parsed);
        if (!j.is_object() || !j.contains("explained") || !j.at("explained").is_object()) {
            out.error = file.string() + ": expected an object with an object \"explained\" (mutation id -> reason)";
            return out;
        }
        for (const auto& [id, reason] : j.at("explained").items()) {
            if (!reason.is_string()) {
                out.error = file.string() + ": /explained/" + id + ": expected a string (the reason)";
                return out;
            }
            out.reasons[id] = reason.get<std::string>();
        }
    } catch (const nlohmann::json::exception& e) {
        out.error = printable(file.string() + ": not JSON (" + std::string(e.what()) + ")");
    }
    return out;
}

std::vector<std::string> unexplained(const std::vector<std::string>& survivors, const ExplainedSurvivors& baseline) {
    std::vector<std::string> out;
    for (const auto& id : survivors) {
        if (baseline.reasons.count(id) == 0) out.push_back(id);
    }
    return out;
}

namespace {

// Stale: an explanation of a mutation this run judged (its set, its row when --row) that no longer
// survives.
std::vector<std::string> stale_explanations(const std::vector<SetReport>& reports, const ExplainedSurvivors& baseline) {
    std::vector<std::string> stale;
    for (const auto& r : reports) {
        for (const auto& m : r.mutants) {
            if (!m.selected || m.same_as || m.outcome == MutantOutcome::Survived || m.outcome == MutantOutcome::NotRun) continue;
            if (baseline.reasons.count(m.id) != 0) stale.push_back(m.id);
        }
    }
    return stale;
}

void print_explanations(const std::vector<std::string>& survivors, const std::vector<std::string>& explained,
                        const std::vector<std::string>& not_explained, const std::vector<std::string>& stale, const std::string& file) {
    if (!survivors.empty()) {
        std::cout << "\n" << explained.size() << " of " << survivors.size() << " surviving mutations are explained in " << file
                  << " (deliberate freedoms of the rules)";
        std::cout << (not_explained.empty() ? "; every survivor is explained\n" : "; not explained:\n");
        for (const auto& id : not_explained) std::cout << "  " << id << "\n";
    }
    if (!stale.empty()) {
        std::cout << "\nstale explanations (these mutations no longer survive: remove them from " << file << "):\n";
        for (const auto& id : stale) std::cout << "  " << id << "\n";
    }
}

}  // namespace

int cmd_mutate_rules(const Argv& argv) {
    Args args("mutate-rules", argv, {"--json", "--help", "--no-shrink"},
              {"--rules", "--cases", "--seed", "--row", "--out", "--jobs", "--explained"});
    if (args.flag("--help")) {
        std::cout << help_text;
        return exit_ok;
    }
    const bool json = args.flag("--json");
    const auto settings = args.ok() ? parse(args) : std::nullopt;
    if (!settings) return usage_error("mutate-rules", args.error());
    const MutateSettings& s = *settings;
    if (const auto e = check_output_dir(s.out)) {
        std::cerr << "deskcheck mutate-rules: --out " << e->message << "\n";
        return exit_infrastructure;
    }
    // The deliberate freedoms: named by --explained (an error when unreadable), or the checkout's
    // file when it is there.
    const std::optional<std::string> explained_option = args.option("--explained");
    const fs::path explained_file = explained_option.value_or("corpus/mutate-rules/explained.json");
    ExplainedSurvivors baseline;
    if (explained_option || fs::exists(explained_file)) {
        baseline = read_explained_survivors(explained_file);
        if (!baseline.error.empty()) return usage_error("mutate-rules", "--explained " + baseline.error);
    }
    const std::vector<SetReport> reports = run_mutate_rules(s);
    bool all_killed = true;
    bool all_written = true;
    for (const auto& r : reports) all_killed = all_killed && r.survived == 0;
    for (const auto& r : reports) {
        for (const auto& m : r.mutants) all_written = all_written && m.write_error.empty();
    }
    const std::vector<std::string> survivors = surviving_ids(reports);
    const std::vector<std::string> not_explained = unexplained(survivors, baseline);
    std::vector<std::string> explained;
    for (const auto& id : survivors) {
        if (baseline.reasons.count(id) != 0) explained.push_back(id);
    }
    const std::vector<std::string> stale = stale_explanations(reports, baseline);
    const int verdict = !all_written ? exit_infrastructure : not_explained.empty() ? exit_ok : exit_violation;
    if (json) {
        nlohmann::ordered_json j{{"seed", s.seed}, {"cases", s.cases}, {"all_killed", all_killed},
                                 {"all_killed_or_explained", not_explained.empty()}};
        j["explained_in"] = explained_file.string();
        j["unexplained_survivors"] = not_explained;
        j["explained_survivors"] = explained;
        j["stale_explanations"] = stale;
        j["rule_sets"] = nlohmann::ordered_json::array();
        for (const auto& r : reports) j["rule_sets"].push_back(set_report_json(r));
        std::cout << j.dump(2) << "\n";
        return verdict;
    }
    for (std::size_t i = 0; i < reports.size(); ++i) {
        if (i != 0) std::cout << "\n";
        print_set_report(reports[i], s, std::cout);
    }
    if (reports.size() > 1) {
        std::cout << "\n";
        for (const auto& r : reports) print_score(r, std::cout);
    }
    print_explanations(survivors, explained, not_explained, stale, explained_file.string());
    return verdict;
}

}  // namespace deskcheck::cli
