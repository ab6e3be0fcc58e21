// `deskcheck nightly`'s libFuzzer side: run one fuzz target for a time budget on a temporary
// corpus seeded from corpus/<target>/, read libFuzzer's final statistics, merge the inputs that add
// coverage back into corpus/<target>/ (never removing or overwriting a file), collect crash files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace deskcheck::cli {

struct FuzzPlan {
    std::string target;                  // fuzz_batch, ...
    std::filesystem::path binary;        // build/fuzz/fuzz/<target> (a libFuzzer build)
    std::filesystem::path corpus;        // corpus/<target>/ of the checkout
    std::filesystem::path options_file;  // fuzz/<target>.options ([libfuzzer] max_len, dict)
    std::filesystem::path work;          // a fresh temporary folder for this target
    std::uint32_t seconds = 0;
    std::uint32_t jobs = 1;              // > 1: libFuzzer -fork=jobs
    std::uint32_t seed = 1;              // libFuzzer -seed (nonzero)
};

struct FuzzRun {
    std::string target;
    std::string infra_error;    // non-empty: libFuzzer could not run, or printed no statistics
    int exit_code = 0;          // libFuzzer's (0, or 1 / 70-72 / 77 on a finding)
    double seconds = 0;
    std::uint64_t execs = 0;
    std::uint64_t execs_per_second = 0;
    std::uint64_t cov = 0;      // libFuzzer's last `cov:` (edges) and `ft:` (features)
    std::uint64_t ft = 0;
    std::uint64_t peak_rss_mb = 0;
    std::size_t corpus_before = 0;
    std::size_t corpus_added = 0;  // new files merged into corpus/<target>/
    std::vector<std::filesystem::path> crashes;  // crash-*, timeout-*, oom-*, leak-* in plan.work
    std::string command;        // the fuzzing command line, for people
};

FuzzRun run_fuzz_target(const FuzzPlan& plan);

// Quotes a path or word for /bin/sh.
std::string shell_quoted(const std::string& word);

}  // namespace deskcheck::cli
