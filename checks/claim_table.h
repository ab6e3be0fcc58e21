// The claim table (SPEC P-1, C-): every field of every report the tool produces, with the fact it
// states and the check that holds it against the ground truth — both ways: a wrong claim and a
// missing one are both violations. `tools/claim_fields.py` lists the fields of the report types
// from model/'s headers (libclang) and a test fails when one has no row here.
//
// Each row that is a claim carries two tampers: a deliberately wrong report (`made_up`: says
// something that did not happen, or says it otherwise) and a deliberately short one (`left_out`:
// drops or denies what happened). prove_claims() runs generated cases, applies each tamper to the
// report of a real run (harness/claim_proof.h), and records which checks fire: the row's check must, in both directions.
// A row with a `gap` says which direction is not judged yet ("made_up:", "left_out:" or "both:");
// that tamper must slip through at least once (the table cannot overstate the checks), the other
// must be caught.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/undo.h"
#include "checks/history.h"

namespace deskcheck::props {

enum class ClaimKind : std::uint8_t {
    Claim,      // a statement about the desktop or the run: judged both ways by `check`
    Echo,       // restates what the agent asked (the request, its index, a declaration it made)
    Account,    // the tool's account of its own reasoning (a rule row, checks ran, text for people):
                // judged through the claim it decides, never as a fact about the desktop
    Container,  // holds reports whose fields have their own rows
};
std::string_view to_string(ClaimKind k);

// Applies one wrong claim to the first report it fits; false when no report of the run fits.
using Tamper = bool (*)(History&);
// The same for the undo tool's report (model/undo.h), applied to R0 runs (harness/r0_bench.h).
using UndoTamper = bool (*)(TaskReport&);

struct ClaimRow {
    std::string_view type;   // the report type, as model/ names it
    std::string_view field;  // the member, as model/ names it
    ClaimKind kind = ClaimKind::Claim;
    std::string_view fact;   // the ground-truth fact it states (or what it restates, or why it is no claim)
    std::string_view check;  // the properties that judge it, space-separated ("" when no claim)
    Tamper made_up = nullptr;
    Tamper left_out = nullptr;
    std::string_view gap;    // not yet judged both ways: which direction is not, and why ("" when judged)
    UndoTamper undo_made_up = nullptr;  // rows of the undo tool's report: tampers of an R0 run's
    UndoTamper undo_left_out = nullptr; // TaskReport, judged by the R0 properties
};

std::span<const ClaimRow> claim_table();

// The R0 properties that judge the undo tool's rows (harness/r0_check.h).
inline constexpr std::string_view r0_property_names[] = {"failure_leaves_nothing", "undo_restores"};

// Whether the row's gap covers that direction ("made_up" | "left_out"): its gap text starts with
// "both:" or with the direction and a colon.
bool gap_covers(const ClaimRow& row, std::string_view direction);

// A proof holds when its row's check caught the tamper at least once — or, in a direction the row
// declares a gap, when the tamper slipped through at least once (the gap is real).
struct TamperProof;
bool proof_holds(const ClaimRow& row, const TamperProof& p);

// Whether `checks` (a row's space-separated list) names the property `name`.
bool names_check(std::string_view checks, std::string_view name);

// The report types the table covers (each row's `type` is one of them).
std::span<const std::string_view> claim_report_types();

struct TamperProof {
    std::string_view type;
    std::string_view field;
    std::string_view direction;  // "made_up" | "left_out"
    std::uint32_t applied = 0;   // cases whose report the tamper fitted
    std::uint32_t caught = 0;    // ... of which the row's check fired
    std::vector<std::string> fired;  // the checks that fired at least once (any direction's first cases)
    std::string example;         // the row's check's explanation, the first time it fired
};

}  // namespace deskcheck::props
