// deskcheck run / replay / shrink: property campaigns, replaying counterexamples, shrinking files.
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/files.h"
#include "cli/fuzz_support.h"
#include "cli/interrupt.h"
#include "cli/observation_file.h"
#include "cli/report.h"
#include "cli/run_observation.h"
#include "harness/campaign.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/observation_mutation.h"
#include "model/observation.h"
#include "harness/rule_mutation.h"
#include "harness/shrink.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t cases_max = 10'000'000;
constexpr std::uint32_t shrink_progress_every = 50;  // attempts between two progress lines

// Parses --rules / --mutation shared by the commands; records a usage error on bad values.
bool parse_run_options(Args& args, props::RunOptions& ro, std::string& rules_name) {
    if (const auto r = args.option("--rules")) {
        if (*r == props::observation_rules_name) {
            args.fail("--rules observation judges observation cases, not a desktop scenario (deskcheck run --rules observation; "
                      "replay takes an observation file without --rules)");
            return false;
        }
        if (find_rules(*r) == nullptr) {
            args.fail("unknown rule set '" + printable(*r, 60) + "' (expected published, current or observation)");
            return false;
        }
        rules_name = *r;
        ro.rules = find_rules(*r);
    }
    if (const auto m = args.option("--mutation")) {
        const auto mut = mutation_named(*m);
        if (!mut) {
            args.fail("unknown mutation '" + printable(*m, 60) + "' (expected one of: " + mutation_list() + ")");
            return false;
        }
        ro.mutation = *mut;
    }
    return true;
}

void print_campaign_text(const props::CampaignResult& r, std::ostream& out) {
    const int name_w = property_column_width(r.properties);
    int spec_w = 6;
    for (const auto& p : r.properties) spec_w = std::max(spec_w, static_cast<int>(p.spec.size()) + 2);
    out << "\n" << std::left << std::setw(name_w) << "PROPERTY" << std::setw(spec_w) << "SPEC" << std::right << std::setw(7)
        << "cases" << std::setw(8) << "holds" << std::setw(10) << "violated" << std::setw(11) << "not judged"
        << "  verdict\n";
    for (const auto& p : r.properties) {
        const char* verdict = p.violated > 0 ? "FAILED" : p.gave_up() ? "GAVE UP" : "ok";
        out << std::left << std::setw(name_w) << p.name << std::setw(spec_w) << p.spec << std::right << std::setw(7) << p.cases
            << std::setw(8) << p.holds << std::setw(10) << p.violated << std::setw(11) << p.cannot_judge << "  "
            << verdict << "\n";
        for (const auto& [why, n] : p.why_not_judged) {
            out << "      not judged x" << n << " (" << std::fixed << std::setprecision(2)
                << 100.0 * n / std::max<std::uint32_t>(1, p.cases) << " %): " << why << "\n";
        }
        for (const auto& [why, n] : p.why_partly_not_judged) {
            out << "      judged in part x" << n << " (a segment or step left out): " << why << "\n";
        }
        for (const auto& [debt, n] : p.known_debts) {
            out << "      known debt x" << n << ": " << debt << " of the published rules (current does not violate it)\n";
        }
    }
    for (const auto& p : r.properties) {
        if (p.blind_spot()) {
            out << "warning: " << p.name << " could not judge " << std::fixed << std::setprecision(2)
                << 100.0 * p.cannot_judge / std::max<std::uint32_t>(1, p.cases) << " % of cases (more than 1 %)\n";
        }
    }
    out << "\nverdicts:";
    for (const auto& [k, n] : r.verdicts) {
        if (k.find('/') == std::string::npos) out << "  " << k << "=" << n;
    }
    out << "\nby action kind:";
    for (const auto& [k, n] : r.verdicts) {
        if (k.find('/') != std::string::npos) out << "  " << k << "=" << n;
    }
    out << "\ncoverage (cases that reached it):";
    for (const auto& [k, n] : r.coverage) out << "  " << k << "=" << n;
    out << "\n";
    if (!r.marks.empty()) {
        out << "tool paths (model/marks.h, hits):";
        for (const auto& [k, n] : r.marks) {
            if (n != 0) out << "  " << k << "=" << n;
        }
        out << "\ntool paths never taken:";
        for (const auto& [k, n] : r.marks) {
            if (n == 0) out << "  " << k;
        }
        out << "\n";
    }
    for (const auto& missing : {"Confirmed", "Absent", "Unknown"}) {
        if (r.verdicts.count(missing) == 0) out << "warning: no step was judged " << missing << "\n";
    }
}

