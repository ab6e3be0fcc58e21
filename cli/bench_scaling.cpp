// Linear cost (the speed requirement's second target): each dimension of a scenario — steps,
// events, controls, text length — multiplied by 1, 4 and 16, the others at their base; the time of
// a run (the median of `repeats` timings, each as many runs as fill 0.1 s) and the peak of heap
// bytes live during one run with the trace kept, as replay keeps it (cli/alloc_count.h: counted
// exactly, not sampled); the exponent is the least-squares slope of log cost against log amount.
#include "cli/bench_scaling.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "checks/checks.h"
#include "cli/alloc_count.h"
#include "cli/args.h"
#include "cli/files.h"
#include "harness/run.h"
#include "model/verdict.h"
#include "sim/scaled_scenario.h"

namespace deskcheck::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double exponent_max = 1.2;
constexpr double timing_s = 0.1;

struct Point {
    std::uint32_t factor = 1;
    std::size_t amount = 0;
    double us = 0;        // median time of one run
    long memory_bytes = 0;  // peak heap bytes live during one run; -1: not measured
};

struct Row {
    sim::ScalingDimension dimension{};
    std::vector<Point> points;
    double time_exponent = 0;
    std::optional<double> memory_exponent;  // none: not measured
};

std::uint32_t run_once(const sim::Scenario& s, bool trace) { return run_checks(s, props::run_scenario(s, bench_options(trace))); }

double median_us(const sim::Scenario& s, std::uint64_t repeats) {
    std::vector<double> us;
    std::uint64_t sink = 0;
    for (std::uint64_t r = 0; r < repeats; ++r) {
        std::uint64_t runs = 0;
        const auto t0 = Clock::now();
        double elapsed = 0;
        while (runs < 3 || elapsed < timing_s) {
            sink += run_once(s, false);
            ++runs;
            elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
        }
        us.push_back(elapsed * 1e6 / static_cast<double>(runs));
    }
    if (sink == 0) std::cerr << "";
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

// Peak heap bytes live during one run of `s` with the trace kept (as replay keeps it): -1 when the
// count is not available (a sanitizer's allocator).
long peak_bytes(const sim::Scenario& s) {
    if (!alloc::available()) return -1;
    alloc::start();
    const std::uint32_t judged = run_once(s, true);
    const std::int64_t peak = alloc::stop();
    if (judged == 0) std::cerr << "";
    return static_cast<long>(peak);
}

// Least-squares slope of log(y) against log(x).
double fitted_exponent(const std::vector<double>& x, const std::vector<double>& y) {
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += std::log(x[i]);
        my += std::log(y[i]);
    }
    mx /= static_cast<double>(x.size());
    my /= static_cast<double>(x.size());
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
        sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

Row measure(sim::ScalingDimension d, std::uint64_t repeats) {
    Row row;
    row.dimension = d;
    std::vector<double> x, t, m;
    for (const std::uint32_t k : sim::scaling_factors) {
        const sim::Scenario s = sim::scaled_scenario(d, k);
        Point p{k, sim::scaled_amount(d, k), median_us(s, repeats), 0};
        p.memory_bytes = peak_bytes(s);
        std::cerr << "bench --scaling: " << to_string(d) << " x" << k << ": " << std::fixed << std::setprecision(1) << p.us << " us, "
                  << p.memory_bytes << " bytes at the peak" << std::endl;
        row.points.push_back(p);
        x.push_back(static_cast<double>(p.amount));
        t.push_back(p.us);
        m.push_back(static_cast<double>(std::max(1L, p.memory_bytes)));
    }
    row.time_exponent = fitted_exponent(x, t);
    if (row.points.front().memory_bytes > 0) row.memory_exponent = fitted_exponent(x, m);
    return row;
}

bool row_fails(const Row& r) { return r.time_exponent > exponent_max || (r.memory_exponent && *r.memory_exponent > exponent_max); }

void print_text(const std::vector<Row>& rows) {
    std::cout << "deskcheck bench --scaling: cost of one run (tool + every check but deterministic) at 1x, 4x, 16x\n\n"
              << std::left << std::setw(10) << "dimension" << std::setw(16) << "amounts" << std::setw(30) << "us per run"
              << std::setw(26) << "peak heap of a run" << "exponents (time, memory)\n";
    for (const Row& r : rows) {
        std::string amounts, us, kb;
        for (const Point& p : r.points) {
            amounts += (amounts.empty() ? "" : "/") + std::to_string(p.amount);
            std::ostringstream u;
            u << std::fixed << std::setprecision(1) << p.us;
            us += (us.empty() ? "" : " / ") + u.str();
            kb += (kb.empty() ? "" : "/") + (p.memory_bytes < 0 ? std::string("?") : std::to_string((p.memory_bytes + 512) / 1024));
        }
        std::ostringstream e;
        e << std::fixed << std::setprecision(2) << r.time_exponent << ", ";
        if (r.memory_exponent) e << *r.memory_exponent;
        else e << "not measured (sanitizer build)";
        std::cout << std::left << std::setw(10) << to_string(r.dimension) << std::setw(16) << amounts << std::setw(30) << us
                  << std::setw(26) << kb + " kB" << e.str() << (row_fails(r) ? "  ABOVE 1.2" : "") << "\n";
    }
}

nlohmann::ordered_json rows_json(const std::vector<Row>& rows) {
    nlohmann::ordered_json j{{"exponent_max", exponent_max}, {"dimensions", nlohmann::ordered_json::array()}};
    for (const Row& r : rows) {
        nlohmann::ordered_json d{{"dimension", to_string(r.dimension)}, {"time_exponent", r.time_exponent},
                                 {"memory_exponent", r.memory_exponent ? nlohmann::ordered_json(*r.memory_exponent) : nullptr},
                                 {"fails", row_fails(r)}, {"points", nlohmann::ordered_json::array()}};
        for (const Point& p : r.points) {
            d["points"].push_back({{"factor", p.factor}, {"amount", p.amount}, {"us_per_run", p.us},
                                   {"peak_heap_bytes", p.memory_bytes < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.memory_bytes)}});
        }
        j["dimensions"].push_back(d);
    }
    return j;
}

}  // namespace

props::RunOptions bench_options(bool trace) {
    props::RunOptions o;
    o.rules = &current_rules();
    o.agent_retries = true;
    o.trace = trace;
    return o;
}

std::uint32_t run_checks(const sim::Scenario& s, const props::RunResult& run) {
    std::uint32_t judged = 0;
    for (const auto& c : props::all_checks()) {
        if (c.fn != nullptr) judged += c.fn(s, run).judged;
    }
    return judged;
}

int bench_scaling(bool json, std::uint64_t repeats) {
    std::vector<Row> rows;
    for (const auto d : sim::scaling_dimensions) rows.push_back(measure(d, repeats));
    if (json) std::cout << dump_json(rows_json(rows)) << "\n";
    else print_text(rows);
    return std::any_of(rows.begin(), rows.end(), row_fails) ? exit_violation : exit_ok;
}

}  // namespace deskcheck::cli
