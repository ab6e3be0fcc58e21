// deskcheck run / replay / shrink: property campaigns, replaying counterexamples, shrinking files.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/report.h"
#include "properties/campaign.h"
#include "properties/checks.h"
#include "properties/rule_mutation.h"
#include "properties/shrink.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;

// Parses --rules / --mutation shared by the commands; records a usage error on bad values.
bool parse_run_options(Args& args, props::RunOptions& ro, std::string& rules_name) {
    if (const auto r = args.option("--rules")) {
        if (find_rules(*r) == nullptr) {
            args.fail("unknown rule set '" + *r + "' (expected published or current)");
            return false;
        }
        rules_name = *r;
        ro.rules = find_rules(*r);
    }
    if (const auto m = args.option("--mutation")) {
        const auto mut = mutation_named(*m);
        if (!mut) {
            args.fail("unknown mutation '" + *m + "'");
            return false;
        }
        ro.tool.mutation = *mut;
    }
    return true;
}

void print_campaign_text(const props::CampaignResult& r, std::ostream& out) {
    out << "\n" << std::left << std::setw(30) << "PROPERTY" << std::setw(18) << "SPEC" << std::right << std::setw(7)
        << "cases" << std::setw(8) << "holds" << std::setw(10) << "violated" << std::setw(11) << "not judged"
        << "  verdict\n";
    for (const auto& p : r.properties) {
        const char* verdict = p.violated > 0 ? "FAILED" : p.gave_up() ? "GAVE UP" : "ok";
        out << std::left << std::setw(30) << p.name << std::setw(18) << p.spec << std::right << std::setw(7) << p.cases
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
    for (const auto& missing : {"Confirmed", "Absent", "Unknown"}) {
        if (r.verdicts.count(missing) == 0) out << "warning: no step was judged " << missing << "\n";
    }
}

}  // namespace

int cmd_run(const Argv& argv) {
    Args args("run", argv, {"--json", "--help", "--no-shrink"},
              {"--seed", "--cases", "--rules", "--property", "--out", "--mutation"});
    if (args.flag("--help")) {
        std::cout << "usage: deskcheck run [--seed S] [--cases N] [--rules published|current] [--property P] [--json]\n"
                     "                     [--out DIR] [--no-shrink] [--mutation M]\n"
                     "generates N scenarios from seed S, runs the tool on each, judges every property, shrinks and\n"
                     "writes each counterexample to DIR (default: counterexamples/) with its timeline page next to it\n"
                     "(the same name, .html; see deskcheck replay --html) and prints its replay command.\n"
                     "exit: 0 every property holds, 1 a property is violated or gave up, 2 bad usage\n";
        return exit_ok;
    }
    props::CampaignOptions o;
    props::RunOptions ro;
    std::string rules = "current";
    if (args.ok()) parse_run_options(args, ro, rules);
    const auto seed = args.number("--seed");
    const auto cases = args.number("--cases");
    if (const auto p = args.option("--property")) {
        if (props::find_check(*p) == nullptr) args.fail("unknown property '" + *p + "'");
        o.properties.push_back(*p);
    }
    if (!args.positional().empty()) args.fail("unexpected argument '" + args.positional().front() + "'");
    if (!args.ok()) return usage_error("run", args.error());
    o.seed = seed.value_or(1);
    o.cases = static_cast<std::uint32_t>(std::min<std::uint64_t>(cases.value_or(200), 10'000'000));
    o.rules = rules;
    o.tool = ro.tool;
    o.shrink = !args.flag("--no-shrink");
    const bool json = args.flag("--json");
    const fs::path out_dir = args.option("--out").value_or("counterexamples");
    std::cerr << "deskcheck run: seed=" << o.seed << " cases=" << o.cases << " rules=" << o.rules
              << " mutation=" << to_string(o.tool.mutation) << " agent_retries=on"
              << " generate{windows<=" << o.generate.windows_max << " controls<=" << o.generate.controls_max
              << " steps<=" << o.generate.steps_max << " swarm_faults user hostile_events}\n";
    std::uint32_t next_report = 0;
    o.progress = [&](std::uint32_t done, std::uint32_t total) {
        if (done * 10 >= next_report * total || done == total) {
            std::cerr << "  progress: " << done << "/" << total << " cases\n";
            next_report = done * 10 / std::max<std::uint32_t>(1, total) + 1;
        }
    };
    const auto started = std::chrono::steady_clock::now();
    const props::CampaignResult r = props::run_campaign(o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::vector<std::string> files;
    std::vector<PageWritten> pages;
    std::vector<std::string> page_files;
    const std::string mutation_flag =
        o.tool.mutation != Mutation::None ? " --mutation " + std::string(to_string(o.tool.mutation)) : std::string();
    for (const auto& c : r.counterexamples) {
        files.push_back(write_counterexample(c, o.rules, out_dir));
        pages.push_back(write_page_for(files.back(), replay_options(o.tool.mutation),
                                       "deskcheck replay " + files.back() + mutation_flag));
        page_files.push_back(pages.back().path);
        if (!pages.back().error.empty()) std::cerr << "deskcheck run: no timeline page: " << pages.back().error << "\n";
    }
    bool failed = !r.counterexamples.empty();
    for (const auto& p : r.properties) failed = failed || p.gave_up();
    if (json) {
        std::cout << campaign_json(r, files, seconds, page_files).dump(2) << "\n";
    } else {
        std::cout << "deskcheck run: seed=" << o.seed << " cases=" << r.cases << " rules=" << o.rules << " ("
                  << std::fixed << std::setprecision(0) << (seconds > 0 ? r.cases / seconds : 0.0) << " cases/s)\n";
        print_campaign_text(r, std::cout);
        for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
            const auto& c = r.counterexamples[i];
            std::cout << "\ncounterexample: " << c.summary << "\n  shrunk from " << props::to_string(c.original_size)
                      << " to " << props::to_string(c.shrunk_size) << " in " << c.shrink_attempts << " attempts\n"
                      << "  written to " << files[i] << "\n  replay: deskcheck replay " << files[i] << mutation_flag << "\n"
                      << (pages[i].error.empty() ? "  timeline page: " + pages[i].path : "  timeline page NOT written: " + pages[i].error)
                      << "\n";
        }
        if (!failed) std::cout << "\nall properties hold on " << r.cases << " cases\n";
    }
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
        std::cerr << "deskcheck replay: --html: " << error << "\n";
        return exit_usage;
    }
    std::cerr << "deskcheck replay: timeline page written to " << out << "\n";
    return exit_ok;
}

}  // namespace

