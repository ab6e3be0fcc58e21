// The files port over a real folder (host/real_files.h).
#include "host/real_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace deskcheck::host {
namespace {

bool fsync_path(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

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

bool read_all(int fd, std::string& out, std::size_t max) {
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        out.append(buf, static_cast<std::size_t>(n));
        if (out.size() > max) return false;
    }
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
        default: return FsError::BadPath;  // ENAMETOOLONG, ELOOP, EINVAL: the path cannot be used
    }
}

RealFiles::RealFiles(std::string root, CrashPlan* crash, FaultShim* shim)
    : root_(std::move(root)), crash_(crash), shim_(shim) {}

std::string RealFiles::full(std::string_view path) const { return path.empty() ? root_ : root_ + "/" + std::string(path); }

bool RealFiles::shim_fires() {
    if (shim_ == nullptr) return false;
    ++shim_->mutations;
    return shim_->at != 0 && shim_->mutations == shim_->at;
}

FsResult<FsDone> RealFiles::done(std::string what, std::string_view path, FsResult<FsDone> r) {
    ops_.push_back({std::move(what), std::string(path), r.ok() ? "ok" : std::string(to_string(r.error))});
    others_after(ops_.size());
    return r;
}

void RealFiles::set_others(std::vector<OtherFile> others) {
    others_ = std::move(others);
    others_after(0);
}

