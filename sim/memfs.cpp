// The in-memory file system of the R0 world (sim/r0_world.h): a sorted map of paths, POSIX-like
// answers (a write needs its parent folder, a move refuses an existing target, remove refuses a
// folder that holds something), and the fault plan applied to mutating operations. Each mutating
// operation runs as its plan's primitives (model/durability.h), on the tree and, when a PowerDisk
// is bound to the world, on the disk model below (sim/memfs.h), where the power may be cut.
#include <algorithm>
#include <cassert>

#include "sim/r0_world.h"
#include "sim/memfs.h"

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
    // A partial write truncates the file and stores the first half of the bytes, then fails.
    const bool partial = fault.has_value();
    for (const Primitive prim : plan(PortOp::Write)) {
        primitive(prim, p, "", partial ? bytes.substr(0, bytes.size() / 2) : bytes);
        if (partial && prim == Primitive::WriteData) return finish(FsResult<FsDone>::bad(FsError::PartialWrite));
    }
    return finish(FsResult<FsDone>::good({}));
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
    for (const Primitive prim : plan(PortOp::MakeFolder)) primitive(prim, p, "", {});
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
    for (const Primitive prim : plan(PortOp::Move)) {
        if (issued_by_call(prim, parent_of(f) == parent_of(t))) primitive(prim, t, f, {});
    }
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
    for (const Primitive prim : plan(PortOp::Remove)) primitive(prim, p, "", {});
    return finish(FsResult<FsDone>::good({}));
}

std::span<const Primitive> MemFs::plan(PortOp op) const {
    return world_.power() != nullptr ? world_.power()->plan(op) : durability_plan(op);
}

