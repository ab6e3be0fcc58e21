// deskcheck: the command line. Each subcommand lives in its own *_cmd.cpp.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/fuzz_commands.h"

namespace {

struct Command {
    std::string_view name;
    std::string_view synopsis;
    int (*run)(const deskcheck::cli::Argv&);
};

constexpr Command commands[] = {
    {"rules", "rules [--rules published|current] [--json]   print a rule set's verdict table (--observation: the ten observation rules)", deskcheck::cli::cmd_rules},
    {"run", "run [--seed S] [--cases N] [--rules R] [--property P] [--json]   a property campaign over generated desktops", deskcheck::cli::cmd_run},
    {"replay", "replay FILE... [--json] [--html OUT.html] replay scenario files: timeline (text, or an HTML page), evidence, judgement", deskcheck::cli::cmd_replay},
    {"shrink", "shrink FILE --property P [--out F] [--max-attempts N]   shrink a scenario keeping property P violated", deskcheck::cli::cmd_shrink},
    {"nightly", "nightly [--minutes M] [--jobs N] [--json] [--wait]   the main job: property campaign + fuzzing + summary", deskcheck::cli::cmd_nightly},
    {"convert", "convert CRASH [--out DIR] [--json]       a fuzz_batch crash -> a shrunk counterexample JSON", deskcheck::cli::cmd_convert},
    {"bench", "bench [--json] [--repeats N]             scenarios/s, verdicts/s, where the time goes", deskcheck::cli::cmd_bench},
    {"diff-rules", "diff-rules A B [--json]                   situations whose verdict differs between two rule sets", deskcheck::cli::cmd_diff_rules},
    {"judge-snapshot", "judge-snapshot FILE|- [--json]            judge an observation snapshot (JSON) by the ten observation rules", deskcheck::cli::cmd_judge_snapshot},
    {"r0", "r0 [--json] [--adapter deskcheck|naive] | r0 campaign [--cases N]   R0: what a failed run leaves behind (undo journal bench)", deskcheck::cli::cmd_r0},
    {"mutate-rules", "mutate-rules [--rules R] [--cases N] [--seed S] [--json]   which verdict rows do the checks protect? (mutation testing)", deskcheck::cli::cmd_mutate_rules},
};

void print_usage(std::ostream& out) {
    out << "usage: deskcheck <command> [options]\n\ncommands:\n";
    for (const auto& c : commands) out << "  " << c.synopsis << "\n";
    out << "\nexit codes: 0 ok, 1 a property is violated (replay: or a recorded outcome did not reproduce),\n"
           "  2 bad usage or bad input, 5 an output could not be written, 130 / 143 interrupted by SIGINT / SIGTERM\n"
           "  (nightly has its own table: see deskcheck nightly --help)\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        print_usage(std::cerr);
        return deskcheck::cli::exit_usage;
    }
    const std::string_view name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        print_usage(std::cout);
        return 0;
    }
    deskcheck::cli::Argv args(argv + 2, argv + argc);
    for (const auto& c : commands) {
        if (c.name == name) return c.run(args);
    }
    std::cerr << "deskcheck: unknown command '" << name << "' (see deskcheck --help)\n";
    return deskcheck::cli::exit_usage;
}
