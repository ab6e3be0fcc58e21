// The helper protocol and adapter (SPEC P-1, P-2).
#include <boost/test/unit_test.hpp>

#include "model/protocol.h"

using namespace deskcheck;

namespace {
Evidence some_evidence() {
    Evidence e;
    e.delivery = "edit_message";
    e.delivered = true;
    e.before = Snapshot{std::string("a"), Selection{1, 0}, {}, {}, {}, {}};
    e.after = Snapshot{std::string("a"), Selection{1, 0}, {}, {}, {}, {}};
    e.rule = "type.missing";
    e.checks_ran.push_back({"type.missing", true});
    return e;
}
}  // namespace

BOOST_AUTO_TEST_CASE(P2_verified_false_becomes_a_failure_that_keeps_its_evidence) {
    const auto helper = helper_result(Verdict::Absent, some_evidence());
    BOOST_TEST(helper.success);
    BOOST_TEST(!helper.verified);
    BOOST_TEST(helper.verifiable);
    const auto tool = adapt(helper);
    BOOST_TEST(!tool.ok);
    BOOST_REQUIRE(tool.verdict.has_value());
    BOOST_TEST(to_string(*tool.verdict) == "Absent");
    BOOST_TEST(tool.evidence.rule == "type.missing");
    BOOST_TEST(tool.evidence.before.has_value());
    BOOST_TEST(!tool.error.has_value());
}

BOOST_AUTO_TEST_CASE(P2_verifiable_false_is_unknown_and_not_a_failure) {
    HelperResult helper;
    helper.success = true;
    helper.verified = false;  // must not matter when not verifiable
    helper.verifiable = false;
    helper.evidence = some_evidence();
    const auto tool = adapt(helper);
    BOOST_TEST(tool.ok);
    BOOST_REQUIRE(tool.verdict.has_value());
    BOOST_TEST(to_string(*tool.verdict) == "Unknown");
    BOOST_TEST(tool.evidence.delivery == "edit_message");
}

BOOST_AUTO_TEST_CASE(P2_verified_true_is_confirmed) {
    const auto tool = adapt(helper_result(Verdict::Confirmed, some_evidence()));
    BOOST_TEST(tool.ok);
    BOOST_REQUIRE(tool.verdict.has_value());
    BOOST_TEST(to_string(*tool.verdict) == "Confirmed");
}

BOOST_AUTO_TEST_CASE(V1_P1_an_execution_error_is_not_a_verdict_and_keeps_evidence) {
    const auto tool = adapt(helper_error(Error{ErrorKind::ElementNotFound, "e17"}, some_evidence()));
    BOOST_TEST(!tool.ok);
    BOOST_TEST(!tool.verdict.has_value());
    BOOST_REQUIRE(tool.error.has_value());
    BOOST_TEST(to_string(tool.error->kind) == "element_not_found");
    BOOST_TEST(tool.evidence.delivery == "edit_message");
}

BOOST_AUTO_TEST_CASE(P2_round_trip_of_every_verdict_through_the_wire_form) {
    for (Verdict v : {Verdict::Confirmed, Verdict::Absent, Verdict::Unknown}) {
        const auto tool = adapt(helper_result(v, some_evidence()));
        BOOST_REQUIRE(tool.verdict.has_value());
        BOOST_TEST(to_string(*tool.verdict) == to_string(v));
        BOOST_TEST(tool.ok == (v != Verdict::Absent));
    }
}
