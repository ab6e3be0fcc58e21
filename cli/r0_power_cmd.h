// deskcheck r0 --power-cut [--json] [--fixtures DIR] [--generated N] [--seed S]: the R0 fixtures
// with the power cut at every primitive call of every port operation (properties/r0_power.h).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/r0_world.h"

namespace deskcheck::cli {

// Prints the power-cut points and how many held (a table, or JSON); exit 0 only when every one held.
int r0_power_cut(const std::vector<sim::R0Fixture>& fixtures, std::uint64_t seed, bool json);

}  // namespace deskcheck::cli
