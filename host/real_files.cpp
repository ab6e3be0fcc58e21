// The files port over a real folder (host/real_files.h).
#include "host/real_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace deskcheck::host {
namespace posix {

// Closes a descriptor once, on every path.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    Fd& operator=(Fd&& o) noexcept {
        if (this != &o) {
            if (fd_ >= 0) ::close(fd_);
            fd_ = o.fd_;
            o.fd_ = -1;
        }
        return *this;
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    int close_checked() {
        const int fd = release();
        return fd < 0 ? 0 : ::close(fd);
    }

private:
    int fd_;
};

}  // namespace posix

using posix::Fd;

namespace {

constexpr std::size_t file_bytes_max = std::size_t{1} << 24;

std::string parent_path(const std::string& full_path) {
    const auto slash = full_path.rfind('/');
    return slash == std::string::npos || slash == 0 ? std::string("/") : full_path.substr(0, slash);
}

bool write_all(int fd, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// False with errno 0 when the file holds more than `max` bytes.
bool read_all(int fd, std::string& out, std::size_t max) {
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        out.append(buf, static_cast<std::size_t>(n));
        if (out.size() > max) {
            errno = 0;
            return false;
        }
    }
}

// openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) of the folder `folders` under `root_fd`:
// the fd, or -1 with errno (ENOSYS: the kernel has no openat2; ELOOP/EXDEV: a link or an escape).
int openat2_beneath(int root_fd, const std::string& folders) {
#ifdef SYS_openat2
    struct open_how how {};
    how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    for (;;) {
        const long fd = ::syscall(SYS_openat2, root_fd, folders.c_str(), &how, sizeof how);
        if (fd < 0 && errno == EAGAIN) continue;  // a rename raced the lookup: try again
        return static_cast<int>(fd);
    }
#else
    (void)root_fd;
    (void)folders;
    errno = ENOSYS;
    return -1;
#endif
}

struct WalkResult {
    int fd = -1;
    FsError error = FsError::BadPath;
    std::string link;  // the components up to the link, when error is CrossesLink
};

// One component at a time, each opened with O_NOFOLLOW under the one before: a link is never
// followed, and the first one met is named.
WalkResult walk_beneath(int root_fd, const std::string& folders) {
    WalkResult out;
    Fd at(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
    if (at.get() < 0) {
        out.error = fs_error_from_errno(errno);
        return out;
    }
    std::size_t start = 0;
    while (start <= folders.size()) {
        const std::size_t end = std::min(folders.find('/', start), folders.size());
        const std::string name = folders.substr(start, end - start);
        Fd next(::openat(at.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next.get() < 0) {
            const int e = errno;
            struct stat st {};
            const bool link = ::fstatat(at.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
            out.error = link ? FsError::CrossesLink : fs_error_from_errno(e);
            if (link) out.link = folders.substr(0, end);
            return out;
        }
        at = std::move(next);
        start = end + 1;
    }
    out.fd = at.release();
    return out;
}

// Truncates the file just after its last '\n' (to 0 without one); a file ending in '\n' is left
// as it is. Reads backwards in blocks, at most journal_bytes_max bytes.
bool cut_torn_tail(int fd) {
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size < 0) return false;
    char block[4096];
    off_t end = size;
    while (end > 0 && size - end <= static_cast<off_t>(journal_bytes_max)) {
        const off_t start = end > static_cast<off_t>(sizeof block) ? end - static_cast<off_t>(sizeof block) : 0;
        const ssize_t n = ::pread(fd, block, static_cast<std::size_t>(end - start), start);
        if (n != end - start) return false;
        for (ssize_t i = n; i-- > 0;) {
            if (block[i] != '\n') continue;
            const off_t keep = start + i + 1;
            return keep == size || ::ftruncate(fd, keep) == 0;
        }
        end = start;
    }
    return size == 0 || ::ftruncate(fd, 0) == 0;
}

bool same_folder(int a, int b) {
    struct stat sa {}, sb {};
    return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace

void CrashPlan::event() {
    ++events;
    if (at != 0 && events == at) ::raise(SIGKILL);
}

FsError fs_error_from_errno(int e) {
    switch (e) {
        case ENOENT: return FsError::NotFound;
        case EEXIST: return FsError::AlreadyExists;
        case ENOTDIR: return FsError::NotAFolder;
        case EISDIR: return FsError::IsAFolder;
        case ENOTEMPTY: return FsError::NotEmpty;
        case ENOSPC:
        case EDQUOT: return FsError::NoSpace;
        case EACCES:
        case EPERM:
        case EROFS: return FsError::PermissionDenied;
        case ELOOP:  // O_NOFOLLOW met a link; RESOLVE_NO_SYMLINKS met one
        case EXDEV: return FsError::CrossesLink;  // RESOLVE_BENEATH: the path would leave the root
        case ENXIO:
        case ETXTBSY: return FsError::NotRegular;
        default: return FsError::BadPath;  // ENAMETOOLONG, EINVAL: the path cannot be used
    }
}

int open_folder(const std::string& path, std::string& error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) return fd;
    const int e = errno;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) error = path + ": is a symbolic link";
    else if (e == ENOENT) error = path + ": no such folder";
    else if (e == ENOTDIR) error = path + ": is not a folder";
    else error = path + ": cannot open it: " + std::strerror(e);
    return -1;
}

int open_folder_at(int dir_fd, const std::string& name, const std::string& shown, std::string& error) {
    const int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) return fd;
    const int e = errno;
    struct stat st {};
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) error = shown + ": is a symbolic link";
    else if (e == ENOENT) error = shown + ": no such folder";
    else if (e == ENOTDIR) error = shown + ": is not a folder";
    else error = shown + ": cannot open it: " + std::strerror(e);
    return -1;
}


