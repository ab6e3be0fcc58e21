#include "harness/observation_campaign.h"

#include <algorithm>
#include <cassert>

#include "harness/observation_mutation.h"

namespace deskcheck::props {
namespace {

std::optional<ObservationViolation> violation_of(const ObservationCase& c, ObservationTable table, const std::string& property) {
    for (ObservationViolation& v : observation_violations(c, table)) {
        if (v.property == property) return std::move(v);
    }
    return std::nullopt;
}

ObservationCounterexample counterexample_of(const ObservationCase& c, const ObservationViolation& v, std::uint32_t index,
                                            ObservationTable table, bool shrink) {
    ObservationCounterexample x{v.property, v.explanation, index, c, c, 0};
    if (shrink) {
        x.shrink_attempts = shrink_observation_case(
            x.shrunk, [&](const ObservationCase& candidate) { return violation_of(candidate, table, v.property).has_value(); });
        const auto still = violation_of(x.shrunk, table, v.property);
        assert(still.has_value());  // the shrink keeps the property violated
        x.explanation = still->explanation;
    }
    return x;
}

}  // namespace

bool is_observation_property(const std::string& property) {
    const auto checks = observation_checks();
    return std::any_of(checks.begin(), checks.end(), [&](const ObservationCheck& c) { return c.name == property; });
}

ObservationCampaignResult run_observation_campaign(const ObservationCampaignOptions& o) {
    assert(!o.property || is_observation_property(*o.property));
    ObservationCampaignResult r;
    for (const ObservationCheck& check : observation_checks()) {
        if (!o.property || check.name == *o.property) r.properties.push_back({std::string(check.name), 0});
    }
    for (std::uint32_t k = 0; k < o.cases; ++k) {
        if (o.stop && o.stop()) break;
        const std::uint32_t index = o.first_case + k;
        const ObservationCase c = observation_case(o.seed, index);
        bool any = false;
        for (const ObservationViolation& v : observation_violations(c, o.table)) {
            const auto tally = std::find_if(r.properties.begin(), r.properties.end(),
                                            [&](const ObservationPropertyTally& t) { return t.property == v.property; });
            if (tally == r.properties.end()) continue;
            any = true;
            if (tally->violated++ == 0) r.counterexamples.push_back(counterexample_of(c, v, index, o.table, o.shrink));
        }
        ++r.cases;
        if (o.progress) o.progress(r.cases, o.cases);
        if (any && o.stop_at_first_violation) break;
    }
    assert(r.cases <= o.cases);
    return r;
}

}  // namespace deskcheck::props
