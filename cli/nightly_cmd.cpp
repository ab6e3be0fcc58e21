// deskcheck nightly [--minutes M] [--jobs N] [--json] [--rules R] [--out DIR] [--seed S]
//                   [--fuzz-build DIR] [--no-fuzz] [--campaign-cases N] [--fuzz-counted] [--wait]
//                   [--mutate-rules-cases N] [--mutate-rules-baseline FILE] [--mutate-model-sample N]
//                   [--mutation NAME (self-tests)]
// The main CI job (docs/nightly-and-ci.md): a property campaign (and one under the published rules)
// from a fresh seed (the date and the git commit: varied, yet reproducible), the R0 campaign,
// `deskcheck mutate-rules` over every rule table (surviving mutations not explained in
// corpus/mutate-rules/explained.json are warnings), each fuzz target under libFuzzer, new inputs
// merged into corpus/<target>/, every crash converted and shrunk into corpus/regressions/, a sample
// of runs replayed twice (S-1), and a summary.
// The campaigns, the fuzz targets and mutate-rules' survivors fill their share of --minutes (every
// round's seed printed, every crash a file: whatever a night finds replays); --campaign-cases,
// --fuzz-counted and --mutate-rules-cases count them instead, so that a seed does the same night.
// R0 is counted; the clock stops a counted part only when it runs far over its share. One nightly per checkout at a time (a lock in
// build/nightly/). SIGINT and SIGTERM stop it at the next boundary: the children are stopped, what
// they found is merged, the summary so far is printed marked "interrupted".
// Exit codes: the table every command shares (cli/args.h exit_code_table): 0 clean, 1 a property
// violation found, 2 bad usage, 3 out of memory, 5 infrastructure error, 6 another nightly runs in
// this checkout, 7 a fuzz crash that is not a property violation (sanitizer, timeout, an invariant of
// fuzz_verdict / fuzz_locator / fuzz_observation), 130 / 143 interrupted by SIGINT / SIGTERM.
//
// The parts of the night are in cli/nightly_*.cpp (their shared declarations in nightly_parts.h);
// this file holds the command itself: the lock, the parts in order, the interruption.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <variant>

#include "cli/args.h"
#include "cli/files.h"
#include "cli/fuzz_commands.h"
#include "cli/interrupt.h"
#include "cli/nightly_parts.h"

