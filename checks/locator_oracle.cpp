#include "checks/locator_oracle.h"

#include <vector>

#include "checks/names.h"

namespace deskcheck::props {

namespace {

using Depths = std::vector<std::optional<std::size_t>>;

// Depth of every node reachable from the root (breadth first, each node once); nullopt: unreachable.
Depths depths(const ElementTree& tree) {
    Depths depth(tree.nodes.size());
    if (tree.nodes.empty()) return depth;
    std::vector<std::uint32_t> frontier{0};
    depth[0] = 0;
    for (std::size_t head = 0; head < frontier.size(); ++head) {
        const std::uint32_t at = frontier[head];
        for (std::uint32_t c : tree.nodes[at].children) {
            if (c >= tree.nodes.size() || depth[c]) continue;
            depth[c] = *depth[at] + 1;
            frontier.push_back(c);
        }
    }
    return depth;
}

std::optional<std::uint32_t> walk(const ElementTree& tree, const Locator& loc) {
    if (tree.nodes.empty()) return std::nullopt;
    std::uint32_t at = 0;
    for (std::uint32_t step : loc.path) {
        const auto& children = tree.nodes[at].children;
        if (step >= children.size() || children[step] >= tree.nodes.size()) return std::nullopt;
        at = children[step];
    }
    return at;
}

// The locator's identity: role, and automationId (or name without one); the element id too when
// the identity was shared in the snapshot (E-2).
bool same_identity(const ElementNode& node, const Locator& loc) {
    if (node.role != loc.role) return false;
    if (!loc.identity_unique && node.id != loc.element) return false;
    if (loc.automation_id) return node.automation_id == loc.automation_id;
    return !node.automation_id && node.name == loc.name;
}

std::size_t matches_within_depth(const ElementTree& tree, const Locator& loc, const Depths& depth) {
    std::size_t found = 0;
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
        if (depth[i] && *depth[i] <= search_depth_spec && same_identity(tree.nodes[i], loc)) ++found;
    }
    return found;
}

std::optional<std::string> resolved_lie(const ElementTree& tree, const Locator& loc, const Resolved& r, const Depths& depth) {
    if (r.node >= tree.nodes.size() || !depth[r.node]) return "a resolved node is reachable from the root";
    if (tree.nodes[r.node].id != r.element) return "the element id is the node's";
    if (tree.nodes[r.node].role != loc.role) return "never a node of another role (E-2)";
    if (!same_identity(tree.nodes[r.node], loc)) return "never a wrong element (E-2)";
    if (!r.by_search && walk(tree, loc) != r.node) return "a path resolution follows the path";
    return std::nullopt;
}

}  // namespace

std::optional<std::string> locator_taken_lie(const ElementTree& snapshot, std::uint32_t index, const Locator& loc) {
    if (index >= snapshot.nodes.size()) return "the locator's node is in the snapshot (E-1)";
    const ElementNode& node = snapshot.nodes[index];
    if (loc.role != node.role || loc.automation_id != node.automation_id || loc.name != node.name || loc.element != node.id) {
        return "a locator carries its node's identity and id (E-1)";
    }
    const Depths depth = depths(snapshot);
    std::size_t sharing = 0;
    for (std::size_t i = 0; i < snapshot.nodes.size(); ++i) {
        const ElementNode& other = snapshot.nodes[i];
        const bool same = other.role == node.role && other.automation_id == node.automation_id &&
                          (node.automation_id || other.name == node.name);
        if (depth[i] && same) ++sharing;
    }
    if (loc.identity_unique != (sharing == 1)) return "a locator records whether its identity was shared in the snapshot (E-2)";
    return std::nullopt;
}

std::optional<std::string> resolution_lie(const ElementTree& tree, const Locator& loc, const std::variant<Resolved, Error>& answer) {
    const auto on_path = walk(tree, loc);
    const bool path_matches = on_path && same_identity(tree.nodes[*on_path], loc);
    const Depths depth = depths(tree);
    const std::size_t candidates = matches_within_depth(tree, loc, depth);
    if (const auto* r = std::get_if<Resolved>(&answer)) {
        if (auto lie = resolved_lie(tree, loc, *r, depth)) return lie;
        if (r->by_search && candidates != 1) return "never a guess when the identity is ambiguous (E-2)";
        if (path_matches && r->by_search) return "a matching path is used first (E-2)";
        return std::nullopt;
    }
    const Error& e = std::get<Error>(answer);
    if (e.kind != ErrorKind::ElementNotFound) return "resolve fails only with element_not_found, not " + std::string(name_of(e.kind));
    if (path_matches || candidates == 1) return "a unique match is found (E-2)";
    return std::nullopt;
}

std::optional<std::string> foreign_ref_lie(const StepReport& report, std::size_t deliveries) {
    const bool rejected = report.result.error && report.result.error->kind == ErrorKind::CrossWindowRef;
    if (rejected && !report.delivered && deliveries == 0) return std::nullopt;
    return "a ref of window A used with target B is rejected, nothing sent (E-3): " +
           (report.result.error ? std::string(name_of(report.result.error->kind)) : std::string("no error")) +
           (deliveries != 0 ? ", " + std::to_string(deliveries) + " input(s) delivered" : "");
}

std::string describe_locator(const ElementTree& tree, const Locator& loc) {
    std::string out = "locator: role " + loc.role + " aid " + loc.automation_id.value_or("-") + " name " + loc.name + " path";
    for (auto p : loc.path) out += " " + std::to_string(p);
    out += "\ntree:";
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
        const auto& n = tree.nodes[i];
        out += "\n  [" + std::to_string(i) + "] id " + std::to_string(n.id) + " " + n.role + " aid " +
               n.automation_id.value_or("-") + " name " + n.name + " children";
        for (auto c : n.children) out += " " + std::to_string(c);
    }
    return out;
}

}  // namespace deskcheck::props
