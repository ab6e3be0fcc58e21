// Reads (V-2, S-3, S-7): every reading is optional; nullopt means "could not be read", never "".
//
// Each read draws three chances from the read stream, always in the same order and always all
// three (so later draws never depend on which branch was taken): intermittent unreadability (the
// control's intermittent_permille when Intermittent, else 0), read_failure_permille and
// stale_read_permille. Precedence: missing window/element/field, opaque (Electron) tree,
// Unreadable, intermittent, failed, then stale (the field's value before its latest landed update).
// Every read is recorded in ground truth and in the trace, unreadable printed as `(unreadable)`.
#include <cassert>

#include "sim/sim.h"

namespace deskcheck::sim {
namespace {

bool has_value(ControlKind k) { return k == ControlKind::Edit || k == ControlKind::Feed; }
bool has_selection(ControlKind k) { return k == ControlKind::Edit; }
bool has_toggled(ControlKind k) { return k == ControlKind::Toggle; }
bool has_expanded(ControlKind k) { return k == ControlKind::Expander; }
bool has_selected(ControlKind k) { return k == ControlKind::ListItem; }

std::string print_bool(bool b) { return b ? "true" : "false"; }
std::string print_selection(Selection s) { return std::to_string(s.start) + "," + std::to_string(s.length); }

}  // namespace

Sim::ReadAnswer Sim::begin_read(WindowId w, ElementId e, bool (*has_field)(ControlKind)) {
    settle_due();
    const LiveWindow* window = find_window(w);
    const LiveControl* c = live_control(w, e);
    const bool intermittent = c != nullptr && c->c.readability == Readability::Intermittent;
    const bool intermittent_miss = read_rng_.chance(intermittent ? c->c.intermittent_permille : 0);
    const bool failed = read_rng_.chance(scenario_.faults.read_failure_permille);
    const bool stale = read_rng_.chance(scenario_.faults.stale_read_permille);
    if (window == nullptr || !window->shown) return {nullptr, ReadFault::Missing, false};
    if (window->spec.framework == Framework::Electron) return {nullptr, ReadFault::Opaque, false};
    if (c == nullptr || !has_field(c->c.kind)) return {nullptr, ReadFault::Missing, false};
    if (c->c.readability == Readability::Unreadable) return {nullptr, ReadFault::Unreadable, false};
    if (intermittent_miss) return {nullptr, ReadFault::Unreadable, false};
    if (failed) return {nullptr, ReadFault::Failed, false};
    if (stale) return {c, ReadFault::Stale, true};
    return {c, ReadFault::None, false};
}

void Sim::record_read(WindowId w, ElementId e, ReadField field, const std::optional<std::string>& returned, ReadFault fault) {
    record_read(w, e, field, kept(returned), fault);
}

void Sim::record_read(WindowId w, ElementId e, ReadField field, std::optional<Kept> returned, ReadFault fault) {
    assert(returned.has_value() || fault != ReadFault::None);
    truth_.reads.push_back(Read{now_, w, e, field, std::move(returned), fault, truth_.attempts.size()});
    if (!trace_.on) return;
    std::string detail = std::string(to_string(field)) + " -> ";
    const auto& kept_returned = truth_.reads.back().returned;
    if (!kept_returned) detail += "(unreadable)";
    else if (field == ReadField::Value) detail += kept_returned->shown();  // shown_text, digest reused
    else detail += *kept_returned->whole();  // flags and selections are short: kept whole
    if (fault != ReadFault::None) detail += " [" + std::string(to_string(fault)) + "]";
    trace_.add(now_, TraceKind::Read, subject_of(w, e == 0 ? std::nullopt : std::optional(e)), detail);
}

std::optional<std::string> Sim::read_value(WindowId w, ElementId e) {
    const ReadAnswer a = begin_read(w, e, has_value);
    std::optional<std::string> out;
    std::optional<Kept> kept_out;
    if (a.control != nullptr) {
        out = a.stale ? a.control->prev_value : a.control->c.value;
        kept_out = a.stale ? a.control->prev_value_kept : a.control->value_kept;
    }
    record_read(w, e, ReadField::Value, std::move(kept_out), a.fault);
    return out;
}

std::optional<Selection> Sim::read_selection(WindowId w, ElementId e) {
    const ReadAnswer a = begin_read(w, e, has_selection);
    std::optional<Selection> out;
    if (a.control != nullptr) out = a.stale ? a.control->prev_selection : a.control->c.selection;
    record_read(w, e, ReadField::Selection, out ? std::optional(print_selection(*out)) : std::nullopt, a.fault);
    return out;
}

std::optional<bool> Sim::read_toggled(WindowId w, ElementId e) {
    const ReadAnswer a = begin_read(w, e, has_toggled);
    std::optional<bool> out;
    if (a.control != nullptr) out = a.stale ? a.control->prev_toggled : a.control->c.toggled;
    record_read(w, e, ReadField::Toggled, out ? std::optional(print_bool(*out)) : std::nullopt, a.fault);
    return out;
}

std::optional<bool> Sim::read_expanded(WindowId w, ElementId e) {
    const ReadAnswer a = begin_read(w, e, has_expanded);
    std::optional<bool> out;
    if (a.control != nullptr) out = a.stale ? a.control->prev_expanded : a.control->c.expanded;
    record_read(w, e, ReadField::Expanded, out ? std::optional(print_bool(*out)) : std::nullopt, a.fault);
    return out;
}

std::optional<bool> Sim::read_selected(WindowId w, ElementId e) {
    const ReadAnswer a = begin_read(w, e, has_selected);
    std::optional<bool> out;
    if (a.control != nullptr) out = a.stale ? a.control->prev_selected : a.control->c.selected;
    record_read(w, e, ReadField::Selected, out ? std::optional(print_bool(*out)) : std::nullopt, a.fault);
    return out;
}

// The title's unsaved marker: always readable except for the read faults (same three draws).
std::optional<bool> Sim::read_dirty(WindowId w) {
    settle_due();
    const LiveWindow* window = find_window(w);
    (void)read_rng_.chance(0);  // the intermittent slot: windows are never intermittent
    const bool failed = read_rng_.chance(scenario_.faults.read_failure_permille);
    const bool stale = read_rng_.chance(scenario_.faults.stale_read_permille);
    std::optional<bool> out;
    ReadFault fault = ReadFault::None;
    if (window == nullptr || !window->shown) fault = ReadFault::Missing;
    else if (failed) fault = ReadFault::Failed;
    else if (stale) fault = ReadFault::Stale, out = window->prev_dirty;
    else out = window->dirty;
    record_read(w, 0, ReadField::Dirty, out ? std::optional(print_bool(*out)) : std::nullopt, fault);
    return out;
}

}  // namespace deskcheck::sim
