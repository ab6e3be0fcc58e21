#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/run.h"
#include "sim/scenario.h"

namespace deskcheck::cli {

// What both benchmarks run: the `current` rules, the W-2 agent on, the trace only when asked (off
// as in campaigns and fuzzing); and every check but `deterministic` on the run (the items judged).
props::RunOptions bench_options(bool trace);
std::uint32_t run_checks(const sim::Scenario& s, const props::RunResult& run);
// The bench population: `cases` scenarios of the campaign's builder (<= 4 windows, <= 8 steps,
// the `current` rules) from a fixed seed.
std::vector<sim::Scenario> bench_population(std::uint32_t cases);
std::string build_kind();  // "assertions off (release)", or a warning that the figures are pessimistic

// `deskcheck bench --scaling`: time and peak memory of one run (the tool, every check but
// `deterministic`) on scenarios grown 1x, 4x and 16x along each dimension (sim/scaled_scenario.h),
// with the exponent fitted to each; exit 1 when an exponent is above 1.2 (cost worse than linear).
int bench_scaling(bool json, std::uint64_t repeats);

}  // namespace deskcheck::cli