int cmd_replay(const Argv& argv) {
    Args args("replay", argv, {"--json", "--help", "--no-agent"}, {"--rules", "--mutation", "--html", "--rule-mutation"});
    if (args.flag("--help")) {
        std::cout << "usage: deskcheck replay FILE... [--json] [--rules R] [--mutation M] [--no-agent] [--html OUT.html]\n"
                     "                        [--rule-mutation ID]\n"
                     "replays scenario files and prints the timeline and every property's judgement.\n"
                     "a file whose counterexample header names a mutation is replayed a second time with it\n"
                     "(the recorded bug put back), unless --mutation chooses one.\n"
                     "--rule-mutation ID (as deskcheck mutate-rules prints it, e.g. current:select_all.covers:to-Absent):\n"
                     "the tool judges with that mutated rule set (the set the ID names, one row changed).\n"
                     "--html OUT.html (one FILE): also writes the timeline as one self-contained HTML page.\n"
                     "exit: 0 every property holds, 1 a property is violated, 2 bad input (or the page cannot be written)\n";
        return exit_ok;
    }
    props::RunOptions base;
    std::string rules_override;
    if (args.ok()) parse_run_options(args, base, rules_override);
    if (args.ok() && args.positional().empty()) args.fail("expects at least one scenario file");
    const auto html = args.option("--html");
    if (args.ok() && html && args.positional().size() != 1) args.fail("--html writes the page of one FILE; give exactly one");
    if (args.ok() && html && html->empty()) args.fail("--html needs a file name");
    std::optional<props::MutatedRules> rule_mutant;
    if (const auto id = args.option("--rule-mutation"); id && args.ok()) {
        const RuleSet* original = props::rules_of_mutation_id(*id);
        const auto mutation = original != nullptr ? props::parse_mutation(*original, *id) : std::nullopt;
        if (!mutation) args.fail("unknown rule mutation '" + *id + "' (deskcheck mutate-rules lists them, e.g. current:select_all.covers:to-Absent)");
        else if (!rules_override.empty() && rules_override != original->name) args.fail("--rules " + rules_override + " contradicts --rule-mutation " + *id);
        else {
            rule_mutant.emplace(*original, *mutation);
            rules_override = std::string(original->name);
            base.rules = &rule_mutant->rules();
        }
    }
    if (!args.ok()) return usage_error("replay", args.error());
    base.agent_retries = !args.flag("--no-agent");
    const bool json = args.flag("--json");
    int worst = exit_ok;
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const auto& file : args.positional()) {
        const auto replayed = replay_file(file, base, rules_override, !args.option("--mutation").has_value());
        if (!replayed.error.empty()) {
            std::cerr << "deskcheck replay: " << file << ": " << replayed.error << "\n";
            worst = std::max(worst, exit_usage);
            continue;
        }
        if (json) {
            all.push_back(replayed.json);
            if (const auto id = args.option("--rule-mutation")) all.back()["rule_mutation"] = *id;
        } else {
            if (const auto id = args.option("--rule-mutation")) std::cout << "rule mutation: " << *id << " (the tool judges with the mutated set)\n";
            std::cout << replayed.text;
        }
        if (replayed.violated) worst = std::max(worst, exit_violation);
        if (html) worst = std::max(worst, write_replay_page(replayed, args, *html));
    }
    if (json) std::cout << all.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return worst;
}