namespace deskcheck::cli {
namespace nightly {
namespace {

constexpr auto lock_poll = std::chrono::milliseconds(200);

constexpr const char* nightly_help =
    "usage: deskcheck nightly [--minutes M] [--jobs N] [--json] [--rules published|current] [--out DIR]\n"
    "                         [--seed S] [--fuzz-build DIR] [--no-fuzz] [--campaign-cases N] [--wait]\n"
    "                         [--fuzz-counted] [--mutate-rules-cases N] [--mutate-rules-baseline FILE]\n"
    "                         [--mutate-model-sample N]\n"
    "  The main CI job: a property campaign (11% of the budget) under --rules (default current), the\n"
    "  same under the published rules (4%: its debts D-1..D-3 are known debts, any other violation a\n"
    "  finding; not with --rules published or --mutation), the R0 campaign failure_leaves_nothing\n"
    "  (5%), mutate-rules over every rule table (10%;\n"
    "  a surviving mutation not explained in FILE, default corpus/mutate-rules/explained.json, is a\n"
    "  warning) and each fuzz target under libFuzzer\n"
    "  (fuzz_batch 20%, fuzz_scenario_json 15%, fuzz_verdict, fuzz_locator, fuzz_observation 10% each,\n"
    "  fuzz_journal 5%),\n"
    "  new inputs merged into corpus/<target>/, every crash converted into a shrunk counterexample in DIR (default corpus/regressions) with its timeline\n"
    "  page next to it (FILE.html, see deskcheck replay --html), a sample of runs replayed twice (S-1),\n"
    "  and a summary (text, or --json) listing each finding's replay command and page. Progress goes\n"
    "  to stderr.\n"
    "  The two property campaigns fill their share of the budget: rounds of growing size, --jobs at a\n"
    "  time, until the share's deadline; every round is printed with the command that replays it. Each\n"
    "  fuzz target fills its share too (libFuzzer -max_total_time; its crashes are files that replay).\n"
    "  mutate-rules runs every mutant at a count from the budget, then its unexplained survivors again,\n"
    "  round after round with more cases on a fresh seed, until its share's deadline (each kill printed\n"
    "  with the command that shows it). R0's cases are counted from the budget; the clock stops a\n"
    "  counted part only at twice its share (then a warning says so).\n"
    "  --minutes M      nominal budget (default 2)\n"
    "  --jobs N         campaign rounds at a time, mutate-rules' threads, libFuzzer -fork=N\n"
    "                   (default: the machine's cores)\n"
    "  --seed S         reuse a nightly's seed (default: from today's date and the git commit)\n"
    "  --campaign-cases N  count the campaign's cases instead of filling its share (a seed then\n"
    "                   always does the same campaigns, on any --jobs); the published campaign's\n"
    "                   are 4/11 of them\n"
    "  --fuzz-counted   count libFuzzer's runs from a nominal rate (-runs) instead of filling each\n"
    "                   target's share (with --jobs 1 a seed then repeats its fuzzing)\n"
    "  --mutate-rules-cases N  mutate-rules' cases per mutant, in one round (default: from --minutes,\n"
    "                   then the survivors' rounds)\n"
    "  --mutate-rules-baseline FILE  the explained survivors (default corpus/mutate-rules/explained.json)\n"
    "  --mutate-model-sample N  after the other parts, tools/mutate-model --sample N on the night's seed\n"
    "                   (default: a mutant per minute of budget from 30 minutes up, else 0 = not run);\n"
    "                   every survivor not explained in corpus/mutate-model/explained.json is a warning\n"
    "  --fuzz-build DIR the fuzz preset's tree (default build/fuzz; make it with\n"
    "                   cmake --preset fuzz && cmake --build --preset fuzz); without it the nightly\n"
    "                   fails (exit 5) unless --no-fuzz says to run the campaign alone\n"
    "  --wait           when another nightly runs in this checkout, wait for it (default: exit 6)\n"
    "  Ctrl-C (SIGINT) or SIGTERM: libFuzzer is stopped, the inputs it found are merged, the summary\n"
    "  so far is printed marked interrupted (exit 130 / 143).\n"
    "exit: 0 clean, 1 property violation found, 2 bad usage, 3 out of memory,\n"
    "      5 infrastructure error, 6 another nightly runs in this checkout, 7 fuzz crash found (not a\n"
    "      property), 130 / 143 interrupted; of several, an interruption, then 7, then 1, then 5\n";

// ---- one nightly per checkout ---------------------------------------------------------------------

// build/nightly/lock of the checkout, held (flock) for the whole night and released by the kernel
// when the process ends, however it ends. The file is never removed (removing a lock file lets a
// third process lock a new file while the second still holds the old one).
class NightlyLock {
public:
    explicit NightlyLock(fs::path file) : file_(std::move(file)) {}
    NightlyLock(const NightlyLock&) = delete;
    NightlyLock& operator=(const NightlyLock&) = delete;
    ~NightlyLock() {
        if (fd_ >= 0) ::close(fd_);
    }
    const fs::path& file() const { return file_; }

