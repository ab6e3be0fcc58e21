// Wrong ways to undo (the negative proofs of failure_leaves_nothing): each is a small UndoPolicy
// the check must catch with a small counterexample. Test-side: model/ keeps only the right one.
#pragma once

#include <memory>
#include <string>

#include "model/undo.h"
#include "harness/r0_crash.h"

namespace deskcheck::r0 {

// "current" (the tool's own policy: nullptr), "null-as-empty" (writes "" back for null),
// "forget-folders" (never removes the folders a step created), "skip-failed-line" (no journal line
// for the failed step), "wrong-order" (undoes the first step first). Unknown name: nullptr + false.
// Two wrong recoveries after a crash (harness/r0_crash.h; only the campaign kills tasks, so only
// it can catch them): "recover-skips-last-intent" (recovery loses the last pending intent: the
// step the task was in when it died is never undone), "recover-nothing" (recovery undoes nothing).
struct PolicyChoice {
    bool known = false;
    std::unique_ptr<UndoPolicy> policy;    // null for "current" and the wrong recoveries
    std::unique_ptr<R0Recovery> recovery;  // null but for the wrong recoveries
};
PolicyChoice make_policy(const std::string& name);
inline constexpr const char* policy_names[] = {"current",          "null-as-empty",  "forget-folders",
                                               "skip-failed-line", "wrong-order",    "recover-skips-last-intent",
                                               "recover-nothing"};

}  // namespace deskcheck::r0
