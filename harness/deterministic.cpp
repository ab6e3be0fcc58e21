#include "harness/deterministic.h"

#include "harness/report_print.h"
#include "model/evidence.h"
#include "sim/trace.h"

namespace deskcheck::props {

// ---- deterministic (S-1) ------------------------------------------------------------------------

CheckResult deterministic(const sim::Scenario& scenario, const RunOptions& given) {
    RunOptions options = given;
    options.trace = true;  // S-1 is about the trace
    // One run at a time (S-8: memory): of the first, only its trace and report are kept, as text.
    std::string ta;
    std::string report_a;
    {
        const RunResult a = run_scenario(scenario, options);
        ta = sim::to_text(a.trace());
        report_a = report_fingerprint(a);
    }
    const RunResult b = run_scenario(scenario, options);
    const std::string tb = sim::to_text(b.trace());
    if (ta != tb) {
        std::size_t at = 0;
        while (at < ta.size() && at < tb.size() && ta[at] == tb[at]) ++at;
        return CheckResult::violated("deterministic", std::nullopt,
                                     "two runs of the same scenario gave different traces (first difference at byte " +
                                         std::to_string(at) + ") (S-1)");
    }
    if (report_a != report_fingerprint(b)) {
        return CheckResult::violated("deterministic", std::nullopt, "two runs gave different reports (S-1)");
    }
    return CheckResult::holds(1);
}

CheckResult run_check(const NamedCheck& check, const sim::Scenario& scenario, const RunResult& run,
                      const RunOptions& options) {
    if (check.fn == nullptr) return deterministic(scenario, options);
    return check.fn(scenario, run);
}

}  // namespace deskcheck::props
