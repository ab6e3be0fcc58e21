// deskcheck bench [--json] [--repeats N] [--cases N]: how fast the testbed runs, on fixed inputs.
//   scenarios/s   a fixed generated population (seed bench_seed, <= 4 windows, <= 8 steps, current
//                 rules): run_scenario + every check except `deterministic` (which is two more runs)
//   judge/s       judge() over the fixed situation catalogue of `diff-rules`, both rule sets
//   phases        where a scenario's time goes: sim (construction + port calls), tool (and runner),
//                 checks — timed with steady_clock, here only (a benchmark may read a clock)
// Each figure is the median of --repeats runs (default 3). Use the release preset.
#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/bench_instructions.h"
#include "cli/bench_scaling.h"
#include "cli/files.h"
#include "cli/fuzz_commands.h"
#include "cli/situations.h"
#include "harness/campaign.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/run.h"
#include "sim/build.h"
#include "sim/largest_scenario.h"
#include "sim/scenario_json.h"
#include "sim/sim.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace deskcheck::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t bench_seed = 0xbe9c4;
constexpr std::uint32_t cases_default = 2000;
constexpr std::uint32_t instructions_cases_default = 1000;
constexpr std::uint64_t cases_max = 1'000'000;
constexpr std::uint64_t repeats_max = 101;
constexpr std::uint32_t judge_rounds = 200;
constexpr double scenarios_per_second_target = 200'000;  // release, every check on (docs/benchmarks.md)

constexpr const char* bench_help =
    "usage: deskcheck bench [--json] [--repeats N] [--cases N] | bench --scaling [--json] [--repeats N]\n"
    "       deskcheck bench --instructions [--json] [--cases N]\n"
    "  scenarios/s on a fixed generated population (run + every check except deterministic),\n"
    "  verdict evaluations/s over the diff-rules catalogue, and where a scenario's time goes\n"
    "  (sim, tool, checks); each the median of N repeats (default 3); and peak memory, time and output of\n"
    "  `deskcheck replay` on the largest valid scenario (sim/largest_scenario.h), in a child process.\n"
    "  Build with the release preset:\n"
    "  cmake --workflow --preset release, then build/release/cli/deskcheck bench\n"
    "  --scaling: one run's time and peak memory on scenarios grown 1x, 4x, 16x in steps, events,\n"
    "  controls and text length, with the fitted exponent of each; exit 1 when one is above 1.2.\n"
    "  --instructions: instructions per scenario (default 1000 scenarios) and their split (the\n"
    "  simulated desktop's setup, the run after it, the checks), counted by callgrind: a figure the\n"
    "  machine's load does not move. Needs valgrind; each count is a child process\n"
    "  (deskcheck bench --instructions-pass PHASE --rounds R under valgrind), about a minute in all.\n"
    "exit: 0 done, 1 a --scaling exponent above 1.2, 2 bad usage, 5 valgrind missing or a count failed,\n"
    "      130 / 143 interrupted (--instructions)\n";

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// ---- where the time goes ------------------------------------------------------------------------

struct Phases {
    double setup_s = 0;   // sim::Sim construction
    double run_s = 0;     // run_scenario (construction included)
    double checks_s = 0;  // the checks
    double port_s = 0;    // replica: time inside the Desktop port (the sim answering the tool)
    double replica_s = 0; // replica: snapshot + batch + quiet period, construction excluded
};

// Forwards every port call to the Sim and adds the time spent inside it to `spent_s`.
class TimedDesktop final : public Desktop {
public:
    TimedDesktop(sim::Sim& inner, double& spent_s, double overhead_s) : d_(inner), spent_(spent_s), overhead_(overhead_s) {}

