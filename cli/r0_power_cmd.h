// deskcheck r0 --power-cut [--without OP.PRIMITIVE] [--json] [--fixtures DIR] [--generated N] [--seed S]:
// the R0 fixtures with the power cut at every primitive call of every port operation
// (harness/r0_power.h); --without: the protocol with that one primitive left out (the negative
// proof: every fsync of it is needed, the run fails without it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/r0_world.h"

namespace deskcheck::cli {

// Prints the power-cut points and how many held (a table, or JSON); exit 0 only when every one held,
// 1 when one did not, 2 when `without` names no primitive of a plan (one line).
int r0_power_cut(const std::vector<sim::R0Fixture>& fixtures, std::uint64_t seed, bool json, const std::optional<std::string>& without);

}  // namespace deskcheck::cli