std::string run_help() {
    return "usage: deskcheck run [--seed S] [--cases N] [--first-case K] [--rules published|current|observation] [--property P]\n"
           "                     [--json] [--out DIR] [--no-shrink] [--mutation M] [--first-violation] [--digests FILE]\n"
           "generates N scenarios (default 200, 1.." + std::to_string(cases_max) + ") from seed S (default 1), runs the\n"
           "tool on each, judges every property, shrinks and writes each counterexample to DIR (default:\n"
           "counterexamples/) with its timeline page next to it (the same name, .html; see deskcheck replay\n"
           "--html) and prints its replay command. A counterexample found under --mutation names\n"
           "the mutation in its header, so `deskcheck replay FILE` puts it back by itself.\n"
           "--rules observation: the observation checks (O-1..O-3) on generated observation cases, judged by the\n"
           "  ten rules (deskcheck rules --rules observation); each counterexample is a judge-snapshot file.\n"
           "--first-case K: run the cases K .. K+N-1 of seed S (default 0): any slice of a long campaign alone,\n"
           "  the same cases as in the whole (mutate-model runs a mutant from the first case that reaches it).\n"
           "--first-violation: stop after the case of the first violation (what mutate-model needs).\n"
           "--digests FILE: runs with the trace on and writes one line per case to FILE:\n"
           "  `INDEX CASE_SEED DIGEST JUDGED` (DIGEST: FNV-1a of the trace and the report, 16 hex digits;\n"
           "  JUDGED: 1 when some property judged an item of the case). Two builds with the same lines\n"
           "  behaved the same on the whole campaign.\n"
           "properties (--property):\n" + property_help() +
           "mutations (--mutation; each a deliberately wrong tool, and the property that must catch it):\n" +
           mutation_help() +
           "Ctrl-C (SIGINT) or SIGTERM stops at the next case: the summary so far is printed, marked interrupted.\n"
           "exit: 0 every property holds, 1 a property is violated or gave up, 2 bad usage,\n"
           "      5 a counterexample or its timeline page could not be written (--out not a real folder, a\n"
           "        name in it taken by what is not a regular file), 130 / 143 interrupted by SIGINT / SIGTERM\n";
}

// Writes the counterexamples; the errors of those that could not be written.
std::vector<std::string> write_all(const props::CampaignResult& r, const props::CampaignOptions& o, const fs::path& dir,
                                   std::vector<std::string>& files) {
    std::vector<std::string> errors;
    for (const auto& c : r.counterexamples) {
        const Written w = write_counterexample(c, o.rules, dir, o.mutation, o.agent_retries);
        files.push_back(w.file);
        if (!w.error.empty()) errors.push_back(w.error);
    }
    return errors;
}

void print_counterexamples(const props::CampaignResult& r, const std::vector<std::string>& files,
                           const std::vector<std::string>& pages, bool shrunk) {
    for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
        const auto& c = r.counterexamples[i];
        std::cout << "\ncounterexample: " << printable(c.summary, 2000) << "\n";
        if (shrunk) {
            std::cout << "  shrunk from " << props::to_string(c.original_size) << " to " << props::to_string(c.shrunk_size)
                      << " in " << c.shrink_attempts << " attempts\n";
        } else {
            std::cout << "  not shrunk (--no-shrink): " << props::to_string(c.original_size) << "\n";
        }
        if (files[i].empty()) {
            std::cout << "  NOT written (see the error below)\n";
        } else {
            std::cout << "  written to " << files[i] << "\n  replay: deskcheck replay " << files[i] << "\n"
                      << (pages[i].empty() ? "  timeline page NOT written (see the error above)" : "  timeline page: " + pages[i])
                      << "\n";
        }
    }
}