    std::vector<WindowInfo> top_level_windows() override { Timer t(*this); return d_.top_level_windows(); }
    std::optional<WindowInfo> window(WindowId id) override { Timer t(*this); return d_.window(id); }
    WindowId foreground() override { Timer t(*this); return d_.foreground(); }
    ForegroundAnswer request_foreground(WindowId id) override { Timer t(*this); return d_.request_foreground(id); }
    std::optional<ElementId> focused_element(WindowId id) override { Timer t(*this); return d_.focused_element(id); }
    TimeMs last_input_ms() override { Timer t(*this); return d_.last_input_ms(); }
    TreePtr element_tree(WindowId id) override { Timer t(*this); return d_.element_tree(id); }
    std::optional<std::string> read_value(WindowId w, ElementId e) override { Timer t(*this); return d_.read_value(w, e); }
    std::optional<Selection> read_selection(WindowId w, ElementId e) override { Timer t(*this); return d_.read_selection(w, e); }
    std::optional<bool> read_toggled(WindowId w, ElementId e) override { Timer t(*this); return d_.read_toggled(w, e); }
    std::optional<bool> read_expanded(WindowId w, ElementId e) override { Timer t(*this); return d_.read_expanded(w, e); }
    std::optional<bool> read_selected(WindowId w, ElementId e) override { Timer t(*this); return d_.read_selected(w, e); }
    std::optional<bool> read_dirty(WindowId w) override { Timer t(*this); return d_.read_dirty(w); }
    std::optional<WindowId> window_at(Point p) override { Timer t(*this); return d_.window_at(p); }
    Point cursor() override { Timer t(*this); return d_.cursor(); }
    void set_cursor(Point p) override { Timer t(*this); d_.set_cursor(p); }
    DeliveryStatus deliver(const Input& input) override { Timer t(*this); return d_.deliver(input); }
    std::optional<ProcessId> launch(std::string_view app) override { Timer t(*this); return d_.launch(app); }
    std::optional<TimeMs> declared_latency_ms(WindowId w) override { Timer t(*this); return d_.declared_latency_ms(w); }
    TimeMs now_ms() override { Timer t(*this); return d_.now_ms(); }
    void wait_ms(TimeMs ms) override { Timer t(*this); d_.wait_ms(ms); }

private:
    struct Timer {
        explicit Timer(TimedDesktop& o) : owner(o), t0(Clock::now()) {}
        ~Timer() { owner.spent_ += std::max(0.0, seconds_since(t0) - owner.overhead_); }
        TimedDesktop& owner;
        Clock::time_point t0;
    };
    sim::Sim& d_;
    double& spent_;
    double overhead_;
};

// What a Timer adds to the interval it measures: about one clock read (a loop of two reads, halved).
double timer_overhead_s() {
    constexpr int n = 100'000;
    double inside = 0;
    const auto t0 = Clock::now();
    for (int i = 0; i < n; ++i) inside += seconds_since(Clock::now());
    const double loop_s = seconds_since(t0);
    return inside >= 0 ? loop_s / n / 2 : 0;
}

// The tool's side of run_scenario, over a timed port: snapshots, the batch (or single actions),
// then the quiet period. The runner's recording is left out.
void replica_run(const sim::Scenario& s, Phases& p, double overhead_s) {
    sim::Sim desk(s);
    const auto t0 = Clock::now();
    TimedDesktop timed(desk, p.port_s, overhead_s);
    Tool tool(timed, current_rules());
    // The agent's requests as the runner builds them, the snapshots going through the timed port.
    std::vector<Request> requests = props::agent_requests(tool, timed, s);
    std::erase_if(requests, [&s](const Request& r) { return s.steps[static_cast<std::size_t>(r.step)].kind == sim::StepKind::Launch; });
    if (s.batch) tool.batch(requests);
    else for (const auto& r : requests) tool.act_step(r);
    const auto q0 = Clock::now();
    desk.run_until_quiet(props::quiet_limit_ms_default);
    p.port_s += seconds_since(q0);
    p.replica_s += seconds_since(t0);
}

Phases time_phases(const std::vector<sim::Scenario>& pop) {
    Phases p;
    const double overhead_s = timer_overhead_s();
    const props::RunOptions options = bench_options(false);
    std::uint64_t sink = 0;
    for (const auto& s : pop) {
        auto t0 = Clock::now();
        { sim::Sim desk(s); sink += desk.now_ms() == 0 ? 1 : 0; }
        p.setup_s += seconds_since(t0);
        t0 = Clock::now();
        const props::RunResult run = props::run_scenario(s, options);
        p.run_s += seconds_since(t0);
        t0 = Clock::now();
        sink += run_checks(s, run);
        p.checks_s += seconds_since(t0);
        replica_run(s, p, overhead_s);
    }
    if (sink == 0) std::cerr << "";  // keeps the work observable
    return p;
}

