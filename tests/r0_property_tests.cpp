// failure_leaves_nothing as a RapidCheck property over the choice list the R0 fixture builder reads
// (sim/r0_generate.h): RapidCheck shrinks the list towards fewer and smaller decisions, so a
// counterexample shrinks to a small fixture. Fixed seed under ctest (RC_PARAMS).
#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include "harness/r0_campaign.h"

RC_BOOST_PROP(R1_failure_leaves_nothing_on_generated_desktops, (const std::vector<std::uint32_t>& choices)) {
    const deskcheck::r0::R0CaseResult r = deskcheck::r0::run_r0_case(choices, nullptr);
    RC_CLASSIFY(r.point.at_operation, "failure at an operation");
    RC_CLASSIFY(!r.fixture.others.empty(), "other programs write");
    RC_CLASSIFY(!r.fixture.initial.windows.empty(), "windows");
    if (r.violation) RC_FAIL(*r.violation + " | " + deskcheck::r0::describe_case(r));
}