void MemFs::primitive(Primitive p, const std::string& path, const std::string& from, std::string_view bytes) {
    PowerDisk* power = world_.power();
    if (power != nullptr) power->before(p);  // the power cut falls here: nothing of this primitive happens
    FsTree& fs = world_.mutable_state().fs;
    switch (p) {
        case Primitive::OpenTruncate: fs[path] = FsEntry{false, ""}; break;
        case Primitive::WriteData: fs[path].bytes += std::string(bytes); break;
        case Primitive::MakeFolder: fs[path] = FsEntry{true, ""}; break;
        case Primitive::Rename: {  // the entry and, for a folder, everything under it
            std::vector<std::pair<std::string, FsEntry>> moved;
            for (auto it = fs.lower_bound(from); it != fs.end() && (it->first == from || it->first.rfind(from + "/", 0) == 0);) {
                moved.emplace_back(path + it->first.substr(from.size()), it->second);
                it = fs.erase(it);
            }
            for (auto& [q, e] : moved) fs[q] = std::move(e);
            break;
        }
        case Primitive::RemoveEntry: fs.erase(path); break;
        default: break;  // the fsyncs change nothing a read sees; the journal's primitives are not the files'
    }
    if (power == nullptr) return;
    Disk& disk = power->disk();
    const std::string root(disk_files);
    const auto on_disk = [&root](const std::string& q) { return q.empty() ? root : root + "/" + q; };
    switch (p) {
        case Primitive::OpenTruncate: disk.open(on_disk(path), /*truncate=*/true); break;
        case Primitive::WriteData: disk.write(on_disk(path), bytes); break;
        case Primitive::FsyncFile: disk.fsync(on_disk(path)); break;
        case Primitive::FsyncParent: disk.fsync(on_disk(parent_of(path))); break;
        case Primitive::FsyncOldParent: disk.fsync(on_disk(parent_of(from))); break;
        case Primitive::MakeFolder: disk.make_folder(on_disk(path)); break;
        case Primitive::Rename: disk.rename(on_disk(from), on_disk(path)); break;
        case Primitive::RemoveEntry: disk.remove(on_disk(path)); break;
        case Primitive::OpenAppend:
        case Primitive::CutTornTail: break;
    }
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

// ---- The disk under it (sim/memfs.h) ----

namespace deskcheck::sim {
namespace {

std::pair<std::string, std::string> split_last(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return {"", path};
    return {path.substr(0, slash), path.substr(slash + 1)};
}

std::optional<std::size_t> entry_of(const std::map<std::string, std::size_t>& entries, const std::string& name) {
    const auto it = entries.find(name);
    if (it == entries.end()) return std::nullopt;
    return it->second;
}

// A torn write keeps the bytes `cached` shares with `durable`, then half of the rest.
std::string torn(const std::string& durable, const std::string& cached) {
    std::size_t common = 0;
    while (common < durable.size() && common < cached.size() && durable[common] == cached[common]) ++common;
    return cached.substr(0, common + (cached.size() - common) / 2);
}

}  // namespace

Disk::Disk(const FsTree& files, const std::optional<std::string>& journal) {
    nodes_.push_back(Inode{true, "", "", {}, {}});
    const auto durable_add = [this](const std::string& path, bool folder, const std::string& bytes) {
        const auto s = slot(path);
        if (!s) return;
        const std::size_t id = add_inode(folder);
        nodes_[id].data = nodes_[id].durable_data = bytes;
        nodes_[s->folder].entries[s->name] = id;
        nodes_[s->folder].durable_entries[s->name] = id;
    };
    durable_add(disk_files, true, "");
    for (const auto& [path, e] : files) durable_add(std::string(disk_files) + "/" + path, e.folder, e.bytes);  // parents sort first
    if (journal) durable_add(disk_journal, false, *journal);
}

std::size_t Disk::add_inode(bool folder) {
    nodes_.push_back(Inode{folder, "", "", {}, {}});
    return nodes_.size() - 1;
}

std::optional<std::size_t> Disk::resolve(const std::string& path) const {
    std::size_t at = 0;
    if (path.empty()) return at;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t slash = path.find('/', start);
        const std::string name = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        if (!nodes_[at].folder) return std::nullopt;
        const auto next = entry_of(nodes_[at].entries, name);
        if (!next) return std::nullopt;
        at = *next;
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return at;
}

std::optional<Disk::Slot> Disk::slot(const std::string& path) const {
    const auto [parent, name] = split_last(path);
    const auto folder = resolve(parent);
    if (!folder || !nodes_[*folder].folder || name.empty()) return std::nullopt;
    return Slot{*folder, name};
}

void Disk::set_entry(const Slot& s, std::optional<std::size_t> inode, std::uint64_t change) {
    auto& entries = nodes_[s.folder].entries;
    if (inode) entries[s.name] = *inode;
    else entries.erase(s.name);
    change_of_[{s.folder, s.name}] = change;
}

void Disk::open(const std::string& path, bool truncate) {
    const auto s = slot(path);
    if (!s) return;
    auto existing = entry_of(nodes_[s->folder].entries, s->name);
    if (existing && nodes_[*existing].folder) return;
    if (!existing) {
        existing = add_inode(false);
        set_entry(*s, existing, ++changes_);
    }
    if (truncate) nodes_[*existing].data.clear();
}

void Disk::write(const std::string& path, std::string_view bytes) {
    const auto id = resolve(path);
    if (id && !nodes_[*id].folder) nodes_[*id].data += std::string(bytes);
}

void Disk::cut_torn_tail(const std::string& path) {
    const auto id = resolve(path);
    if (!id || nodes_[*id].folder) return;
    std::string& data = nodes_[*id].data;
    const std::size_t nl = data.rfind('\n');
    data.resize(nl == std::string::npos ? 0 : nl + 1);
}

void Disk::fsync(const std::string& path) {
    const auto id = resolve(path);
    if (!id) return;
    Inode& n = nodes_[*id];
    if (!n.folder) {
        n.durable_data = n.data;
        return;
    }
    std::vector<std::string> names;
    for (const auto& [name, child] : n.entries) names.push_back(name);
    for (const auto& [name, child] : n.durable_entries) names.push_back(name);
    for (const std::string& name : names) {
        const Slot here{*id, name};
        if (entry_of(n.entries, name) == entry_of(n.durable_entries, name)) continue;
        const auto c = change_of_.find({*id, name});
        const auto r = c == change_of_.end() ? renames_.end() : renames_.find(c->second);
        if (r == renames_.end()) {
            make_durable(here);
            continue;
        }
        // Half of a rename whose other half is still volatile in another folder: durable (both
        // halves at once) only once that folder has been fsynced too.
        const auto& [from, to] = r->second;
        const Slot other = from.folder == *id && from.name == name ? to : from;
        const auto oc = change_of_.find({other.folder, other.name});
        const bool other_volatile = oc != change_of_.end() && oc->second == c->second &&
                                    entry_of(nodes_[other.folder].entries, other.name) != entry_of(nodes_[other.folder].durable_entries, other.name);
        if (!other_volatile || other.folder == *id) {
            make_durable(here);
            if (other_volatile) make_durable(other);
            continue;
        }
        const auto half = half_synced_.find(c->second);
        if (half != half_synced_.end() && half->second == other.folder) {
            make_durable(here);
            make_durable(other);
            half_synced_.erase(half);
        } else {
            half_synced_[c->second] = *id;
        }
    }
}

void Disk::make_durable(const Slot& s) {
    Inode& n = nodes_[s.folder];
    const auto cached = entry_of(n.entries, s.name);
    if (cached) n.durable_entries[s.name] = *cached;
    else n.durable_entries.erase(s.name);
}

void Disk::make_folder(const std::string& path) {
    const auto s = slot(path);
    if (!s || entry_of(nodes_[s->folder].entries, s->name)) return;
    set_entry(*s, add_inode(true), ++changes_);
}

void Disk::rename(const std::string& from, const std::string& to) {
    const auto a = slot(from);
    const auto b = slot(to);
    if (!a || !b) return;
    const auto id = entry_of(nodes_[a->folder].entries, a->name);
    if (!id) return;
    const std::uint64_t change = ++changes_;  // one change: both entries kept or lost together
    set_entry(*a, std::nullopt, change);
    set_entry(*b, id, change);
    if (a->folder != b->folder) renames_[change] = {*a, *b};
}

void Disk::remove(const std::string& path) {
    const auto s = slot(path);
    if (!s || !entry_of(nodes_[s->folder].entries, s->name)) return;
    set_entry(*s, std::nullopt, ++changes_);
}

void Disk::durable_write(const std::string& path, std::string_view bytes) {
    const auto s = slot(path);
    if (!s) return;
    auto id = entry_of(nodes_[s->folder].entries, s->name);
    if (id && nodes_[*id].folder) return;
    if (!id) id = add_inode(false);
    Inode& n = nodes_[*id];
    n.data = n.durable_data = std::string(bytes);
    nodes_[s->folder].entries[s->name] = *id;
    nodes_[s->folder].durable_entries[s->name] = *id;
}

bool Disk::is_file(const std::string& path) const {
    const auto id = resolve(path);
    return id && !nodes_[*id].folder;
}

std::optional<std::string> Disk::read(const std::string& path) const {
    const auto id = resolve(path);
    if (!id || nodes_[*id].folder) return std::nullopt;
    return nodes_[*id].data;
}

// Every entry whose cached state is not its durable one, with the call that last changed it; only
// folders some entry (cached or durable) still names count: the others cannot come back.
std::vector<std::pair<Disk::Slot, std::uint64_t>> Disk::volatile_entries() const {
    std::vector<bool> named(nodes_.size(), false);
    named[0] = true;
    for (const Inode& n : nodes_) {
        for (const auto& [name, id] : n.entries) named[id] = true;
        for (const auto& [name, id] : n.durable_entries) named[id] = true;
    }
    std::vector<std::pair<Slot, std::uint64_t>> out;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const Inode& n = nodes_[i];
        if (!n.folder || !named[i]) continue;
        std::vector<std::string> names;
        for (const auto& [name, id] : n.entries) names.push_back(name);
        for (const auto& [name, id] : n.durable_entries) {
            if (n.entries.count(name) == 0) names.push_back(name);
        }
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) {
            if (entry_of(n.entries, name) == entry_of(n.durable_entries, name)) continue;
            const auto c = change_of_.find({i, name});
            out.push_back({Slot{i, name}, c == change_of_.end() ? 0 : c->second});
        }
    }
    return out;
}

