// `deskcheck nightly`'s libFuzzer side: run one fuzz target on a temporary corpus seeded from
// corpus/<target>/, read libFuzzer's final statistics, merge the inputs that add coverage back into
// corpus/<target>/ (never removing or overwriting a file), collect crash files.
//
// Child processes are started without a shell (posix_spawn), each in a process group of its own
// (so a terminal's Ctrl-C reaches deskcheck only, and deskcheck decides), with stdin from
// /dev/null and stdout+stderr into a log. An interruption of deskcheck (cli/interrupt.h) is
// forwarded to the whole group; a child past its deadline gets SIGTERM; one that does not stop
// within a grace period gets SIGKILL; and when the group's leader has exited, whatever is left of
// its group (libFuzzer -fork workers, merge helpers) is killed before the leader is reaped.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace deskcheck::cli {

struct ChildResult {
    std::string error;          // non-empty: it could not be started (or its log not opened)
    int exit_code = -1;         // its exit status; -1 when it did not exit by itself
    int term_signal = 0;        // the signal that ended it, when it did not exit
    bool forwarded = false;     // an interruption of deskcheck was forwarded to it
    bool deadline_hit = false;  // it ran past its deadline and was stopped
};

// Runs `words` (no shell; words[0] a path, or a name looked up in PATH) in `cwd` with stdout+stderr into `log`, until it exits,
// `deadline` passes, or a signal arrives that deskcheck had not received yet when it started
// (signals_received() > signals_seen).
ChildResult run_child(const std::vector<std::string>& words, const std::filesystem::path& cwd,
                      const std::filesystem::path& log, std::chrono::seconds deadline, int signals_seen);

struct FuzzPlan {
    std::string target;                  // fuzz_batch, ...
    std::filesystem::path binary;        // build/fuzz/fuzz/<target> (a libFuzzer build)
    std::filesystem::path corpus;        // corpus/<target>/ of the checkout
    std::filesystem::path options_file;  // fuzz/<target>.options ([libfuzzer] max_len, dict)
    std::filesystem::path work;          // a fresh temporary folder for this target
    std::uint64_t runs = 0;              // libFuzzer -runs: the work, by count (same seed, same night); 0: by time
    std::uint32_t seconds_max = 0;       // libFuzzer -max_total_time: the share (by time), or the clock stop
    std::uint32_t jobs = 1;              // > 1: libFuzzer -fork=jobs
    std::uint32_t seed = 1;              // libFuzzer -seed (nonzero)
};

struct FuzzRun {
    std::string target;
    std::string infra_error;    // non-empty: libFuzzer could not run, or printed no statistics
    int exit_code = 0;          // libFuzzer's (0, or 1 / 70-72 / 77 on a finding)
    double seconds = 0;
    std::uint64_t runs_planned = 0;
    std::uint64_t execs = 0;
    std::uint64_t execs_per_second = 0;
    std::uint64_t cov = 0;      // libFuzzer's last `cov:` (edges) and `ft:` (features)
    std::uint64_t ft = 0;
    std::uint64_t peak_rss_mb = 0;
    std::size_t corpus_before = 0;
    std::size_t corpus_added = 0;  // new files merged into corpus/<target>/
    std::string merged_by;         // "libFuzzer -merge=1", or how the new inputs were kept otherwise
    bool interrupted = false;      // SIGINT/SIGTERM forwarded to libFuzzer
    bool stopped_by_clock = false; // ended at -max_total_time (or its deadline) before its runs
    std::vector<std::filesystem::path> crashes;  // crash-*, timeout-*, oom-*, leak-* in plan.work
    std::string command;        // the fuzzing command line, for people
};

// Runs the target, merges its new inputs and removes the temporary corpus folders of plan.work
// (on every path; logs and artifacts stay).
FuzzRun run_fuzz_target(const FuzzPlan& plan);

// Quotes a path or word for /bin/sh (the printed commands people copy).
std::string shell_quoted(const std::string& word);

}  // namespace deskcheck::cli
