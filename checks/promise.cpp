#include "checks/promise.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "checks/verdict_oracle.h"

namespace deskcheck::props {
namespace {

std::string lowered(std::string_view text) {
    std::string k(text);
    std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return k;
}

bool select_all_keys(std::string_view keys) {
    const std::string k = lowered(keys);
    return k == "ctrl+a" || k == "control+a";
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

std::vector<sim::ReadField> deciding_fields(sim::EffectKind promised) {
    using sim::EffectKind;
    switch (promised) {
        // Typing: the value, and the selection it replaces (D-2 "set to X": the splice into the
        // selection read before; the caret after the text shows the typing landed).
        case EffectKind::ValueChanged: return {sim::ReadField::Value, sim::ReadField::Selection};
        case EffectKind::SelectionChanged: return {sim::ReadField::Value, sim::ReadField::Selection};
        case EffectKind::Toggled: return {sim::ReadField::Toggled};
        case EffectKind::Expanded: return {sim::ReadField::Expanded};
        case EffectKind::Selected: return {sim::ReadField::Selected};
        default: return {};
    }
}

bool has_control_keys(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

HotkeyIntent intent_of_keys(std::string_view keys) {
    const std::string k = lowered(keys);
    if (k == "ctrl+s" || k == "control+s") return HotkeyIntent::Save;
    for (const auto* e : {"ctrl+z", "ctrl+y", "ctrl+x", "ctrl+v", "ctrl+shift+z", "delete", "backspace"}) {
        if (k == e) return HotkeyIntent::Edit;
    }
    for (const auto* n : {"home", "end", "left", "right", "up", "down", "ctrl+home", "ctrl+end", "shift+home", "shift+end"}) {
        if (k == n) return HotkeyIntent::Navigate;
    }
    if (k == "tab" || k == "shift+tab") return HotkeyIntent::Focus;
    return HotkeyIntent::Other;
}

Promise expected_promise(const sim::Scenario& s, const sim::Step& step, bool has_ref, bool hotkeys_by_intent) {
    switch (step.kind) {
        case sim::StepKind::Type: return has_ref ? Promise::ValueContainsText : Promise::Nothing;  // V-5, V-6; V-8
        case sim::StepKind::Hotkey: {
            if (!has_ref) return Promise::Nothing;
            if (select_all_keys(step.keys)) return Promise::SelectionCoversText;  // V-3
            ActionFacts hotkey;  // V-4: the rule set's stated hotkey promise, for the keys' intent
            hotkey.kind = ActionKind::Hotkey;
            hotkey.intent = intent_of_keys(step.keys);
            return promise_stated(hotkey, hotkeys_by_intent);
        }
        case sim::StepKind::Click: {
            // V-7: a control with a readable toggle, expand or selection state, by its UIA role.
            const sim::Control* c = has_ref ? control_anywhere(s, step.control).control : nullptr;
            if (c == nullptr) return Promise::Nothing;
            const std::string& role = c->role;
            if (role == "CheckBox" || role == "ToggleButton" || role == "Toggle") return Promise::StateFlipped;
            if (role == "TreeItem" || role == "Expander" || role == "Group.Expander") return Promise::StateFlipped;
            if (role == "ListItem" || role == "TabItem" || role == "RadioButton") return Promise::ItemSelected;
            return Promise::Nothing;  // V-8: a plain button
        }
        default: return Promise::Nothing;  // clicks by coordinates, launches, observations
    }
}

}  // namespace deskcheck::props