// The campaign's settings, on stderr before it starts.
void announce_run(const props::CampaignOptions& o) {
    std::cerr << "deskcheck run: seed=" << o.seed << " cases=" << o.cases
              << (o.first_case != 0 ? " first_case=" + std::to_string(o.first_case) : std::string()) << " rules=" << o.rules
              << " mutation=" << to_string(o.mutation) << " agent_retries=on"
              << " build{windows<=" << o.build.windows_max << " controls<=" << o.build.controls_max << " steps<=" << o.build.steps_max
              << " swarm_faults user hostile_events}" << std::endl;
}

// --digests FILE: one line per case, `INDEX CASE_SEED DIGEST JUDGED`. The error, or "".
std::string write_digests(const std::string& file, const props::CampaignResult& r) {
    std::string lines;
    char buf[96];
    for (const auto& d : r.digests) {
        std::snprintf(buf, sizeof buf, "%u %llu %016llx %d\n", d.index, static_cast<unsigned long long>(d.case_seed),
                      static_cast<unsigned long long>(d.digest), d.judged ? 1 : 0);
        lines += buf;
    }
    std::string error = write_text_file(file, lines);
    if (!error.empty()) std::cerr << "deskcheck run: --digests " << error << "\n";
    return error;
}

// Each counterexample's timeline page next to it (the header names the mutation, so the page's
// replay, and the command it prints, needs no flag). False when a page could not be written.
bool write_pages(const std::vector<std::string>& files, std::vector<std::string>& page_files) {
    bool all = true;
    for (const auto& f : files) {
        PageWritten page;
        if (!f.empty()) page = write_page_for(f, replay_options(Mutation::None), "deskcheck replay " + f);
        if (!page.error.empty()) std::cerr << "deskcheck run: no timeline page: " << page.error << "\n";
        all = all && page.error.empty();
        page_files.push_back(page.path);
    }
    return all;
}

void print_run_json(const props::CampaignOptions& o, const props::CampaignResult& r, double seconds, const std::vector<std::string>& files,
                    const std::vector<std::string>& page_files, const std::vector<std::string>& write_errors, int signal) {
    auto j = campaign_json(r, files, seconds, page_files);
    j["cases_planned"] = o.cases;
    j["interrupted"] = signal != 0 ? nlohmann::ordered_json(signal_name(signal)) : nlohmann::ordered_json(nullptr);
    j["write_errors"] = write_errors;
    std::cout << dump_json(j) << "\n";
}

void print_run_text(const props::CampaignOptions& o, const props::CampaignResult& r, double seconds, const std::vector<std::string>& files,
                    const std::vector<std::string>& page_files, bool failed, int signal) {
    std::cout << "deskcheck run: seed=" << o.seed << " cases=" << r.cases << " rules=" << o.rules << " (" << std::fixed << std::setprecision(0)
              << (seconds > 0 ? r.cases / seconds : 0.0) << " cases/s)\n";
    if (signal != 0) std::cout << "interrupted by " << signal_name(signal) << " after " << r.cases << " of " << o.cases << " cases: the summary so far\n";
    print_campaign_text(r, std::cout);
    print_counterexamples(r, files, page_files, o.shrink);
    if (!failed && signal == 0) std::cout << "\nall properties hold on " << r.cases << " cases\n";
    if (!failed && signal != 0) std::cout << "\nno property violated in the " << r.cases << " cases run\n";
}

}  // namespace

