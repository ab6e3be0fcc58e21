// The locator's oracle (SPEC E-1..E-3): what a locator taken from a snapshot, a resolution of it in
// a (changed) tree, and the tool's answer to a ref of another window must satisfy — decided from
// the trees alone, with SPEC's search depth, never with model/locator's own walk or constants.
// fuzz_locator draws the trees and asks the tool (harness side); this file says whether the answer
// is one the SPEC allows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "model/desktop.h"
#include "model/evidence.h"
#include "model/locator.h"
#include "model/tool.h"

namespace deskcheck::props {

// E-2 as SPEC states it: the subtree search looks at most 40 levels below the window's root.
inline constexpr std::size_t search_depth_spec = 40;

// E-1, E-2: the locator taken from node `index` of the snapshot carries that node's identity and
// id, and records whether another node reachable in the snapshot shared its identity.
std::optional<std::string> locator_taken_lie(const ElementTree& snapshot, std::uint32_t index, const Locator& loc);

// E-2: a resolution of `loc` in `tree` (the tool's answer: a node or an error). A resolved node is
// reachable, carries the id reported and the locator's identity; by its path when the path leads
// to a matching node, by search only when exactly one node within the search depth matches —
// never a guess; an error is element_not_found, and only when neither the path nor a unique match
// finds it.
std::optional<std::string> resolution_lie(const ElementTree& tree, const Locator& loc, const std::variant<Resolved, Error>& answer);

// E-3: the tool's report for a ref of one window sent with another window as its target: rejected
// as ref_window_mismatch, nothing delivered (`deliveries`: the inputs the desktop received).
std::optional<std::string> foreign_ref_lie(const StepReport& report, std::size_t deliveries);

// The tree and the locator as a person reads them.
std::string describe_locator(const ElementTree& tree, const Locator& loc);

}  // namespace deskcheck::props
