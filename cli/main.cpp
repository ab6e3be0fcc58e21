// deskcheck: the command line. Each subcommand lives in its own *_cmd.cpp.
#include <cstring>
#include <iomanip>
#include <sstream>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/files.h"
#include "cli/fuzz_commands.h"

#include <unistd.h>

namespace {

struct Command {
    std::string_view name;
    std::string_view summary;  // what it does, in one line; `deskcheck NAME --help` says the rest
    int (*run)(const deskcheck::cli::Argv&);
};

using namespace deskcheck::cli;

// In the order a user meets them: a campaign, its counterexamples, the rules, the other measures.
constexpr Command commands[] = {
    {"run", "a property campaign over generated desktops (or observation cases), counterexamples shrunk and written", cmd_run},
    {"replay", "replay counterexample or scenario files: timeline (text or an HTML page), evidence, judgement", cmd_replay},
    {"shrink", "shrink a scenario while it keeps violating one property", cmd_shrink},
    {"case", "the scenario of one case of a campaign, as a file replay takes", cmd_case},
    {"rules", "a rule set's verdict table, or the ten observation rules", cmd_rules},
    {"diff-rules", "the situations whose verdict differs between two rule sets", cmd_diff_rules},
    {"mutate-rules", "which rule rows do the checks protect? mutation testing of the rule tables", cmd_mutate_rules},
    {"judge-snapshot", "judge an observation snapshot (JSON) by the ten observation rules", cmd_judge_snapshot},
    {"claims", "every report field, the fact it states, the check that judges it both ways", cmd_claims},
    {"r0", "R0: what a failed run leaves behind, and whether undo restores it", cmd_r0},
    {"nightly", "the main job: property campaigns, R0, mutate-rules, fuzzing, a summary", cmd_nightly},
    {"convert", "a fuzz crash -> a shrunk counterexample file", cmd_convert},
    {"bench", "scenarios/s, verdicts/s, where the time goes; --scaling: the cost's growth", cmd_bench},
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
    out << "usage: deskcheck <command> [options]     deskcheck <command> --help: its options and exit codes\n"
           "       deskcheck help --markdown         this reference and every command's --help, as docs/cli.md\n\n"
           "commands:\n";
    for (const auto& c : commands) out << "  " << std::left << std::setw(16) << c.name << c.summary << "\n";
    out << "\nexit codes, shared by every command:\n";
    for (const auto& e : exit_code_table) out << "  " << std::left << std::setw(11) << e.codes << e.meaning << "\n";
}

// A command's --help text, as it prints it.
std::string help_of(const Command& c) {
    std::ostringstream text;
    std::streambuf* const saved = std::cout.rdbuf(text.rdbuf());
    try {
        c.run(Argv{"--help"});
    } catch (...) {
        std::cout.rdbuf(saved);
        throw;
    }
    std::cout.rdbuf(saved);
    return text.str();
}

// docs/cli.md's reference, produced from the code: the commands, the exit codes, each --help.
void print_markdown(std::ostream& out) {
    out << "| command | what it does |\n|---|---|\n";
    for (const auto& c : commands) {
        out << "| [`" << c.name << "`](#deskcheck-" << c.name << ") | " << markdown_cell(c.summary) << " |\n";
    }
    out << "\n### Exit codes\n\nShared by every command; `deskcheck help` prints the same table. A command's `--help`\n"
           "lists the codes it uses.\n\n| exit | meaning |\n|---|---|\n";
    for (const auto& e : exit_code_table) out << "| " << e.codes << " | " << markdown_cell(e.meaning) << " |\n";
    for (const auto& c : commands) {
        out << "\n### deskcheck " << c.name << "\n\n```text\n" << help_of(c) << "```\n";
    }
}

int cmd_help(const Argv& argv) {
    if (argv.empty()) {
        print_usage(std::cout);
        return exit_ok;
    }
    if (argv.size() == 1 && argv.front() == "--markdown") {
        print_markdown(std::cout);
        return exit_ok;
    }
    return usage_error("help", "unexpected argument '" + argv.front() + "' (expected nothing or --markdown)");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        print_usage(std::cerr);
        return deskcheck::cli::exit_usage;
    }
    const std::string_view name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") return cmd_help(Argv(argv + 2, argv + argc));
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
