// The checker linked with nothing of the tool (checks/CMakeLists.txt): if a check called into
// model/ or the simulated desktop, this program would not link. It runs every check on the
// empty history of an empty scenario: each must answer (holds or cannot judge), none may crash or
// call a violation on a run that did nothing.
#include <cstdio>

#include "checks/checks.h"

int main() {
    const deskcheck::sim::Scenario scenario;
    const deskcheck::sim::GroundTruth truth;
    deskcheck::props::History history;
    history.ledger = &truth;
    int failures = 0;
    for (const auto& check : deskcheck::props::all_checks()) {
        if (check.fn == nullptr) continue;  // deterministic: the harness runs it (harness/deterministic.h)
        const auto r = check.fn(scenario, history);
        if (r.status == deskcheck::props::CheckStatus::Violated) {
            std::fprintf(stderr, "checks_alone: %.*s calls a violation on an empty run: %s\n",
                         static_cast<int>(check.name.size()), check.name.data(), r.violation->explanation.c_str());
            ++failures;
        }
    }
    std::printf("checks_alone: %zu checks judged an empty history without the tool linked\n",
                deskcheck::props::all_checks().size() - 1);
    return failures == 0 ? 0 : 1;
}
