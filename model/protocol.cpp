#include "model/protocol.h"

#include <utility>

namespace deskcheck {

HelperResult helper_result(Verdict verdict, Evidence evidence) {
    HelperResult h;
    h.success = true;
    h.verifiable = verdict != Verdict::Unknown;
    h.verified = verdict == Verdict::Confirmed;
    h.evidence = std::move(evidence);
    return h;
}

HelperResult helper_error(Error error, Evidence evidence) {
    HelperResult h;
    h.success = false;
    h.error = std::move(error);
    h.evidence = std::move(evidence);
    return h;
}

ToolResult adapt(const HelperResult& helper) { return adapt(HelperResult(helper)); }

ToolResult adapt(HelperResult&& helper) {
    ToolResult r;
    r.evidence = std::move(helper.evidence);  // P-1: failures carry evidence too
    if (!helper.success) {
        r.ok = false;
        r.error = helper.error ? std::move(*helper.error)
                               : Error{ErrorKind::DeliveryFailed, "helper failed without detail"};
        return r;
    }
    if (!helper.verifiable) {
        r.ok = true;  // not enough evidence is not a failure (P-2, V-8)
        r.verdict = Verdict::Unknown;
        return r;
    }
    r.ok = helper.verified;
    r.verdict = helper.verified ? Verdict::Confirmed : Verdict::Absent;
    return r;
}

}  // namespace deskcheck