double scenarios_per_second(const std::vector<sim::Scenario>& pop) {
    const props::RunOptions options = bench_options(false);
    std::uint64_t sink = 0;
    const auto t0 = Clock::now();
    for (const auto& s : pop) sink += run_checks(s, props::run_scenario(s, options));
    const double secs = seconds_since(t0);
    if (sink == 0) std::cerr << "";
    return secs > 0 ? static_cast<double>(pop.size()) / secs : 0;
}

double judgements_per_second(const std::vector<CatalogueSituation>& catalogue) {
    std::uint64_t evaluations = 0;
    std::uint64_t sink = 0;
    const auto t0 = Clock::now();
    for (std::uint32_t round = 0; round < judge_rounds; ++round) {
        for (const RuleSet* rules : all_rule_sets()) {
            for (const auto& c : catalogue) {
                const Judgement j = judge(*rules, Situation{c.action, c.before, c.after, Timing{c.settled}});
                sink += static_cast<std::uint64_t>(j.verdict) + j.rule.size();
                ++evaluations;
            }
        }
    }
    const double secs = seconds_since(t0);
    if (sink == 0) std::cerr << "";
    return secs > 0 ? static_cast<double>(evaluations) / secs : 0;
}

// ---- the largest valid scenario (S-8) -----------------------------------------------------------

// `deskcheck replay` of sim::largest_valid_scenario(), run as a child process of its own (this
// binary, /proc/self/exe) so that the peak resident memory is the replay's alone: getrusage's
// ru_maxrss of the child, its wall time, and the bytes it printed.
struct LargestScenario {
    std::string error;         // non-empty: it could not be measured
    std::size_t input_bytes = 0;
    double peak_mb = 0;
    double ms = 0;
    std::uint64_t output_bytes = 0;
    int exit_code = -1;        // replay's: 0 or 1 (a property violated) is a normal end
};

LargestScenario measure_largest_scenario() {
    LargestScenario out;
    const std::string text = sim::encode_scenario_text(sim::largest_valid_scenario());
    out.input_bytes = text.size();
    std::error_code ec;
    const auto base = std::filesystem::temp_directory_path(ec);
    std::string dir = (ec ? std::filesystem::path("/tmp") : base).string() + "/deskcheck-bench.XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) {
        out.error = dir + ": cannot make a temporary folder: " + std::strerror(errno);
        return out;
    }
    const std::string file = dir + "/largest-valid-scenario.json";
    if (const auto e = write_file_atomically(file, text)) {
        out.error = e->message;
        std::filesystem::remove_all(dir, ec);
        return out;
    }
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        out.error = std::string("cannot make a pipe: ") + std::strerror(errno);
        std::filesystem::remove_all(dir, ec);
        return out;
    }
    const auto t0 = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 2);
        dup2(pipe_fds[1], 1);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        char arg0[] = "deskcheck";
        char arg1[] = "replay";
        std::vector<char> path(file.begin(), file.end());
        path.push_back('\0');
        char* const argv[] = {arg0, arg1, path.data(), nullptr};
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(pipe_fds[1]);
    if (pid < 0) {
        out.error = std::string("cannot start a child process: ") + std::strerror(errno);
        close(pipe_fds[0]);
        std::filesystem::remove_all(dir, ec);
        return out;
    }
    std::array<char, 65536> buffer{};
    for (;;) {
        const ssize_t n = read(pipe_fds[0], buffer.data(), buffer.size());
        if (n > 0) out.output_bytes += static_cast<std::uint64_t>(n);
        else if (n == 0 || errno != EINTR) break;
    }
    close(pipe_fds[0]);
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
    out.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    out.peak_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
    if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
    if (out.exit_code != 0 && out.exit_code != 1) {
        out.error = "deskcheck replay of the largest valid scenario ended with " +
                    (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status)) : "exit " + std::to_string(out.exit_code));
    }
    std::filesystem::remove_all(dir, ec);
    return out;
}