int cmd_run(const Argv& argv) {
    Args args("run", argv, {"--json", "--help", "--no-shrink", "--first-violation"},
              {"--seed", "--cases", "--first-case", "--rules", "--property", "--out", "--mutation", "--digests"});
    if (args.flag("--help")) {
        std::cout << run_help();
        return exit_ok;
    }
    if (args.ok() && args.option("--rules") == std::string(props::observation_rules_name)) return run_observation(args);
    props::CampaignOptions o;
    props::RunOptions ro;
    std::string rules = "current";
    if (args.ok()) parse_run_options(args, ro, rules);
    const auto seed = args.number("--seed");
    const auto cases = args.number("--cases");
    if (cases && (*cases == 0 || *cases > cases_max)) args.fail("--cases must lie in 1.." + std::to_string(cases_max));
    const auto first_case = args.number("--first-case", 0, std::numeric_limits<std::uint32_t>::max() - cases_max);
    if (const auto p = args.option("--property")) {
        if (props::find_check(*p) == nullptr) {
            args.fail("unknown property '" + printable(*p, 60) + "' (expected one of: " + property_list() + ")");
        }
        o.properties.push_back(*p);
    }
    if (!args.positional().empty()) args.fail("unexpected argument '" + printable(args.positional().front(), 60) + "'");
    if (!args.ok()) return usage_error("run", args.error());
    const fs::path out_dir = args.option("--out").value_or("counterexamples");
    if (const auto e = check_output_dir(out_dir)) {
        std::cerr << "deskcheck run: --out " << e->message << "\n";
        return exit_infrastructure;
    }
    o.seed = seed.value_or(1);
    o.cases = static_cast<std::uint32_t>(cases.value_or(200));
    o.first_case = static_cast<std::uint32_t>(first_case.value_or(0));
    o.rules = rules;
    o.tool = ro.tool;
    o.mutation = ro.mutation;
    o.shrink = !args.flag("--no-shrink");
    o.stop_at_first_violation = args.flag("--first-violation");
    const std::optional<std::string> digests_file = args.option("--digests");
    o.digests = digests_file.has_value();
    const bool json = args.flag("--json");
    install_interrupt_handlers();
    o.stop = [] { return interrupted(); };
    announce_run(o);
    std::uint32_t next_report = 0;
    o.progress = [&next_report](std::uint32_t done, std::uint32_t total) {
        if (done * 10 >= next_report * total || done == total) {
            std::cerr << "  progress: " << done << "/" << total << " cases" << std::endl;
            next_report = done * 10 / std::max<std::uint32_t>(1, total) + 1;
        }
    };
    const auto started = Clock::now();
    const props::CampaignResult r = props::run_campaign(o);
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    std::vector<std::string> files;
    const std::vector<std::string> write_errors = write_all(r, o, out_dir, files);
    const std::string digests_error = digests_file ? write_digests(*digests_file, r) : std::string();
    std::vector<std::string> page_files;
    const bool page_failed = !write_pages(files, page_files);
    bool failed = !r.counterexamples.empty();
    for (const auto& p : r.properties) failed = failed || p.gave_up();
    const int signal = interrupted_by();
    if (json) print_run_json(o, r, seconds, files, page_files, write_errors, signal);
    else print_run_text(o, r, seconds, files, page_files, failed, signal);
    for (const auto& e : write_errors) std::cerr << "deskcheck run: cannot write a counterexample: " << e << "\n";
    if (signal != 0) return exit_code_for(signal);
    if (!write_errors.empty() || page_failed || !digests_error.empty()) return exit_infrastructure;
    return failed ? exit_violation : exit_ok;
}

