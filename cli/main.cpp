// deskcheck: the command line. Each subcommand lives in its own *_cmd.cpp.
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/fuzz_commands.h"

#include <unistd.h>

namespace {

struct Command {
    std::string_view name;
    std::string_view synopsis;
    int (*run)(const deskcheck::cli::Argv&);
};

constexpr Command commands[] = {
    {"rules", "rules [--rules published|current|observation] [--json]   print a rule set's verdict table, or the ten observation rules", deskcheck::cli::cmd_rules},
    {"run", "run [--seed S] [--cases N] [--rules R] [--property P] [--json]   a property campaign over generated desktops", deskcheck::cli::cmd_run},
    {"case", "case --seed S --index K [--out FILE]     the scenario of one case of a campaign, for replay", deskcheck::cli::cmd_case},
    {"replay", "replay FILE... [--json] [--html OUT.html] replay scenario files: timeline (text, or an HTML page), evidence, judgement", deskcheck::cli::cmd_replay},
    {"shrink", "shrink FILE --property P [--out F] [--max-attempts N]   shrink a scenario keeping property P violated", deskcheck::cli::cmd_shrink},
    {"nightly", "nightly [--minutes M] [--jobs N] [--json] [--wait]   the main job: property campaign + fuzzing + summary", deskcheck::cli::cmd_nightly},
    {"convert", "convert CRASH [--out DIR] [--json]       a fuzz_batch crash -> a shrunk counterexample JSON", deskcheck::cli::cmd_convert},
    {"bench", "bench [--json] [--repeats N]             scenarios/s, verdicts/s, where the time goes", deskcheck::cli::cmd_bench},
    {"diff-rules", "diff-rules A B [--json]                   situations whose verdict differs between two rule sets", deskcheck::cli::cmd_diff_rules},
    {"judge-snapshot", "judge-snapshot FILE|- [--json]            judge an observation snapshot (JSON) by the ten observation rules", deskcheck::cli::cmd_judge_snapshot},
    {"r0", "r0 [--json] [--adapter deskcheck|naive] | r0 campaign [--cases N]   R0: what a failed run leaves behind (undo journal bench)", deskcheck::cli::cmd_r0},
    {"claims", "claims [--json|--markdown] | claims --prove [--cases N]   every report field, the fact it states, the check that judges it both ways", deskcheck::cli::cmd_claims},
    {"mutate-rules", "mutate-rules [--rules R] [--cases N] [--seed S] [--json]   which verdict rows do the checks protect? (mutation testing)", deskcheck::cli::cmd_mutate_rules},
};

// S-8: running out of memory ends in one line and exit 3, never an abort. Written with write(2):
// what ran out is memory, so nothing here allocates.
const char* running = "deskcheck";  // the command being run, for the message

void write_stderr(const char* text) {
    std::size_t left = std::strlen(text);
    while (left > 0) {
        const ssize_t n = write(2, text, left);
        if (n <= 0) return;
        text += n;
        left -= static_cast<std::size_t>(n);
    }
}

[[noreturn]] void out_of_memory() {
    write_stderr("deskcheck: out of memory while running ");
    write_stderr(running);
    write_stderr(" (the input needs more memory than this process may use)\n");
    std::cout.flush();
    _exit(deskcheck::cli::exit_out_of_memory);
}

// A bad_alloc that escapes where no handler can catch it (a noexcept function) ends here.
[[noreturn]] void on_terminate() {
    if (const auto e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::bad_alloc&) {
            out_of_memory();
        } catch (...) {
        }
    }
    std::abort();
}

void print_usage(std::ostream& out) {
    out << "usage: deskcheck <command> [options]\n\ncommands:\n";
    for (const auto& c : commands) out << "  " << c.synopsis << "\n";
    out << "\nexit codes: 0 ok, 1 a property is violated, 2 bad usage or bad input, 3 out of memory,\n"
           "  4 a recorded outcome did not reproduce (replay, judge-snapshot), 5 an output could not be written,\n"
           "  130 / 143 interrupted by SIGINT / SIGTERM\n"
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
    std::set_terminate(on_terminate);
    for (const auto& c : commands) {
        if (c.name != name) continue;
        running = argv[1];
        try {
            const deskcheck::cli::Argv args(argv + 2, argv + argc);
            return c.run(args);
        } catch (const std::bad_alloc&) {
            out_of_memory();
        }
    }
    std::cerr << "deskcheck: unknown command '" << name << "' (see deskcheck --help)\n";
    return deskcheck::cli::exit_usage;
}
