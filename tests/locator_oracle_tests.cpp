// The locator's oracle (checks/locator_oracle.h), which fuzz_locator asks of every resolution: it
// holds for the tool's resolve() on a tree whose identities are shared, and it catches a guess, a
// wrong element, a wrong error and a ref of another window let through (negative proofs).
#include <boost/test/unit_test.hpp>

#include <string>

#include "checks/locator_oracle.h"
#include "model/locator.h"

using namespace deskcheck;
using namespace deskcheck::props;

namespace {

ElementNode node(ElementId id, std::string role, std::optional<std::string> aid, std::string name, std::vector<std::uint32_t> children = {}) {
    ElementNode n;
    n.id = id;
    n.role = std::move(role);
    n.automation_id = std::move(aid);
    n.name = std::move(name);
    n.children = std::move(children);
    return n;
}

// A window whose two list items share their identity (role + name), and one unique edit box.
ElementTree tree() {
    ElementTree t;
    t.window = 1;
    t.nodes = {node(100, "Pane", std::nullopt, "root", {1, 2, 3}), node(101, "ListItem", std::nullopt, "row"),
               node(102, "ListItem", std::nullopt, "row"), node(103, "Edit", std::string("name"), "Name")};
    return t;
}

}  // namespace

BOOST_AUTO_TEST_CASE(E1_E2_the_tools_locators_and_resolutions_keep_the_oracle) {
    const ElementTree t = tree();
    for (std::uint32_t i = 0; i < t.nodes.size(); ++i) {
        const auto loc = locator_of(t, i);
        BOOST_TEST_REQUIRE(loc.has_value());
        BOOST_TEST(!locator_taken_lie(t, i, *loc).has_value());
        BOOST_TEST(!resolution_lie(t, *loc, resolve(t, *loc)).has_value());
    }
}

BOOST_AUTO_TEST_CASE(E2_a_guess_between_two_alike_elements_is_caught) {
    ElementTree t = tree();
    const auto loc = locator_of(t, 1);  // the first "row": its identity is shared
    BOOST_TEST_REQUIRE(loc.has_value());
    BOOST_TEST(!loc->identity_unique);
    Locator loose = *loc;
    loose.identity_unique = true;  // a locator that forgot the tie: identity alone matches both rows
    loose.path = {7};              // and a path that no longer leads anywhere
    const Resolved guess{102, 2, true};  // a deliberately wrong resolver: the first match by search
    const auto lie = resolution_lie(t, loose, guess);
    BOOST_TEST_REQUIRE(lie.has_value());
    BOOST_TEST(lie->find("guess") != std::string::npos, *lie);
    BOOST_TEST(locator_taken_lie(t, 1, loose).has_value());  // and the locator itself misstates the snapshot
}

BOOST_AUTO_TEST_CASE(E2_a_wrong_element_and_a_wrong_error_are_caught) {
    const ElementTree t = tree();
    const auto loc = locator_of(t, 3);
    BOOST_TEST_REQUIRE(loc.has_value());
    BOOST_TEST(resolution_lie(t, *loc, Resolved{101, 1, false}).has_value());  // another element
    BOOST_TEST(resolution_lie(t, *loc, Resolved{999, 3, false}).has_value());  // another id
    Error not_found{ErrorKind::ElementNotFound, ""};
    BOOST_TEST(resolution_lie(t, *loc, not_found).has_value());  // the unique match was there
    Error other{ErrorKind::BadRequest, ""};
    ElementTree gone = t;
    gone.nodes[0].children = {1, 2};  // the edit box removed: not found is right, bad_request is not
    BOOST_TEST(!resolution_lie(gone, *loc, not_found).has_value());
    BOOST_TEST(resolution_lie(gone, *loc, other).has_value());
}

BOOST_AUTO_TEST_CASE(E3_a_ref_of_another_window_let_through_is_caught) {
    StepReport rejected;
    rejected.result.error = Error{ErrorKind::CrossWindowRef, ""};
    BOOST_TEST(!foreign_ref_lie(rejected, 0).has_value());
    BOOST_TEST(foreign_ref_lie(rejected, 1).has_value());  // rejected, but an input went out anyway
    StepReport accepted;                                     // a tool that ignored the window binding
    BOOST_TEST(foreign_ref_lie(accepted, 0).has_value());
}
