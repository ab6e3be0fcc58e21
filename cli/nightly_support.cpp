#include "cli/nightly_support.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <set>

#include "cli/files.h"
#include "cli/interrupt.h"

extern char** environ;

namespace deskcheck::cli {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t log_lines_max = 1'000'000;
constexpr std::uint32_t per_input_timeout_s = 10;
constexpr std::uint32_t rss_limit_mb = 2048;
// After -max_total_time, libFuzzer finishes the input at hand and prints its statistics: a child
// still running this long after its own time limit is stopped.
constexpr std::chrono::seconds fuzz_deadline_slack{60};
constexpr std::chrono::seconds merge_deadline{300};
constexpr std::chrono::seconds merge_deadline_interrupted{60};
// A child that got SIGINT/SIGTERM has this long to print its statistics and exit; then SIGKILL.
constexpr std::chrono::milliseconds stop_grace{10'000};
constexpr std::chrono::milliseconds wait_poll{20};
constexpr std::size_t corpus_input_bytes_max = 16 << 20;

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

void sleep_for(std::chrono::milliseconds ms) {
    timespec ts{static_cast<time_t>(ms.count() / 1000), static_cast<long>(ms.count() % 1000) * 1'000'000L};
    ::nanosleep(&ts, nullptr);  // a signal ends it early: the loop looks at the flag sooner
}

// posix_spawn's attributes and file actions, released on every path.
struct SpawnSetup {
    posix_spawnattr_t attr{};
    posix_spawn_file_actions_t actions{};
    bool attr_ok = false;
    bool actions_ok = false;
    SpawnSetup() {
        attr_ok = posix_spawnattr_init(&attr) == 0;
        actions_ok = posix_spawn_file_actions_init(&actions) == 0;
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
    ~SpawnSetup() {
        if (attr_ok) posix_spawnattr_destroy(&attr);
        if (actions_ok) posix_spawn_file_actions_destroy(&actions);
    }
};

// Own process group; SIGINT/SIGTERM/SIGPIPE at their defaults (even when deskcheck was started
// with them ignored, as a shell does for background jobs); nothing blocked.
int configure(SpawnSetup& s, int log_fd, const fs::path& cwd) {
    if (!s.attr_ok || !s.actions_ok) return ENOMEM;
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    sigset_t none;
    sigemptyset(&none);
    int rc = posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (rc == 0) rc = posix_spawnattr_setpgroup(&s.attr, 0);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&s.attr, &defaults);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&s.attr, &none);
    if (rc == 0) rc = posix_spawn_file_actions_addopen(&s.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&s.actions, log_fd, STDOUT_FILENO);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&s.actions, log_fd, STDERR_FILENO);
    if (rc == 0) rc = posix_spawn_file_actions_addchdir_np(&s.actions, cwd.c_str());
    return rc;
}

// Waits for the child (the leader of its own process group), forwarding interruptions, enforcing
// the deadline; returns with the leader exited but not reaped (a zombie keeps its group id taken).
void watch(pid_t pid, Clock::time_point deadline, int signals_seen, ChildResult& out) {
    std::optional<Clock::time_point> stop_sent;
    for (;;) {
        siginfo_t info{};
        const int rc = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
        if (rc == 0 && info.si_pid == pid) return;
        if (rc != 0 && errno != EINTR) return;
        const auto now = Clock::now();
        if (!stop_sent && signals_received() > signals_seen) {
            ::kill(-pid, interrupted_by() != 0 ? interrupted_by() : SIGINT);
            out.forwarded = true;
            stop_sent = now;
        } else if (!stop_sent && now >= deadline) {
            ::kill(-pid, SIGTERM);
            out.deadline_hit = true;
            stop_sent = now;
        } else if (stop_sent && now - *stop_sent >= stop_grace) {
            ::kill(-pid, SIGKILL);
        }
        sleep_for(wait_poll);
    }
}

