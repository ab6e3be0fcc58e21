// fuzz_locator: bytes -> an element tree, a locator taken from one of its nodes, a mutated copy
// of the tree (nodes moved, removed, renamed, inserted, children reordered: what an app does
// between a snapshot and an action, S-4) -> resolve() (model/locator.h), and the tool's own E-3
// binding (a Tool over a two-window desktop: a ref of window A, sent to target B).
// Invariants (SPEC E-1..E-3):
//   - resolve is deterministic and total (an error is element_not_found, nothing else);
//   - a resolved node is reachable from the root, carries the element id reported, and matches
//     the locator's identity: same role, same automationId (or same name without one); when two
//     reachable nodes of the snapshot shared that identity, it is the very node the locator was
//     taken from (its element id): identity alone no longer tells them apart;
//   - by the path: the path leads to it. By search: it is the only match within the depth limit —
//     never a guess when the identity is ambiguous; and when exactly one node matches (and the
//     path does not), resolve finds it;
//   - a ref of window A used with target B is rejected by the tool (E-3): cross_window_ref, nothing
//     delivered, never resolved in B's tree.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fuzz/fuzzed_data_provider.h"
#include "checks/locator_oracle.h"
#include "harness/judge_run.h"
#include "model/desktop.h"
#include "model/locator.h"
#include "model/tool.h"
#include "model/verdict.h"

