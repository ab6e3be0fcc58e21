// The simulated windows of the R0 world (sim/r0_world.h): geometry, edits with an optional value,
// buttons; set-value per framework; the operation faults of the world's plan.
#include <cassert>

#include "sim/r0_world.h"

namespace deskcheck::sim {
namespace {

std::string subject(WindowId w, ElementId e) { return std::to_string(w) + "/" + std::to_string(e); }

}  // namespace

std::vector<WindowInfo> UiDesk::top_level_windows() {
    std::vector<WindowInfo> out;
    for (const R0Window& w : world_.state().windows) {
        if (auto info = window(w.id)) out.push_back(*info);
    }
    return out;
}

std::optional<WindowInfo> UiDesk::window(WindowId id) {
    const R0Window* w = world_.window(id);
    if (w == nullptr) return std::nullopt;
    WindowInfo info;
    info.id = w->id;
    info.pid = w->id;
    info.bounds = w->bounds;
    info.framework = w->framework;
    info.title = "window " + std::to_string(w->id);
    return info;
}

WindowId UiDesk::foreground() {
    const auto& ws = world_.state().windows;
    return ws.empty() ? no_window : ws.front().id;
}

TreePtr UiDesk::element_tree(WindowId id) {
    auto tree = std::make_shared<ElementTree>();
    tree->window = id;
    const R0Window* w = world_.window(id);
    if (w == nullptr || w->framework == Framework::Electron) return tree;
    tree->nodes.push_back(ElementNode{0, "Pane", std::nullopt, "", false, "", w->bounds, {}});
    for (const R0Control& c : w->controls) {
        tree->nodes[0].children.push_back(static_cast<std::uint32_t>(tree->nodes.size()));
        tree->nodes.push_back(ElementNode{c.id, c.button ? "Button" : "Edit", std::nullopt, "", false, "", w->bounds, {}});
    }
    return tree;
}

std::optional<std::string> UiDesk::read_value(WindowId w, ElementId e) {
    auto state = read_value_state(w, e);
    if (!state) return std::nullopt;
    return *state;  // V-2: a control without a value reads as nullopt too; read_value_state tells them apart
}

std::optional<std::optional<std::string>> UiDesk::read_value_state(WindowId w, ElementId e) {
    const R0Window* win = world_.window(w);
    const R0Control* c = world_.control(w, e);
    if (win == nullptr || c == nullptr || c->button || !c->readable) return std::nullopt;
    if (win->framework == Framework::Electron) return std::nullopt;  // opaque tree
    return std::optional<std::optional<std::string>>(c->value);
}

std::optional<bool> UiDesk::read_enabled(WindowId w, ElementId e) {
    const R0Window* win = world_.window(w);
    const R0Control* c = world_.control(w, e);
    if (win == nullptr || c == nullptr || win->framework == Framework::Electron) return std::nullopt;
    return c->enabled;
}

ValueWriter UiDesk::value_writer(WindowId w, ElementId e) {
    const R0Window* win = world_.window(w);
    const R0Control* c = world_.control(w, e);
    if (win == nullptr || c == nullptr || c->button) return ValueWriter::None;
    switch (win->framework) {
        case Framework::Wpf:
        case Framework::WinForms: return ValueWriter::ValuePattern;
        case Framework::Win32: return ValueWriter::KeyboardFallback;
        case Framework::Electron: return ValueWriter::None;
    }
    return ValueWriter::None;
}

std::optional<Rect> UiDesk::read_geometry(WindowId w) {
    const R0Window* win = world_.window(w);
    return win == nullptr ? std::nullopt : std::optional<Rect>(win->bounds);
}

DeliveryStatus UiDesk::set_value(WindowId w, ElementId e, const std::optional<std::string>& value) {
    const auto fault = world_.begin_op("set_value", subject(w, e));
    R0Control* c = world_.control(w, e);
    if (c == nullptr || value_writer(w, e) != ValueWriter::ValuePattern) {
        world_.end_op("rejected: no ValuePattern");
        return DeliveryStatus::Rejected;
    }
    if (fault) {
        world_.end_op("failed (fault)");
        return DeliveryStatus::Failed;
    }
    if (c->enabled) c->value = value;
    all_selected_.erase({w, e});
    world_.end_op(c->enabled ? "ok" : "ignored: disabled");
    return DeliveryStatus::Delivered;
}

DeliveryStatus UiDesk::move_window(WindowId w, Rect r) {
    const auto fault = world_.begin_op("move_window", std::to_string(w));
    R0Window* win = world_.window(w);
    if (win == nullptr || r.right <= r.left || r.bottom <= r.top) {
        world_.end_op("rejected");
        return DeliveryStatus::Rejected;
    }
    if (fault) {
        world_.end_op("failed (fault)");
        return DeliveryStatus::Failed;
    }
    win->bounds = r;
    world_.end_op("ok");
    return DeliveryStatus::Delivered;
}

// Edit messages to a Win32 edit (ctrl+a selects all; text replaces the selection, or is appended
// when nothing is selected) and UIA Invoke on a button (an irreversible effect).
DeliveryStatus UiDesk::deliver(const Input& input) {
    const ElementId e = input.element.value_or(0);
    const auto fault = world_.begin_op("deliver", subject(input.window, e));
    const R0Window* win = world_.window(input.window);
    R0Control* c = world_.control(input.window, e);
    const bool edit_message = input.method == DeliveryMethod::EditMessage && c != nullptr && !c->button &&
                              win->framework == Framework::Win32;
    const bool invoke = input.method == DeliveryMethod::UiaInvoke && c != nullptr && c->button &&
                        win->framework != Framework::Electron;
    if (!edit_message && !invoke) {
        world_.end_op("rejected");
        return DeliveryStatus::Rejected;
    }
    if (fault) {
        world_.end_op("failed (fault)");
        return DeliveryStatus::Failed;
    }
    if (!c->enabled) {
        world_.end_op("ignored: disabled");
        return DeliveryStatus::Delivered;
    }
    if (invoke) {
        world_.mutable_state().invoked.push_back(subject(input.window, e));
    } else if (input.keys == "ctrl+a") {
        all_selected_[{input.window, e}] = true;
    } else {
        const bool all = all_selected_[{input.window, e}];
        c->value = all ? input.text : c->value.value_or("") + input.text;
        all_selected_.erase({input.window, e});
    }
    world_.end_op("ok");
    return DeliveryStatus::Delivered;
}

}  // namespace deskcheck::sim
