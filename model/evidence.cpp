#include "model/evidence.h"

#include "model/shown.h"

namespace deskcheck {

std::string_view to_string(ErrorKind k) {
    switch (k) {
        case ErrorKind::ElementNotFound: return "element_not_found";
        case ErrorKind::RefUnknown: return "ref_unknown";
        case ErrorKind::CrossWindowRef: return "ref_window_mismatch";
        case ErrorKind::TargetOccluded: return "target_occluded";
        case ErrorKind::BadRequest: return "bad_request";
        case ErrorKind::DeliveryFailed: return "delivery_failed";
        case ErrorKind::Exception: return "exception";
        case ErrorKind::WindowNotFound: return "window_not_found";
        case ErrorKind::Escalate: return "escalate";
        case ErrorKind::ForegroundRefused: return "foreground_refused";
        case ErrorKind::LaunchFailed: return "launch_failed";
    }
    return "?";
}

namespace {
template <class T>
void compare(std::vector<std::string>& out, const char* name, const std::optional<T>& a,
             const std::optional<T>& b) {
    if (!a.has_value() || !b.has_value()) {
        if (a.has_value() != b.has_value()) out.push_back(std::string(name) + ": (unreadable)");
        return;
    }
    if (*a != *b) out.emplace_back(name);
}

}  // namespace

std::vector<std::string> changed_readings(const Snapshot& before, const Snapshot& after) {
    std::vector<std::string> out;
    compare(out, "value", before.value, after.value);
    compare(out, "selection", before.selection, after.selection);
    compare(out, "toggled", before.toggled, after.toggled);
    compare(out, "expanded", before.expanded, after.expanded);
    compare(out, "selected", before.selected, after.selected);
    compare(out, "dirty", before.dirty, after.dirty);
    return out;
}

std::string show_value(const std::optional<std::string>& v) {
    return v ? shown_text(*v) : std::string("(unreadable)");
}
std::string show_selection(const std::optional<Selection>& s) {
    if (!s) return "(unreadable)";
    return "[" + std::to_string(s->start) + "+" + std::to_string(s->length) + "]";
}
std::string show_flag(const std::optional<bool>& b) {
    if (!b) return "(unreadable)";
    return *b ? "true" : "false";
}
std::string show_snapshot(const Snapshot& s) {
    // Value and selection always (they are the edit readings); the state flags only when read,
    // so a trace line stays short. Unreadable prints as (unreadable) (V-2).
    std::string out = "value=" + show_value(s.value) + " selection=" + show_selection(s.selection);
    if (s.toggled) out += " toggled=" + show_flag(s.toggled);
    if (s.expanded) out += " expanded=" + show_flag(s.expanded);
    if (s.selected) out += " selected=" + show_flag(s.selected);
    if (s.dirty) out += " dirty=" + show_flag(s.dirty);
    return out;
}

std::string show_snapshot(const Snapshot& s, ActionKind kind) {
    if (kind == ActionKind::Unverifiable) return "(nothing read: no readable state, V-8)";
    if (kind != ActionKind::ClickStateful) return show_snapshot(s);
    std::string out;
    if (s.toggled || (!s.expanded && !s.selected)) out += "toggled=" + show_flag(s.toggled);
    if (s.expanded) out += (out.empty() ? "" : " ") + std::string("expanded=") + show_flag(s.expanded);
    if (s.selected) out += (out.empty() ? "" : " ") + std::string("selected=") + show_flag(s.selected);
    return out;
}

}  // namespace deskcheck