namespace {

using namespace deskcheck;
using fuzz::FuzzedDataProvider;

constexpr std::string_view target = "fuzz_locator";
constexpr std::uint32_t nodes_max = 24;
constexpr std::uint32_t mutations_max = 6;
constexpr WindowId window_a = 1;
constexpr WindowId window_b = 2;
constexpr std::array<std::string_view, 5> roles{"Edit", "Button", "CheckBox", "ListItem", "Group"};
constexpr std::array<std::string_view, 3> automation_ids{"a", "b", "c"};
constexpr std::array<std::string_view, 3> names{"x", "y", "z"};

void draw_identity(FuzzedDataProvider& fdp, ElementNode& node) {
    node.role = std::string(fdp.PickValueInArray(roles));
    if (fdp.ConsumeBool()) node.automation_id = std::string(fdp.PickValueInArray(automation_ids));
    else node.automation_id.reset();
    node.name = std::string(fdp.PickValueInArray(names));
}

// A tree whose node i > 0 hangs under a node drawn among 0..i-1 (acyclic by construction).
ElementTree draw_tree(FuzzedDataProvider& fdp, WindowId window) {
    ElementTree tree;
    tree.window = window;
    const std::uint32_t n = fdp.ConsumeIntegralInRange<std::uint32_t>(1, nodes_max);
    for (std::uint32_t i = 0; i < n; ++i) {
        ElementNode node;
        node.id = i;
        if (i == 0) node.role = "Pane";
        else draw_identity(fdp, node);
        tree.nodes.push_back(std::move(node));
        if (i > 0) tree.nodes[fdp.ConsumeIntegralInRange<std::uint32_t>(0, i - 1)].children.push_back(i);
    }
    return tree;
}

// Detaches `node` from its parent (the node stays in the vector, unreachable: removed).
void detach(ElementTree& tree, std::uint32_t node) {
    for (auto& n : tree.nodes) std::erase(n.children, node);
}

// True when `candidate` is `root` or lies below it (bounded walk over the flat tree).
bool in_subtree(const ElementTree& tree, std::uint32_t root, std::uint32_t candidate) {
    std::vector<std::uint32_t> stack{root};
    for (std::size_t steps = 0; !stack.empty() && steps < tree_nodes_max; ++steps) {
        const std::uint32_t at = stack.back();
        stack.pop_back();
        if (at == candidate) return true;
        for (std::uint32_t c : tree.nodes[at].children) stack.push_back(c);
    }
    return false;
}

void mutate_once(FuzzedDataProvider& fdp, ElementTree& tree) {
    const auto n = static_cast<std::uint32_t>(tree.nodes.size());
    const std::uint32_t node = fdp.ConsumeIntegralInRange<std::uint32_t>(1, n - 1);
    const std::uint32_t other = fdp.ConsumeIntegralInRange<std::uint32_t>(0, n - 1);
    switch (fdp.ConsumeIntegralInRange(0, 4)) {
        case 0:  // move under another parent, at a drawn position (no cycle)
            if (in_subtree(tree, node, other)) break;
            detach(tree, node);
            {
                auto& children = tree.nodes[other].children;
                const auto at = fdp.ConsumeIntegralInRange<std::size_t>(0, children.size());
                children.insert(children.begin() + static_cast<std::ptrdiff_t>(at), node);
            }
            break;
        case 1: detach(tree, node); break;              // removed
        case 2: draw_identity(fdp, tree.nodes[node]); break;  // renamed, re-roled
        case 3: {                                       // a new element appears
            ElementNode added;
            added.id = 1000 + n;
            draw_identity(fdp, added);
            tree.nodes.push_back(std::move(added));
            tree.nodes[other].children.insert(tree.nodes[other].children.begin(), n);
            break;
        }
        default: {                                      // siblings reordered
            auto& children = tree.nodes[other].children;
            if (children.size() > 1) std::swap(children.front(), children.back());
        }
    }
}

// resolve() is asked here; whether its answer is one the SPEC allows is the checker's to say
// (checks/locator_oracle.h), from the trees alone.
void check_resolution(const ElementTree& tree, const Locator& loc) {
    const auto result = resolve(tree, loc);
    const auto again = resolve(tree, loc);
    if (result.index() != again.index()) props::invariant_broken(target, "resolve is deterministic", props::describe_locator(tree, loc));
    if (const auto lie = props::resolution_lie(tree, loc, result)) props::invariant_broken(target, *lie, props::describe_locator(tree, loc));
}

void check_taken(const ElementTree& tree, std::uint32_t index, const Locator& loc) {
    if (const auto lie = props::locator_taken_lie(tree, index, loc)) props::invariant_broken(target, *lie, props::describe_locator(tree, loc));
}

// A desktop with two windows and nothing else: enough for the tool's ref binding (E-3). Nothing is
// ever delivered (a delivery would be the bug): deliver() counts its calls.
class TwoWindows final : public Desktop {
public:
    TwoWindows(ElementTree a, ElementTree b) : a_(std::move(a)), b_(std::move(b)) {}
    std::vector<WindowInfo> top_level_windows() override { return {}; }
    std::optional<WindowInfo> window(WindowId id) override {
        if (id != window_a && id != window_b) return std::nullopt;
        WindowInfo w;
        w.id = id;
        w.pid = id;
        w.bounds = Rect{0, 0, 100, 100};
        return w;
    }
    WindowId foreground() override { return window_a; }
    ForegroundAnswer request_foreground(WindowId) override { return ForegroundAnswer::Refused; }
    std::optional<ElementId> focused_element(WindowId) override { return std::nullopt; }
    TimeMs last_input_ms() override { return 0; }
    TreePtr element_tree(WindowId id) override {
        return std::make_shared<const ElementTree>(id == window_a ? a_ : id == window_b ? b_ : ElementTree{id, {}});
    }
    std::optional<std::string> read_value(WindowId, ElementId) override { return std::nullopt; }
    std::optional<Selection> read_selection(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_toggled(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_expanded(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_selected(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_dirty(WindowId) override { return std::nullopt; }
    std::optional<WindowId> window_at(Point) override { return std::nullopt; }
    Point cursor() override { return {}; }
    void set_cursor(Point) override {}
    DeliveryStatus deliver(const Input&) override {
        ++deliveries;
        return DeliveryStatus::Rejected;
    }
    std::size_t deliveries = 0;
    std::optional<ProcessId> launch(std::string_view) override { return std::nullopt; }
    TimeMs now_ms() override { return 0; }
    void wait_ms(TimeMs) override {}

private:
    ElementTree a_;
    ElementTree b_;
};

void check_window_binding(const ElementTree& a, const ElementTree& b, std::uint32_t pick) {
    TwoWindows desk(a, b);
    Tool tool(desk, current_rules());
    const SnapshotReport snapshot = tool.snapshot(window_a);
    if (snapshot.elements.empty()) props::invariant_broken(target, "a snapshot of a tree lists its root (E-1)", "");
    const ElementRef& ref = snapshot.elements[pick % snapshot.elements.size()];
    Request r;
    r.kind = RequestKind::Click;
    r.target = window_b;
    r.ref = ref.ref;
    const StepReport report = tool.act_step(r);
    if (const auto lie = props::foreign_ref_lie(report, desk.deliveries)) props::invariant_broken(target, *lie, ref.ref);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    FuzzedDataProvider fdp(data, size);
    const ElementTree original = draw_tree(fdp, window_a);
    const auto index = fdp.ConsumeIntegralInRange<std::uint32_t>(0, static_cast<std::uint32_t>(original.nodes.size() - 1));
    const std::optional<Locator> loc = locator_of(original, index);
    if (!loc) props::invariant_broken(target, "every node of a well-formed tree has a locator (E-1)", std::to_string(index));
    check_taken(original, index, *loc);
    if (*loc != locators_of(original)[index]) props::invariant_broken(target, "locator_of is locators_of's entry", props::describe_locator(original, *loc));
    check_resolution(original, *loc);
    ElementTree mutated = original;
    const std::uint32_t mutations = original.nodes.size() > 1 ? fdp.ConsumeIntegralInRange<std::uint32_t>(0, mutations_max) : 0;
    for (std::uint32_t i = 0; i < mutations; ++i) mutate_once(fdp, mutated);
    check_resolution(mutated, *loc);
    const ElementTree other = draw_tree(fdp, window_b);
    check_window_binding(mutated, other, index);
    return 0;
}