RealFiles::RealFiles(std::string root, CrashPlan* crash, FaultShim* shim)
    : root_(std::move(root)), crash_(crash), shim_(shim) {
    root_fd_ = open_folder(root_, root_error_);
}

RealFiles::RealFiles(int root_fd, std::string name, CrashPlan* crash, FaultShim* shim)
    : root_(std::move(name)), root_fd_(root_fd), crash_(crash), shim_(shim) {
    if (root_fd_ < 0) root_error_ = root_ + ": not an open folder";
}

RealFiles::~RealFiles() {
    if (root_fd_ >= 0) ::close(root_fd_);
}

bool RealFiles::shim_fires() {
    if (shim_ == nullptr) return false;
    ++shim_->mutations;
    return shim_->at != 0 && shim_->mutations == shim_->at;
}

FsResult<FsDone> RealFiles::done(std::string what, std::string_view path, FsResult<FsDone> r) {
    ++calls_;
    ops_.push_back({std::move(what), std::string(path), r.ok() ? "ok" : std::string(to_string(r.error))});
    others_after(ops_.size());
    return r;
}

// The folder that holds a path's last component, opened beneath the root, and that component.
struct RealFiles::Parent {
    Fd fd{-1};
    std::string leaf;
    FsError error = FsError::BadPath;
    bool ok() const { return fd.get() >= 0; }
};