namespace {

// The command a page names: the file and the options that change the run.
std::string replay_command(const std::string& file, const Args& args) {
    std::string cmd = "deskcheck replay " + file;
    if (const auto r = args.option("--rules")) cmd += " --rules " + *r;
    if (const auto m = args.option("--mutation")) cmd += " --mutation " + *m;
    if (const auto m = args.option("--rule-mutation")) cmd += " --rule-mutation " + *m;
    if (args.flag("--no-agent")) cmd += " --no-agent";
    return cmd;
}

// --html OUT: the replay's timeline page. Says "written" only when it was.
int write_replay_page(const Replayed& replayed, const Args& args, const std::string& out) {
    const std::string error = write_text_file(out, timeline_page(replayed, replay_command(replayed.file, args)));
    if (!error.empty()) {
        std::cerr << "deskcheck replay: --html " << error << "\n";
        return exit_infrastructure;
    }
    std::cerr << "deskcheck replay: timeline page written to " << out << "\n";
    return exit_ok;
}

// An observation file (a judge-snapshot input, e.g. a `run --rules observation` counterexample)
// given to replay: judged as judge-snapshot judges it. The options of a desktop replay do not apply.
int replay_observation_file(const std::string& file, const std::string& text, const Args& args,
                            const std::optional<std::string>& observation_mutation, nlohmann::ordered_json* json) {
    for (const char* option : {"--rules", "--mutation", "--html"}) {
        if (args.option(option)) {
            std::cerr << "deskcheck replay: " << printable(file) << ": an observation file; " << option << " applies to desktop scenarios\n";
            return exit_usage;
        }
    }
    if (json == nullptr) {
        std::cout << "== " << printable(file) << " (an observation file, judged as deskcheck judge-snapshot judges it)\n";
        return judge_observation_text(text, observation_mutation, nullptr);
    }
    nlohmann::ordered_json judged;
    const int code = judge_observation_text(text, observation_mutation, &judged);
    if (code != exit_usage) *json = nlohmann::ordered_json{{"file", file}, {"observation", judged}};
    return code;
}

// Options that judge every file: the rule set, a tool or rule mutation (desktop scenarios) or an
// observation rule mutation (observation files); a bad value is a usage error recorded in `args`.
struct ReplayOptions {
    props::RunOptions base;
    std::string rules_override;
    std::optional<props::MutatedRules> rule_mutant;
    std::optional<std::string> observation_mutation;
};

void parse_rule_mutation(Args& args, ReplayOptions& o) {
    const auto id = args.option("--rule-mutation");
    if (!id || !args.ok()) return;
    if (id->rfind(std::string(props::observation_rules_name) + ":", 0) == 0) {
        if (!props::parse_observation_mutation(observation_rules(), *id)) {
            args.fail("unknown rule mutation '" + printable(*id, 200) + "' of the observation rules (e.g. observation:snapshot_not_fresh:remove)");
        }
        o.observation_mutation = *id;
        return;
    }
    const RuleSet* original = props::rules_of_mutation_id(*id);
    const auto mutation = original != nullptr ? props::parse_mutation(*original, *id) : std::nullopt;
    if (!mutation) {
        args.fail("unknown rule mutation '" + *id + "' (deskcheck mutate-rules lists them, e.g. current:select_all.covers:to-Absent)");
    } else if (!o.rules_override.empty() && o.rules_override != original->name) {
        args.fail("--rules " + o.rules_override + " contradicts --rule-mutation " + *id);
    } else {
        o.rule_mutant.emplace(*original, *mutation);
        o.rules_override = std::string(original->name);
        o.base.rules = &o.rule_mutant->rules();
    }
}

// One file of a replay: the exit code; its JSON appended to `all` (with --json) or its text printed.
int replay_one(const std::string& file, const Args& args, const ReplayOptions& o, nlohmann::ordered_json* all) {
    const auto bytes = read_input_file(file, scenario_file_bytes_max());
    if (const auto* e = std::get_if<FileError>(&bytes)) {
        std::cerr << "deskcheck replay: " << printable(e->message) << "\n";
        return exit_usage;
    }
    const std::string& text = std::get<std::string>(bytes);
    if (looks_like_observation_file(text)) {
        nlohmann::ordered_json judged;
        const int code = replay_observation_file(file, text, args, o.observation_mutation, all != nullptr ? &judged : nullptr);
        if (all != nullptr && code != exit_usage) all->push_back(judged);
        return code;
    }
    if (o.observation_mutation) {
        std::cerr << "deskcheck replay: " << printable(file) << ": a desktop scenario; --rule-mutation " << printable(*o.observation_mutation, 200)
                  << " judges observation files\n";
        return exit_usage;
    }
    const auto replayed = replay_text(file, text, o.base, o.rules_override, !args.option("--mutation").has_value());
    if (!replayed.error.empty()) {
        std::cerr << "deskcheck replay: " << printable(replayed.error) << "\n";
        return exit_usage;
    }
    const auto id = args.option("--rule-mutation");
    if (all != nullptr) {
        all->push_back(replayed.json);
        if (id) all->back()["rule_mutation"] = *id;
    } else {
        if (id) std::cout << "rule mutation: " << printable(*id, 200) << " (the tool judges with the mutated set)\n";
        std::cout << replayed.text;
    }
    int code = exit_ok;
    if (replayed.violated) code = std::max(code, exit_violation);
    if (!replayed.matches_header) code = std::max(code, exit_not_reproduced);
    if (const auto html = args.option("--html")) code = std::max(code, write_replay_page(replayed, args, *html));
    return code;
}

constexpr const char* replay_help =
    "usage: deskcheck replay FILE|-... [--json] [--rules R] [--mutation M] [--no-agent] [--html OUT.html]\n"
    "                        [--rule-mutation ID]\n"
    "replays scenario files and prints the timeline and every property's judgement.\n"
    "a file whose counterexample header names a mutation is replayed a second time with it\n"
    "(the recorded bug put back), unless --mutation chooses one. The header's recorded outcome\n"
    "(violated / holds) is compared when neither --rules nor --mutation is given.\n"
    "--rule-mutation ID (as deskcheck mutate-rules prints it, e.g. current:select_all.covers:to-Absent):\n"
    "the tool judges with that mutated rule set (the set the ID names, one row changed).\n"
    "--html OUT.html (one FILE): also writes the timeline as one self-contained HTML page.\n"
    "An observation file (a judge-snapshot input, as run --rules observation and mutate-rules --rules\n"
    "observation write them) is judged as judge-snapshot judges it (--rule-mutation observation:...).\n"
    "exit: 0 every property holds and every recorded outcome reproduced,\n"
    "      1 a property is violated (a counterexample that reproduces),\n"
    "      2 bad usage or bad input (unreadable, too large, not a valid scenario, unknown header values),\n"
    "      4 a recorded outcome (or a header mutation's bug) did NOT reproduce,\n"
    "      5 the page cannot be written (OUT.html is not a regular file, its folder cannot be made);\n"
    "      of several files, the highest code\n";

}  // namespace

