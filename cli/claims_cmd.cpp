// deskcheck claims: the claim table (checks/claim_table.h) — every field of every report the
// tool produces, the fact it states and the check that judges it both ways; with --prove, the
// tampered reports each check must catch, run on generated cases.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/files.h"
#include "checks/claim_table.h"
#include "harness/claim_proof.h"

namespace deskcheck::cli {
namespace {

using props::ClaimKind;
using props::ClaimRow;

std::string status_of(const ClaimRow& r) {
    if (r.kind != ClaimKind::Claim) return std::string(to_string(r.kind));
    return r.gap.empty() ? "judged both ways" : "gap";
}

nlohmann::ordered_json table_json() {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const ClaimRow& r : props::claim_table()) {
        rows.push_back({{"type", r.type}, {"field", r.field}, {"kind", to_string(r.kind)}, {"fact", r.fact},
                        {"check", r.check}, {"status", status_of(r)}, {"gap", r.gap}});
    }
    return rows;
}

void print_markdown(std::ostream& out) {
    out << "| report | field | kind | fact | judged by | status |\n|---|---|---|---|---|---|\n";
    for (const ClaimRow& r : props::claim_table()) {
        out << "| " << r.type << " | `" << r.field << "` | " << to_string(r.kind) << " | " << r.fact << " | "
            << (r.check.empty() ? "" : "`" + std::string(r.check) + "`") << " | "
            << (r.gap.empty() ? status_of(r) : "gap: " + std::string(r.gap)) << " |\n";
    }
}

void print_text(std::ostream& out) {
    std::size_t claims = 0, gaps = 0;
    for (const ClaimRow& r : props::claim_table()) {
        out << "  " << r.type << "." << r.field << "  [" << to_string(r.kind) << "]";
        if (!r.check.empty()) out << "  judged by " << r.check;
        if (!r.gap.empty()) out << "  GAP: " << r.gap;
        out << "\n      " << r.fact << "\n";
        claims += r.kind == ClaimKind::Claim;
        gaps += r.kind == ClaimKind::Claim && !r.gap.empty();
    }
    out << props::claim_table().size() << " fields, " << claims << " claims, " << claims - gaps
        << " judged both ways, " << gaps << " gaps\n";
}

// A proof fails when a judged row's tamper was never caught by its check (or never fitted a
// report: nothing shown), or when a gap row's tamper was caught (the table understates the checks).
int prove(std::uint32_t cases, std::uint64_t seed, bool json) {
    const auto proofs = props::prove_claims(cases, seed);
    int failures = 0;
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& p : proofs) {
        const ClaimRow* row = nullptr;
        for (const ClaimRow& r : props::claim_table()) {
            if (r.type == p.type && r.field == p.field) row = &r;
        }
        const bool gap = row != nullptr && props::gap_covers(*row, p.direction);
        const bool ok = row != nullptr && props::proof_holds(*row, p);
        failures += !ok;
        std::string fired;
        for (const auto& f : p.fired) fired += (fired.empty() ? "" : ",") + f;
        if (json) {
            j.push_back({{"type", p.type}, {"field", p.field}, {"direction", p.direction}, {"applied", p.applied},
                         {"caught", p.caught}, {"fired", p.fired}, {"ok", ok}, {"example", p.example}});
            continue;
        }
        std::cout << (ok ? "  ok    " : "  FAIL  ") << p.type << "." << p.field << " " << p.direction << ": caught " << p.caught
                  << " of " << p.applied << " by " << (row ? row->check : "?") << (gap ? " (a declared gap: must slip through at least once)" : "")
                  << (fired.empty() ? "" : "; fired: " + fired) << "\n";
    }
    if (json) std::cout << dump_json(nlohmann::ordered_json{{"cases_per_rule_set", cases}, {"seed", seed}, {"proofs", j}, {"failures", failures}}) << "\n";
    else std::cout << proofs.size() << " tampers, " << failures << " failed (" << cases << " cases per rule set, seed " << seed << ")\n";
    return failures == 0 ? exit_ok : exit_violation;
}

}  // namespace

int cmd_claims(const Argv& argv) {
    Args args("claims", argv, {"--json", "--markdown", "--prove", "--help"}, {"--cases", "--seed"});
    if (!args.ok()) return usage_error("claims", args.error());
    if (args.flag("--help")) {
        std::cout << "usage: deskcheck claims [--json | --markdown]\n"
                     "       deskcheck claims --prove [--cases N] [--seed S] [--json]\n"
                     "the claim table: every field of every report the tool produces, the ground-truth fact it\n"
                     "states and the check that judges it both ways (a wrong claim and a missing one).\n"
                     "--prove: tamper with real reports of N generated cases per rule set (default 600) and show\n"
                     "each row's check catches both tampers; exit 1 when one is not caught, 0 otherwise\n";
        return exit_ok;
    }
    if (!args.positional().empty()) return usage_error("claims", "unexpected argument '" + args.positional().front() + "'");
    const auto cases = args.number("--cases", 1, 1'000'000);
    const auto seed = args.number("--seed");
    if (!args.ok()) return usage_error("claims", args.error());
    if (args.flag("--prove")) return prove(static_cast<std::uint32_t>(cases.value_or(600)), seed.value_or(1), args.flag("--json"));
    if (cases || seed) return usage_error("claims", "--cases and --seed go with --prove");
    if (args.flag("--json") && args.flag("--markdown")) return usage_error("claims", "--json and --markdown exclude each other");
    if (args.flag("--json")) std::cout << dump_json(nlohmann::ordered_json{{"claims", table_json()}}) << "\n";
    else if (args.flag("--markdown")) print_markdown(std::cout);
    else print_text(std::cout);
    return exit_ok;
}

}  // namespace deskcheck::cli