RealFiles::Parent RealFiles::open_parent(std::string_view what, std::string_view path) {
    Parent out;
    if (root_fd_ < 0 || !valid_path(path)) return out;
    const std::string p(path);
    const std::size_t slash = p.rfind('/');
    out.leaf = slash == std::string::npos ? p : p.substr(slash + 1);
    const std::string folders = slash == std::string::npos ? std::string() : p.substr(0, slash);
    if (folders.empty()) {
        out.fd = Fd(::fcntl(root_fd_, F_DUPFD_CLOEXEC, 0));
        if (!out.ok()) out.error = fs_error_from_errno(errno);
        return out;
    }
    if (!openat2_missing_) {
        const int fd = openat2_beneath(root_fd_, folders);
        if (fd >= 0) {
            out.fd = Fd(fd);
            return out;
        }
        if (errno == ENOSYS) openat2_missing_ = true;
        else if (errno == ENOENT) {
            out.error = FsError::NotFound;
            return out;
        }
        // Anything else (ELOOP or EXDEV for a link, ENOTDIR for a link or a file in the way): the
        // component walk below decides, and names the link, for the refusal's message.
    }
    WalkResult walked = walk_beneath(root_fd_, folders);
    if (walked.fd >= 0) {
        out.fd = Fd(walked.fd);
        return out;
    }
    out.error = walked.error;
    if (walked.error == FsError::CrossesLink) {
        refusals_.push_back(std::string(what) + " " + p + ": path crosses a symbolic link: " + walked.link + "/");
    }
    return out;
}

void RealFiles::set_others(std::vector<OtherFile> others) {
    others_ = std::move(others);
    others_after(0);
}

void RealFiles::others_after(std::size_t op) {
    for (const OtherFile& o : others_) {
        if (o.after_op != op) continue;
        Parent parent = open_parent("other program's write", o.path);
        if (!parent.ok()) continue;
        const int fd = ::openat(parent.fd.get(), parent.leaf.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) continue;
        const bool ok = ::fchmod(fd, 0644) == 0 && write_all(fd, o.bytes) && ::fsync(fd) == 0;
        ::close(fd);
        if (ok) others_done_.push_back(o);
    }
}