std::vector<std::size_t> Disk::volatile_data() const {
    std::vector<bool> named(nodes_.size(), false);
    for (const Inode& n : nodes_) {
        for (const auto& [name, id] : n.entries) named[id] = true;
        for (const auto& [name, id] : n.durable_entries) named[id] = true;
    }
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (named[i] && !nodes_[i].folder && nodes_[i].data != nodes_[i].durable_data) out.push_back(i);
    }
    return out;
}

namespace {

// A path of the workspace for messages, found through the cached entries, else the durable ones.
std::string name_of_inode(const std::vector<std::pair<std::size_t, std::string>>& parent_of_inode, std::size_t id) {
    std::string out;
    for (std::size_t depth = 0; id != 0 && depth <= path_depth_max + 1; ++depth) {
        const auto& [parent, name] = parent_of_inode[id];
        if (name.empty()) return "(unnamed)";
        out = out.empty() ? name : name + "/" + out;
        id = parent;
    }
    return out;
}

}  // namespace

std::vector<VolatileChange> Disk::volatile_changes() const {
    std::vector<std::pair<std::size_t, std::string>> parent(nodes_.size(), {0, ""});
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        for (const auto& [name, id] : nodes_[i].durable_entries) parent[id] = {i, name};
        for (const auto& [name, id] : nodes_[i].entries) parent[id] = {i, name};
    }
    std::vector<VolatileChange> out;
    std::map<std::uint64_t, std::size_t> index_of_change;
    for (const auto& [s, change] : volatile_entries()) {
        const std::string path = (s.folder == 0 ? "" : name_of_inode(parent, s.folder) + "/") + s.name;
        const char* how = nodes_[s.folder].entries.count(s.name) != 0 ? " (+)" : " (-)";
        const auto [it, fresh] = index_of_change.emplace(change, out.size());
        if (fresh) out.push_back(VolatileChange{false, "entries: " + path + how});
        else out[it->second].what += ", " + path + how;
    }
    for (const std::size_t id : volatile_data()) out.push_back(VolatileChange{true, "data of " + name_of_inode(parent, id)});
    return out;
}

