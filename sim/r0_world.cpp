// The R0 world: operation numbering, the fault plan, other programs' writes, state comparison.
#include <cassert>

#include "sim/r0_world.h"

#include "sim/memfs.h"

namespace deskcheck::sim {

std::string_view to_string(OpFaultKind k) {
    switch (k) {
        case OpFaultKind::NoSpace: return "no_space";
        case OpFaultKind::PermissionDenied: return "permission_denied";
        case OpFaultKind::PartialWrite: return "partial_write";
        case OpFaultKind::UiFailure: return "ui_failure";
    }
    return "?";
}

World::World(WorldState initial, std::vector<OtherWrite> others, std::optional<OpFault> fault)
    : state_(std::move(initial)), others_(std::move(others)), fault_(fault) {
    others_after(0);
}

std::optional<OpFaultKind> World::begin_op(std::string what, std::string path) {
    if (op_hook_) op_hook_();
    assert(ops_ < world_ops_max);
    ++ops_;
    truth_.ops.push_back(OpRecord{ops_, std::move(what), std::move(path), ""});
    if (fault_ && fault_->op == ops_) return fault_->kind;
    return std::nullopt;
}

void World::end_op(std::string result) {
    assert(!truth_.ops.empty());
    assert(truth_.ops.back().result.empty());
    truth_.ops.back().result = std::move(result);
    others_after(ops_);
}

// Another program writes its file when its moment comes, if its folder exists then.
void World::others_after(std::size_t op) {
    for (const OtherWrite& o : others_) {
        if (o.after_op != op) continue;
        const std::string parent = parent_of(o.path);
        const auto p = state_.fs.find(parent);
        const bool folder_ok = parent.empty() || (p != state_.fs.end() && p->second.folder);
        if (folder_ok && state_.fs.count(o.path) == 0) {
            state_.fs[o.path] = FsEntry{false, o.bytes};
            if (power_ != nullptr) power_->disk().durable_write(std::string(disk_files) + "/" + o.path, o.bytes);
            truth_.others_done.push_back(o);
        } else {
            truth_.others_skipped.push_back(o);
        }
    }
}

R0Window* World::window(WindowId w) {
    for (R0Window& win : state_.windows) {
        if (win.id == w) return &win;
    }
    return nullptr;
}

R0Control* World::control(WindowId w, ElementId e) {
    R0Window* win = window(w);
    if (win == nullptr) return nullptr;
    for (R0Control& c : win->controls) {
        if (c.id == e) return &c;
    }
    return nullptr;
}

void add_file(FsTree& fs, const std::string& path, const std::string& bytes) {
    for (const std::string& a : ancestors_of(path)) {
        if (fs.count(a) == 0) fs[a] = FsEntry{true, ""};
    }
    fs[path] = FsEntry{false, bytes};
}

namespace {

std::string print_value(const std::optional<std::string>& v) { return v ? "\"" + *v + "\"" : "null"; }
std::string print_rect(const Rect& r) {
    return "[" + std::to_string(r.left) + "," + std::to_string(r.top) + "," + std::to_string(r.right) + "," +
           std::to_string(r.bottom) + "]";
}
std::string print_entry(const FsEntry& e) { return e.folder ? "folder" : "file \"" + e.bytes + "\""; }

void fs_diff(const FsTree& expected, const FsTree& actual, std::vector<std::string>& out) {
    for (const auto& [path, e] : expected) {
        const auto it = actual.find(path);
        if (it == actual.end()) out.push_back(path + ": missing (expected " + print_entry(e) + ")");
        else if (!(it->second == e)) out.push_back(path + ": " + print_entry(it->second) + ", expected " + print_entry(e));
    }
    for (const auto& [path, e] : actual) {
        if (expected.count(path) == 0) out.push_back(path + ": left behind (" + print_entry(e) + ")");
    }
}

}  // namespace

std::vector<std::string> state_diff(const WorldState& expected, const WorldState& actual, std::size_t lines_max) {
    std::vector<std::string> out;
    fs_diff(expected.fs, actual.fs, out);
    for (std::size_t i = 0; i < expected.windows.size() && i < actual.windows.size(); ++i) {
        const R0Window& e = expected.windows[i];
        const R0Window& a = actual.windows[i];
        const std::string w = "window " + std::to_string(e.id);
        if (!(e.bounds == a.bounds)) out.push_back(w + ": geometry " + print_rect(a.bounds) + ", expected " + print_rect(e.bounds));
        for (std::size_t c = 0; c < e.controls.size() && c < a.controls.size(); ++c) {
            const R0Control& ec = e.controls[c];
            const R0Control& ac = a.controls[c];
            const std::string name = w + " control " + std::to_string(ec.id);
            if (ec.value != ac.value) out.push_back(name + ": value " + print_value(ac.value) + ", expected " + print_value(ec.value));
            if (ec.enabled != ac.enabled) out.push_back(name + ": enabled changed");
        }
    }
    if (expected.windows.size() != actual.windows.size()) out.push_back("the number of windows changed");
    if (expected.invoked != actual.invoked)
        out.push_back("irreversible effects: " + std::to_string(actual.invoked.size()) + ", expected " +
                      std::to_string(expected.invoked.size()));
    if (out.size() > lines_max) {
        const std::size_t more = out.size() - lines_max;
        out.resize(lines_max);
        out.push_back("... and " + std::to_string(more) + " more");
    }
    return out;
}

std::string print_state(const WorldState& s) {
    std::string out;
    for (const auto& [path, e] : s.fs) out += "  " + path + ": " + print_entry(e) + "\n";
    for (const R0Window& w : s.windows) {
        out += "  window " + std::to_string(w.id) + " (" + std::string(to_string(w.framework)) + ") " + print_rect(w.bounds) + "\n";
        for (const R0Control& c : w.controls)
            out += "    control " + std::to_string(c.id) + (c.button ? " button" : " value=" + print_value(c.value)) + "\n";
    }
    for (const std::string& i : s.invoked) out += "  invoked " + i + "\n";
    return out;
}

}  // namespace deskcheck::sim
