// Internal to model/tool*.cpp: the pieces of act shared between files.
#pragma once

#include "model/guard.h"
#include <vector>
#include "model/tool.h"

namespace deskcheck {
// The batch's held borrow (F-5): the first step that borrows keeps the window in front.
struct Tool::Hold {
    std::optional<Borrow> borrow;
    std::uint32_t borrows = 0;
    std::uint32_t give_backs = 0;
    std::optional<ForegroundEvidence> returned;  // set when given back early (F-6)
    bool interfered = false;  // another window took the front from the held borrow (F-4)
    std::vector<WindowId> acted;  // windows the batch delivered to: a grab by one of them is ours
    // Who the front is owed to: the window in front when the batch began, or whoever else took it
    // since (F-4). A give-back never goes to a window of the batch's own apps instead (F-3).
    WindowId owner = no_window;
};
}  // namespace deskcheck

namespace deskcheck::detail {

struct Plan {
    DeliveryMethod method = DeliveryMethod::PostedKeys;
    bool needs_foreground = false;
};

GuardConfig guard_config(const ToolConfig& c, const GiveBackPolicy& give_back);
ClickState click_state_of_role(const std::string& role);
ActionFacts facts_of(const Request& r, const ElementNode* node);
Plan choose_delivery(const WindowInfo& w, const ElementNode* node, const Request& r, const ActionFacts& f);

}  // namespace deskcheck::detail