Survivors Disk::survive(const std::vector<Fate>& fates) const {
    std::vector<Inode> nodes = nodes_;
    for (Inode& n : nodes) n.entries = n.durable_entries;
    std::map<std::uint64_t, std::size_t> index_of_change;
    std::size_t next = 0;
    for (const auto& [s, change] : volatile_entries()) {
        const auto [it, fresh] = index_of_change.emplace(change, next);
        if (fresh) ++next;
        if (it->second >= fates.size() || fates[it->second] == Fate::Lost) continue;
        const auto cached = entry_of(nodes_[s.folder].entries, s.name);
        if (cached) nodes[s.folder].entries[s.name] = *cached;
        else nodes[s.folder].entries.erase(s.name);
    }
    for (const std::size_t id : volatile_data()) {
        const Fate f = next < fates.size() ? fates[next] : Fate::Lost;
        ++next;
        Inode& n = nodes[id];
        n.data = f == Fate::Kept ? nodes_[id].data : f == Fate::Torn ? torn(nodes_[id].durable_data, nodes_[id].data) : nodes_[id].durable_data;
    }
    return read_back(nodes);
}

Survivors Disk::cached() const { return read_back(nodes_); }

// What the workspace holds, read from its folder down through `entries` and `data` (bounded: an
// entry two folders reach is read twice, a cycle a lost rename could make stops at the depth bound).
Survivors Disk::read_back(const std::vector<Inode>& nodes) const {
    Survivors out;
    const auto journal = entry_of(nodes[0].entries, disk_journal);
    if (journal && !nodes[*journal].folder) out.journal = nodes[*journal].data;
    const auto root = entry_of(nodes[0].entries, disk_files);
    if (!root || !nodes[*root].folder) return out;
    std::vector<std::pair<std::string, std::size_t>> todo{{"", *root}};
    while (!todo.empty() && out.files.size() < fs_entries_max) {
        const auto [path, id] = todo.back();
        todo.pop_back();
        if (ancestors_of(path).size() > path_depth_max) continue;
        for (const auto& [name, child] : nodes[id].entries) {
            const std::string p = path.empty() ? name : path + "/" + name;
            out.files[p] = FsEntry{nodes[child].folder, nodes[child].folder ? "" : nodes[child].data};
            if (nodes[child].folder) todo.push_back({p, child});
        }
    }
    return out;
}

void PowerDisk::before(Primitive p) {
    ++primitives_;
    if (cut_at_ != 0 && primitives_ == cut_at_) throw PowerCut{};
    issued_.push_back(p);
}

DiskJournal::DiskJournal(PowerDisk& power) : power_(power) {
    run(power.disk().is_file(disk_journal) ? PortOp::JournalOpen : PortOp::JournalCreate, {});
}

bool DiskJournal::append(const std::string& line) {
    run(PortOp::JournalAppend, line + "\n");
    return true;
}

void DiskJournal::run(PortOp op, std::string_view bytes) {
    for (const Primitive p : power_.plan(op)) {
        power_.before(p);
        Disk& disk = power_.disk();
        switch (p) {
            case Primitive::OpenAppend: disk.open(disk_journal, /*truncate=*/false); break;
            case Primitive::WriteData: disk.write(disk_journal, bytes); break;
            case Primitive::FsyncFile: disk.fsync(disk_journal); break;
            case Primitive::FsyncParent: disk.fsync(""); break;
            case Primitive::CutTornTail: disk.cut_torn_tail(disk_journal); break;
            default: break;  // not the journal's
        }
    }
}

}  // namespace deskcheck::sim
