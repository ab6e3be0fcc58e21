// The in-memory file system of the R0 world (sim/r0_world.h): a sorted map of paths, POSIX-like
// answers (a write needs its parent folder, a move refuses an existing target, remove refuses a
// folder that holds something), and the fault plan applied to mutating operations.
#include <algorithm>
#include <cassert>

#include "sim/r0_world.h"

namespace deskcheck::sim {
namespace {

bool parent_is_folder(const FsTree& fs, const std::string& path) {
    const std::string parent = parent_of(path);
    if (parent.empty()) return true;
    const auto it = fs.find(parent);
    return it != fs.end() && it->second.folder;
}

std::optional<FsError> parent_error(const FsTree& fs, const std::string& path) {
    const std::string parent = parent_of(path);
    if (parent.empty()) return std::nullopt;
    const auto it = fs.find(parent);
    if (it == fs.end()) return FsError::NotFound;
    if (!it->second.folder) return FsError::NotAFolder;
    return std::nullopt;
}

bool has_children(const FsTree& fs, const std::string& folder) {
    const auto first = fs.lower_bound(folder + "/");
    return first != fs.end() && first->first.rfind(folder + "/", 0) == 0;
}

FsError fault_error(OpFaultKind k) {
    switch (k) {
        case OpFaultKind::PermissionDenied: return FsError::PermissionDenied;
        case OpFaultKind::PartialWrite: return FsError::PartialWrite;
        default: return FsError::NoSpace;
    }
}

}  // namespace

FsResult<FsDone> MemFs::finish(FsResult<FsDone> r) {
    world_.end_op(r.ok() ? "ok" : std::string(to_string(r.error)));
    return r;
}

FsResult<std::string> MemFs::read(std::string_view path) {
    const std::string p(path);
    if (!valid_path(p)) return FsResult<std::string>::bad(FsError::BadPath);
    const FsTree& fs = world_.state().fs;
    const auto it = fs.find(p);
    if (it == fs.end()) return FsResult<std::string>::bad(FsError::NotFound);
    if (it->second.folder) return FsResult<std::string>::bad(FsError::IsAFolder);
    return FsResult<std::string>::good(it->second.bytes);
}

FsResult<FsDone> MemFs::write(std::string_view path, std::string_view bytes) {
    const std::string p(path);
    const auto fault = world_.begin_op("write", p);
    FsTree& fs = world_.mutable_state().fs;
    if (!valid_path(p) || bytes.size() > file_bytes_max) return finish(FsResult<FsDone>::bad(FsError::BadPath));
    if (auto e = parent_error(fs, p)) return finish(FsResult<FsDone>::bad(*e));
    const auto it = fs.find(p);
    if (it != fs.end() && it->second.folder) return finish(FsResult<FsDone>::bad(FsError::IsAFolder));
    if (fault && *fault != OpFaultKind::PartialWrite) return finish(FsResult<FsDone>::bad(fault_error(*fault)));
    if (it == fs.end() && fs.size() >= fs_entries_max) return finish(FsResult<FsDone>::bad(FsError::NoSpace));
    // A partial write truncates the file and stores the first half of the bytes.
    fs[p] = FsEntry{false, std::string(fault ? bytes.substr(0, bytes.size() / 2) : bytes)};
    return finish(fault ? FsResult<FsDone>::bad(FsError::PartialWrite) : FsResult<FsDone>::good({}));
}

FsResult<FsDone> MemFs::make_folder(std::string_view path) {
    const std::string p(path);
    const auto fault = world_.begin_op("make_folder", p);
    FsTree& fs = world_.mutable_state().fs;
    if (!valid_path(p)) return finish(FsResult<FsDone>::bad(FsError::BadPath));
    if (auto e = parent_error(fs, p)) return finish(FsResult<FsDone>::bad(*e));
    if (fs.count(p) != 0) return finish(FsResult<FsDone>::bad(FsError::AlreadyExists));
    if (fault) return finish(FsResult<FsDone>::bad(fault_error(*fault == OpFaultKind::PartialWrite ? OpFaultKind::NoSpace : *fault)));
    if (fs.size() >= fs_entries_max) return finish(FsResult<FsDone>::bad(FsError::NoSpace));
    fs[p] = FsEntry{true, ""};
    return finish(FsResult<FsDone>::good({}));
}

FsResult<FsDone> MemFs::move(std::string_view from, std::string_view to) {
    const std::string f(from);
    const std::string t(to);
    const auto fault = world_.begin_op("move", f + " -> " + t);
    FsTree& fs = world_.mutable_state().fs;
    if (!valid_path(f) || !valid_path(t) || t.rfind(f + "/", 0) == 0) return finish(FsResult<FsDone>::bad(FsError::BadPath));
    if (fs.count(f) == 0) return finish(FsResult<FsDone>::bad(FsError::NotFound));
    if (auto e = parent_error(fs, t)) return finish(FsResult<FsDone>::bad(*e));
    if (fs.count(t) != 0) return finish(FsResult<FsDone>::bad(FsError::AlreadyExists));
    if (fault) return finish(FsResult<FsDone>::bad(fault_error(*fault == OpFaultKind::PartialWrite ? OpFaultKind::NoSpace : *fault)));
    // The entry and, for a folder, everything under it.
    std::vector<std::pair<std::string, FsEntry>> moved;
    for (auto it = fs.lower_bound(f); it != fs.end() && (it->first == f || it->first.rfind(f + "/", 0) == 0);) {
        moved.emplace_back(t + it->first.substr(f.size()), it->second);
        it = fs.erase(it);
    }
    for (auto& [p, e] : moved) fs[p] = std::move(e);
    return finish(FsResult<FsDone>::good({}));
}

FsResult<FsDone> MemFs::remove(std::string_view path) {
    const std::string p(path);
    const auto fault = world_.begin_op("remove", p);
    FsTree& fs = world_.mutable_state().fs;
    if (!valid_path(p)) return finish(FsResult<FsDone>::bad(FsError::BadPath));
    const auto it = fs.find(p);
    if (it == fs.end()) return finish(FsResult<FsDone>::bad(FsError::NotFound));
    if (it->second.folder && has_children(fs, p)) return finish(FsResult<FsDone>::bad(FsError::NotEmpty));
    if (fault) return finish(FsResult<FsDone>::bad(fault_error(*fault == OpFaultKind::PartialWrite ? OpFaultKind::NoSpace : *fault)));
    fs.erase(it);
    return finish(FsResult<FsDone>::good({}));
}

FsResult<std::vector<std::string>> MemFs::list(std::string_view path) {
    const std::string p(path);
    const FsTree& fs = world_.state().fs;
    if (!p.empty()) {
        if (!valid_path(p)) return FsResult<std::vector<std::string>>::bad(FsError::BadPath);
        const auto it = fs.find(p);
        if (it == fs.end()) return FsResult<std::vector<std::string>>::bad(FsError::NotFound);
        if (!it->second.folder) return FsResult<std::vector<std::string>>::bad(FsError::NotAFolder);
    }
    const std::string prefix = p.empty() ? "" : p + "/";
    std::vector<std::string> names;
    for (auto it = fs.lower_bound(prefix); it != fs.end() && it->first.rfind(prefix, 0) == 0; ++it) {
        const std::string rest = it->first.substr(prefix.size());
        if (!rest.empty() && rest.find('/') == std::string::npos) names.push_back(rest);
    }
    std::sort(names.begin(), names.end());
    return FsResult<std::vector<std::string>>::good(std::move(names));
}

FsResult<FsStat> MemFs::stat(std::string_view path) {
    const std::string p(path);
    if (!valid_path(p)) return FsResult<FsStat>::bad(FsError::BadPath);
    const FsTree& fs = world_.state().fs;
    const auto it = fs.find(p);
    if (it == fs.end()) {
        if (!parent_is_folder(fs, p) && parent_error(fs, p) == FsError::NotAFolder) return FsResult<FsStat>::bad(FsError::NotAFolder);
        return FsResult<FsStat>::bad(FsError::NotFound);
    }
    return FsResult<FsStat>::good(FsStat{it->second.folder, it->second.folder ? 0 : it->second.bytes.size()});
}

}  // namespace deskcheck::sim
