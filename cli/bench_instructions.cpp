// deskcheck bench --instructions: instructions per scenario, counted by callgrind (valgrind): the
// figure that stays put on a shared, noisy machine where the clock does not (the clock's figures
// are medians; this one is a count, the same on every run of a build). perf's hardware counters
// would be cheaper, but a container or a VM often has none; callgrind counts on any machine.
//
// Each count is a child process: `valgrind --tool=callgrind deskcheck bench --instructions-pass
// PHASE --rounds R --cases N`, which builds the bench population and then does PHASE's work R
// times over it. The difference between R = 2 and R = 1 is one round's instructions alone — the
// process's start, the population's building and valgrind's own are in both and cancel:
//   build   sim::Sim constructed from each scenario (the simulated desktop's setup)
//   run     run_scenario: the desktop, the tool and the runner
//   all     run_scenario and every check but `deterministic` (what `bench` times)
// so that the checks' share is all - run and the run's without the setup is run - build.
#include "cli/bench_instructions.h"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cli/args.h"
#include "cli/bench_scaling.h"
#include "cli/files.h"
#include "cli/interrupt.h"
#include "cli/nightly_support.h"
#include "harness/run.h"
#include "sim/sim.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view phases[] = {"build", "run", "all"};
constexpr auto pass_deadline = std::chrono::seconds(1800);

// The first executable `name` in PATH, or nullopt.
std::optional<fs::path> in_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path == nullptr ? "" : path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) continue;
        const fs::path candidate = fs::path(dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

// callgrind's total: the "summary:" line of its output (the "totals:" line when there is none).
std::optional<std::uint64_t> total_instructions(const fs::path& out) {
    std::ifstream in(out);
    std::string line;
    std::optional<std::uint64_t> totals;
    for (std::size_t n = 0; n < 10'000'000 && std::getline(in, line); ++n) {
        for (const std::string_view key : {"summary: ", "totals: "}) {
            if (line.rfind(key, 0) != 0) continue;
            try {
                const std::uint64_t v = std::stoull(line.substr(key.size()));
                if (key == "summary: ") return v;
                totals = v;
            } catch (const std::exception&) {
            }
        }
    }
    return totals;
}

struct Counts {
    std::uint64_t build = 0;  // one round's instructions, per phase
    std::uint64_t run = 0;
    std::uint64_t all = 0;
};

// The instructions of one pass; an error message instead when it could not be counted.
std::variant<std::uint64_t, std::string> count_pass(const fs::path& valgrind, const fs::path& self, const fs::path& dir,
                                                    std::string_view phase, int rounds, std::uint32_t cases) {
    const std::string name = std::string(phase) + "-" + std::to_string(rounds);
    const fs::path out = dir / (name + ".callgrind");
    const fs::path log = dir / (name + ".log");
    std::cerr << "bench: counting " << phase << " x" << rounds << " under callgrind" << std::endl;
    const ChildResult child = run_child({valgrind.string(), "--tool=callgrind", "--callgrind-out-file=" + out.string(), self.string(),
                                         "bench", "--instructions-pass", std::string(phase), "--rounds", std::to_string(rounds),
                                         "--cases", std::to_string(cases)},
                                        dir, log, pass_deadline, signals_received());
    if (!child.error.empty()) return "valgrind could not be started: " + child.error;
    if (child.forwarded) return std::string("interrupted");
    if (child.deadline_hit) return "the " + name + " pass ran past " + std::to_string(pass_deadline.count()) + " s and was stopped";
    if (child.exit_code != 0) {
        return "the " + name + " pass under valgrind ended with " +
               (child.exit_code == -1 ? "signal " + std::to_string(child.term_signal) : "exit " + std::to_string(child.exit_code));
    }
    const auto total = total_instructions(out);
    if (!total) return out.string() + ": no instruction total in callgrind's output";
    return *total;
}

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::uint64_t per(std::uint64_t v, std::uint64_t n) { return n == 0 ? 0 : (v + n / 2) / n; }

void print(const Counts& c, std::uint32_t cases, std::size_t steps, const fs::path& valgrind) {
    const auto row = [](const char* what, std::uint64_t v) { std::cout << "  " << std::left << std::setw(50) << what << std::right << std::setw(12) << grouped(v) << "\n"; };
    std::cout << "deskcheck bench --instructions: " << build_kind() << "\n"
              << "instructions per scenario, counted by callgrind (" << valgrind.string() << "), " << cases
              << " scenarios of the bench population (" << steps << " steps):\n";
    row("scenario (run + every check but deterministic)", per(c.all, cases));
    row("  the simulated desktop's setup (sim::Sim)", per(c.build, cases));
    row("  the run after the setup (desktop, tool, runner)", per(c.run > c.build ? c.run - c.build : 0, cases));
    row("  the checks", per(c.all > c.run ? c.all - c.run : 0, cases));
    row("per step (scenario / steps)", per(c.all, steps));
    std::cout << "(one round's count: the same pass at 2 rounds minus 1 round; deterministic for a build)\n";
}

nlohmann::ordered_json as_json(const Counts& c, std::uint32_t cases, std::size_t steps, const fs::path& valgrind) {
    return {{"build", build_kind()},
            {"counter", "callgrind"},
            {"valgrind", valgrind.string()},
            {"population", {{"cases", cases}, {"steps", steps}}},
            {"instructions_per_scenario",
             {{"total", per(c.all, cases)},
              {"sim_setup", per(c.build, cases)},
              {"run_after_setup", per(c.run > c.build ? c.run - c.build : 0, cases)},
              {"checks", per(c.all > c.run ? c.all - c.run : 0, cases)}}},
            {"instructions_per_step", per(c.all, steps)}};
}

}  // namespace