int cmd_replay(const Argv& argv) {
    Args args("replay", argv, {"--json", "--help", "--no-agent"}, {"--rules", "--mutation", "--html", "--rule-mutation"});
    if (args.flag("--help")) {
        std::cout << replay_help;
        return exit_ok;
    }
    ReplayOptions o;
    if (args.ok()) parse_run_options(args, o.base, o.rules_override);
    if (args.ok() && args.positional().empty()) args.fail("expects at least one scenario file");
    const auto html = args.option("--html");
    if (args.ok() && html && args.positional().size() != 1) args.fail("--html writes the page of one FILE; give exactly one");
    if (args.ok() && html && html->empty()) args.fail("--html needs a file name");
    parse_rule_mutation(args, o);
    if (!args.ok()) return usage_error("replay", args.error());
    if (const auto e = html ? check_output_file(*html) : std::nullopt) {
        std::cerr << "deskcheck replay: --html " << e->message << "\n";
        return exit_infrastructure;
    }
    o.base.agent_retries = !args.flag("--no-agent");
    const bool json = args.flag("--json");
    int worst = exit_ok;
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const auto& file : args.positional()) worst = std::max(worst, replay_one(file, args, o, json ? &all : nullptr));
    if (json) std::cout << dump_json(all) << "\n";
    return worst;
}