std::uint64_t number_after(const std::string& line, const std::string& key) {
    const auto at = line.find(key);
    if (at == std::string::npos) return 0;
    std::size_t i = at + key.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == ':')) ++i;
    std::uint64_t v = 0;
    for (; i < line.size() && line[i] >= '0' && line[i] <= '9' && v < (UINT64_MAX - 9) / 10; ++i) {
        v = v * 10 + static_cast<std::uint64_t>(line[i] - '0');
    }
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

// Copies every file of `from` whose name `to` does not have yet; each copy appears complete or
// not at all (written under a temporary name, then linked).
std::size_t copy_new(const fs::path& from, const fs::path& to) {
    std::size_t n = 0;
    std::error_code ec;
    fs::create_directories(to, ec);
    std::set<std::string> existing;
    for (const auto& f : files_in(to)) existing.insert(f.filename().string());
    for (const auto& f : files_in(from)) {
        if (existing.count(f.filename().string()) != 0) continue;
        const auto bytes = read_input_file(f, corpus_input_bytes_max);
        if (!std::holds_alternative<std::string>(bytes)) continue;
        bool taken = false;
        if (!write_new_file(to / f.filename(), std::get<std::string>(bytes), taken) && !taken) ++n;
    }
    return n;
}

// Merges the inputs of `grown` that add coverage into a copy of the corpus (libFuzzer -merge=1
// keeps every file of its first folder), then copies only the new names into the corpus. When
// the merge cannot finish (stopped by a further signal, or it failed), the new inputs of `grown`
// are copied as they are: nothing found tonight is lost.
void merge_back(const FuzzPlan& plan, const std::vector<std::string>& flags, const fs::path& grown, FuzzRun& run) {
    const fs::path merged = plan.work / "merged";
    copy_new(plan.corpus, merged);
    std::vector<std::string> words{plan.binary.string(), "-merge=1"};
    words.insert(words.end(), flags.begin(), flags.end());
    words.push_back(merged.string());
    words.push_back(grown.string());
    const auto deadline = run.interrupted ? merge_deadline_interrupted : merge_deadline;
    const ChildResult merge = run_child(words, plan.work, plan.work / "merge.log", deadline, signals_received());
    if (merge.error.empty() && merge.exit_code == 0 && !merge.forwarded && !merge.deadline_hit) {
        run.corpus_added = copy_new(merged, plan.corpus);
        run.merged_by = "libFuzzer -merge=1";
        return;
    }
    run.corpus_added = copy_new(grown, plan.corpus);
    run.merged_by = "copied unmerged (the merge " +
                    std::string(merge.forwarded ? "was interrupted" : merge.deadline_hit ? "ran past its deadline" : "failed") +
                    "; log: " + (plan.work / "merge.log").string() + ")";
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

// Removes the temporary corpus folders of a target's work folder when it goes out of scope.
class TemporaryFolders {
public:
    explicit TemporaryFolders(std::vector<fs::path> folders) : folders_(std::move(folders)) {}
    TemporaryFolders(const TemporaryFolders&) = delete;
    TemporaryFolders& operator=(const TemporaryFolders&) = delete;
    ~TemporaryFolders() {
        std::error_code ec;
        for (const auto& f : folders_) fs::remove_all(f, ec);
    }

private:
    std::vector<fs::path> folders_;
};

}  // namespace

