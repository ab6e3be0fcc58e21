// Wrong ways to undo (the negative proofs of failure_leaves_nothing): each is a small UndoPolicy
// the check must catch with a small counterexample. Test-side: model/ keeps only the right one.
#pragma once

#include <memory>
#include <string>

#include "model/undo.h"

namespace deskcheck::r0 {

// "current" (the tool's own policy: nullptr), "null-as-empty" (writes "" back for null),
// "forget-folders" (never removes the folders a step created), "skip-failed-line" (no journal line
// for the failed step), "wrong-order" (undoes the first step first). Unknown name: nullptr + false.
struct PolicyChoice {
    bool known = false;
    std::unique_ptr<UndoPolicy> policy;  // null for "current"
};
PolicyChoice make_policy(const std::string& name);
inline constexpr const char* policy_names[] = {"current", "null-as-empty", "forget-folders", "skip-failed-line", "wrong-order"};

}  // namespace deskcheck::r0
