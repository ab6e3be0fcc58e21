// Wrong undo policies (properties/r0_policies.h).
#include "properties/r0_policies.h"

namespace deskcheck::r0 {
namespace {

struct NullAsEmpty final : UndoPolicy {
    std::optional<std::string> value_to_restore(const std::optional<std::string>& before) const override {
        return before.value_or("");
    }
};
struct ForgetFolders final : UndoPolicy {
    std::vector<std::string> folders_to_remove(const std::vector<std::string>&) const override { return {}; }
};
struct SkipFailedLine final : UndoPolicy {
    bool journals_failure() const override { return false; }
};
struct WrongOrder final : UndoPolicy {
    std::vector<std::size_t> undo_order(std::size_t count) const override {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < count; ++i) order.push_back(i);
        return order;
    }
};

}  // namespace

PolicyChoice make_policy(const std::string& name) {
    if (name == "current") return {true, nullptr};
    if (name == "null-as-empty") return {true, std::make_unique<NullAsEmpty>()};
    if (name == "forget-folders") return {true, std::make_unique<ForgetFolders>()};
    if (name == "skip-failed-line") return {true, std::make_unique<SkipFailedLine>()};
    if (name == "wrong-order") return {true, std::make_unique<WrongOrder>()};
    return {false, nullptr};
}

}  // namespace deskcheck::r0
