// deskcheck convert CRASH... [--out DIR] [--json]: a libFuzzer crash file of fuzz_batch (bytes) or
// fuzz_scenario_json (a scenario document) -> the scenario, shrunk keeping the same violated
// property, written as a counterexample JSON into corpus/regressions/ (never over an existing
// file), its timeline page next to it, and the command that replays it.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/files.h"
#include "cli/fuzz_commands.h"
#include "cli/fuzz_support.h"
#include "cli/report.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;

constexpr int exit_nothing_reproduces = 1;

constexpr const char* convert_help =
    "usage: deskcheck convert CRASH... [--out DIR] [--json]\n"
    "  Turns fuzz crash files (fuzz_batch bytes, or fuzz_scenario_json scenario documents) into\n"
    "  counterexamples: runs each as the fuzz targets do (current rules, W-2 agent on, every check),\n"
    "  shrinks it keeping the violated property, writes it into DIR (default: corpus/regressions of\n"
    "  this checkout) under a fresh name with its timeline page next to it (FILE.html, see\n"
    "  deskcheck replay --html), and prints `deskcheck replay FILE`.\n"
    "  A crash that violates no property (a sanitizer finding, or a fuzz_verdict / fuzz_locator /\n"
    "  fuzz_observation input) replays with the fuzz binary itself: build/fuzz/fuzz/<target> CRASH.\n"
    "  A file that looks like a scenario document (a JSON object with \"format\") and does not decode\n"
    "  is reported with the decoder's error; it is never read as fuzz_batch bytes.\n"
    "exit: 0 every file converted, 1 some file violates no property today (nothing written for it),\n"
    "      2 bad usage or an unreadable / undecodable / too large (over 1 MiB) file,\n"
    "      5 a counterexample was found but it or its page could not be written (DIR not a real, writable\n"
    "        folder; a name in it taken by what is not a regular file)\n";

fs::path default_out() {
    const auto checkout = find_checkout(fs::current_path());
    return checkout ? *checkout / "corpus" / "regressions" : fs::path("corpus") / "regressions";
}

nlohmann::ordered_json conversion_json(const std::string& input, const Conversion& c, const PageWritten& page) {
    nlohmann::ordered_json j{{"input", input}, {"kind", c.kind}};
    if (!c.error.empty()) {
        j["error"] = c.error;
        return j;
    }
    j["violated"] = c.violated;
    if (!c.violated) return j;
    j["property"] = c.property;
    j["summary"] = c.summary;
    j["steps"] = {{"original", c.original_steps}, {"shrunk", c.shrunk_steps}};
    j["shrink_attempts"] = c.shrink_attempts;
    if (!c.write_error.empty()) {
        j["write_error"] = c.write_error;
        return j;
    }
    j["file"] = c.file;
    j["replay"] = "deskcheck replay " + c.file;
    j["page"] = page.path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(page.path);
    return j;
}

void print_conversion(const std::string& input, const Conversion& c, const PageWritten& page) {
    if (!c.error.empty()) {
        std::cerr << "deskcheck convert: " << printable(c.error) << "\n";
        return;
    }
    if (!c.violated) {
        std::cout << printable(input) << " (" << c.kind << "): violates no property today; nothing written.\n"
                  << "  a sanitizer crash replays with the fuzz binary: build/fuzz/fuzz/fuzz_batch " << input << "\n";
        return;
    }
    std::cout << printable(input) << " (" << c.kind << "): " << printable(c.summary, 2000) << "\n"
              << "  shrunk from " << c.original_steps << " to " << c.shrunk_steps << " steps in " << c.shrink_attempts
              << " attempts\n";
    if (!c.write_error.empty()) {
        std::cout << "  NOT written: " << c.write_error << "\n";
        std::cerr << "deskcheck convert: cannot write the counterexample: " << c.write_error << "\n";
        return;
    }
    std::cout << "  wrote " << c.file << "\n  deskcheck replay " << c.file << "\n"
              << (page.error.empty() ? "  timeline page: " + page.path : "  timeline page NOT written: " + page.error) << "\n";
}

}  // namespace

int cmd_convert(const Argv& argv) {
    Args args("convert", argv, {"--json", "--help"}, {"--out"});
    if (args.flag("--help")) {
        std::cout << convert_help;
        return exit_ok;
    }
    if (args.ok() && args.positional().empty()) args.fail("needs at least one crash file");
    if (!args.ok()) return usage_error("convert", args.error());
    const fs::path out_dir = args.option("--out").value_or(default_out().string());
    if (const auto e = check_output_dir(out_dir)) {
        std::cerr << "deskcheck convert: --out " << e->message << "\n";
        return exit_infrastructure;
    }
    const bool json = args.flag("--json");
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    int worst = exit_ok;
    for (const auto& input : args.positional()) {
        const Conversion c = convert_crash(input, out_dir);
        if (!c.write_error.empty()) worst = std::max(worst, exit_infrastructure);
        else if (!c.error.empty()) worst = std::max(worst, exit_usage);
        else if (!c.violated) worst = std::max(worst, exit_nothing_reproduces);
        PageWritten page;
        if (c.error.empty() && c.violated && !c.file.empty()) {
            page = write_page_for(c.file, replay_options(Mutation::None), "deskcheck replay " + c.file);
            if (!page.error.empty()) worst = std::max(worst, exit_infrastructure);
        }
        if (json) all.push_back(conversion_json(input, c, page));
        else print_conversion(input, c, page);
    }
    if (json) std::cout << dump_json(all) << "\n";
    return worst;
}

}  // namespace deskcheck::cli
