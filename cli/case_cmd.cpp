// deskcheck case --seed S --index K [--rules R] [--out FILE]: the scenario of one case of a
// campaign, as a file `deskcheck replay` takes. `run --seed S` builds case K from its own seed
// (props::case_seed), so any case a campaign, a digest line or mutate-model names can be looked at
// alone: its timeline, its page, the same case under another build.
#include <iostream>
#include <limits>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/files.h"
#include "harness/campaign.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {
namespace {

std::string case_help() {
    return "usage: deskcheck case --seed S --index K [--rules published|current] [--out FILE]\n"
           "writes the scenario of case K of `deskcheck run --seed S` (the same case, built from its own seed)\n"
           "to FILE, or to standard output without --out (or with --out -), as JSON `deskcheck replay` takes.\n"
           "--rules names the rule set in the file (default current), as the campaign's case carries it.\n"
           "exit codes: 0 written, 2 bad usage, 5 the file could not be written\n";
}

}  // namespace

int cmd_case(const Argv& argv) {
    Args args("case", argv, {"--help"}, {"--seed", "--index", "--rules", "--out"});
    if (args.flag("--help")) {
        std::cout << case_help();
        return exit_ok;
    }
    const auto seed = args.number("--seed");
    const auto index = args.number("--index", 0, std::numeric_limits<std::uint32_t>::max());
    if (!args.ok()) return usage_error("case", args.error());
    if (!args.positional().empty()) return usage_error("case", "unexpected argument '" + args.positional().front() + "'");
    if (!seed || !index) return usage_error("case", "--seed and --index are both required (deskcheck case --help)");
    const std::string rules = args.option("--rules").value_or("current");
    if (rules != "current" && rules != "published") return usage_error("case", "--rules takes published or current, got '" + rules + "'");
    sim::Prng rng(props::case_seed(*seed, static_cast<std::uint32_t>(*index)));
    sim::ScenarioDocument doc;
    doc.scenario = sim::build_scenario_from_prng(rng, sim::campaign_build_options());
    doc.scenario.rules = rules;
    const std::string text = sim::encode_document_text(doc);
    const std::string out = args.option("--out").value_or("-");
    if (out == "-") {
        std::cout << text;
        return exit_ok;
    }
    if (const auto e = write_file_atomically(out, text)) {
        std::cerr << "deskcheck case: " << e->message << "\n";
        return exit_infrastructure;
    }
    std::cerr << "deskcheck case: case " << *index << " of seed " << *seed << " written to " << out << "\n";
    return exit_ok;
}

}  // namespace deskcheck::cli
