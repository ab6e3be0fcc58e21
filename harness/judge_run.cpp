#include "harness/judge_run.h"
#include "harness/deterministic.h"

#include <cstdio>
#include <cstdlib>

#include "sim/scenario_json.h"

namespace deskcheck::props {

RunOptions fuzz_run_options() {
    RunOptions options;
    options.rules = &current_rules();
    options.agent_retries = true;
    options.trace = false;  // the report prints the scenario; replaying it prints the trace
    return options;
}

Determinism determinism_for(const std::uint8_t* data, std::size_t size) {
    std::uint32_t hash = 2166136261u;  // FNV-1a
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 16777619u;
    return hash % determinism_sample == 0 ? Determinism::Check : Determinism::Skip;
}

std::optional<Violation> first_violation(const sim::Scenario& scenario, const RunOptions& options,
                                                Determinism determinism) {
    const props::RunResult run = props::run_scenario(scenario, options);
    for (const props::NamedCheck& check : props::all_checks()) {
        if (check.fn == nullptr && determinism == Determinism::Skip) continue;
        const props::CheckResult result = props::run_check(check, scenario, run, options);
        if (result.status != props::CheckStatus::Violated) continue;
        if (result.violation) return result.violation;
        return Violation{std::string(check.name), std::nullopt, "violated (no explanation given)"};
    }
    return std::nullopt;
}

std::string violation_report(std::string_view target, const Violation& violation,
                             const sim::Scenario& scenario) {
    std::string out = "deskcheck " + std::string(target) + ": property " + violation.property + " violated";
    if (violation.step) out += " at step " + std::to_string(*violation.step);
    out += "\n  " + violation.explanation + "\n";
    out += "  run: current rules, W-2 agent retries on, no mutation; the scenario:\n";
    out += sim::encode_scenario_text(scenario);
    out += "  make it a counterexample: deskcheck convert <the crash file>\n";
    return out;
}

void report_and_abort(std::string_view target, const Violation& violation, const sim::Scenario& scenario) {
    const std::string report = violation_report(target, violation, scenario);
    std::fputs(report.c_str(), stderr);
    std::fflush(stderr);
    std::abort();
}

void invariant_broken(std::string_view target, std::string_view what, std::string_view details) {
    std::fprintf(stderr, "deskcheck %.*s: invariant broken: %.*s\n%.*s\n", static_cast<int>(target.size()),
                 target.data(), static_cast<int>(what.size()), what.data(), static_cast<int>(details.size()),
                 details.data());
    std::fflush(stderr);
    std::abort();
}

}  // namespace deskcheck::props
