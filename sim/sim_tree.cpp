// Element trees (E-1, S-3) and hit testing of controls (E-5, E-6).
//
// A window's tree is its live controls in pre-order: siblings in the order of the window's control
// list (reorders move a control within that list), children after their parent. Node 0 is the
// implicit root Pane (id 0, the window's bounds). Electron windows show the root only (an opaque
// tree) though their controls still take coordinate clicks.
#include <algorithm>
#include <cassert>

#include "sim/sim.h"

namespace deskcheck::sim {
namespace {

// The window class a control with its own handle reports (classic controls; Win32 buttons,
// check boxes and radio buttons all have the class "Button").
std::string control_class(const Control& c) {
    if (!c.own_handle) return "";
    switch (c.kind) {
        case ControlKind::Edit:
        case ControlKind::Feed: return "Edit";
        case ControlKind::Toggle:
        case ControlKind::Button:
        case ControlKind::SubmitButton:
        case ControlKind::PostButton: return "Button";
        case ControlKind::ListItem: return "ListBox";
        case ControlKind::Expander: return "SysTreeView32";
        case ControlKind::Group: return "Static";
    }
    return "";
}

bool focusable(ControlKind k) { return k != ControlKind::Feed && k != ControlKind::Group; }

// Indices of the live children of `parent` (0: the root), in sibling order.
std::vector<std::size_t> children_of(const LiveWindow& w, ElementId parent) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < w.controls.size(); ++i)
        if (!w.controls[i].removed && w.controls[i].c.parent == parent) out.push_back(i);
    return out;
}

}  // namespace

std::string class_of_control(const Control& c) { return control_class(c); }

const std::vector<std::size_t>& Sim::tree_order(const LiveWindow& w) const {
    if (!w.order_cache) w.order_cache = build_tree_order(w);
    return *w.order_cache;
}

// Pre-order over live controls: a stack of (parent, where to resume scanning its children).
// Each control has one parent, so none is visited twice; the stack is bounded all the same.
std::vector<std::size_t> Sim::build_tree_order(const LiveWindow& w) const {
    std::vector<std::size_t> order;
    order.reserve(w.controls.size());
    std::vector<std::pair<ElementId, std::size_t>> stack{{0, 0}};
    while (!stack.empty() && stack.size() <= w.controls.size() + 1) {
        auto& [parent, from] = stack.back();
        std::size_t i = from;
        while (i < w.controls.size() && (w.controls[i].removed || w.controls[i].c.parent != parent)) ++i;
        if (i == w.controls.size()) {
            stack.pop_back();
            continue;
        }
        from = i + 1;
        order.push_back(i);
        stack.emplace_back(w.controls[i].c.id, 0);  // invalidates parent/from: not used after
    }
    assert(order.size() <= w.controls.size());
    return order;
}

std::size_t Sim::depth_of(const LiveWindow& w, const LiveControl& c) const {
    std::size_t depth = 0;
    ElementId parent = c.c.parent;
    for (std::size_t n = 0; n <= w.controls.size() && parent != 0; ++n) {
        ++depth;
        const auto it = std::find_if(w.controls.begin(), w.controls.end(),
                                     [&](const LiveControl& x) { return x.c.id == parent; });
        if (it == w.controls.end()) break;
        parent = it->c.parent;
    }
    return depth;
}

bool Sim::is_descendant(const LiveWindow& w, ElementId candidate, ElementId ancestor) const {
    ElementId current = candidate;
    for (std::size_t n = 0; n <= w.controls.size() && current != 0; ++n) {
        if (current == ancestor) return true;
        const auto it = std::find_if(w.controls.begin(), w.controls.end(),
                                     [&](const LiveControl& x) { return x.c.id == current; });
        if (it == w.controls.end()) return false;
        current = it->c.parent;
    }
    return false;
}

