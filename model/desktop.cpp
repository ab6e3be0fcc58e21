#include "model/desktop.h"

namespace deskcheck {

std::string_view to_string(DpiAwareness a) {
    switch (a) {
        case DpiAwareness::Unaware: return "unaware";
        case DpiAwareness::System: return "system";
        case DpiAwareness::PerMonitor: return "per_monitor";
    }
    return "?";
}

std::string_view to_string(Framework f) {
    switch (f) {
        case Framework::Win32: return "win32";
        case Framework::WinForms: return "winforms";
        case Framework::Wpf: return "wpf";
        case Framework::Electron: return "electron";
    }
    return "?";
}

std::string_view to_string(DeliveryMethod m) {
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

std::string_view to_string(DeliveryStatus s) {
    switch (s) {
        case DeliveryStatus::Delivered: return "delivered";
        case DeliveryStatus::Failed: return "failed";
        case DeliveryStatus::Rejected: return "rejected";
    }
    return "?";
}

}  // namespace deskcheck
