#pragma once

#include <cstdint>

namespace deskcheck::cli {

// `deskcheck bench --scaling`: time and peak memory of one run (the tool, every check but
// `deterministic`) on scenarios grown 1x, 4x and 16x along each dimension (sim/scaled_scenario.h),
// with the exponent fitted to each; exit 1 when an exponent is above 1.2 (cost worse than linear).
int bench_scaling(bool json, std::uint64_t repeats);

}  // namespace deskcheck::cli