struct BenchResult {
    std::uint32_t cases = 0;
    std::size_t steps = 0;
    std::size_t catalogue = 0;
    std::vector<double> scenarios;
    std::vector<double> judgements;
    std::vector<Phases> phases;
    LargestScenario largest;
};

struct Split {
    double sim_us = 0;
    double tool_us = 0;
    double checks_us = 0;
    double total_us = 0;
};

// sim = construction + the share of the run spent inside the port (measured on the replica);
// tool = the rest of the run (the tool's logic and the runner's recording).
Split split_of(const Phases& p, std::uint32_t cases) {
    const double per = 1e6 / std::max<std::uint32_t>(1, cases);
    const double interplay_s = std::max(0.0, p.run_s - p.setup_s);
    const double port_share = p.replica_s > 0 ? std::clamp(p.port_s / p.replica_s, 0.0, 1.0) : 0;
    Split s;
    s.sim_us = (p.setup_s + interplay_s * port_share) * per;
    s.tool_us = interplay_s * (1 - port_share) * per;
    s.checks_us = p.checks_s * per;
    s.total_us = s.sim_us + s.tool_us + s.checks_us;
    return s;
}

Split median_split(const BenchResult& r) {
    std::vector<Split> splits;
    for (const auto& p : r.phases) splits.push_back(split_of(p, r.cases));
    std::sort(splits.begin(), splits.end(), [](const Split& a, const Split& b) { return a.total_us < b.total_us; });
    return splits.empty() ? Split{} : splits[splits.size() / 2];
}

void print_text(const BenchResult& r) {
    const double sps = median(r.scenarios);
    const Split s = median_split(r);
    auto pct = [&](double us) { return s.total_us > 0 ? 100 * us / s.total_us : 0; };
    std::cout << std::fixed << "deskcheck bench: " << build_kind() << "\n"
              << "population: " << r.cases << " scenarios (seed " << bench_seed << ", <= 4 windows, <= 8 steps, current rules), "
              << r.steps << " steps\n"
              << "scenarios/s (run + every check but deterministic): " << std::setprecision(0) << sps << " (median of "
              << r.scenarios.size() << "; target >= " << scenarios_per_second_target << ": "
              << (sps >= scenarios_per_second_target ? "met" : "missed") << ")\n"
              << "verdict evaluations/s (judge over " << r.catalogue << " catalogue situations x 2 rule sets): "
              << median(r.judgements) << "\n"
              << "where a scenario's time goes (us per scenario, median):\n" << std::setprecision(1)
              << "  sim    (construction + answering the port) " << std::setw(8) << s.sim_us << "  " << pct(s.sim_us) << "%\n"
              << "  tool   (act, guard, verdicts, the runner)   " << std::setw(8) << s.tool_us << "  " << pct(s.tool_us) << "%\n"
              << "  checks (6, without deterministic)          " << std::setw(8) << s.checks_us << "  " << pct(s.checks_us) << "%\n";
    const auto& l = r.largest;
    std::cout << "largest valid scenario (" << l.input_bytes << " bytes; deskcheck replay in a child process): ";
    if (!l.error.empty()) std::cout << "NOT measured: " << l.error << "\n";
    else std::cout << std::setprecision(1) << l.peak_mb << " MB peak resident, " << std::setprecision(0) << l.ms << " ms, "
                   << l.output_bytes << " bytes printed (bound: 64 MB, 1 MB)\n";
}

nlohmann::ordered_json bench_json(const BenchResult& r) {
    const Split s = median_split(r);
    return nlohmann::ordered_json{
        {"build", build_kind()}, {"population", {{"seed", bench_seed}, {"cases", r.cases}, {"steps", r.steps}}},
        {"scenarios_per_second", {{"median", median(r.scenarios)}, {"runs", r.scenarios}, {"target", scenarios_per_second_target}}},
        {"judgements_per_second", {{"median", median(r.judgements)}, {"runs", r.judgements}, {"catalogue", r.catalogue}}},
        {"us_per_scenario", {{"sim", s.sim_us}, {"tool", s.tool_us}, {"checks", s.checks_us}, {"total", s.total_us}}},
        {"largest_scenario", r.largest.error.empty()
                                 ? nlohmann::ordered_json{{"input_bytes", r.largest.input_bytes}, {"peak_mb", r.largest.peak_mb},
                                                          {"ms", r.largest.ms}, {"output_bytes", r.largest.output_bytes},
                                                          {"exit_code", r.largest.exit_code}}
                                 : nlohmann::ordered_json{{"error", r.largest.error}}}};
}

}  // namespace