namespace {

constexpr const char* shrink_help =
    "usage: deskcheck shrink FILE|- [--property P] [--out FILE] [--rules R] [--mutation M] [--no-agent]\n"
    "                        [--max-attempts N] [--seconds S]\n"
    "shrinks a scenario file while it keeps violating property P (never another one) and writes the\n"
    "result (default FILE.shrunk.json; --out is needed with - for standard input) as a counterexample;\n"
    "progress goes to stderr. A counterexample's header gives the property, the rule set and the\n"
    "mutation the options leave unsaid, as replay takes them.\n"
    "  --max-attempts N  candidates tried at most (default 4000): a count, so the same file always\n"
    "                    shrinks to the same result\n"
    "  --seconds S       stop after S seconds of wall clock and write the result so far (not\n"
    "                    reproducible: another machine gets further)\n"
    "  Ctrl-C (SIGINT) or SIGTERM stops too: the result so far is written.\n"
    "exit: 0 written, 2 bad usage or bad input (or P holds on the file), 5 the result could not be\n"
    "      written, 130 / 143 interrupted by SIGINT / SIGTERM (the result so far written)\n";

std::string shrink_stop_reason(const props::ShrinkResult& r, bool out_of_time) {
    if (interrupted()) return "stopped by " + signal_name(interrupted_by()) + ": the result so far";
    if (out_of_time) return "stopped by --seconds: the result so far";
    if (r.attempts_exhausted) return "stopped at --max-attempts: smaller candidates may be left untried";
    return "no smaller candidate still violates the property";
}

}  // namespace

namespace {

// --max-attempts and --seconds (with the interrupt) as the shrinker's limits; progress on stderr.
props::ShrinkOptions shrink_options(std::optional<std::uint64_t> attempts_max, std::optional<std::uint64_t> seconds, bool& out_of_time) {
    const auto began = Clock::now();
    props::ShrinkOptions so;
    so.attempts_max = static_cast<std::uint32_t>(attempts_max.value_or(props::shrink_attempts_max));
    so.stop = [began, seconds, &out_of_time] {
        if (seconds && Clock::now() - began >= std::chrono::seconds(*seconds)) out_of_time = true;
        return out_of_time || interrupted();
    };
    so.progress = [](const props::ShrinkResult& r) {
        if (r.attempts % shrink_progress_every != 0) return;
        std::cerr << "shrink: " << r.attempts << " attempts, " << r.accepted << " kept, now " << props::to_string(props::size_of(r.scenario)) << std::endl;
    };
    return so;
}

// The shrunk scenario as a counterexample file: its violation as it stands now, and the outcome a
// replay without the mutation must find.
std::string shrunk_document_text(const sim::Scenario& scenario, const std::string& property, std::uint64_t case_seed, const props::RunOptions& ro) {
    props::Counterexample c;
    c.property = property;
    c.scenario = scenario;
    c.case_seed = case_seed;
    const auto run = props::run_scenario(c.scenario, ro);
    const auto check = props::run_check(*props::find_check(property), c.scenario, run, ro);
    if (check.violation) c.violation = *check.violation;
    c.summary = property + " violated at step " + (c.violation.step ? std::to_string(*c.violation.step) : "-") + ": " + c.violation.explanation;
    const std::string outcome = ro.mutation == Mutation::None ? std::string("violated")
                                                              : outcome_without_mutation(c.scenario, c.property, std::string(ro.rules->name), ro.agent_retries);
    return sim::encode_document_text(props::counterexample_document(c, std::string(ro.rules->name), ro.mutation, outcome));
}

}  // namespace