int bench_instructions(bool json, std::uint32_t cases) {
    const auto valgrind = in_path("valgrind");
    if (!valgrind) {
        std::cerr << "deskcheck bench: --instructions counts with callgrind: valgrind is not in PATH (Debian package valgrind; "
                     "bash tools/dc figures instructions installs it)\n";
        return exit_infrastructure;
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) {
        std::cerr << "deskcheck bench: cannot find this binary (/proc/self/exe): " << ec.message() << "\n";
        return exit_infrastructure;
    }
    const fs::path base = fs::temp_directory_path(ec);
    std::string dir = (ec ? fs::path("/tmp") : base).string() + "/deskcheck-instructions.XXXXXX";
    if (::mkdtemp(dir.data()) == nullptr) {
        std::cerr << "deskcheck bench: " << dir << ": cannot make a temporary folder\n";
        return exit_infrastructure;
    }
    install_interrupt_handlers();
    Counts counts;
    std::string error;
    for (const std::string_view phase : phases) {
        std::uint64_t at[3] = {0, 0, 0};
        for (int rounds = 1; rounds <= 2 && error.empty(); ++rounds) {
            auto r = count_pass(*valgrind, self, dir, phase, rounds, cases);
            if (auto* e = std::get_if<std::string>(&r)) error = *e;
            else at[rounds] = std::get<std::uint64_t>(r);
        }
        if (!error.empty()) break;
        const std::uint64_t one = at[2] > at[1] ? at[2] - at[1] : 0;
        (phase == "build" ? counts.build : phase == "run" ? counts.run : counts.all) = one;
    }
    fs::remove_all(dir, ec);
    if (interrupted()) {
        std::cerr << "deskcheck bench: interrupted by " << signal_name(interrupted_by()) << "\n";
        return exit_code_for(interrupted_by());
    }
    if (!error.empty()) {
        std::cerr << "deskcheck bench: " << error << "\n";
        return exit_infrastructure;
    }
    std::size_t steps = 0;
    for (const auto& s : bench_population(cases)) steps += s.steps.size();
    if (json) std::cout << dump_json(as_json(counts, cases, steps, *valgrind)) << "\n";
    else print(counts, cases, steps, *valgrind);
    return exit_ok;
}

int bench_instructions_pass(std::string_view phase, std::uint32_t rounds, std::uint32_t cases) {
    const auto pop = bench_population(cases);
    const props::RunOptions options = bench_options(false);
    std::uint64_t sink = 0;
    for (std::uint32_t round = 0; round < rounds; ++round) {
        for (const auto& s : pop) {
            if (phase == "build") {
                sim::Sim desk(s);
                sink += desk.now_ms() == 0 ? 1 : 0;
            } else {
                const props::RunResult run = props::run_scenario(s, options);
                sink += phase == "all" ? run_checks(s, run) : run.steps.size();
            }
        }
    }
    const volatile std::uint64_t observed = sink;  // keeps the work observable
    (void)observed;
    return exit_ok;
}

}  // namespace deskcheck::cli
