#include "checks/names.h"

namespace deskcheck::props {

std::string_view name_of(Verdict v) {
    switch (v) {
        case Verdict::Confirmed: return "Confirmed";
        case Verdict::Absent: return "Absent";
        case Verdict::Unknown: return "Unknown";
    }
    return "?";
}

std::string_view name_of(ActionKind k) {
    switch (k) {
        case ActionKind::SelectAll: return "select_all";
        case ActionKind::Hotkey: return "hotkey";
        case ActionKind::TypeText: return "type_text";
        case ActionKind::TypeWithNavigation: return "type_with_navigation";
        case ActionKind::ClickStateful: return "click_stateful";
        case ActionKind::Unverifiable: return "unverifiable";
    }
    return "?";
}

std::string_view name_of(HotkeyIntent i) {
    switch (i) {
        case HotkeyIntent::Save: return "save";
        case HotkeyIntent::Edit: return "edit";
        case HotkeyIntent::Navigate: return "navigate";
        case HotkeyIntent::Focus: return "focus";
        case HotkeyIntent::Other: return "other";
    }
    return "?";
}

std::string_view name_of(ClickState s) {
    switch (s) {
        case ClickState::None: return "none";
        case ClickState::Toggle: return "toggle";
        case ClickState::Expand: return "expand";
        case ClickState::Select: return "select";
    }
    return "?";
}

std::string_view name_of(Promise p) {
    switch (p) {
        case Promise::SelectionCoversText: return "selection covers the text";
        case Promise::DirtyCleared: return "the unsaved-changes marker clears";
        case Promise::ValueChanged: return "the value changes";
        case Promise::SelectionChanged: return "the selection changes";
        case Promise::ValueOrSelectionChanged: return "the value or the selection changes";
        case Promise::ValueContainsText: return "the value contains the typed text";
        case Promise::StateFlipped: return "the control's state flips";
        case Promise::ItemSelected: return "the item is selected";
        case Promise::Nothing: return "nothing observable";
    }
    return "?";
}

// The error kinds as the report format (SPEC's E- and F- rows) names them.
std::string_view name_of(ErrorKind k) {
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

std::string_view name_of(RequestKind k) {
    switch (k) {
        case RequestKind::Type: return "type";
        case RequestKind::Hotkey: return "hotkey";
        case RequestKind::Click: return "click";
        case RequestKind::ClickAt: return "click_at";
        case RequestKind::Observe: return "observe";
    }
    return "?";
}

std::string_view name_of(WriteOutcome o) {
    switch (o) {
        case WriteOutcome::Done: return "done";
        case WriteOutcome::NotDone: return "not_done";
        case WriteOutcome::Unknown: return "unknown";
    }
    return "?";
}

std::string_view name_of(WriteShape s) {
    switch (s) {
        case WriteShape::AppendsText: return "appends_text";
        case WriteShape::ContainsText: return "contains_text";
        case WriteShape::ClearsDirty: return "clears_dirty";
    }
    return "?";
}

std::string_view name_of(ObservationOutcome o) {
    switch (o) {
        case ObservationOutcome::Observed: return "observed";
        case ObservationOutcome::NotObserved: return "not_observed";
        case ObservationOutcome::NeedsEvidence: return "needs_evidence";
        case ObservationOutcome::Blocked: return "blocked";
    }
    return "?";
}

// The delivery methods as a report's `delivery` claim names them (P-1).
std::string_view name_of(DeliveryMethod m) {
    switch (m) {
        case DeliveryMethod::EditMessage: return "edit_message";
        case DeliveryMethod::PostedKeys: return "posted_keys";
        case DeliveryMethod::ClickMessage: return "click_message";
        case DeliveryMethod::PostedClick: return "posted_click";
        case DeliveryMethod::UiaInvoke: return "uia_invoke";
        case DeliveryMethod::UiaToggle: return "uia_toggle";
        case DeliveryMethod::UiaExpand: return "uia_expand";
        case DeliveryMethod::UiaSelect: return "uia_select";
        case DeliveryMethod::UiaSetValue: return "uia_set_value";
        case DeliveryMethod::RealInput: return "real_input";
    }
    return "?";
}

std::string_view name_of(Framework f) {
    switch (f) {
        case Framework::Win32: return "win32";
        case Framework::WinForms: return "winforms";
        case Framework::Wpf: return "wpf";
        case Framework::Electron: return "electron";
    }
    return "?";
}

}  // namespace deskcheck::props
