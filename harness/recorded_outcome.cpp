#include "harness/recorded_outcome.h"

#include <algorithm>

namespace deskcheck::props {
namespace {

bool violated_where_recorded(const CheckResult& r, const std::optional<std::int32_t>& step) {
    if (r.status != CheckStatus::Violated) return false;
    if (!step) return true;
    return r.violation && r.violation->step && static_cast<std::int32_t>(*r.violation->step) == *step;
}

std::string where(const std::optional<std::int32_t>& step) { return step ? " at step " + std::to_string(*step) : ""; }

}  // namespace

std::string described(const CheckResult& r) {
    std::string out(to_string(r.status));
    if (r.violation) {
        out += " at step " + (r.violation->step ? std::to_string(*r.violation->step) : std::string("-")) + ": " + r.violation->explanation;
    }
    if (r.status == CheckStatus::CannotJudge) out += ": " + r.why_not_judged;
    return out;
}

RecordedOutcome recorded_outcome(const sim::CounterexampleHeader& header, const std::vector<PropertyOutcome>& as_recorded,
                                 const std::optional<CheckResult>& with_mutation) {
    RecordedOutcome out;
    const auto own = std::find_if(as_recorded.begin(), as_recorded.end(),
                                  [&](const PropertyOutcome& p) { return p.property == header.property; });
    if (own == as_recorded.end()) {
        out.why = header.property + ": not among the properties judged";
        return out;
    }
    if (header.expected_outcome == "violated") {
        out.reproduced = violated_where_recorded(own->result, header.step);
        if (!out.reproduced) out.why = header.property + " (expected violated" + where(header.step) + "): " + described(own->result);
    } else if (header.expected_outcome == "holds") {
        out.reproduced = own->result.status == CheckStatus::Holds;
        if (!out.reproduced) out.why = header.property + " (expected holds): " + described(own->result);
        for (const PropertyOutcome& p : as_recorded) {
            if (p.property == header.property || p.result.status != CheckStatus::Violated) continue;
            out.reproduced = false;
            out.why += (out.why.empty() ? "" : "\n") + p.property + " (expected not violated): " + described(p.result);
        }
    } else {
        out.why = "recorded outcome \"" + header.expected_outcome + "\" (expected \"violated\" or \"holds\")";
        return out;
    }
    if (header.mutation) {
        const bool again = with_mutation && violated_where_recorded(*with_mutation, header.step);
        if (!again) {
            out.reproduced = false;
            out.why += (out.why.empty() ? "" : "\n") + header.property + " with the header's mutation (expected violated" + where(header.step) +
                       "): " + (with_mutation ? described(*with_mutation) : std::string("not run"));
        }
    }
    return out;
}

RecordedOutcome recorded_observation_outcome(std::string_view property, const std::vector<ObservationViolation>& violations) {
    RecordedOutcome out;
    out.reproduced = std::any_of(violations.begin(), violations.end(), [&](const ObservationViolation& v) { return v.property == property; });
    if (!out.reproduced) out.why = std::string(property) + " (expected violated): not among the " + std::to_string(violations.size()) + " violation(s)";
    return out;
}

}  // namespace deskcheck::props
