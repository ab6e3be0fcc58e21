#include "model/tool.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <set>

#include "model/guard.h"
#include "model/tool_detail.h"
#include "model/tool_hooks.h"

namespace deskcheck {

std::string_view to_string(RequestKind k) {
    switch (k) {
        case RequestKind::Type: return "type";
        case RequestKind::Hotkey: return "hotkey";
        case RequestKind::Click: return "click";
        case RequestKind::ClickAt: return "click_at";
        case RequestKind::Observe: return "observe";
    }
    return "?";
}


namespace detail {

GuardConfig guard_config(const ToolConfig& c, const GiveBackPolicy& give_back) {
    return GuardConfig{c.user_idle_ms, c.user_wait_ms_max, c.app_watch_ms, c.app_watch_poll_ms, &give_back};
}

ClickState click_state_of_role(const std::string& role) {
    if (role == "CheckBox" || role == "ToggleButton" || role == "Toggle") return ClickState::Toggle;
    if (role == "TreeItem" || role == "Expander" || role == "Group.Expander") return ClickState::Expand;
    if (role == "ListItem" || role == "TabItem" || role == "RadioButton") return ClickState::Select;
    return ClickState::None;
}

ActionFacts facts_of(const Request& r, const ElementNode* node) {
    ActionFacts f;
    switch (r.kind) {
        case RequestKind::Type:
            f.text = r.text;
            if (node == nullptr) f.kind = ActionKind::Unverifiable;  // V-8: type without a ref
            else f.kind = has_navigation_keys(r.text) ? ActionKind::TypeWithNavigation : ActionKind::TypeText;
            break;
        case RequestKind::Hotkey:
            if (node == nullptr) f.kind = ActionKind::Unverifiable;
            else if (is_select_all_chord(r.keys)) f.kind = ActionKind::SelectAll;
            else {
                f.kind = ActionKind::Hotkey;
                f.intent = hotkey_intent(r.keys);
            }
            break;
        case RequestKind::Click:
            f.click_state = node ? click_state_of_role(node->role) : ClickState::None;
            f.kind = f.click_state == ClickState::None ? ActionKind::Unverifiable : ActionKind::ClickStateful;
            break;
        case RequestKind::ClickAt:
        case RequestKind::Observe:
            f.kind = ActionKind::Unverifiable;
            break;
    }
    return f;
}

namespace {
bool classic_button(const ElementNode& n) { return n.own_handle && n.class_name == "Button"; }
bool classic_edit(const ElementNode& n) { return n.own_handle && n.class_name == "Edit"; }
// E-4: the chords an edit control of an inactive window answers only as the edit message they stand
// for (select all, copy, cut, paste, undo: EM_SETSEL, WM_COPY, WM_CUT, WM_PASTE, WM_UNDO).
bool edit_message_chord(std::string_view keys) {
    std::string k;
    for (const char ch : keys) {
        if (ch != ' ') k += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    if (k.rfind("control+", 0) == 0) k = "ctrl+" + k.substr(8);
    return k == "ctrl+a" || k == "ctrl+c" || k == "ctrl+x" || k == "ctrl+v" || k == "ctrl+z";
}
bool invokable(const std::string& role) {
    return role == "Button" || role == "MenuItem" || role == "Hyperlink" || role == "SplitButton";
}
}  // namespace

// E-4: delivery is chosen per control — own handle, framework, window class — not by the caller.
Plan choose_delivery(const WindowInfo& w, const ElementNode* node, const Request& r, const ActionFacts& f) {
    const bool wpf = w.framework == Framework::Wpf;  // F-7: ignores posted input while inactive
    switch (r.kind) {
        case RequestKind::Type:
            if (node && classic_edit(*node) && !wpf) return {DeliveryMethod::EditMessage, false};
            return {DeliveryMethod::PostedKeys, wpf};
        case RequestKind::Hotkey:
            if (node && classic_edit(*node) && !wpf && edit_message_chord(r.keys)) return {DeliveryMethod::EditMessage, false};
            return {DeliveryMethod::PostedKeys, wpf};
        case RequestKind::Click:
            if (node && classic_button(*node)) return {DeliveryMethod::ClickMessage, false};
            switch (f.click_state) {
                case ClickState::Toggle: return {DeliveryMethod::UiaToggle, wpf};
                case ClickState::Expand: return {DeliveryMethod::UiaExpand, wpf};
                case ClickState::Select: return {DeliveryMethod::UiaSelect, wpf};
                case ClickState::None: break;
            }
            if (node && invokable(node->role)) return {DeliveryMethod::UiaInvoke, wpf};
            // No Invoke pattern (an edit, a text, a pane): a click at the element's centre.
            if (wpf) return {DeliveryMethod::RealInput, true};
            return {DeliveryMethod::PostedClick, false};
        case RequestKind::ClickAt:
            // A real click on a WPF window needs the foreground; a classic button at the point takes
            // a click message (a posted click on an inactive window does not click it); others take
            // a posted click.
            if (wpf) return {DeliveryMethod::RealInput, true};
            if (node && classic_button(*node)) return {DeliveryMethod::ClickMessage, false, node->id};
            return {DeliveryMethod::PostedClick, false};
        case RequestKind::Observe:
            return {DeliveryMethod::PostedKeys, false};
    }
    return {DeliveryMethod::PostedKeys, false};
}

const ElementNode* element_at(const ElementTree& tree, Point physical) {
    const ElementNode* best = nullptr;
    std::size_t best_depth = 0;
    // Depth-first in tree order from the root (node 0), bounded by the node count.
    std::vector<std::pair<std::uint32_t, std::size_t>> stack;
    if (!tree.nodes.empty()) stack.emplace_back(0, 0);
    for (std::size_t visits = 0; !stack.empty() && visits < tree.nodes.size(); ++visits) {
        const auto [index, depth] = stack.back();
        stack.pop_back();
        const ElementNode& n = tree.nodes[index];
        if (n.bounds.contains(physical) && (best == nullptr || depth >= best_depth)) {
            best = &n;
            best_depth = depth;
        }
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) {
            if (*it < tree.nodes.size()) stack.emplace_back(*it, depth + 1);
        }
    }
    return best;
}

}  // namespace detail
using namespace detail;

Snapshot read_state(Desktop& d, WindowId w, ElementId e, ActionKind kind, ClickState state) {
    Snapshot s;
    switch (kind) {
        case ActionKind::SelectAll:
        case ActionKind::Hotkey:
        case ActionKind::TypeText:
        case ActionKind::TypeWithNavigation:
            s.value = d.read_value(w, e);
            s.selection = d.read_selection(w, e);
            if (kind == ActionKind::Hotkey) s.dirty = d.read_dirty(w);
            break;
        case ActionKind::ClickStateful:
            if (state == ClickState::Toggle) s.toggled = d.read_toggled(w, e);
            if (state == ClickState::Expand) s.expanded = d.read_expanded(w, e);
            if (state == ClickState::Select) s.selected = d.read_selected(w, e);
            break;
        case ActionKind::Unverifiable:
            break;
    }
    return s;
}

Point physical_to_client(const WindowInfo& w, Point p) {
    // E-6: an unaware window lives in a stretched logical space: scale by window DPI / monitor DPI.
    const std::int64_t dx = static_cast<std::int64_t>(p.x) - w.bounds.left;
    const std::int64_t dy = static_cast<std::int64_t>(p.y) - w.bounds.top;
    const std::int64_t num = w.window_dpi == 0 ? 96 : w.window_dpi;
    const std::int64_t den = w.monitor_dpi == 0 ? 96 : w.monitor_dpi;
    // Round to nearest, so the point delivered maps back within half a logical pixel.
    const auto scale = [&](std::int64_t d) {
        const std::int64_t twice = 2 * d * num + (d >= 0 ? den : -den);
        return static_cast<std::int32_t>(twice / (2 * den));
    };
    return Point{scale(dx), scale(dy)};
}

Tool::Tool(Desktop& desktop, const RuleSet& rules, ToolConfig config)
    : desktop_(desktop), rules_(rules), config_(config),
      hooks_(config.hooks != nullptr ? *config.hooks : ToolHooks::specified()) {
    // Every wait and watch is bounded and none is negative; the watch polls at a positive interval (F-3).
    assert(config_.app_watch_poll_ms > 0 && config_.settle_poll_ms > 0);
    assert(config_.user_idle_ms >= 0 && config_.user_wait_ms_max >= 0 && config_.app_watch_ms >= 0 &&
           config_.settle_ms_max >= 0 && config_.reconcile_wait_ms >= 0 && config_.quiesce_ms_max >= 0);
}

SnapshotReport Tool::snapshot(WindowId window) {
    SnapshotReport out;
    out.window = window;
    const TreePtr tree_ptr = desktop_.element_tree(window);
    assert(tree_ptr != nullptr);  // the port never answers a null tree
    const ElementTree& tree = *tree_ptr;
    auto locators = locators_of(tree);
    out.elements.reserve(locators.size());
    for (std::uint32_t i = 0; i < locators.size(); ++i) {
        if (!locators[i]) continue;
        const ElementNode& n = tree.nodes[i];
        out.elements.push_back(ElementRef{refs_.add(std::move(*locators[i])), n.role, n.name, n.automation_id});
    }
    assert(out.elements.size() <= locators.size());
    assert(out.elements.empty() || refs_.find(out.elements.back().ref) != nullptr);  // E-1: the newest ref is never evicted
    return out;
}

ToolResult Tool::act(const Request& request) { return run_step(request, nullptr).result; }
StepReport Tool::act_step(const Request& request) { return run_step(request, nullptr); }

LaunchReport Tool::launch(std::string_view app) {
    LaunchReport out;
    const WindowId before_front = desktop_.foreground();
    std::set<WindowId> before;
    for (const auto& w : desktop_.top_level_windows()) before.insert(w.id);
    const auto pid = desktop_.launch(app);  // F-8: started without activation
    if (!pid) {
        out.error = Error{ErrorKind::LaunchFailed, "no app named '" + std::string(app) + "'"};
        return out;
    }
    // Claim the new window by diffing top-level windows; prefer the new process.
    std::optional<WindowId> claimed;
    for (const auto& w : desktop_.top_level_windows()) {
        if (before.count(w.id) != 0) continue;
        if (!claimed || w.pid == *pid) claimed = w.id;
        if (w.pid == *pid) break;
    }
    if (!claimed) {
        out.error = Error{ErrorKind::LaunchFailed, "no new window appeared for '" + std::string(app) + "'"};
        return out;
    }
    out.ok = true;
    out.window = claimed;
    assert(before.count(*claimed) == 0);  // F-8: only a window that was not there before is claimed
    out.foreground = watch_after_background_action(desktop_, *claimed, before_front, guard_config(config_, hooks_));
    assert(!out.foreground.borrowed || out.foreground.by == "app");  // the tool never borrows for a launch
    return out;
}

}  // namespace deskcheck
