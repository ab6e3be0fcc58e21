// The disk under the in-memory file system (sim/r0_world.h's MemFs), as a power cut sees it.
//
// Model (POSIX durability, as ext4 with default options may lose changes, and weaker): a workspace
// folder holds `files/` (the folder the task acts on) and `journal.jsonl`. Files and folders are
// inodes; a folder maps names to inodes. Every inode has a *cached* state (what reads see) and a
// *durable* one (what is on the platter):
//   - a file's data is volatile from any write or truncation until fsync of that file;
//   - a folder entry created, replaced or removed (creat, mkdir, rename, unlink, rmdir) is volatile
//     until fsync of *that* folder; a rename changes two entries (one per folder) as one change;
//   - fsync makes only what it names durable: a file's data, or a folder's entries (not the
//     folder's own entry in its parent, not the data of the files it holds); a rename across two
//     folders is atomic: it becomes durable (both entries) once both folders have been fsynced
//     since, and is kept or lost whole until then. (A file system whose renames are not atomic at
//     a crash, ext2, is not modelled: there no order of the two fsyncs closes the window in which
//     the file is in both places, or in neither.)
// At a power cut every volatile change is independently kept or lost (the kernel may lose any
// subset, in any order): each *entry change* (the entries one call changed, still volatile: a
// rename's pair is kept or lost together, as rename is atomic on every journaling file system)
// is kept or lost; each file's volatile *data* is lost (the durable bytes), kept, or torn (a
// prefix: the bytes it shares with the durable data, then half of the rest). What survives is
// read from the workspace folder down: an inode no surviving entry reaches is gone (a file whose
// entry was lost), one two entries reach is in both places. The desktop is not on the disk.
//
// The disk is a shadow: MemFs keeps its tree (WorldState::fs, the cached view) and applies every
// primitive of its operation's plan (model/durability.h) to both. Without a PowerDisk bound to the
// world (every run but the power-cut campaign) MemFs runs the same plans on its tree alone.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/durability.h"
#include "model/journal.h"
#include "sim/r0_world.h"

namespace deskcheck::sim {

inline constexpr const char* disk_files = "files";            // the folder the task acts on
inline constexpr const char* disk_journal = "journal.jsonl";  // the tool's journal, beside it

// What happens to one volatile change at the power cut.
enum class Fate : std::uint8_t { Lost, Kept, Torn };

struct VolatileChange {
    bool data = false;  // a file's data (Lost, Kept, Torn); else entry changes (Lost, Kept)
    std::string what;   // "data of files/a.txt", "entries: files/out (+), files/a.txt (-)"
    std::size_t fates() const { return data ? 3 : 2; }
};

struct Survivors {
    FsTree files;                        // files/ as it comes back
    std::optional<std::string> journal;  // journal.jsonl's bytes; nullopt: no such file
};

class Disk {
public:
    // The workspace with `files` (and the journal when given), everything durable.
    Disk(const FsTree& files, const std::optional<std::string>& journal);

    // The primitives, on paths relative to the workspace folder ("" is that folder; "files/a.txt").
    // A primitive on a path that is not there does nothing (MemFs validates before it acts).
    void open(const std::string& path, bool truncate);  // creates an empty file when missing
    void write(const std::string& path, std::string_view bytes);  // at the end of the file
    void cut_torn_tail(const std::string& path);  // truncates after the last '\n' (or to empty)
    void fsync(const std::string& path);
    void make_folder(const std::string& path);
    void rename(const std::string& from, const std::string& to);
    void remove(const std::string& path);
    // Another program's write: its data and its entry are durable at once (its own fsyncs).
    void durable_write(const std::string& path, std::string_view bytes);

    bool is_file(const std::string& path) const;
    std::optional<std::string> read(const std::string& path) const;  // the cached bytes

    // The changes a power cut now may lose, in a fixed order.
    std::vector<VolatileChange> volatile_changes() const;
    // What comes back when each change of volatile_changes() meets its fate (same order, same size).
    Survivors survive(const std::vector<Fate>& fates) const;
    // What comes back when nothing is lost (the cached view).
    Survivors cached() const;

private:
    struct Inode {
        bool folder = false;
        std::string data, durable_data;
        std::map<std::string, std::size_t> entries, durable_entries;
    };
    struct Slot {
        std::size_t folder = 0;
        std::string name;
    };
    std::optional<std::size_t> resolve(const std::string& path) const;
    std::optional<Slot> slot(const std::string& path) const;  // the parent folder must exist
    std::size_t add_inode(bool folder);
    void set_entry(const Slot& s, std::optional<std::size_t> inode, std::uint64_t change);
    void make_durable(const Slot& s);
    std::vector<std::pair<Slot, std::uint64_t>> volatile_entries() const;
    std::vector<std::size_t> volatile_data() const;
    Survivors read_back(const std::vector<Inode>& nodes) const;

    std::vector<Inode> nodes_;  // [0]: the workspace folder
    std::map<std::pair<std::size_t, std::string>, std::uint64_t> change_of_;  // entry -> the call that last changed it
    std::map<std::uint64_t, std::pair<Slot, Slot>> renames_;  // a rename across folders -> its two entries
    std::map<std::uint64_t, std::size_t> half_synced_;        // such a rename -> the one of its folders fsynced so far
    std::uint64_t changes_ = 0;
};

// Thrown before the primitive the power is cut at: it does not happen, nor anything after it.
struct PowerCut {};

// A disk bound to a World (World::set_power): the plans in force, and the cut (0: never).
class PowerDisk {
public:
    PowerDisk(Disk disk, const DurabilityPlans& plans, std::size_t cut_at) : disk_(std::move(disk)), plans_(plans), cut_at_(cut_at) {}
    Disk& disk() { return disk_; }
    const Disk& disk() const { return disk_; }
    std::span<const Primitive> plan(PortOp op) const { return plans_.plan(op); }
    // Counts one primitive; throws PowerCut when it is the one the power is cut at.
    void before(Primitive p);
    std::size_t primitives() const { return primitives_; }
    // The primitives so far, by name ("write", "fsync_file", ...), in order.
    const std::vector<Primitive>& issued() const { return issued_; }

private:
    Disk disk_;
    DurabilityPlans plans_;
    std::size_t cut_at_ = 0;
    std::size_t primitives_ = 0;
    std::vector<Primitive> issued_;
};

// The journal file on the disk: opening it runs the journal_create plan (no file yet) or the
// journal_open plan; each append runs the journal_append plan with the line and its '\n'.
class DiskJournal final : public JournalSink {
public:
    explicit DiskJournal(PowerDisk& power);
    bool append(const std::string& line) override;

private:
    void run(PortOp op, std::string_view bytes);
    PowerDisk& power_;
};

}  // namespace deskcheck::sim
