#include "cli/situations.h"

#include <array>

#include "model/evidence.h"

namespace deskcheck::cli {
namespace {

Snapshot edit(std::optional<std::string> v, std::optional<Selection> s) {
    Snapshot out;
    out.value = std::move(v);
    out.selection = s;
    return out;
}

std::string describe(const ActionFacts& a) {
    std::string out(to_string(a.kind));
    if (a.kind == ActionKind::Hotkey) out += "(" + std::string(to_string(a.intent)) + ")";
    if (a.kind == ActionKind::ClickStateful) out += "(" + std::string(to_string(a.click_state)) + ")";
    if (!a.text.empty()) out += " " + show_value(a.text);
    return out;
}

void add(std::vector<CatalogueSituation>& out, const ActionFacts& a, const Snapshot& before, const Snapshot& after) {
    for (bool settled : {true, false}) {
        out.push_back({describe(a) + ": " + show_snapshot(before) + "  ->  " + show_snapshot(after) +
                           (settled ? "" : "  [not settled]"),
                       a, before, after, settled});
    }
}

}  // namespace

std::vector<CatalogueSituation> situation_catalogue() {
    std::vector<CatalogueSituation> out;
    const std::array<Snapshot, 6> edits{
        edit(std::nullopt, std::nullopt), edit("", Selection{0, 0}), edit("abc", Selection{3, 0}),
        edit("abc", Selection{0, 3}), edit("abc\r\n", Selection{0, 3}), edit("xyz", Selection{1, 0})};
    std::vector<ActionFacts> edit_actions{{ActionKind::SelectAll, HotkeyIntent::Other, ClickState::None, ""}};
    for (auto intent : {HotkeyIntent::Save, HotkeyIntent::Edit, HotkeyIntent::Navigate, HotkeyIntent::Other}) {
        edit_actions.push_back({ActionKind::Hotkey, intent, ClickState::None, ""});
    }
    edit_actions.push_back({ActionKind::TypeText, HotkeyIntent::Other, ClickState::None, "abc"});
    edit_actions.push_back({ActionKind::TypeWithNavigation, HotkeyIntent::Other, ClickState::None, "abc\t"});
    for (const auto& a : edit_actions) {
        for (const auto& before : edits) {
            for (const auto& after : edits) add(out, a, before, after);
        }
    }
    for (auto dirty_before : {true, false}) {
        Snapshot b = edit("abc", Selection{3, 0});
        b.dirty = dirty_before;
        Snapshot after = b;
        after.dirty = false;
        add(out, {ActionKind::Hotkey, HotkeyIntent::Save, ClickState::None, ""}, b, after);
    }
    const std::array<std::optional<bool>, 3> states{std::nullopt, false, true};
    for (auto which : {ClickState::Toggle, ClickState::Expand, ClickState::Select}) {
        for (const auto& sb : states) {
            for (const auto& sa : states) {
                Snapshot before, after;
                if (which == ClickState::Toggle) { before.toggled = sb; after.toggled = sa; }
                if (which == ClickState::Expand) { before.expanded = sb; after.expanded = sa; }
                if (which == ClickState::Select) { before.selected = sb; after.selected = sa; }
                add(out, {ActionKind::ClickStateful, HotkeyIntent::Other, which, ""}, before, after);
            }
        }
    }
    add(out, {ActionKind::Unverifiable, HotkeyIntent::Other, ClickState::None, ""}, Snapshot{}, Snapshot{});
    return out;
}

}  // namespace deskcheck::cli