// What lies at the last component, never following it: 0 when nothing is there.
namespace {
struct Leaf {
    bool exists = false;
    mode_t mode = 0;
    int error = 0;  // errno of fstatat, other than ENOENT
};
Leaf leaf_at(int dir_fd, const std::string& leaf) {
    struct stat st {};
    if (::fstatat(dir_fd, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return {true, st.st_mode, 0};
    return {false, 0, errno == ENOENT ? 0 : errno};
}
// The error for an existing leaf that is not a regular file or a folder; nullopt when it is one.
std::optional<FsError> special(mode_t mode) {
    if (S_ISLNK(mode)) return FsError::CrossesLink;
    if (!S_ISREG(mode) && !S_ISDIR(mode)) return FsError::NotRegular;
    return std::nullopt;
}
// For an operation on something that must exist: the error when the leaf is missing or special.
std::optional<FsError> leaf_problem(const Leaf& leaf) {
    if (!leaf.exists) return leaf.error == 0 ? FsError::NotFound : fs_error_from_errno(leaf.error);
    return special(leaf.mode);
}
}  // namespace

void RealFiles::issued(PortOp op, Primitive p, bool within_one_folder) {
    if (issued_ != nullptr) issued_->push_back({calls_, op, p, within_one_folder});
}

void RealFiles::refuse_leaf(std::string_view what, std::string_view path, FsError e) {
    if (e == FsError::CrossesLink) refusals_.push_back(std::string(what) + " " + std::string(path) + ": path crosses a symbolic link: " + std::string(path));
    if (e == FsError::NotRegular) refusals_.push_back(std::string(what) + " " + std::string(path) + ": not a regular file");
}

FsResult<std::string> RealFiles::read(std::string_view path) {
    using R = FsResult<std::string>;
    Parent parent = open_parent("read", path);
    if (!parent.ok()) return R::bad(parent.error);
    // Non-blocking: a FIFO put in the file's place must not hang the read (it is refused below).
    Fd fd(::openat(parent.fd.get(), parent.leaf.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) {
        const FsError e = fs_error_from_errno(errno);
        refuse_leaf("read", path, e);
        return R::bad(e);
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return R::bad(fs_error_from_errno(errno));
    if (S_ISDIR(st.st_mode)) return R::bad(FsError::IsAFolder);
    if (!S_ISREG(st.st_mode)) {
        refuse_leaf("read", path, FsError::NotRegular);
        return R::bad(FsError::NotRegular);
    }
    std::string out;
    if (!read_all(fd.get(), out, file_bytes_max)) return R::bad(errno == 0 ? FsError::NoSpace : fs_error_from_errno(errno));
    return R::good(std::move(out));
}

FsResult<FsDone> RealFiles::write(std::string_view path, std::string_view bytes) {
    using R = FsResult<FsDone>;
    if (!valid_path(path)) return done("write", path, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    const bool fault = shim_fires();
    Parent parent = open_parent("write", path);
    if (!parent.ok()) return done("write", path, R::bad(parent.error));
    const Leaf before = leaf_at(parent.fd.get(), parent.leaf);
    if (before.exists && S_ISDIR(before.mode)) return done("write", path, R::bad(FsError::IsAFolder));
    if (before.exists) {
        if (const auto e = special(before.mode)) {
            refuse_leaf("write", path, *e);
            return done("write", path, R::bad(*e));
        }
    }
    // No O_TRUNC at open: the file is truncated only once it is known to be a regular file.
    Fd fd(::openat(parent.fd.get(), parent.leaf.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644));
    if (fd.get() < 0) {
        const FsError e = fs_error_from_errno(errno);
        refuse_leaf("write", path, e);
        return done("write", path, R::bad(e));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return done("write", path, R::bad(fs_error_from_errno(errno)));
    // A file with another name (a hard link, perhaps to a file outside the root) is shared: writing
    // it would change what the other name shows. Refused as a file that is not the root's own.
    if (!S_ISREG(st.st_mode) || st.st_nlink > 1) {
        refuse_leaf("write", path, FsError::NotRegular);
        return done("write", path, R::bad(FsError::NotRegular));
    }
    if (::ftruncate(fd.get(), 0) != 0) return done("write", path, R::bad(fs_error_from_errno(errno)));
    issued(PortOp::Write, Primitive::OpenTruncate);
    const std::string_view first = bytes.substr(0, bytes.size() / 2);
    bool ok = write_all(fd.get(), first);
    if (ok && crash_ != nullptr) crash_->event();  // half the bytes are on the disk: a torn write
    if (ok && fault) return done("write", path, R::bad(FsError::NoSpace));  // ENOSPC after a prefix, as a full disk does
    ok = ok && write_all(fd.get(), bytes.substr(first.size()));
    int e = errno;
    if (ok) issued(PortOp::Write, Primitive::WriteData);
    ok = ok && ::fsync(fd.get()) == 0;
    if (!ok) e = errno;
    if (ok) issued(PortOp::Write, Primitive::FsyncFile);
    if (fd.close_checked() != 0 && ok) {
        e = errno;
        ok = false;
    }
    if (!ok) return done("write", path, R::bad(fs_error_from_errno(e)));
    if (::fsync(parent.fd.get()) != 0) return done("write", path, R::bad(fs_error_from_errno(errno)));
    issued(PortOp::Write, Primitive::FsyncParent);
    return done("write", path, R::good({}));
}

FsResult<FsDone> RealFiles::make_folder(std::string_view path) {
    using R = FsResult<FsDone>;
    if (!valid_path(path)) return done("make_folder", path, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    if (shim_fires()) return done("make_folder", path, R::bad(FsError::NoSpace));
    Parent parent = open_parent("make_folder", path);
    if (!parent.ok()) return done("make_folder", path, R::bad(parent.error));
    if (::mkdirat(parent.fd.get(), parent.leaf.c_str(), 0755) != 0) return done("make_folder", path, R::bad(fs_error_from_errno(errno)));
    issued(PortOp::MakeFolder, Primitive::MakeFolder);
    // 0755 whatever the umask, on the folder just made (opened without following anything).
    Fd made(::openat(parent.fd.get(), parent.leaf.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (made.get() < 0 || ::fchmod(made.get(), 0755) != 0) return done("make_folder", path, R::bad(fs_error_from_errno(errno)));
    if (::fsync(parent.fd.get()) != 0) return done("make_folder", path, R::bad(fs_error_from_errno(errno)));
    issued(PortOp::MakeFolder, Primitive::FsyncParent);
    return done("make_folder", path, R::good({}));
}

FsResult<FsDone> RealFiles::move(std::string_view from, std::string_view to) {
    using R = FsResult<FsDone>;
    if (!valid_path(from) || !valid_path(to)) return done("move", from, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    if (shim_fires()) return done("move", from, R::bad(FsError::NoSpace));
    Parent a = open_parent("move", from);
    if (!a.ok()) return done("move", from, R::bad(a.error));
    Parent b = open_parent("move to", to);
    if (!b.ok()) return done("move", from, R::bad(b.error));
    if (const auto e = leaf_problem(leaf_at(a.fd.get(), a.leaf))) {
        refuse_leaf("move", from, *e);
        return done("move", from, R::bad(*e));
    }
    // Never replaces: RENAME_NOREPLACE answers EEXIST when `to` exists, whatever it is.
    if (::renameat2(a.fd.get(), a.leaf.c_str(), b.fd.get(), b.leaf.c_str(), RENAME_NOREPLACE) != 0) {
        if (errno != EINVAL) return done("move", from, R::bad(errno == EEXIST ? FsError::AlreadyExists : fs_error_from_errno(errno)));
        // A file system without RENAME_NOREPLACE: check, then rename (the window is this process's only).
        if (leaf_at(b.fd.get(), b.leaf).exists) return done("move", from, R::bad(FsError::AlreadyExists));
        if (::renameat(a.fd.get(), a.leaf.c_str(), b.fd.get(), b.leaf.c_str()) != 0) return done("move", from, R::bad(fs_error_from_errno(errno)));
    }
    const bool within = same_folder(a.fd.get(), b.fd.get());
    issued(PortOp::Move, Primitive::Rename, within);
    if (::fsync(b.fd.get()) != 0) return done("move", from, R::bad(fs_error_from_errno(errno)));
    issued(PortOp::Move, Primitive::FsyncParent, within);
    if (!within && ::fsync(a.fd.get()) != 0) return done("move", from, R::bad(fs_error_from_errno(errno)));
    if (!within) issued(PortOp::Move, Primitive::FsyncOldParent, within);
    return done("move", from, R::good({}));
}

FsResult<FsDone> RealFiles::remove(std::string_view path) {
    using R = FsResult<FsDone>;
    if (!valid_path(path)) return done("remove", path, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    if (shim_fires()) return done("remove", path, R::bad(FsError::PermissionDenied));
    Parent parent = open_parent("remove", path);
    if (!parent.ok()) return done("remove", path, R::bad(parent.error));
    const Leaf leaf = leaf_at(parent.fd.get(), parent.leaf);
    if (const auto e = leaf_problem(leaf)) {
        refuse_leaf("remove", path, *e);
        return done("remove", path, R::bad(*e));
    }
    const int rc = ::unlinkat(parent.fd.get(), parent.leaf.c_str(), S_ISDIR(leaf.mode) ? AT_REMOVEDIR : 0);
    if (rc != 0) return done("remove", path, R::bad(fs_error_from_errno(errno == EEXIST ? ENOTEMPTY : errno)));
    issued(PortOp::Remove, Primitive::RemoveEntry);
    if (::fsync(parent.fd.get()) != 0) return done("remove", path, R::bad(fs_error_from_errno(errno)));
    issued(PortOp::Remove, Primitive::FsyncParent);
    return done("remove", path, R::good({}));
}

FsResult<std::vector<std::string>> RealFiles::list(std::string_view path) {
    using R = FsResult<std::vector<std::string>>;
    Parent parent = open_parent("list", path);
    if (!parent.ok()) return R::bad(parent.error);
    const int fd = ::openat(parent.fd.get(), parent.leaf.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const Leaf leaf = leaf_at(parent.fd.get(), parent.leaf);
        const FsError e = leaf.exists && S_ISLNK(leaf.mode) ? FsError::CrossesLink : fs_error_from_errno(errno);
        refuse_leaf("list", path, e);
        return R::bad(e);
    }
    DIR* d = ::fdopendir(fd);
    if (d == nullptr) {
        ::close(fd);
        return R::bad(fs_error_from_errno(errno));
    }
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
        if (names.size() > snapshot_entries_max) break;
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return R::good(std::move(names));
}

FsResult<FsStat> RealFiles::stat(std::string_view path) {
    using R = FsResult<FsStat>;
    Parent parent = open_parent("stat", path);
    if (!parent.ok()) return R::bad(parent.error);
    if (const auto e = leaf_problem(leaf_at(parent.fd.get(), parent.leaf))) {
        refuse_leaf("stat", path, *e);
        return R::bad(*e);
    }
    struct stat st {};
    if (::fstatat(parent.fd.get(), parent.leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return R::bad(fs_error_from_errno(errno));
    FsStat out;
    out.is_folder = S_ISDIR(st.st_mode);
    out.size = out.is_folder ? 0 : static_cast<std::uint64_t>(st.st_size);
    return R::good(out);
}

FileJournal::FileJournal(std::string path, CrashPlan* crash, FaultShim* shim, IssuedLog* log)
    : issued_(log), path_(std::move(path)), crash_(crash), shim_(shim) {
    const std::string folder = parent_path(path_);
    const std::string name = path_.substr(path_.rfind('/') == std::string::npos ? 0 : path_.rfind('/') + 1);
    std::string error;
    const int dir = path_.find('/') == std::string::npos ? ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : open_folder(folder, error);
    if (dir < 0) {
        error_ = error.empty() ? path_ + ": cannot open its folder" : error;
        return;
    }
    open_at(dir, name, false);
    ::close(dir);
}

FileJournal::FileJournal(int dir_fd, const std::string& name, bool must_exist, CrashPlan* crash, FaultShim* shim, IssuedLog* log)
    : issued_(log), path_(name), crash_(crash), shim_(shim) {
    open_at(dir_fd, name, must_exist);
}

void FileJournal::issued(PortOp op, Primitive p) {
    if (issued_ != nullptr) issued_->push_back({calls_, op, p, false});
}

void FileJournal::open_at(int dir_fd, const std::string& name, bool must_exist) {
    const Leaf before = leaf_at(dir_fd, name);
    if (before.exists && !S_ISREG(before.mode)) {
        error_ = path_ + (S_ISLNK(before.mode) ? ": is a symbolic link" : ": is not a regular file");
        return;
    }
    if (!before.exists && must_exist) {
        error_ = path_ + ": no such file";
        return;
    }
    const int flags = O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | (must_exist ? 0 : O_CREAT);
    fd_ = ::openat(dir_fd, name.c_str(), flags, 0644);
    struct stat st {};
    if (fd_ >= 0 && (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))) {
        ::close(fd_);
        fd_ = -1;
        error_ = path_ + ": is not a regular file";
        return;
    }
    if (fd_ < 0) {
        error_ = path_ + ": cannot open it: " + std::strerror(errno);
        return;
    }
    // A new journal: its folder's entry made durable (model/durability.h, journal_create). An
    // existing one: a line a power cut tore is cut back to the last '\n' before anything is
    // appended, else the next line would be glued to it (journal_open).
    const PortOp op = before.exists ? PortOp::JournalOpen : PortOp::JournalCreate;
    issued(op, Primitive::OpenAppend);
    const bool ok = before.exists ? cut_torn_tail(fd_) : ::fsync(dir_fd) == 0;
    if (ok) issued(op, before.exists ? Primitive::CutTornTail : Primitive::FsyncParent);
    if (!ok) {
        error_ = path_ + (before.exists ? ": cannot cut its torn last line: " : ": cannot make it durable: ") + std::strerror(errno);
        ::close(fd_);
        fd_ = -1;
    }
}

FileJournal::~FileJournal() {
    if (fd_ >= 0) ::close(fd_);
}

bool FileJournal::append(const std::string& line) {
    if (fd_ < 0) return false;
    if (crash_ != nullptr) crash_->event();
    const std::string text = line + "\n";
    const off_t before = ::lseek(fd_, 0, SEEK_END);
    if (before < 0) return false;
    bool ok = true;
    if (shim_ != nullptr && shim_->at != 0 && ++shim_->mutations == shim_->at) {
        ok = write_all(fd_, std::string_view(text).substr(0, text.size() / 2)) && false;  // ENOSPC half-way
    } else {
        ++calls_;
        ok = write_all(fd_, text);
        if (ok) issued(PortOp::JournalAppend, Primitive::WriteData);
        ok = ok && ::fsync(fd_) == 0;
        if (ok) issued(PortOp::JournalAppend, Primitive::FsyncFile);
    }
    if (!ok) {
        if (::ftruncate(fd_, before) == 0) ::fsync(fd_);  // cut the torn line back
    }
    return ok;
}

std::optional<std::vector<std::string>> read_journal_lines(const std::string& path, std::string* error) {
    const std::size_t slash = path.rfind('/');
    std::string err;
    const int dir = slash == std::string::npos ? ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                               : open_folder(slash == 0 ? std::string("/") : path.substr(0, slash), err);
    if (dir < 0) {
        if (error != nullptr) *error = err.empty() ? path + ": cannot open its folder" : err;
        return std::nullopt;
    }
    auto lines = read_journal_lines_at(dir, slash == std::string::npos ? path : path.substr(slash + 1), error);
    ::close(dir);
    return lines;
}

std::optional<std::vector<std::string>> read_journal_lines_at(int dir_fd, const std::string& name, std::string* error) {
    const auto fail = [&](std::string why) -> std::optional<std::vector<std::string>> {
        if (error != nullptr) *error = name + ": " + std::move(why);
        return std::nullopt;
    };
    Fd fd(::openat(dir_fd, name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) {
        if (errno == ENOENT) return std::vector<std::string>{};
        if (errno == ELOOP) return fail("is a symbolic link");
        return fail(std::string("cannot open it: ") + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return fail(std::string("cannot read it: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail("is not a regular file");
    std::string text;
    if (!read_all(fd.get(), text, journal_bytes_max)) {
        return fail(errno == 0 ? "larger than " + std::to_string(journal_bytes_max) + " bytes" : std::string("cannot read it: ") + std::strerror(errno));
    }
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
        if (lines.size() >= journal_lines_max) return fail("more than " + std::to_string(journal_lines_max) + " lines");
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

namespace {

bool walk(const std::string& root, const std::string& rel, std::size_t depth, RealTree& out, std::string& error) {
    if (depth > snapshot_depth_max) {
        error = root + "/" + rel + ": deeper than " + std::to_string(snapshot_depth_max) + " levels";
        return false;
    }
    const std::string dir = rel.empty() ? root : root + "/" + rel;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) {
        error = dir + ": cannot list it: " + std::strerror(errno);
        return false;
    }
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
        const std::string path = rel.empty() ? name : rel + "/" + name;
        const std::string p = root + "/" + path;
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0) {
            error = p + ": lstat: " + std::strerror(errno);
            return false;
        }
        if (out.size() >= snapshot_entries_max) {
            error = root + ": more than " + std::to_string(snapshot_entries_max) + " entries";
            return false;
        }
        RealEntry entry;
        entry.mode = static_cast<std::uint32_t>(st.st_mode & 07777);
        if (S_ISDIR(st.st_mode)) {
            entry.kind = 'd';
            out[path] = entry;
            if (!walk(root, path, depth + 1, out, error)) return false;
            continue;
        }
        if (S_ISREG(st.st_mode)) {
            entry.kind = 'f';
            const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
            if (fd < 0 || !read_all(fd, entry.bytes, std::size_t{1} << 24)) {
                error = p + ": cannot read it";
                if (fd >= 0) ::close(fd);
                return false;
            }
            ::close(fd);
        } else if (S_ISLNK(st.st_mode)) {
            entry.kind = 'l';
            char buf[4096];
            const ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
            if (n > 0) entry.bytes.assign(buf, static_cast<std::size_t>(n));
        } else {
            entry.kind = '?';
        }
        out[path] = entry;
    }
    return true;
}

std::string describe(const RealEntry& e) {
    std::string kind = e.kind == 'd' ? "folder" : e.kind == 'f' ? "file" : e.kind == 'l' ? "symlink" : "other";
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", e.mode);
    std::string out = kind + " " + mode;
    if (e.kind == 'f') out += " \"" + (e.bytes.size() > 40 ? e.bytes.substr(0, 40) + "..." : e.bytes) + "\"";
    return out;
}

}  // namespace

std::optional<RealTree> snapshot_tree(const std::string& root, std::string& error) {
    RealTree out;
    if (!walk(root, "", 0, out, error)) return std::nullopt;
    return out;
}

std::vector<std::string> tree_diff(const RealTree& expected, const RealTree& actual, std::size_t lines_max) {
    std::vector<std::string> out;
    for (const auto& [path, e] : expected) {
        if (out.size() >= lines_max) return out;
        const auto it = actual.find(path);
        if (it == actual.end()) out.push_back(path + ": missing, expected " + describe(e));
        else if (!(it->second == e)) out.push_back(path + ": " + describe(it->second) + ", expected " + describe(e));
    }
    for (const auto& [path, e] : actual) {
        if (out.size() >= lines_max) return out;
        if (expected.find(path) == expected.end()) out.push_back(path + ": left behind (" + describe(e) + ")");
    }
    return out;
}

std::string make_temp_folder(const std::string& prefix, std::string& error) {
    const char* tmp = std::getenv("TMPDIR");
    std::string base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    std::string templ = base + "/" + prefix + "-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) {
        error = "mkdtemp " + templ + ": " + std::strerror(errno);
        return "";
    }
    return std::string(buf.data());
}

bool remove_tree(const std::string& path) {
    // Iterative post-order: collect, then remove deepest first.
    std::vector<std::string> stack{path};
    std::vector<std::string> folders;
    bool ok = true;
    for (std::size_t guard = 0; !stack.empty() && guard < 1'000'000; ++guard) {
        const std::string p = stack.back();
        stack.pop_back();
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0) continue;
        if (!S_ISDIR(st.st_mode)) {
            ok = ::unlink(p.c_str()) == 0 && ok;
            continue;
        }
        ::chmod(p.c_str(), 0700);
        folders.push_back(p);
        DIR* d = ::opendir(p.c_str());
        if (d == nullptr) continue;
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..") stack.push_back(p + "/" + name);
        }
        ::closedir(d);
    }
    for (auto it = folders.rbegin(); it != folders.rend(); ++it) ok = ::rmdir(it->c_str()) == 0 && ok;
    return ok;
}

bool populate(const std::string& root, const std::map<std::string, std::pair<bool, std::string>>& files, std::string& error) {
    for (const auto& [path, entry] : files) {  // sorted: a folder comes before what it holds
        const std::string p = root + "/" + path;
        if (entry.first) {
            if (::mkdir(p.c_str(), 0755) != 0 || ::chmod(p.c_str(), 0755) != 0) {
                error = p + ": mkdir: " + std::strerror(errno);
                return false;
            }
            continue;
        }
        const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || ::fchmod(fd, 0644) != 0 || !write_all(fd, entry.second) || ::fsync(fd) != 0) {
            error = p + ": create: " + std::strerror(errno);
            if (fd >= 0) ::close(fd);
            return false;
        }
        ::close(fd);
    }
    return true;
}

}  // namespace deskcheck::host
