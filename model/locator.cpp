#include "model/locator.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace deskcheck {

std::string RefTable::add(Locator locator) {
    if (entries_.size() >= ref_table_max) {
        entries_.pop_front();
        ++first_;
        ++evicted_;
    }
    entries_.push_back(std::move(locator));
    assert(entries_.size() <= ref_table_max);
    return "e" + std::to_string(first_ + entries_.size() - 1);
}

const Locator* RefTable::find(std::string_view ref) const {
    // Exactly "e" then decimal digits without a leading zero (the form add() hands out).
    if (ref.size() < 2 || ref.size() > 21 || ref[0] != 'e' || ref[1] == '0') return nullptr;
    std::uint64_t n = 0;
    for (std::size_t i = 1; i < ref.size(); ++i) {
        const char c = ref[i];
        if (c < '0' || c > '9') return nullptr;
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (n > (UINT64_MAX - digit) / 10) return nullptr;  // would overflow: never handed out
        n = n * 10 + digit;
    }
    if (n < first_ || n - first_ >= entries_.size()) return nullptr;
    return &entries_[static_cast<std::size_t>(n - first_)];
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


std::optional<Locator> locator_with(const ElementTree& tree, const std::vector<std::uint32_t>& parent,
                                     std::uint32_t index) {
    if (index >= tree.nodes.size()) return std::nullopt;
    Locator loc;
    std::vector<std::uint32_t>& reversed = loc.path;  // built leaf first, reversed at the end
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
    loc.window = tree.window;
    std::reverse(loc.path.begin(), loc.path.end());
    loc.role = node.role;
    loc.automation_id = node.automation_id;
    loc.name = node.name;
    return loc;
}

}  // namespace

std::optional<Locator> locator_of(const ElementTree& tree, std::uint32_t index) {
    if (index >= tree.nodes.size()) return std::nullopt;
    return locator_with(tree, parents_of(tree), index);
}

std::vector<std::optional<Locator>> locators_of(const ElementTree& tree) {
    std::vector<std::optional<Locator>> out;
    const std::size_t n = std::min<std::size_t>(tree.nodes.size(), tree_nodes_max);
    out.reserve(n);
    const auto parent = parents_of(tree);
    for (std::uint32_t i = 0; i < n; ++i) out.push_back(locator_with(tree, parent, i));
    return out;
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
    return resolve(*desktop.element_tree(target), *loc);
}

}  // namespace deskcheck