    // Opens the lock file; an error message, or "" when it is open.
    std::string open() {
        std::error_code ec;
        fs::create_directories(file_.parent_path(), ec);
        fd_ = ::open(file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
        if (fd_ < 0) return "cannot open " + file_.string() + ": " + std::strerror(errno);
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return "cannot open " + file_.string() + ": not a regular file";
        return "";
    }
    bool try_lock() { return ::flock(fd_, LOCK_EX | LOCK_NB) == 0; }
    // Says who holds it (the holder writes it right after locking).
    std::string holder() const {
        const auto text = read_input_file(file_, 4096);
        if (!std::holds_alternative<std::string>(text)) return "unknown";
        std::string t = std::get<std::string>(text);
        while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
        return t.empty() ? "unknown" : printable(t, 200);
    }
    void write_holder(const std::string& who) {
        if (::ftruncate(fd_, 0) != 0) return;
        const std::string line = who + "\n";
        if (::pwrite(fd_, line.data(), line.size(), 0) < 0) return;
    }

private:
    fs::path file_;
    int fd_ = -1;
};

// Takes the checkout's lock: exit_ok, or the exit code to stop with (after saying why).
int take_lock(const Settings& s, NightlyLock& lock) {
    if (const std::string e = lock.open(); !e.empty()) {
        std::cerr << "deskcheck nightly: " << e << "\n";
        return exit_infrastructure;
    }
    bool said = false;
    while (!lock.try_lock()) {
        if (!s.wait_for_lock) {
            std::cerr << "deskcheck nightly: another nightly is running in this checkout (" << lock.holder()
                      << "; it holds " << lock.file().string() << "). This one stops without touching anything:"
                         " run it after that one ends, or with --wait to wait for it.\n";
            return exit_another_nightly;
        }
        if (!said) {
            progress("waiting for the nightly running in this checkout to end (" + lock.holder() + "; " +
                     lock.file().string() + ")");
            said = true;
        }
        if (interrupted()) {
            std::cerr << "deskcheck nightly: interrupted by " << signal_name(interrupted_by())
                      << " while waiting for the other nightly; nothing was done\n";
            return exit_code_for(interrupted_by());
        }
        std::this_thread::sleep_for(lock_poll);
    }
    lock.write_holder("pid " + std::to_string(::getpid()) + ", seed " + hex(s.seed) + ", started " + today_utc() + " " +
                      now_utc_time());
    return exit_ok;
}

// The folders the night writes into: an error stops it before any work (exit 5).
bool prepare_folders(const Settings& s) {
    for (const auto& dir : {s.work, s.out}) {
        if (const auto e = prepare_output_dir(dir)) {
            std::cerr << "deskcheck nightly: " << e->message << "\n";
            return false;
        }
    }
    return true;
}

}  // namespace
}  // namespace nightly

int cmd_nightly(const Argv& argv) {
    using namespace nightly;
    Args args("nightly", argv, {"--json", "--help", "--no-fuzz", "--wait", "--fuzz-counted"},
              {"--minutes", "--jobs", "--rules", "--out", "--seed", "--fuzz-build", "--mutation", "--campaign-cases",
               "--mutate-rules-cases", "--mutate-rules-baseline", "--mutate-model-sample"});
    if (args.flag("--help")) {
        std::cout << nightly_help;
        return exit_ok;
    }
    if (args.ok() && !args.positional().empty()) args.fail("unexpected argument '" + printable(args.positional().front(), 60) + "'");
    auto settings = args.ok() ? parse(args) : std::nullopt;
    if (!settings) return usage_error("nightly", args.error());
    Settings& s = *settings;
    if (s.out.empty()) s.out = default_out(s);
    install_interrupt_handlers();
    NightlyLock lock(s.checkout / "build" / "nightly" / "lock");
    if (const int stop = take_lock(s, lock); stop != exit_ok) return stop;
    if (!prepare_folders(s)) return exit_infrastructure;
    print_header(s, s.json ? std::cerr : std::cout);
    Summary out;
    run_campaign_part(s, out);
    if (interrupted()) out.not_done.push_back("r0 campaign (not started)");
    else run_r0_part(s, out);
    if (interrupted()) out.not_done.push_back("mutate-rules (not started)");
    else run_mutate_rules_part(s, out);
    if (interrupted()) out.not_done.push_back("fuzzing (not started)");
    else run_fuzz_part(s, out);
    if (interrupted()) out.not_done.push_back("determinism sample (not started)");
    else run_determinism_part(s, out);
    if (interrupted()) out.not_done.push_back("mutate-model (not started)");
    else run_mutate_model_part(s, out);
    out.signal = interrupted_by();
    if (out.signal == 0) add_coverage_warnings(out);
    const int code = exit_code_of(out);
    if (s.json) std::cout << dump_json(summary_json(s, out, code)) << "\n";
    else print_summary(s, out, code, std::cout);
    return code;
}

}  // namespace deskcheck::cli
