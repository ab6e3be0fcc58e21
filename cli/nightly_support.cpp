#include "cli/nightly_support.h"

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace deskcheck::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t log_lines_max = 1'000'000;
constexpr std::uint32_t per_input_timeout_s = 10;
constexpr std::uint32_t rss_limit_mb = 2048;

std::vector<fs::path> files_in(const fs::path& folder) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec)) out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// `[libfuzzer]` options of fuzz/<target>.options as libFuzzer flags (-max_len=..., -dict=<abs>).
std::vector<std::string> option_flags(const fs::path& options_file) {
    std::vector<std::string> flags;
    std::ifstream in(options_file);
    std::string line;
    for (std::size_t n = 0; n < log_lines_max && std::getline(in, line); ++n) {
        const auto eq = line.find('=');
        if (line.empty() || line[0] == '[' || line[0] == '#' || eq == std::string::npos) continue;
        auto trim = [](std::string s) {
            s.erase(0, s.find_first_not_of(" \t"));
            s.erase(s.find_last_not_of(" \t\r") + 1);
            return s;
        };
        const std::string key = trim(line.substr(0, eq));
        std::string value = trim(line.substr(eq + 1));
        if (key == "dict") value = (options_file.parent_path() / value).string();
        flags.push_back("-" + key + "=" + value);
    }
    return flags;
}

std::string join_command(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + shell_quoted(w);
    return out;
}

// Runs `words` with stdout+stderr into `log`, in `cwd`; the exit code, or -1 when it did not exit.
int run_logged(const std::vector<std::string>& words, const fs::path& cwd, const fs::path& log) {
    const std::string cmd = "cd " + shell_quoted(cwd.string()) + " && " + join_command(words) + " >" +
                            shell_quoted(log.string()) + " 2>&1";
    const int status = std::system(cmd.c_str());
    if (status == -1 || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

std::uint64_t number_after(const std::string& line, const std::string& key) {
    const auto at = line.find(key);
    if (at == std::string::npos) return 0;
    std::size_t i = at + key.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == ':')) ++i;
    std::uint64_t v = 0;
    for (; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) v = v * 10 + static_cast<std::uint64_t>(line[i] - '0');
    return v;
}

// libFuzzer's final statistics (-print_final_stats=1) and its last status line (cov:, ft:,
// exec/s; in -fork mode "#N: cov: ... exec/s ...").
void read_stats(const fs::path& log, FuzzRun& run) {
    std::ifstream in(log);
    std::string line;
    std::string last_status;
    for (std::size_t n = 0; n < log_lines_max && std::getline(in, line); ++n) {
        if (line.rfind("stat::number_of_executed_units", 0) == 0) run.execs = number_after(line, "units");
        if (line.rfind("stat::average_exec_per_sec", 0) == 0) run.execs_per_second = number_after(line, "sec");
        if (line.rfind("stat::peak_rss_mb", 0) == 0) run.peak_rss_mb = number_after(line, "mb");
        if (line.rfind('#', 0) == 0 && line.find(" cov: ") != std::string::npos) last_status = line;
    }
    if (last_status.empty()) return;
    run.cov = number_after(last_status, "cov");
    run.ft = number_after(last_status, "ft");
    if (run.execs == 0) run.execs = number_after(last_status, "#");
    if (run.execs_per_second == 0) run.execs_per_second = number_after(last_status, "exec/s");
    if (run.peak_rss_mb == 0) run.peak_rss_mb = number_after(last_status, "rss");
}

std::size_t copy_all(const fs::path& from, const fs::path& to) {
    std::size_t n = 0;
    std::error_code ec;
    fs::create_directories(to, ec);
    for (const auto& f : files_in(from)) {
        if (fs::copy_file(f, to / f.filename(), fs::copy_options::skip_existing, ec)) ++n;
    }
    return n;
}

// Merges the inputs of `grown` that add coverage into a copy of the corpus (libFuzzer -merge=1
// keeps every file of its first folder), then copies only the new names into the corpus.
std::size_t merge_back(const FuzzPlan& plan, const std::vector<std::string>& flags, const fs::path& grown) {
    const fs::path merged = plan.work / "merged";
    copy_all(plan.corpus, merged);
    std::vector<std::string> words{plan.binary.string(), "-merge=1"};
    words.insert(words.end(), flags.begin(), flags.end());
    words.push_back(merged.string());
    words.push_back(grown.string());
    if (run_logged(words, plan.work, plan.work / "merge.log") != 0) return 0;
    std::set<std::string> existing;
    for (const auto& f : files_in(plan.corpus)) existing.insert(f.filename().string());
    std::size_t added = 0;
    std::error_code ec;
    for (const auto& f : files_in(merged)) {
        if (existing.count(f.filename().string()) != 0) continue;
        if (fs::copy_file(f, plan.corpus / f.filename(), fs::copy_options::skip_existing, ec)) ++added;
    }
    return added;
}

std::vector<fs::path> findings_in(const fs::path& folder) {
    std::vector<fs::path> out;
    for (const auto& f : files_in(folder)) {
        const std::string name = f.filename().string();
        for (const char* prefix : {"crash-", "timeout-", "oom-", "leak-"}) {
            if (name.rfind(prefix, 0) == 0) out.push_back(f);
        }
    }
    return out;
}

}  // namespace

std::string shell_quoted(const std::string& word) {
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

FuzzRun run_fuzz_target(const FuzzPlan& plan) {
    FuzzRun run;
    run.target = plan.target;
    const fs::path grown = plan.work / "corpus";
    const fs::path artifacts = plan.work / "artifacts";
    std::error_code ec;
    fs::create_directories(artifacts, ec);
    run.corpus_before = copy_all(plan.corpus, grown);
    const std::vector<std::string> flags = option_flags(plan.options_file);
    std::vector<std::string> words{plan.binary.string(), "-max_total_time=" + std::to_string(plan.seconds),
                                   "-seed=" + std::to_string(plan.seed), "-print_final_stats=1",
                                   "-timeout=" + std::to_string(per_input_timeout_s), "-rss_limit_mb=" + std::to_string(rss_limit_mb),
                                   "-artifact_prefix=" + artifacts.string() + "/"};
    if (plan.jobs > 1) {
        words.push_back("-fork=" + std::to_string(plan.jobs));
        words.push_back("-ignore_crashes=1");
    }
    words.insert(words.end(), flags.begin(), flags.end());
    words.push_back(grown.string());
    run.command = join_command(words);
    const auto began = std::chrono::steady_clock::now();
    run.exit_code = run_logged(words, plan.work, plan.work / "fuzz.log");
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    read_stats(plan.work / "fuzz.log", run);
    run.crashes = findings_in(artifacts);
    if (run.exit_code == -1 || (run.execs == 0 && run.crashes.empty())) {
        run.infra_error = "libFuzzer did not run (exit " + std::to_string(run.exit_code) + "); log: " +
                          (plan.work / "fuzz.log").string();
        return run;
    }
    run.corpus_added = merge_back(plan, flags, grown);
    return run;
}

}  // namespace deskcheck::cli
