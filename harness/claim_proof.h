// The claim table's proofs (checks/claim_table.h): real runs, each row's tampers applied to their
// reports, every check asked. The harness runs them; the table and the checks stay in checks/.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "checks/claim_table.h"

namespace deskcheck::props {

// Runs `cases` generated cases per rule set (current, published) from `seed`; applies every tamper
// to each case's report (restored after each) and judges it with every check. The undo tool's
// rows: `cases / 4` generated R0 fixtures (at least 50) in every mode (r0::sample_runs), each
// tamper judged by the run's R0 property.
std::vector<TamperProof> prove_claims(std::uint32_t cases, std::uint64_t seed);
// The same for any rows (the tests prove a deliberately wrong row fails).
std::vector<TamperProof> prove_rows(std::span<const ClaimRow> rows, std::uint32_t cases, std::uint64_t seed);

}  // namespace deskcheck::props
