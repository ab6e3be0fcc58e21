// deskcheck shrink: a scenario file shrunk while it keeps violating one property.
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

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t shrink_progress_every = 50;  // attempts between two progress lines

}  // namespace

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
