// deskcheck replay: scenario files replayed (timeline, evidence, every property, the recorded outcome); observation files judged.
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
#include "cli/run_options.h"
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


}  // namespace deskcheck::cli
