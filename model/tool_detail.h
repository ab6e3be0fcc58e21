// Internal to model/tool*.cpp: the pieces of act shared between files.
#pragma once

#include "model/guard.h"
#include <vector>
#include "model/tool.h"
#include "model/tool_hooks.h"

namespace deskcheck {
// The batch's held borrow (F-5): the first step that borrows keeps the window in front.
struct Tool::Hold {
    std::optional<Borrow> borrow;
    std::uint32_t borrows = 0;
    std::uint32_t give_backs = 0;
    std::optional<ForegroundEvidence> returned;  // set when given back early (F-6)
    bool interfered = false;  // another window took the front from the held borrow (F-4)
    // The batch's evidence of a held borrow someone else took (F-2, F-4): borrowed by the tool, not
    // restored, left to them. The batch's account unless a later borrow or watch says more.
    std::optional<ForegroundEvidence> lost;
    std::vector<WindowId> acted;  // windows the batch delivered to: a grab by one of them is ours
    // Who the front is owed to: the window in front when the batch began, or whoever else took it
    // since (F-4). A give-back never goes to a window of the batch's own apps instead (F-3).
    WindowId owner = no_window;
};
}  // namespace deskcheck

namespace deskcheck::detail {

using Plan = DeliveryPlan;  // model/tool_hooks.h

GuardConfig guard_config(const ToolConfig& c, const GiveBackPolicy& give_back);
ClickState click_state_of_role(const std::string& role);
ActionFacts facts_of(const Request& r, const ElementNode* node);
// `node`: the element acted on (a ref's), or for a coordinate click the element at its point.
Plan choose_delivery(const WindowInfo& w, const ElementNode* node, const Request& r, const ActionFacts& f);
// The deepest element whose bounds hold the physical point (the later one in tree order among
// equals), as a window's hit test finds the child that receives a click; nullptr: none.
const ElementNode* element_at(const ElementTree& tree, Point physical);

}  // namespace deskcheck::detail
