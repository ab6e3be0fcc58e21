// The undo tool, per operation: what is read before (capture), what acts (act), how it is undone
// (undo_one). Reads only in capture; undo_one reads the current state first, so undoing a step
// that failed half-way (folders made, write failed) or twice does no harm.
#include <algorithm>
#include <cassert>

#include "model/undo.h"

namespace deskcheck {
namespace {

std::string fs_error(std::string_view what, std::string_view path, FsError e) {
    return std::string(what) + " " + std::string(path) + ": " + std::string(to_string(e));
}

// The folders among `candidates` (top-down) that do not exist yet: from the first missing one on.
// A file in the way is an error (NotAFolder).
std::optional<FsError> missing_folders(Files& files, const std::vector<std::string>& candidates,
                                       std::vector<std::string>& out) {
    assert(out.empty());
    bool missing = false;
    for (const std::string& folder : candidates) {
        if (!missing) {
            const FsResult<FsStat> st = files.stat(folder);
            if (!st.ok() && st.error != FsError::NotFound) return st.error;
            if (st.ok() && !st.value->is_folder) return FsError::NotAFolder;
            missing = !st.ok();
        }
        if (missing) out.push_back(folder);
    }
    assert(out.size() <= candidates.size());  // only folders of the step's own path, top-down
    return std::nullopt;
}

// The first path of a file step's before-state that is not a port path, if any.
std::optional<std::string> invalid_path_of(const JournalEntry& intent) {
    const Before& b = *intent.before;
    if (!valid_path(b.path)) return b.path;
    if (intent.op == StepOp::FileMove && !valid_path(b.to)) return b.to;
    for (const std::string& folder : b.created_folders) {
        if (!valid_path(folder)) return folder;
    }
    return std::nullopt;
}

}  // namespace

UndoTool::Outcome UndoTool::capture(const TaskStep& step, Before& before) {
    assert(before == Before{});  // read into a fresh before-state
    assert(is_file_op(step.op) ? ports_.files != nullptr : ports_.desktop != nullptr);  // check_task
    before.path = step.path;
    before.to = step.to;
    before.window = step.window;
    before.element = step.element;
    if (is_file_op(step.op)) {
        Files& f = *ports_.files;
        std::vector<std::string> folders = ancestors_of(step.op == StepOp::FileMove ? step.to : step.path);
        if (step.op == StepOp::FileMkdir) folders.push_back(step.path);
        if (auto e = missing_folders(f, folders, before.created_folders)) return {false, fs_error("stat", step.path, *e)};
        if (step.op == StepOp::FileMove) {
            if (const auto from = f.stat(step.path); !from.ok()) return {false, fs_error("stat", step.path, from.error)};
            const auto to = f.stat(step.to);
            if (to.ok()) return {false, fs_error("move to", step.to, FsError::AlreadyExists)};
            if (to.error != FsError::NotFound) return {false, fs_error("stat", step.to, to.error)};
        }
        if (step.op != StepOp::FileWrite) return {};
        const auto st = f.stat(step.path);
        if (!st.ok() && st.error != FsError::NotFound) return {false, fs_error("stat", step.path, st.error)};
        if (st.ok() && st.value->is_folder) return {false, fs_error("write", step.path, FsError::IsAFolder)};
        before.existed = st.ok();
        if (before.existed) {
            auto bytes = f.read(step.path);
            if (!bytes.ok()) return {false, fs_error("read", step.path, bytes.error)};
            before.bytes = std::move(*bytes.value);
        }
        return {};
    }
    Desktop& d = *ports_.desktop;
    if (step.op == StepOp::UiMove) {
        const auto rect = d.read_geometry(step.window);
        if (!rect) return {false, "the window's geometry cannot be read"};
        before.rect = *rect;
    } else if (step.op == StepOp::UiType) {
        if (d.read_enabled(step.window, step.element) == false) return {false, "the control is disabled"};
        before.writer = d.value_writer(step.window, step.element);
        auto state = d.read_value_state(step.window, step.element);
        if (!state) return {false, "the control's value cannot be read"};
        before.value = std::move(*state);
        // Allowed although it cannot be written back: undo will say "not undoable".
        before.irreversible = before.writer == ValueWriter::None || (before.writer == ValueWriter::KeyboardFallback && !before.value);
    } else {
        before.irreversible = true;
    }
    assert(step.op != StepOp::UiInvoke || before.irreversible);
    return {};
}

UndoTool::Outcome UndoTool::act(const TaskStep& step, const Before& before, std::uint32_t id) {
    assert(id >= 1);
    assert(before.path == step.path && before.window == step.window);  // captured for this very step
    if (is_file_op(step.op)) {
        Files& f = *ports_.files;
        for (const std::string& folder : before.created_folders) {
            if (const auto r = f.make_folder(folder); !r.ok()) return {false, fs_error("make folder", folder, r.error)};
        }
        if (step.op == StepOp::FileWrite) {
            if (const auto r = f.write(step.path, step.bytes); !r.ok()) return {false, fs_error("write", step.path, r.error)};
        } else if (step.op == StepOp::FileMove) {
            if (const auto r = f.move(step.path, step.to); !r.ok()) return {false, fs_error("move", step.path, r.error)};
        }
        return {};
    }
    Desktop& d = *ports_.desktop;
    switch (step.op) {
        case StepOp::UiMove:
            if (d.move_window(step.window, step.rect) != DeliveryStatus::Delivered) return {false, "move window failed"};
            return {};
        case StepOp::UiType: return write_value(step.window, step.element, before.writer, step.text);
        default: {
            Input in;
            in.method = DeliveryMethod::UiaInvoke;
            in.window = step.window;
            in.element = step.element;
            in.step = static_cast<std::int32_t>(id);
            if (d.deliver(in) != DeliveryStatus::Delivered) return {false, "invoke failed"};
            return {};
        }
    }
}

// ValuePattern writes any value, "no value" included; the seed's fallback (select-all, then
// paste over the selection, by edit messages) writes any text but never "no value".
UndoTool::Outcome UndoTool::write_value(WindowId w, ElementId e, ValueWriter writer, const std::optional<std::string>& value) {
    assert(ports_.desktop != nullptr);
    Desktop& d = *ports_.desktop;
    if (writer == ValueWriter::ValuePattern) {
        if (d.set_value(w, e, value) != DeliveryStatus::Delivered) return {false, "set value failed"};
        return {};
    }
    if (writer == ValueWriter::None) return {false, "the control has no set-value primitive and no fallback"};
    assert(writer == ValueWriter::KeyboardFallback);
    if (!value) {  // every undo reads the current state first: a control that still has no value is restored
        const auto now = d.read_value_state(w, e);
        if (now && !*now) return {};
        return {false, "select-all + paste cannot give a control back \"no value\""};
    }
    Input select_all;
    select_all.method = DeliveryMethod::EditMessage;
    select_all.window = w;
    select_all.element = e;
    select_all.keys = "ctrl+a";
    if (d.deliver(select_all) != DeliveryStatus::Delivered) return {false, "select-all failed"};
    Input paste = select_all;
    paste.keys.clear();
    paste.text = *value;
    if (d.deliver(paste) != DeliveryStatus::Delivered) return {false, "paste failed"};
    return {};
}

UndoTool::Outcome UndoTool::remove_created(const std::vector<std::string>& created_top_down) {
    assert(ports_.files != nullptr);
    Files& f = *ports_.files;
    // undo_one checked the journal's folders first: none leaves the root.
    assert(std::all_of(created_top_down.begin(), created_top_down.end(), [](const std::string& p) { return valid_path(p); }));
    for (const std::string& folder : policy_->folders_to_remove(created_top_down)) {
        const auto st = f.stat(folder);
        if (!st.ok() && st.error == FsError::NotFound) continue;  // never made (the step failed first)
        if (!st.ok()) return {false, fs_error("stat", folder, st.error)};
        if (!st.value->is_folder) continue;
        const auto names = f.list(folder);
        if (!names.ok()) return {false, fs_error("list", folder, names.error)};
        if (!names.value->empty()) {
            // another program's files stay, and so does their folder. What a failed undo of
            // this rollback left inside it is ours: then the step is not restored.
            const std::string inside = "file:" + folder + "/";
            const bool ours = std::any_of(rollback_failed_keys_.begin(), rollback_failed_keys_.end(),
                                          [&](const std::string& k) { return k.rfind(inside, 0) == 0; });
            if (ours) return {false, "folder " + folder + " kept: it holds what a failed undo left"};
            continue;
        }
        if (const auto r = f.remove(folder); !r.ok()) return {false, fs_error("remove", folder, r.error)};
    }
    return {};
}

UndoTool::Outcome UndoTool::undo_one(const JournalEntry& intent) {
    assert(intent.status == JournalStatus::Intent);
    assert(intent.before.has_value());
    const Before& b = *intent.before;
    if (intent.op == StepOp::UiMove) {
        if (ports_.desktop->move_window(b.window, b.rect) != DeliveryStatus::Delivered) return {false, "move window back failed"};
        return {};
    }
    if (intent.op == StepOp::UiType) return write_value(b.window, b.element, b.writer, policy_->value_to_restore(b.value));
    // A journal naming a path outside the port's paths ("..", "/etc", "") names nothing this undo
    // may touch: a failure, never "undone".
    if (const auto bad = invalid_path_of(intent)) return {false, "the journal names an invalid path: \"" + *bad + "\""};
    Files& f = *ports_.files;
    if (intent.op == StepOp::FileWrite) {
        if (b.existed) {
            assert(b.bytes.has_value());
            if (const auto r = f.write(b.path, *b.bytes); !r.ok()) return {false, fs_error("write back", b.path, r.error)};
        } else {
            const auto st = f.stat(b.path);
            // A name the disk cannot hold (ENAMETOOLONG: BadPath) names nothing: there is nothing to remove.
            // Found on a real disk: the undo of a write that failed on a too-long name reported failed.
            if (!st.ok() && st.error != FsError::NotFound && st.error != FsError::BadPath)
                return {false, fs_error("stat", b.path, st.error)};
            if (st.ok()) {
                if (const auto r = f.remove(b.path); !r.ok()) return {false, fs_error("remove", b.path, r.error)};
            }
        }
    } else if (intent.op == StepOp::FileMove) {
        const auto to = f.stat(b.to);
        const auto from = f.stat(b.path);
        if (!to.ok() && to.error != FsError::NotFound) return {false, fs_error("stat", b.to, to.error)};
        if (!from.ok() && from.error != FsError::NotFound) return {false, fs_error("stat", b.path, from.error)};
        if (to.ok() && from.ok()) return {false, "cannot move " + b.to + " back: " + b.path + " exists"};
        if (!to.ok() && !from.ok()) return {false, "cannot move back: neither " + b.path + " nor " + b.to + " exists"};
        if (to.ok()) {
            if (const auto r = f.move(b.to, b.path); !r.ok()) return {false, fs_error("move back", b.to, r.error)};
        }  // else: the move never happened
    }
    return remove_created(b.created_folders);
}

}  // namespace deskcheck