// The deepest live control whose physical bounds contain the point; among equally deep ones the
// last in tree order (drawn last, so on top). nullopt: the point hits no control (the root).
std::optional<ElementId> Sim::control_at(const LiveWindow& w, Point physical) const {
    std::optional<ElementId> best;
    std::size_t best_depth = 0;
    for (const auto index : tree_order(w)) {
        const LiveControl& c = w.controls[index];
        if (!c.c.bounds.contains(physical)) continue;
        const std::size_t depth = depth_of(w, c);
        if (best && depth < best_depth) continue;
        best = c.c.id;
        best_depth = depth;
    }
    return best;
}

// Tab order = tree order over focusable controls (not Feed, not Group), wrapping around.
std::optional<ElementId> Sim::next_focusable(const LiveWindow& w, std::optional<ElementId> from, bool forward) const {
    std::vector<ElementId> ring;
    for (const auto index : tree_order(w))
        if (focusable(w.controls[index].c.kind)) ring.push_back(w.controls[index].c.id);
    if (ring.empty()) return std::nullopt;
    const auto it = from ? std::find(ring.begin(), ring.end(), *from) : ring.end();
    if (it == ring.end()) return forward ? ring.front() : ring.back();
    const auto position = static_cast<std::size_t>(it - ring.begin());
    const std::size_t next = forward ? (position + 1) % ring.size() : (position + ring.size() - 1) % ring.size();
    return ring[next];
}

TreePtr Sim::element_tree(WindowId id) {
    settle_due();
    const LiveWindow* w = find_window(id);
    if (w == nullptr || !w->shown) {
        ElementTree none;
        none.window = id;
        return std::make_shared<const ElementTree>(std::move(none));
    }
    if (!w->tree_cache) w->tree_cache = std::make_shared<const ElementTree>(build_element_tree(*w));
    return w->tree_cache;
}

ElementTree Sim::build_element_tree(const LiveWindow& w) const {
    ElementTree tree;
    tree.window = w.spec.id;
    ElementNode root;
    root.id = 0;
    root.role = "Pane";
    root.name = w.spec.title;
    root.own_handle = true;
    root.class_name = w.spec.class_name;
    root.bounds = w.spec.bounds;
    tree.nodes.push_back(std::move(root));
    if (w.spec.framework == Framework::Electron) return tree;
    std::vector<std::pair<ElementId, std::uint32_t>> node_of;  // control id -> node index
    for (const auto index : tree_order(w)) {
        const Control& c = w.controls[index].c;
        const auto node_index = static_cast<std::uint32_t>(tree.nodes.size());
        tree.nodes.push_back(ElementNode{c.id, c.role, c.automation_id, c.name, c.own_handle, control_class(c), c.bounds, {}});
        std::uint32_t parent_node = 0;
        for (const auto& [cid, n] : node_of)
            if (cid == c.parent) parent_node = n;
        tree.nodes[parent_node].children.push_back(node_index);
        node_of.emplace_back(c.id, node_index);
    }
    return tree;
}

std::optional<std::vector<std::uint32_t>> Sim::true_path(ElementId e) const {
    const auto ref = find_control(e);
    if (!ref) return std::nullopt;
    const LiveWindow& w = windows_[ref->window_index];
    if (w.controls[ref->control_index].removed) return std::nullopt;
    std::vector<std::uint32_t> path;
    ElementId current = e;
    for (std::size_t n = 0; n <= w.controls.size() && current != 0; ++n) {
        const auto it = std::find_if(w.controls.begin(), w.controls.end(),
                                     [&](const LiveControl& x) { return x.c.id == current; });
        assert(it != w.controls.end());
        const auto siblings = children_of(w, it->c.parent);
        const auto self = static_cast<std::size_t>(it - w.controls.begin());
        const auto pos = std::find(siblings.begin(), siblings.end(), self) - siblings.begin();
        path.push_back(static_cast<std::uint32_t>(pos));
        current = it->c.parent;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace deskcheck::sim
