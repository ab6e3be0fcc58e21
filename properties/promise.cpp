#include "properties/promise.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace deskcheck::props {
namespace {

bool select_all_keys(std::string keys) {
    for (auto& ch : keys) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return keys == "ctrl+a" || keys == "control+a";
}

}  // namespace

const sim::Control* control_in(const sim::Scenario& s, WindowId w, ElementId id) {
    for (const auto& window : s.windows) {
        if (window.id != w) continue;
        for (const auto& c : window.controls) {
            if (c.id == id) return &c;
        }
    }
    return nullptr;
}

HeldControl control_anywhere(const sim::Scenario& s, std::optional<ElementId> id) {
    if (!id) return {};
    for (const auto& window : s.windows) {
        for (const auto& c : window.controls) {
            if (c.id == *id) return {&c, window.id};
        }
    }
    return {};
}

std::optional<sim::EffectKind> promised_effect(const sim::Scenario& s, const sim::Step& step) {
    using sim::ControlKind;
    using sim::EffectKind;
    if (!step.control) return std::nullopt;
    const sim::Control* control = control_in(s, step.window, *step.control);
    if (control == nullptr) return std::nullopt;
    switch (step.kind) {
        case sim::StepKind::Type:
            if (control->kind == ControlKind::Edit) return EffectKind::ValueChanged;
            return std::nullopt;
        case sim::StepKind::Hotkey:
            if (control->kind == ControlKind::Edit && select_all_keys(step.keys)) return EffectKind::SelectionChanged;
            return std::nullopt;
        case sim::StepKind::Click:
            if (control->kind == ControlKind::Toggle) return EffectKind::Toggled;
            if (control->kind == ControlKind::Expander) return EffectKind::Expanded;
            if (control->kind == ControlKind::ListItem) return EffectKind::Selected;
            return std::nullopt;
        default: return std::nullopt;
    }
}

std::vector<std::string_view> deciding_fields(sim::EffectKind promised) {
    using sim::EffectKind;
    switch (promised) {
        // Typing: the value, and the selection it replaces (D-2 "set to X": the splice into the
        // selection read before; the caret after the text shows the typing landed).
        case EffectKind::ValueChanged: return {"value", "selection"};
        case EffectKind::SelectionChanged: return {"value", "selection"};
        case EffectKind::Toggled: return {"toggled"};
        case EffectKind::Expanded: return {"expanded"};
        case EffectKind::Selected: return {"selected"};
        default: return {};
    }
}

bool has_control_keys(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

}  // namespace deskcheck::props
