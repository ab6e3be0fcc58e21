#include "model/locator.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <string_view>
#include <tuple>

namespace deskcheck {

std::string RefTable::add(Locator locator) {
    assert(first_ == evicted_ + 1);  // refs count up from e1: the table holds the newest ones
    if (entries_.size() >= ref_table_max) {
        entries_.pop_front();
        ++first_;
        ++evicted_;
    }
    entries_.push_back(std::move(locator));
    assert(entries_.size() <= ref_table_max);
    assert(first_ == evicted_ + 1);
    return "e" + std::to_string(first_ + entries_.size() - 1);
}

const Locator* RefTable::find(std::string_view ref) const {
    assert(first_ == evicted_ + 1 && entries_.size() <= ref_table_max);
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
    loc.element = node.id;
    return loc;
}

// The identity matches() compares: the role, then the automationId or else the name. As a tuple
// of views into the node (no copy): equal tuples, equal identities.
using Identity = std::tuple<std::string_view, bool, std::string_view>;
Identity identity_of(const ElementNode& node) {
    return {node.role, node.automation_id.has_value(), node.automation_id ? *node.automation_id : node.name};
}

// The nodes reachable from the root (each visited once, so cycles end), within tree_nodes_max.
std::vector<bool> attached_nodes(const ElementTree& tree) {
    std::vector<bool> seen(tree.nodes.size(), false);
    if (tree.nodes.empty()) return seen;
    std::vector<std::uint32_t> frontier{0};
    seen[0] = true;
    for (std::size_t head = 0; head < frontier.size(); ++head) {
        for (std::uint32_t c : tree.nodes[frontier[head]].children) {
            if (c < tree.nodes.size() && c < tree_nodes_max && !seen[c]) {
                seen[c] = true;
                frontier.push_back(c);
            }
        }
    }
    return seen;
}

// For every node: how many attached nodes share its identity (itself included when attached).
// Sorted by identity, equal runs counted: O(n log n) on a tree of any size, no string copied.
std::vector<std::uint32_t> identity_sharing(const ElementTree& tree, std::size_t n) {
    const auto attached = attached_nodes(tree);
    std::vector<std::uint32_t> order(n);
    for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
    const auto less = [&](std::uint32_t a, std::uint32_t b) { return identity_of(tree.nodes[a]) < identity_of(tree.nodes[b]); };
    std::sort(order.begin(), order.end(), less);
    std::vector<std::uint32_t> sharing(n, 0);
    for (std::size_t run = 0; run < n;) {
        std::size_t end = run + 1;
        while (end < n && !less(order[run], order[end])) ++end;
        std::uint32_t count = 0;
        for (std::size_t k = run; k < end; ++k) count += attached[order[k]] ? 1 : 0;
        for (std::size_t k = run; k < end; ++k) sharing[order[k]] = count;
        run = end;
    }
    return sharing;
}

bool same_identity(const ElementNode& a, const ElementNode& b) { return identity_of(a) == identity_of(b); }

// Whether any two of the first n nodes, attached or not, have one identity. Usually none do; then
// every identity is unique and nothing more is computed (snapshots run this on every window).
bool any_identity_shared(const ElementTree& tree, std::size_t n) {
    constexpr std::size_t pairwise_max = 64;
    if (n > pairwise_max) return true;  // let identity_sharing sort them
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            if (same_identity(tree.nodes[i], tree.nodes[j])) return true;
        }
    }
    return false;
}

}  // namespace

std::vector<std::optional<Locator>> locators_of(const ElementTree& tree) {
    std::vector<std::optional<Locator>> out;
    const std::size_t n = std::min<std::size_t>(tree.nodes.size(), tree_nodes_max);
    out.reserve(n);
    const auto parent = parents_of(tree);
    for (std::uint32_t i = 0; i < n; ++i) out.push_back(locator_with(tree, parent, i));
    if (!any_identity_shared(tree, n)) return out;  // identity_unique stays true
    const auto sharing = identity_sharing(tree, n);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (out[i]) out[i]->identity_unique = sharing[i] <= 1;
    }
    return out;
}

std::optional<Locator> locator_of(const ElementTree& tree, std::uint32_t index) {
    if (index >= tree.nodes.size() || index >= tree_nodes_max) return std::nullopt;
    auto loc = locator_with(tree, parents_of(tree), index);
    if (!loc) return loc;
    // Among all nodes first (no allocation): no other with this identity, none attached either.
    const std::size_t n = std::min<std::size_t>(tree.nodes.size(), tree_nodes_max);
    std::size_t others = 0;
    for (std::size_t i = 0; i < n; ++i) others += i != index && same_identity(tree.nodes[i], tree.nodes[index]) ? 1 : 0;
    if (others == 0) return loc;
    const auto attached = attached_nodes(tree);
    std::size_t sharing = 0;
    for (std::size_t i = 0; i < n; ++i) sharing += attached[i] && same_identity(tree.nodes[i], tree.nodes[index]) ? 1 : 0;
    loc->identity_unique = sharing <= 1;
    return loc;
}

bool matches(const ElementNode& node, const Locator& locator) {
    if (node.role != locator.role) return false;
    if (!locator.identity_unique && node.id != locator.element) return false;
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
    return Error{ErrorKind::ElementNotFound,
                 "no element matches role '" + locator.role + "'" +
                     (locator.automation_id ? " automationId '" + *locator.automation_id + "'" : " name '" + locator.name + "'") +
                     (locator.identity_unique ? "" : " (an identity shared in the snapshot: only the element the ref was taken from)")};
}

}  // namespace deskcheck