ChildResult run_child(const std::vector<std::string>& words, const fs::path& cwd, const fs::path& log,
                      std::chrono::seconds deadline, int signals_seen) {
    ChildResult out;
    if (words.empty()) {
        out.error = "no command";
        return out;
    }
    // Never through a link, never a FIFO or a device: a regular file, emptied once known to be one (R-9).
    const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
    if (log_fd < 0) {
        out.error = "cannot write " + log.string() + ": " + std::strerror(errno);
        return out;
    }
    struct stat log_st {};
    if (::fstat(log_fd, &log_st) != 0 || !S_ISREG(log_st.st_mode) || ::ftruncate(log_fd, 0) != 0) {
        out.error = "cannot write " + log.string() + ": not a regular file";
        ::close(log_fd);
        return out;
    }
    SpawnSetup setup;
    int rc = configure(setup, log_fd, cwd);
    std::vector<char*> argv;
    for (const auto& w : words) argv.push_back(const_cast<char*>(w.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (rc == 0) rc = posix_spawnp(&pid, argv[0], &setup.actions, &setup.attr, argv.data(), environ);
    ::close(log_fd);
    if (rc != 0) {
        out.error = "cannot start " + words[0] + ": " + std::strerror(rc);
        return out;
    }
    watch(pid, Clock::now() + deadline, signals_seen, out);
    ::kill(-pid, SIGKILL);  // what is left of its group: -fork workers, merge helpers
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) out.term_signal = WTERMSIG(status);
    return out;
}

std::string shell_quoted(const std::string& word) {
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

FuzzRun run_fuzz_target(const FuzzPlan& plan) {
    FuzzRun run;
    run.target = plan.target;
    run.runs_planned = plan.runs;
    const fs::path grown = plan.work / "corpus";
    const fs::path artifacts = plan.work / "artifacts";
    const TemporaryFolders temporary({grown, plan.work / "merged"});
    std::error_code ec;
    fs::create_directories(artifacts, ec);
    run.corpus_before = copy_new(plan.corpus, grown);
    const std::vector<std::string> flags = option_flags(plan.options_file);
    // runs 0: no -runs (libFuzzer's default, until the clock): the target fills its share.
    std::vector<std::string> words{plan.binary.string(), "-max_total_time=" + std::to_string(plan.seconds_max),
                                   "-seed=" + std::to_string(plan.seed), "-print_final_stats=1",
                                   "-timeout=" + std::to_string(per_input_timeout_s), "-rss_limit_mb=" + std::to_string(rss_limit_mb),
                                   "-artifact_prefix=" + artifacts.string() + "/"};
    if (plan.runs > 0) words.insert(words.begin() + 1, "-runs=" + std::to_string(plan.runs));
    if (plan.jobs > 1) {
        words.push_back("-fork=" + std::to_string(plan.jobs));
        words.push_back("-ignore_crashes=1");
    }
    words.insert(words.end(), flags.begin(), flags.end());
    words.push_back(grown.string());
    run.command = join_command(words);
    const auto began = Clock::now();
    const ChildResult child = run_child(words, plan.work, plan.work / "fuzz.log",
                                        std::chrono::seconds(plan.seconds_max) + fuzz_deadline_slack, signals_received());
    run.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    run.exit_code = child.exit_code;
    run.interrupted = child.forwarded;
    read_stats(plan.work / "fuzz.log", run);
    run.crashes = findings_in(artifacts);
    run.stopped_by_clock = plan.runs > 0 && !run.interrupted &&
                           (child.deadline_hit || (run.execs < plan.runs && run.crashes.empty() && run.seconds >= plan.seconds_max));
    if (!child.error.empty()) {
        run.infra_error = child.error;
        return run;
    }
    if (child.deadline_hit) {
        run.infra_error = "libFuzzer ran " + std::to_string(fuzz_deadline_slack.count()) +
                          " s past -max_total_time and was stopped; log: " + (plan.work / "fuzz.log").string();
    } else if (!run.interrupted && (child.exit_code == -1 || (run.execs == 0 && run.crashes.empty()))) {
        run.infra_error = "libFuzzer did not run (" +
                          (child.exit_code == -1 ? "killed by signal " + std::to_string(child.term_signal)
                                                 : "exit " + std::to_string(child.exit_code)) +
                          "); log: " + (plan.work / "fuzz.log").string();
        return run;
    }
    merge_back(plan, flags, grown, run);
    return run;
}

}  // namespace deskcheck::cli
