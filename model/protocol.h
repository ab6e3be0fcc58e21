// The helper protocol and its adapter (SPEC P-2).
//
// The native helper reports a verification failure as success:true, verified:false plus evidence
// (a failing exit would lose the evidence in transport). The adapter turns that into ok:false and
// keeps the evidence. verifiable:false means "not enough evidence": it is never turned into a
// failure; the verdict is Unknown.
#pragma once

#include <optional>

#include "model/evidence.h"

namespace deskcheck {

struct HelperResult {
    bool success = false;     // the helper ran the action without an execution error
    bool verified = false;    // the post-condition holds (meaningful when verifiable)
    bool verifiable = false;  // the evidence suffices to judge the post-condition
    Evidence evidence;
    std::optional<Error> error;  // set when success is false
};

struct ToolResult {
    bool ok = false;
    std::optional<Verdict> verdict;  // nullopt on an execution error (V-1)
    Evidence evidence;
    std::optional<Error> error;
};

// Helper side: encode a judgement (or an execution error) into the wire form.
HelperResult helper_result(Verdict verdict, Evidence evidence);
HelperResult helper_error(Error error, Evidence evidence);

// Tool side: the adapter.
ToolResult adapt(const HelperResult& helper);
ToolResult adapt(HelperResult&& helper);  // the same, taking the evidence over instead of copying it

}  // namespace deskcheck