int cmd_shrink(const Argv& argv) {
    Args args("shrink", argv, {"--help", "--no-agent"},
              {"--property", "--out", "--rules", "--mutation", "--max-attempts", "--seconds"});
    if (args.flag("--help")) {
        std::cout << shrink_help;
        return exit_ok;
    }
    props::RunOptions ro;
    std::string rules_override;
    if (args.ok()) parse_run_options(args, ro, rules_override);
    std::optional<std::string> property = args.option("--property");
    const auto attempts_max = args.number("--max-attempts");
    const auto seconds = args.number("--seconds");
    if (attempts_max && (*attempts_max == 0 || *attempts_max > 10'000'000)) args.fail("--max-attempts must lie in 1..10000000");
    if (seconds && (*seconds == 0 || *seconds > 7 * 24 * 3600)) args.fail("--seconds must lie in 1..604800");
    if (args.ok() && args.positional().size() != 1) args.fail("expects one scenario file");
    if (args.ok() && args.positional().front() == "-" && !args.option("--out")) args.fail("reading standard input (-), it needs --out F");
    if (args.ok() && property && props::find_check(*property) == nullptr) {
        args.fail("unknown property '" + printable(*property, 60) + "' (expected one of: " + property_list() + ")");
    }
    if (!args.ok()) return usage_error("shrink", args.error());
    ro.agent_retries = !args.flag("--no-agent");
    const std::string file = args.positional().front();
    const std::string out = args.option("--out").value_or(file + ".shrunk.json");
    auto read = read_scenario_file(file);
    if (const auto* e = std::get_if<std::string>(&read)) {
        std::cerr << "deskcheck shrink: " << printable(*e) << "\n";
        return exit_usage;
    }
    auto doc = std::get<sim::ScenarioDocument>(std::move(read));
    // As replay does: a counterexample's header gives the property, the rule set and the mutation
    // that the options leave unsaid.
    if (!property && doc.counterexample) property = doc.counterexample->property;
    if (!property) return usage_error("shrink", "needs --property P (the file has no counterexample header to take it from)");
    if (!args.option("--mutation") && doc.counterexample) ro.mutation = doc.counterexample->mutation.value_or(ro.mutation);
    if (const auto e = check_output_file(out)) {
        std::cerr << "deskcheck shrink: --out " << e->message << "\n";
        return exit_infrastructure;
    }
    if (!rules_override.empty()) doc.scenario.rules = rules_override;
    if (ro.rules == nullptr) ro.rules = &props::rules_for(doc.scenario);
    const auto fails = props::still_violates(*property, ro);
    if (!fails(doc.scenario)) {
        const bool header_mutation_left_out = doc.counterexample && doc.counterexample->mutation && ro.mutation == Mutation::None;
        std::cerr << "deskcheck shrink: " << printable(file) << ": property " << *property << " holds; nothing to shrink"
                  << (header_mutation_left_out ? " (its header names the mutation " + std::string(to_string(*doc.counterexample->mutation)) +
                                                     ", which --mutation none leaves out)"
                                               : std::string())
                  << "\n";
        return exit_usage;
    }
    install_interrupt_handlers();
    bool out_of_time = false;
    const props::ShrinkOptions so = shrink_options(attempts_max, seconds, out_of_time);
    std::cerr << "shrink: " << printable(file) << " (" << props::to_string(props::size_of(doc.scenario)) << "), keeping "
              << *property << " violated; at most " << so.attempts_max << " attempts" << std::endl;
    const auto r = props::shrink_scenario(doc.scenario, fails, so);
    const std::string text = shrunk_document_text(r.scenario, *property, doc.scenario.seed, ro);
    std::cout << "shrunk " << props::to_string(props::size_of(doc.scenario)) << " -> "
              << props::to_string(props::size_of(r.scenario)) << " (" << r.attempts << " attempts; "
              << shrink_stop_reason(r, out_of_time) << ")\n";
    if (const auto e = write_file_atomically(out, text)) {
        std::cout << "NOT written: " << e->message << "\n";
        std::cerr << "deskcheck shrink: cannot write the result: " << e->message << "\n";
        return exit_infrastructure;
    }
    std::cout << "written to " << out << "\nreplay: deskcheck replay " << out << "\n";
    return interrupted() ? exit_code_for(interrupted_by()) : exit_ok;
}

}  // namespace deskcheck::cli