std::vector<sim::Scenario> bench_population(std::uint32_t cases) {
    sim::BuildOptions g = sim::campaign_build_options();
    g.windows_max = 4;
    g.steps_max = 8;
    std::vector<sim::Scenario> out;
    out.reserve(cases);
    for (std::uint32_t i = 0; i < cases; ++i) {
        sim::Prng rng(props::case_seed(bench_seed, i));
        out.push_back(sim::build_scenario_from_prng(rng, g));
        out.back().rules = "current";
    }
    return out;
}

std::string build_kind() {
#ifdef NDEBUG
    return "assertions off (release)";
#else
    return "assertions on: not the release preset, the figures are pessimistic";
#endif
}

int cmd_bench(const Argv& argv) {
    Args args("bench", argv, {"--json", "--help", "--scaling", "--instructions"}, {"--repeats", "--cases", "--instructions-pass", "--rounds"});
    if (args.flag("--help")) {
        std::cout << bench_help;
        return exit_ok;
    }
    const auto repeats = args.number("--repeats");
    const auto cases = args.number("--cases");
    if (repeats && (*repeats == 0 || *repeats > repeats_max)) args.fail("--repeats must lie in 1.." + std::to_string(repeats_max));
    if (cases && (*cases == 0 || *cases > cases_max)) args.fail("--cases must lie in 1.." + std::to_string(cases_max));
    if (args.ok() && !args.positional().empty()) args.fail("unexpected argument '" + args.positional().front() + "'");
    if (args.ok() && args.flag("--scaling") && cases) args.fail("--cases sizes the population; --scaling runs its own scenarios");
    if (!args.ok()) return usage_error("bench", args.error());
    const auto pass = args.option("--instructions-pass");
    const auto rounds = args.number("--rounds");
    if (args.ok() && pass && *pass != "build" && *pass != "run" && *pass != "all") args.fail("--instructions-pass must be build, run or all");
    if (args.ok() && rounds && (*rounds == 0 || *rounds > repeats_max)) args.fail("--rounds must lie in 1.." + std::to_string(repeats_max));
    if (args.ok() && rounds && !pass) args.fail("--rounds goes with --instructions-pass");
    if (args.ok() && args.flag("--instructions") && (args.flag("--scaling") || repeats)) args.fail("--instructions counts once: no --scaling, no --repeats");
    if (!args.ok()) return usage_error("bench", args.error());
    if (pass) return bench_instructions_pass(*pass, static_cast<std::uint32_t>(rounds.value_or(1)), static_cast<std::uint32_t>(cases.value_or(instructions_cases_default)));
    if (args.flag("--instructions")) return bench_instructions(args.flag("--json"), static_cast<std::uint32_t>(cases.value_or(instructions_cases_default)));
    if (args.flag("--scaling")) return bench_scaling(args.flag("--json"), repeats.value_or(3));
    BenchResult r;
    r.cases = static_cast<std::uint32_t>(cases.value_or(cases_default));
    const auto pop = bench_population(r.cases);
    for (const auto& s : pop) r.steps += s.steps.size();
    const auto catalogue = situation_catalogue();
    r.catalogue = catalogue.size();
    for (std::uint64_t i = 0; i < repeats.value_or(3); ++i) {
        std::cerr << "bench: repeat " << (i + 1) << std::endl;
        r.scenarios.push_back(scenarios_per_second(pop));
        r.judgements.push_back(judgements_per_second(catalogue));
        r.phases.push_back(time_phases(pop));
    }
    std::cerr << "bench: replay of the largest valid scenario" << std::endl;
    r.largest = measure_largest_scenario();
    if (args.flag("--json")) std::cout << dump_json(bench_json(r)) << "\n";
    else print_text(r);
    return exit_ok;
}

}  // namespace deskcheck::cli