int cmd_shrink(const Argv& argv) {
    Args args("shrink", argv, {"--help", "--no-agent"}, {"--property", "--out", "--rules", "--mutation"});
    if (args.flag("--help")) {
        std::cout << "usage: deskcheck shrink FILE --property P [--out FILE] [--rules R] [--mutation M]\n"
                     "shrinks a scenario file while it keeps violating property P (never another one)\n";
        return exit_ok;
    }
    props::RunOptions ro;
    std::string rules_override;
    if (args.ok()) parse_run_options(args, ro, rules_override);
    const auto property = args.option("--property");
    if (args.ok() && args.positional().size() != 1) args.fail("expects one scenario file");
    if (args.ok() && !property) args.fail("needs --property P");
    if (args.ok() && props::find_check(*property) == nullptr) args.fail("unknown property '" + *property + "'");
    if (!args.ok()) return usage_error("shrink", args.error());
    ro.agent_retries = !args.flag("--no-agent");
    const std::string file = args.positional().front();
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    auto decoded = sim::decode_document(text.str());
    if (auto* e = std::get_if<sim::DecodeError>(&decoded)) {
        std::cerr << "deskcheck shrink: " << file << ": " << e->message() << "\n";
        return exit_usage;
    }
    auto doc = std::get<sim::ScenarioDocument>(decoded);
    if (!rules_override.empty()) doc.scenario.rules = rules_override;
    if (ro.rules == nullptr) ro.rules = &props::rules_for(doc.scenario);
    const auto fails = props::still_violates(*property, ro);
    if (!fails(doc.scenario)) {
        std::cerr << "deskcheck shrink: " << file << ": property " << *property << " holds; nothing to shrink\n";
        return exit_usage;
    }
    const auto r = props::shrink_scenario(doc.scenario, fails);
    props::Counterexample c;
    c.property = *property;
    c.scenario = r.scenario;
    c.case_seed = doc.scenario.seed;
    const auto run = props::run_scenario(c.scenario, ro);
    const auto check = props::run_check(*props::find_check(*property), c.scenario, run, ro);
    if (check.violation) c.violation = *check.violation;
    c.summary = *property + " violated at step " + (c.violation.step ? std::to_string(*c.violation.step) : "-") + ": " +
                c.violation.explanation;
    const std::string out = args.option("--out").value_or(file + ".shrunk.json");
    std::ofstream(out) << sim::encode_document_text(props::counterexample_document(c, std::string(ro.rules->name)));
    std::cout << "shrunk " << props::to_string(props::size_of(doc.scenario)) << " -> "
              << props::to_string(props::size_of(r.scenario)) << " (" << r.attempts << " attempts)\nwritten to " << out
              << "\nreplay: deskcheck replay " << out << "\n";
    return exit_ok;
}

}  // namespace deskcheck::cli
