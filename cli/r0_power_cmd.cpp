// deskcheck r0 --power-cut (cli/r0_power_cmd.h).
#include "cli/r0_power_cmd.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/files.h"
#include "model/durability.h"
#include "harness/r0_power.h"

namespace deskcheck::cli {
namespace {

// "OP.PRIMITIVE" (journal_append.fsync_file): the protocol without that primitive of that plan.
std::optional<DurabilityPlans> plans_without(const std::string& name) {
    for (const PortOp op : all_port_ops) {
        const auto plan = durability_plan(op);
        for (std::size_t i = 0; i < plan.size(); ++i) {
            if (name == std::string(to_string(op)) + "." + std::string(to_string(plan[i]))) return DurabilityPlans{}.without(op, i);
        }
    }
    return std::nullopt;
}

std::string plan_names() {
    std::string s;
    for (const PortOp op : all_port_ops) {
        for (const Primitive p : durability_plan(op)) s += (s.empty() ? "" : ", ") + std::string(to_string(op)) + "." + std::string(to_string(p));
    }
    return s;
}

}  // namespace

int r0_power_cut(const std::vector<sim::R0Fixture>& fixtures, std::uint64_t seed, bool json, const std::optional<std::string>& without) {
    DurabilityPlans plans;
    if (without) {
        const auto w = plans_without(*without);
        if (!w) return usage_error("r0", "--without: '" + printable(*without) + "' is no primitive of the protocol (" + plan_names() + ")");
        plans = *w;
    }
    const r0::PowerResult r = r0::run_power_bench(fixtures, seed, plans);
    if (json) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const auto& row : r.rows) {
            rows.push_back({{"fixture", row.fixture}, {"run", row.run}, {"primitives", row.primitives}, {"cut_points", row.cut_points},
                            {"held", row.held}, {"survivals", row.survivals}, {"recovery_cuts", row.recovery_cuts},
                            {"failures", row.failures}});
        }
        std::cout << dump_json(nlohmann::ordered_json{{"rows", rows}, {"seed", seed}, {"without", without.value_or("")}, {"cut_points", r.cut_points}, {"held", r.held},
                                                      {"survivals", r.survivals}, {"recovery_cuts", r.recovery_cuts}, {"drawn", r.drawn},
                                                      {"volatile_max", r.volatile_max}, {"pass", r.pass()}})
                  << "\n";
        return r.pass() ? exit_ok : exit_violation;
    }
    std::cout << "R0 power cut at every point (before every primitive call of every port operation and journal\n"
                 "append, and after the end; every volatile change lost, kept or torn; recovery from the surviving\n"
                 "journal alone on the surviving folder, itself cut once per point, then run again)\n";
    if (without) std::cout << "the protocol WITHOUT " << *without << "\n";
    std::cout << "\n";
    std::cout << "| fixture | task | primitives | cut points held | survivals judged | recoveries cut | first failure |\n";
    for (const auto& row : r.rows) {
        std::cout << "| " << row.fixture << " | " << row.run << " | " << row.primitives << " | " << row.held << "/" << row.cut_points
                  << " | " << row.survivals << " | " << row.recovery_cuts << " | "
                  << (row.failures.empty() ? "" : printable(row.failures.front())) << " |\n";
    }
    std::cout << "\npower-cut points: " << r.cut_points << "; held: " << r.held << "/" << r.cut_points << "; survivals judged: " << r.survivals
              << "; recoveries cut and re-run: " << r.recovery_cuts << " (seed " << seed << ")\n";
    std::cout << "at most " << r.volatile_max << " volatile changes at one point; points with more than " << r0::power_fates_max
              << " combinations (drawn from the seed, not all judged): " << r.drawn << "\n";
    std::cout << (r.pass() ? "pass: every power-cut point recovered\n" : "FAIL: a power-cut point did not recover\n");
    return r.pass() ? exit_ok : exit_violation;
}

}  // namespace deskcheck::cli
