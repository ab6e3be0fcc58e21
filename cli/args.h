// A small, strict argument parser for the deskcheck subcommands: unknown options and bad values
// give a one-line error and exit code 2.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace deskcheck::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_violation = 1;
inline constexpr int exit_usage = 2;
// S-8: the process ran out of memory (one line on stderr, never an abort).
inline constexpr int exit_out_of_memory = 3;
// replay, judge-snapshot: a file's recorded outcome did NOT reproduce (1 is a violation that did,
// or one no file recorded).
inline constexpr int exit_not_reproduced = 4;

// The exit codes every command shares, documented once (`deskcheck help` prints this table, and
// docs/cli.md is its `--markdown`). A command uses the codes whose cases it has; none gives a code
// another meaning.
struct ExitCodeRow {
    const char* codes;
    const char* meaning;
};
inline constexpr ExitCodeRow exit_code_table[] = {
    {"0", "done: every property holds, every output written, every recorded outcome reproduced"},
    {"1", "a property is violated (a check fired on the tool), or a campaign gave up judging"},
    {"2", "bad usage or bad input: one line on stderr naming the option or the file (and where in it)"},
    {"3", "out of memory: one line on stderr, never an abort"},
    {"4", "a recorded outcome did not reproduce (replay, judge-snapshot)"},
    {"5", "an output could not be written, or the infrastructure failed (a folder, a fuzz build, a child)"},
    {"6", "another nightly runs in this checkout (nightly without --wait)"},
    {"7", "a fuzz crash that is not a property violation: a sanitizer finding (nightly)"},
    {"130 / 143", "interrupted by SIGINT / SIGTERM: what was done so far is printed or written"},
};

struct UsageError {
    std::string message;
};

class Args {
public:
    // `flags`: options without a value (--json); `options`: options with a value (--rules R).
    Args(std::string command, std::vector<std::string> argv, std::set<std::string> flags,
         std::set<std::string> options);

    bool ok() const { return !error_.has_value(); }
    const std::string& error() const { return *error_; }
    bool flag(const std::string& name) const { return flags_set_.count(name) != 0; }
    std::optional<std::string> option(const std::string& name) const;
    // Parses an unsigned option; records a usage error when it is not a number or beyond 2^64 - 1.
    std::optional<std::uint64_t> number(const std::string& name);
    // The same, within [min, max] (the range of the type or the limit it is narrowed to): a number
    // outside it is a usage error ("--x must lie in MIN..MAX, got 'V'"), never clamped or wrapped.
    std::optional<std::uint64_t> number(const std::string& name, std::uint64_t min, std::uint64_t max);
    const std::vector<std::string>& positional() const { return positional_; }
    void fail(std::string message);
    const std::string& command() const { return command_; }

private:
    std::string command_;
    std::set<std::string> flags_set_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
    std::optional<std::string> error_;
};

// Prints "deskcheck <command>: <message>" to stderr and returns exit_usage.
int usage_error(const std::string& command, const std::string& message);

}  // namespace deskcheck::cli