void RealFiles::others_after(std::size_t op) {
    for (const OtherFile& o : others_) {
        if (o.after_op != op) continue;
        const std::string p = full(o.path);
        struct stat st {};
        if (::lstat(p.c_str(), &st) == 0 || ::lstat(parent_path(p).c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) continue;
        const bool ok = ::fchmod(fd, 0644) == 0 && write_all(fd, o.bytes) && ::fsync(fd) == 0;
        ::close(fd);
        if (ok) others_done_.push_back(o);
    }
}

FsResult<std::string> RealFiles::read(std::string_view path) {
    if (!valid_path(path)) return FsResult<std::string>::bad(FsError::BadPath);
    const int fd = ::open(full(path).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return FsResult<std::string>::bad(fs_error_from_errno(errno));
    std::string out;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        return FsResult<std::string>::bad(FsError::IsAFolder);
    }
    const bool ok = read_all(fd, out, std::size_t{1} << 24);
    const int e = errno;
    ::close(fd);
    if (!ok) return FsResult<std::string>::bad(fs_error_from_errno(e));
    return FsResult<std::string>::good(std::move(out));
}

FsResult<FsDone> RealFiles::write(std::string_view path, std::string_view bytes) {
    using R = FsResult<FsDone>;
    if (!valid_path(path)) return done("write", path, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    const bool fault = shim_fires();
    const std::string p = full(path);
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return done("write", path, R::bad(fs_error_from_errno(errno)));
    const std::string_view first = bytes.substr(0, bytes.size() / 2);
    bool ok = write_all(fd, first);
    if (ok && crash_ != nullptr) crash_->event();  // half the bytes are on the disk: a torn write
    if (ok && fault) {
        ::close(fd);
        return done("write", path, R::bad(FsError::NoSpace));  // ENOSPC after a prefix, as a full disk does
    }
    ok = ok && write_all(fd, bytes.substr(first.size()));
    int e = errno;
    ok = ok && ::fsync(fd) == 0;
    if (!ok) e = errno;
    ::close(fd);
    if (!ok) return done("write", path, R::bad(fs_error_from_errno(e)));
    if (!fsync_path(parent_path(p))) return done("write", path, R::bad(fs_error_from_errno(errno)));
    return done("write", path, R::good({}));
}

FsResult<FsDone> RealFiles::make_folder(std::string_view path) {
    using R = FsResult<FsDone>;
    if (!valid_path(path) || path.empty()) return done("make_folder", path, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    if (shim_fires()) return done("make_folder", path, R::bad(FsError::NoSpace));
    const std::string p = full(path);
    if (::mkdir(p.c_str(), 0755) != 0) return done("make_folder", path, R::bad(fs_error_from_errno(errno)));
    ::chmod(p.c_str(), 0755);  // whatever the umask
    if (!fsync_path(parent_path(p))) return done("make_folder", path, R::bad(fs_error_from_errno(errno)));
    return done("make_folder", path, R::good({}));
}

FsResult<FsDone> RealFiles::move(std::string_view from, std::string_view to) {
    using R = FsResult<FsDone>;
    if (!valid_path(from) || !valid_path(to) || from.empty() || to.empty()) return done("move", from, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    if (shim_fires()) return done("move", from, R::bad(FsError::NoSpace));
    const std::string a = full(from);
    const std::string b = full(to);
    struct stat st {};
    if (::lstat(b.c_str(), &st) == 0) return done("move", from, R::bad(FsError::AlreadyExists));
    if (::rename(a.c_str(), b.c_str()) != 0) return done("move", from, R::bad(fs_error_from_errno(errno)));
    bool ok = fsync_path(parent_path(b));
    if (parent_path(a) != parent_path(b)) ok = ok && fsync_path(parent_path(a));
    if (!ok) return done("move", from, R::bad(fs_error_from_errno(errno)));
    return done("move", from, R::good({}));
}

FsResult<FsDone> RealFiles::remove(std::string_view path) {
    using R = FsResult<FsDone>;
    if (!valid_path(path) || path.empty()) return done("remove", path, R::bad(FsError::BadPath));
    if (crash_ != nullptr) crash_->event();
    if (shim_fires()) return done("remove", path, R::bad(FsError::PermissionDenied));
    const std::string p = full(path);
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) return done("remove", path, R::bad(fs_error_from_errno(errno)));
    const int rc = S_ISDIR(st.st_mode) ? ::rmdir(p.c_str()) : ::unlink(p.c_str());
    if (rc != 0) return done("remove", path, R::bad(fs_error_from_errno(errno == EEXIST ? ENOTEMPTY : errno)));
    if (!fsync_path(parent_path(p))) return done("remove", path, R::bad(fs_error_from_errno(errno)));
    return done("remove", path, R::good({}));
}

FsResult<std::vector<std::string>> RealFiles::list(std::string_view path) {
    using R = FsResult<std::vector<std::string>>;
    if (!valid_path(path)) return R::bad(FsError::BadPath);
    DIR* d = ::opendir(full(path).c_str());
    if (d == nullptr) return R::bad(fs_error_from_errno(errno));
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return R::good(std::move(names));
}

FsResult<FsStat> RealFiles::stat(std::string_view path) {
    using R = FsResult<FsStat>;
    if (!valid_path(path)) return R::bad(FsError::BadPath);
    struct stat st {};
    if (::lstat(full(path).c_str(), &st) != 0) return R::bad(fs_error_from_errno(errno));
    FsStat out;
    out.is_folder = S_ISDIR(st.st_mode);
    out.size = out.is_folder ? 0 : static_cast<std::uint64_t>(st.st_size);
    return R::good(out);
}

FileJournal::FileJournal(std::string path, CrashPlan* crash, FaultShim* shim)
    : path_(std::move(path)), crash_(crash), shim_(shim) {
    struct stat st {};
    const bool existed = ::stat(path_.c_str(), &st) == 0;
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0 && !existed) {
        if (::fsync(fd_) != 0 || !fsync_path(parent_path(path_))) {
            ::close(fd_);
            fd_ = -1;
        }
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
        ok = write_all(fd_, text) && ::fsync(fd_) == 0;
    }
    if (!ok) {
        if (::ftruncate(fd_, before) == 0) ::fsync(fd_);  // cut the torn line back
    }
    return ok;
}

std::optional<std::vector<std::string>> read_journal_lines(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return std::vector<std::string>{};
        return std::nullopt;
    }
    std::string text;
    const bool ok = read_all(fd, text, std::size_t{1} << 26);
    ::close(fd);
    if (!ok) return std::nullopt;
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t nl = text.find('\n'); nl != std::string::npos && lines.size() < journal_lines_max; nl = text.find('\n', start)) {
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
