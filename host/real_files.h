// The files port over a real folder, and a journal that appends to a real file (DESIGN "host/",
// SPEC ). POSIX where durability needs it: every mutation is followed by fsync of the file it
// wrote and of the folder(s) whose entries changed; every journal line is written with one
// write(2), then fsync'd (and the journal's folder, when the file was created), before the caller
// acts.
//
// Nothing outside the root: the root is opened once (a folder, not a symbolic link) and every
// operation is relative to that descriptor. A path's folders are opened with openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS) where the kernel has it, else one component at a time with O_NOFOLLOW; the
// last component is acted on with the *at() calls that never follow it (O_NOFOLLOW,
// AT_SYMLINK_NOFOLLOW, renameat2 RENAME_NOREPLACE). A symbolic link anywhere on a path is the error
// CrossesLink of that operation ("path crosses a symbolic link: out/" in refusals()), never followed;
// a device, FIFO or socket is NotRegular, never opened for writing.
//
// Two test hooks, both off by default and deterministic:
//   CrashPlan  counts *events* (a journal append, a file mutation; a write's bytes count as two:
//              before it starts, and half-way through) and kills the process with SIGKILL when the
//              count reaches `at` — the crash-at-every-point harness (harness/r0_real.h).
//   FaultShim  makes the n-th mutation fail as a real disk would: ENOSPC after half the bytes
//              (write), ENOSPC (others); the error arrives through the same errno mapping.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/durability.h"
#include "model/files.h"
#include "model/journal.h"

