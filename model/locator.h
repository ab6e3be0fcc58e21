// Element refs and locators (SPEC E-1..E-3).
//
// A snapshot hands out short refs ("e17"); behind each is a Locator {window, path of child indices
// from the window root, role, automationId if any, name}. The caller never sees locators.
// The table holds at most ref_table_max entries: when it is full, registering a new ref evicts the
// oldest one (first in, first out); using an evicted ref gives `ref_unknown` and the caller takes a
// new snapshot. Ref numbers are never reused.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/desktop.h"
#include "model/evidence.h"

namespace deskcheck {

inline constexpr std::size_t ref_table_max = 5000;        // E-1
inline constexpr std::size_t subtree_search_depth_max = 40;  // E-2
inline constexpr std::size_t tree_nodes_max = 100'000;     // a bound on any tree walk

struct Locator {
    WindowId window = no_window;
    std::vector<std::uint32_t> path;  // child indices from the window root
    std::string role;
    std::optional<std::string> automation_id;
    std::string name;
    // Whether no other element of the window had the same identity (role + automationId, or role +
    // name) when the locator was taken. When it had, identity alone cannot tell the two apart after
    // the tree changes, so the element's runtime id (UIA's RuntimeId) breaks the tie (E-2).
    bool identity_unique = true;
    ElementId element = 0;
    friend bool operator==(const Locator&, const Locator&) = default;
};

// What a caller sees of an element: never its locator.
struct ElementRef {
    std::string ref;
    std::string role;
    std::string name;
    std::optional<std::string> automation_id;
};

class RefTable {
public:
    // Registers a locator and returns its new ref. Evicts the oldest ref when full.
    std::string add(Locator locator);
    const Locator* find(std::string_view ref) const;
    std::size_t size() const { return entries_.size(); }
    std::size_t evicted() const { return evicted_; }

private:
    // Refs are "e<n>" with n counting up from 1, so the table is a window of consecutive numbers:
    // entries_[i] is ref "e<first_ + i>". Lookup parses the number; nothing is searched.
    std::deque<Locator> entries_;
    std::uint64_t first_ = 1;
    std::size_t evicted_ = 0;
};

// The locator of node `index` in `tree` (path from the root), nullopt when out of range.
std::optional<Locator> locator_of(const ElementTree& tree, std::uint32_t index);
// locator_of() for every node, in node order (one walk of the tree; nullopt for detached nodes).
std::vector<std::optional<Locator>> locators_of(const ElementTree& tree);

// True when the node matches the locator's identity: role + automationId, or role + name when the
// locator has no automationId; and, when that identity was shared in the snapshot, the node is the
// same element (runtime id).
bool matches(const ElementNode& node, const Locator& locator);

struct Resolved {
    ElementId element = 0;
    std::uint32_t node = 0;       // index in the tree it was resolved in
    bool by_search = false;       // found by the subtree search, not by the path
};

// E-2: walk the path; if the element there matches, use it; otherwise search the subtree (depth
// <= 40) for exactly one match; otherwise element_not_found. Never a wrong element: a search that
// finds two candidates is element_not_found too, and an identity that two elements shared when the
// ref was taken resolves only to the element it was taken from (removed: element_not_found).
std::variant<Resolved, Error> resolve(const ElementTree& tree, const Locator& locator);

}  // namespace deskcheck
