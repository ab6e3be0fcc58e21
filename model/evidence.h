// Evidence (P-1, F-2, W-3) and execution errors (V-1: an error is not a verdict).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/verdict.h"

namespace deskcheck {

enum class ErrorKind : std::uint8_t {
    ElementNotFound,    // E-2: the locator matched nothing; the caller re-snapshots
    RefUnknown,         // E-1: the ref is not (or no longer) in the table
    CrossWindowRef,     // E-3: a ref of window A used with target B
    TargetOccluded,     // E-5: the point does not hit the target window; nothing was clicked
    BadRequest,         // a coordinate action without target + frame + point, and the like
    DeliveryFailed,     // the desktop answered the delivery with an error
    Exception,          // the delivery threw (F-6)
    WindowNotFound,     // the target window does not exist
    Escalate,           // B-3 / W-4: a dependency is still unknown after one observation
    ForegroundRefused,  // F-1: refused twice, even after F24
    LaunchFailed,       // F-8: no such app, or no new window appeared
};
std::string_view to_string(ErrorKind k);

struct Error {
    ErrorKind kind = ErrorKind::DeliveryFailed;
    std::string detail;
    friend bool operator==(const Error&, const Error&) = default;
};

// F-2: the foreground evidence of one action (or of a whole batch).
struct ForegroundEvidence {
    bool unchanged = true;
    bool borrowed = false;
    std::string by;            // "tool" | "app" when borrowed
    bool restored = false;
    std::int64_t duration_ms = 0;
    std::optional<std::int64_t> waited_for_user_ms;
    bool held = false;                  // F-5: kept in front for the rest of a batch
    std::optional<std::uint32_t> prev;  // F-5: whom to give it back to
    std::optional<std::string> changed_by;  // "another-window" (F-4)
    bool retried_after_refusal = false;     // F-1: F24 pressed and the request retried
    friend bool operator==(const ForegroundEvidence&, const ForegroundEvidence&) = default;
};

// P-1: everything an action result carries, failures included.
struct Evidence {
    std::string delivery;                 // the delivery method used, "" when nothing was delivered
    bool delivered = false;
    std::optional<Snapshot> before;
    std::optional<Snapshot> after;
    std::vector<std::string> changes;     // readings that differ between before and after
    Promise promise = Promise::Nothing;   // V-9: what the action promised to change
    std::string rule;                     // the deciding rule row
    std::vector<Check> checks_ran;
    std::vector<SkippedCheck> checks_not_run;
    std::int64_t settle_ms = 0;           // virtual time waited for the state to settle
    bool settled = false;
    ForegroundEvidence foreground;
};

// The readings that differ, by name ("value", "selection", ...). Unreadable on either side counts
// as "cannot compare", not as a change, and is listed as "<name>: (unreadable)".
std::vector<std::string> changed_readings(const Snapshot& before, const Snapshot& after);

// How traces print a reading: "(unreadable)" for nullopt (V-2), otherwise quoted and, when long, cut
// with its length and digest (model/shown.h shown_text).
std::string show_value(const std::optional<std::string>& v);
std::string show_selection(const std::optional<Selection>& s);
std::string show_flag(const std::optional<bool>& b);
// value and selection always; toggled/expanded/selected/dirty only when readable.
std::string show_snapshot(const Snapshot& s);
// Only the readings an action of `kind` reads (a click does not read the value).
std::string show_snapshot(const Snapshot& s, ActionKind kind);

}  // namespace deskcheck