namespace deskcheck::host {

struct CrashPlan {
    std::uint64_t at = 0;      // 0: never; else SIGKILL when event number `at` is reached
    std::uint64_t events = 0;  // events so far
    // Counts one event; does not return when it is the planned one.
    void event();
};

struct FaultShim {
    std::uint64_t at = 0;  // 0: never; else mutation number `at` fails with ENOSPC
    std::uint64_t mutations = 0;
};

// The durability calls the port issued, each with the port call it belongs to (a counter of
// mutating calls), recorded when a log is set: the recording test compares them with
// model/durability.h's plans, the statement the power-cut campaign judges.
struct IssuedCall {
    std::size_t call = 0;
    PortOp op = PortOp::Write;
    Primitive primitive = Primitive::WriteData;
    bool within_one_folder = false;  // a move whose source and destination share a folder
    friend bool operator==(const IssuedCall&, const IssuedCall&) = default;
};
using IssuedLog = std::vector<IssuedCall>;

struct OpLog {
    std::string what;  // write, make_folder, move, remove
    std::string path;
    std::string result;  // "ok" or the error
};

// Another program's file, written right after mutation `after_op` (0: at once) if its folder
// exists then and the name is free (R-6; the same rule as the simulated world's).
struct OtherFile {
    std::size_t after_op = 0;
    std::string path;
    std::string bytes;
};

class RealFiles final : public Files {
public:
    // Opens `root` (the last component must be a folder, not a link). When it cannot, ok() is
    // false, error() says why, and every operation fails with BadPath before touching anything.
    RealFiles(std::string root, CrashPlan* crash = nullptr, FaultShim* shim = nullptr);
    // Over a folder descriptor the caller opened (owned from now on); `name` is for messages.
    RealFiles(int root_fd, std::string name, CrashPlan* crash = nullptr, FaultShim* shim = nullptr);
    ~RealFiles() override;
    RealFiles(const RealFiles&) = delete;
    RealFiles& operator=(const RealFiles&) = delete;
    bool ok() const { return root_fd_ >= 0; }
    const std::string& error() const { return root_error_; }
    // Every operation refused because its path crossed a link or named a special file:
    // "write out/a.txt: path crosses a symbolic link: out/".
    const std::vector<std::string>& refusals() const { return refusals_; }
    // Records every durability call from now on into `log` (not owned; nullptr: none).
    void record_into(IssuedLog* log) { issued_ = log; }
    FsResult<std::string> read(std::string_view path) override;
    FsResult<FsDone> write(std::string_view path, std::string_view bytes) override;
    FsResult<FsDone> make_folder(std::string_view path) override;
    FsResult<FsDone> move(std::string_view from, std::string_view to) override;
    FsResult<FsDone> remove(std::string_view path) override;
    FsResult<std::vector<std::string>> list(std::string_view path) override;
    FsResult<FsStat> stat(std::string_view path) override;
    const std::vector<OpLog>& ops() const { return ops_; }
    // Other programs' writes; those at 0 happen now. Which happened: others_done().
    void set_others(std::vector<OtherFile> others);
    const std::vector<OtherFile>& others_done() const { return others_done_; }

private:
    struct Parent;
    Parent open_parent(std::string_view what, std::string_view path);
    bool shim_fires();
    FsResult<FsDone> done(std::string what, std::string_view path, FsResult<FsDone> r);
    void refuse_leaf(std::string_view what, std::string_view path, FsError e);
    void issued(PortOp op, Primitive p, bool within_one_folder = false);
    IssuedLog* issued_ = nullptr;
    std::size_t calls_ = 0;
    std::string root_;
    int root_fd_ = -1;
    std::string root_error_;
    bool openat2_missing_ = false;  // the kernel answered ENOSYS once: walk components from then on
    std::vector<std::string> refusals_;
    CrashPlan* crash_;
    FaultShim* shim_;
    void others_after(std::size_t op);
    std::vector<OpLog> ops_;
    std::vector<OtherFile> others_;
    std::vector<OtherFile> others_done_;
};

// Appends each line + '\n' to `path` with one write(2), then fsync. Opens with O_APPEND|O_CREAT|
// O_NOFOLLOW: a link, a folder, a FIFO or a device at `path` is refused (ok() false, error() why).
// A failed append is cut back (ftruncate to the length before it), so a torn line never joins the
// next one. `shim`: its n-th append fails with ENOSPC after half the line is written.
class FileJournal final : public JournalSink {
public:
    // `log`: the durability calls, recorded from the opening on (IssuedCall; call 0 is the opening).
    explicit FileJournal(std::string path, CrashPlan* crash = nullptr, FaultShim* shim = nullptr, IssuedLog* log = nullptr);
    // The journal `name` in the folder `dir_fd` (not owned); must_exist: never created.
    FileJournal(int dir_fd, const std::string& name, bool must_exist, CrashPlan* crash = nullptr, FaultShim* shim = nullptr,
                IssuedLog* log = nullptr);
    bool ok() const { return fd_ >= 0; }
    const std::string& error() const { return error_; }
    ~FileJournal() override;
    FileJournal(const FileJournal&) = delete;
    FileJournal& operator=(const FileJournal&) = delete;
    bool append(const std::string& line) override;

private:
    void open_at(int dir_fd, const std::string& name, bool must_exist);
    void issued(PortOp op, Primitive p);
    IssuedLog* issued_ = nullptr;
    std::size_t calls_ = 0;
    std::string path_;
    CrashPlan* crash_;
    FaultShim* shim_;
    int fd_ = -1;
    std::string error_;
};

// The complete lines of a journal file (a torn last line — no '\n' — is ignored: its effect never
// started, since a line is durable before its effect). A missing file has no lines. nullopt and
// `error` set: the file cannot be read, is not a regular file (a link, a FIFO: never followed or
// waited on), holds more than journal_lines_max lines or journal_bytes_max bytes.
std::optional<std::vector<std::string>> read_journal_lines(const std::string& path, std::string* error = nullptr);
// The same for the journal `name` in the folder `dir_fd`.
std::optional<std::vector<std::string>> read_journal_lines_at(int dir_fd, const std::string& name, std::string* error = nullptr);
inline constexpr std::size_t journal_bytes_max = std::size_t{1} << 26;

// Opens the folder `path` for the *at() calls: O_DIRECTORY | O_NOFOLLOW (its last component must
// not be a link). -1 and `error` ("PATH: is a symbolic link", "PATH: no such folder") otherwise.
int open_folder(const std::string& path, std::string& error);
// The same, for the entry `name` of the folder `dir_fd`.
int open_folder_at(int dir_fd, const std::string& name, const std::string& shown, std::string& error);

// errno -> the port's error.
FsError fs_error_from_errno(int e);

// A real folder's tree, read with lstat: path -> kind, permission bits, bytes. Ground truth.
struct RealEntry {
    char kind = 'f';  // 'f' file, 'd' folder, 'l' symlink, '?' other
    std::uint32_t mode = 0;  // permission bits (07777)
    std::string bytes;       // file bytes, or the symlink's target
    friend bool operator==(const RealEntry&, const RealEntry&) = default;
};
using RealTree = std::map<std::string, RealEntry>;
// nullopt + error when the tree cannot be read (bounded: entries_max entries, depth_max levels).
std::optional<RealTree> snapshot_tree(const std::string& root, std::string& error);
inline constexpr std::size_t snapshot_entries_max = 4096;
inline constexpr std::size_t snapshot_depth_max = 32;
std::vector<std::string> tree_diff(const RealTree& expected, const RealTree& actual, std::size_t lines_max = 8);

// A fresh temporary folder under $TMPDIR (else /tmp), made with mkdtemp. "" + error on failure.
std::string make_temp_folder(const std::string& prefix, std::string& error);
// Removes a folder and everything in it (bounded depth; no symlinks followed). False on failure.
bool remove_tree(const std::string& path);

// Creates the entries of `files` (path -> folder or bytes) under `root`: folders 0755, files 0644.
bool populate(const std::string& root, const std::map<std::string, std::pair<bool, std::string>>& files, std::string& error);

}  // namespace deskcheck::host
