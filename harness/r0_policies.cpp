// Wrong undo policies (harness/r0_policies.h).
#include "harness/r0_policies.h"

#include <algorithm>

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

// Recovery reads the journal, then forgets the last intent no undo line follows.
struct RecoverSkipsLastIntent final : R0Recovery {
    std::vector<TaskReport> recover(UndoTool& tool, const std::vector<JournalEntry>& journal) const override {
        std::vector<JournalEntry> entries = journal;
        for (std::size_t i = entries.size(); i > 0; --i) {
            const JournalEntry& e = entries[i - 1];
            if (e.status != JournalStatus::Intent) continue;
            const bool undone = std::any_of(entries.begin() + static_cast<std::ptrdiff_t>(i), entries.end(), [&](const JournalEntry& u) {
                return u.task == e.task && u.step == e.step &&
                       (u.status == JournalStatus::Undone || u.status == JournalStatus::UndoFailed || u.status == JournalStatus::NotUndoable);
            });
            if (undone) continue;
            entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i - 1));
            break;
        }
        return tool.recover(entries);
    }
};
struct RecoverNothing final : R0Recovery {
    std::vector<TaskReport> recover(UndoTool&, const std::vector<JournalEntry>&) const override { return {}; }
};

}  // namespace

PolicyChoice make_policy(const std::string& name) {
    if (name == "current") return {true, nullptr, nullptr};
    if (name == "null-as-empty") return {true, std::make_unique<NullAsEmpty>(), nullptr};
    if (name == "forget-folders") return {true, std::make_unique<ForgetFolders>(), nullptr};
    if (name == "skip-failed-line") return {true, std::make_unique<SkipFailedLine>(), nullptr};
    if (name == "wrong-order") return {true, std::make_unique<WrongOrder>(), nullptr};
    if (name == "recover-skips-last-intent") return {true, nullptr, std::make_unique<RecoverSkipsLastIntent>()};
    if (name == "recover-nothing") return {true, nullptr, std::make_unique<RecoverNothing>()};
    return {false, nullptr, nullptr};
}

}  // namespace deskcheck::r0
