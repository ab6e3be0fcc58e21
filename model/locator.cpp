#include "model/locator.h"

#include <cassert>

namespace deskcheck {

std::string RefTable::add(Locator locator) {
    if (table_.size() >= ref_table_max) {
        assert(!order_.empty());
        table_.erase(order_.front());
        order_.pop_front();
        ++evicted_;
    }
    std::string ref = "e" + std::to_string(next_++);
    order_.push_back(ref);
    table_.emplace(ref, std::move(locator));
    assert(table_.size() <= ref_table_max);
    assert(table_.size() == order_.size());
    return ref;
}

const Locator* RefTable::find(const std::string& ref) const {
    const auto it = table_.find(ref);
    return it == table_.end() ? nullptr : &it->second;
}

namespace {

// Parent index of every node (the root's parent is itself). Iterative.
std::vector<std::uint32_t> parents_of(const ElementTree& tree) {
    std::vector<std::uint32_t> parent(tree.nodes.size(), 0);
    for (std::uint32_t i = 0; i < tree.nodes.size() && i < tree_nodes_max; ++i) {
        for (std::uint32_t c : tree.nodes[i].children) {
            if (c < parent.size()) parent[c] = i;
        }
    }
    return parent;
}

}  // namespace

std::optional<Locator> locator_of(const ElementTree& tree, std::uint32_t index) {
    if (index >= tree.nodes.size()) return std::nullopt;
    const auto parent = parents_of(tree);
    std::vector<std::uint32_t> reversed;
    std::uint32_t at = index;
    for (std::size_t guard = 0; at != 0 && guard < tree_nodes_max; ++guard) {
        const std::uint32_t p = parent[at];
        const auto& siblings = tree.nodes[p].children;
        std::uint32_t pos = 0;
        while (pos < siblings.size() && siblings[pos] != at) ++pos;
        if (pos == siblings.size()) return std::nullopt;  // detached node
        reversed.push_back(pos);
        at = p;
    }
    if (at != 0) return std::nullopt;
    const ElementNode& node = tree.nodes[index];
    Locator loc;
    loc.window = tree.window;
    loc.path.assign(reversed.rbegin(), reversed.rend());
    loc.role = node.role;
    loc.automation_id = node.automation_id;
    loc.name = node.name;
    return loc;
}

bool matches(const ElementNode& node, const Locator& locator) {
    if (node.role != locator.role) return false;
    if (locator.automation_id.has_value()) return node.automation_id == locator.automation_id;
    return !node.automation_id.has_value() && node.name == locator.name;
}

std::variant<Resolved, Error> resolve(const ElementTree& tree, const Locator& locator) {
    if (tree.nodes.empty()) return Error{ErrorKind::ElementNotFound, "the window has no element tree"};
    // 1. Walk the path.
    std::uint32_t at = 0;
    bool walked = true;
    for (std::uint32_t step : locator.path) {
        const auto& children = tree.nodes[at].children;
        if (step >= children.size() || children[step] >= tree.nodes.size()) {
            walked = false;
            break;
        }
        at = children[step];
    }
    if (walked && matches(tree.nodes[at], locator)) return Resolved{tree.nodes[at].id, at, false};
    // 2. Breadth-first search of the subtree, depth <= 40, exactly one match.
    std::vector<std::pair<std::uint32_t, std::size_t>> frontier{{0, 0}};
    std::optional<std::uint32_t> found;
    std::size_t visited = 0;
    for (std::size_t head = 0; head < frontier.size() && visited < tree_nodes_max; ++head, ++visited) {
        const auto [node, depth] = frontier[head];
        if (matches(tree.nodes[node], locator)) {
            if (found.has_value()) return Error{ErrorKind::ElementNotFound, "ambiguous: two elements match the locator"};
            found = node;
        }
        if (depth >= subtree_search_depth_max) continue;
        for (std::uint32_t c : tree.nodes[node].children) {
            if (c < tree.nodes.size()) frontier.emplace_back(c, depth + 1);
        }
    }
    if (found) return Resolved{tree.nodes[*found].id, *found, true};
    return Error{ErrorKind::ElementNotFound, "no element matches role '" + locator.role + "'" +
                                                 (locator.automation_id ? " automationId '" + *locator.automation_id + "'"
                                                                        : " name '" + locator.name + "'")};
}

std::variant<Resolved, Error> resolve_ref(Desktop& desktop, const RefTable& refs, const std::string& ref,
                                          WindowId target) {
    const Locator* loc = refs.find(ref);
    if (loc == nullptr) return Error{ErrorKind::RefUnknown, "ref " + ref + " is not in the table (take a new snapshot)"};
    if (loc->window != target) {
        return Error{ErrorKind::CrossWindowRef, "ref " + ref + " belongs to window " + std::to_string(loc->window) +
                                                    ", not to target " + std::to_string(target)};
    }
    return resolve(desktop.element_tree(target), *loc);
}

}  // namespace deskcheck
