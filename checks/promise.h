// What a scenario step promises, read from the scenario alone (V-9) — never from the tool's
// classification of the request. Shared by the checks that judge verdicts and write outcomes.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "model/verdict.h"
#include "sim/ground_truth.h"
#include "sim/scenario.h"

namespace deskcheck::props {

// The scenario's control `id` in window `w`, or nullptr.
const sim::Control* control_in(const sim::Scenario& s, WindowId w, ElementId id);

// The scenario's control `id` in whichever window holds it, and that window ({nullptr, no_window}
// when none does, or without an id). A step may name another window than the control's (E-3).
struct HeldControl {
    const sim::Control* control = nullptr;
    WindowId window = no_window;
};
HeldControl control_anywhere(const sim::Scenario& s, std::optional<ElementId> id);

// The effect on its element that the step promises: typing into an edit box changes its value,
// Ctrl+A on it changes the selection, a click on a toggle / expander / list item flips or selects
// it. Nothing for anything else (plain buttons, other hotkeys, clicks by coordinates).
std::optional<sim::EffectKind> promised_effect(const sim::Scenario& s, const sim::Step& step);

// V-9: what a step that reached its element promises, read from the scenario (the step's kind and
// keys, the control's UIA role, whether the agent had a ref) and the rule set's stated hotkey
// promise (as data) — written from the SPEC (V-3..V-8), not taken from the tool's classification.
Promise expected_promise(const sim::Scenario& s, const sim::Step& step, bool has_ref, bool hotkeys_by_intent);

// A hotkey chord's intent, as the seed names them (V-4), from the keys alone.
HotkeyIntent intent_of_keys(std::string_view keys);

// The fields of the element whose readings tell whether that promise held (sim's Read::field).
std::vector<sim::ReadField> deciding_fields(sim::EffectKind promised);

// Text with a key that may move the focus or submit (Tab, Enter, Esc, any control character): V-6.
bool has_control_keys(std::string_view text);

}  // namespace deskcheck::props
