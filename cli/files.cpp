#include "cli/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace deskcheck::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t read_chunk_bytes = 64 * 1024;

std::string errno_text(int err) { return std::strerror(err); }

std::string quoted(const fs::path& p) { return printable(p.string()); }

// What a directory entry is that deskcheck will not replace (lstat's mode: a link is a link).
std::string kind_of(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISDIR(mode)) return "a folder";
    return "not a regular file";
}

FileError not_regular(const fs::path& file, mode_t mode) {
    if (S_ISDIR(mode)) return FileError{quoted(file) + ": is a folder"};
    return FileError{quoted(file) + ": exists and is " + kind_of(mode) + ", not a regular file (deskcheck replaces only regular files)"};
}

// An error when `file` exists and is anything but a regular file; a link is never followed.
std::optional<FileError> refuse_not_regular(const fs::path& file) {
    struct stat st {};
    if (::lstat(file.c_str(), &st) != 0) return std::nullopt;  // absent (or unreachable: the write says so)
    if (S_ISREG(st.st_mode)) return std::nullopt;
    return not_regular(file, st.st_mode);
}

// An error when the folder `dir` is a symbolic link: an output folder is a real one.
std::optional<FileError> refuse_link(const fs::path& dir) {
    struct stat st {};
    std::string name = dir.string();
    while (name.size() > 1 && name.back() == '/') name.pop_back();  // "out/" is "out"
    if (::lstat(name.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return std::nullopt;
    return FileError{quoted(dir) + ": is a symbolic link, not a folder (deskcheck writes only into a real folder)"};
}

// Puts the finished temporary file `tmp` at `file` in one step, never replacing what is not a
// regular file — not even one that appeared at `file` after the caller's check: the target is
// swapped with the temporary file atomically (renameat2 RENAME_EXCHANGE) and what came out is
// looked at; anything but a regular file is swapped back. On a file system without renameat2's
// flags, a check then rename(2) (the one window left).
std::optional<FileError> install(const fs::path& tmp, const fs::path& file) {
    const auto cannot = [&](int err) {
        ::unlink(tmp.c_str());
        return FileError{quoted(file) + ": cannot write it: " + errno_text(err)};
    };
    if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, file.c_str(), RENAME_NOREPLACE) == 0) return std::nullopt;
    int err = errno;
    if (err == EEXIST) {
        if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, file.c_str(), RENAME_EXCHANGE) == 0) {
            struct stat st {};
            const bool got = ::lstat(tmp.c_str(), &st) == 0;  // what was at `file` until now
            if (got && S_ISREG(st.st_mode)) {
                ::unlink(tmp.c_str());
                return std::nullopt;
            }
            if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, file.c_str(), RENAME_EXCHANGE) == 0) ::unlink(tmp.c_str());
            return got ? not_regular(file, st.st_mode) : FileError{quoted(file) + ": cannot write it: it changed while written"};
        }
        err = errno;
    }
    if (err != EINVAL && err != ENOSYS && err != ENOTSUP) return cannot(err);
    if (auto e = refuse_not_regular(file)) {
        ::unlink(tmp.c_str());
        return e;
    }
    if (::rename(tmp.c_str(), file.c_str()) != 0) return cannot(errno);
    return std::nullopt;
}

// Closes a descriptor once, on every path.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    // Closes now, reporting the error close() found (a write the kernel could not finish).
    int close_checked() {
        const int fd = fd_;
        fd_ = -1;
        return fd < 0 ? 0 : ::close(fd);
    }

private:
    int fd_;
};

bool write_all(int fd, std::string_view content, int& err) {
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

mode_t file_mode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
}

// A temporary file next to `file`, holding `content`, flushed and closed: its path, or an error.
std::variant<fs::path, FileError> write_temporary(const fs::path& file, std::string_view content) {
    const fs::path target(file);
    if (target.filename().empty()) return FileError{quoted(file) + ": names a folder, not a file"};
    if (auto e = refuse_not_regular(target)) return *e;
    std::error_code ec;
    const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    if (fs::exists(parent, ec) && !fs::is_directory(parent, ec)) {
        return FileError{quoted(file) + ": " + quoted(parent) + " is not a folder"};
    }
    fs::create_directories(parent, ec);
    if (ec) return FileError{quoted(file) + ": cannot create the folder " + quoted(parent) + ": " + ec.message()};
    std::string pattern = (parent / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    Fd fd(::mkostemp(name.data(), O_CLOEXEC));
    if (fd.get() < 0) return FileError{quoted(file) + ": cannot create a file in " + quoted(parent) + ": " + errno_text(errno)};
    const fs::path temporary(name.data());
    int err = 0;
    bool ok = write_all(fd.get(), content, err);
    if (ok && ::fchmod(fd.get(), file_mode()) != 0) {
        err = errno;
        ok = false;
    }
    if (ok && ::fsync(fd.get()) != 0 && errno != EINVAL && errno != EROFS) {
        err = errno;
        ok = false;
    }
    if (fd.close_checked() != 0 && ok) {
        err = errno;
        ok = false;
    }
    if (!ok) {
        ::unlink(temporary.c_str());
        return FileError{quoted(file) + ": cannot write it: " + errno_text(err)};
    }
    return temporary;
}

}  // namespace

std::variant<std::string, FileError> read_input_file(const fs::path& file, std::size_t bytes_max) {
    const std::string name = quoted(file);
    // "-" is standard input (a copy of the descriptor: closing it leaves the process's own open).
    // Otherwise a non-blocking open: a FIFO without a writer must not hang here (cleared right after).
    const bool standard_input = file == "-";
    Fd fd(standard_input ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
                         : ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) {
        const int err = errno;
        if (standard_input) return FileError{name + ": standard input is closed: " + errno_text(err)};
        if (err == ENOENT) return FileError{name + ": no such file"};
        return FileError{name + ": cannot open it: " + errno_text(err)};
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return FileError{name + ": cannot read it: " + errno_text(errno)};
    if (S_ISDIR(st.st_mode)) return FileError{name + ": is a folder, not a file"};
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags >= 0 && !standard_input) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    std::string out;
    std::vector<char> chunk(read_chunk_bytes);
    while (out.size() <= bytes_max) {
        const std::size_t want = std::min(chunk.size(), bytes_max + 1 - out.size());
        const ssize_t n = ::read(fd.get(), chunk.data(), want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return FileError{name + ": cannot read it: " + errno_text(errno)};
        if (n == 0) break;
        out.append(chunk.data(), static_cast<std::size_t>(n));
    }
    if (out.size() > bytes_max) return FileError{name + ": larger than " + std::to_string(bytes_max) + " bytes"};
    return out;
}

std::optional<FileError> prepare_output_dir(const fs::path& dir) {
    std::error_code ec;
    if (dir.empty()) return FileError{"(empty path): not a folder"};
    if (auto e = refuse_link(dir)) return e;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) return FileError{quoted(dir) + ": exists and is not a folder"};
    fs::create_directories(dir, ec);
    if (ec) return FileError{quoted(dir) + ": cannot create the folder: " + ec.message()};
    std::string pattern = (dir / ".deskcheck-probe-XXXXXX").string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) return FileError{quoted(dir) + ": cannot write in the folder: " + errno_text(errno)};
    ::close(fd);
    ::unlink(name.data());
    return std::nullopt;
}

namespace {

std::optional<FileError> check_folder(const fs::path& dir) {
    std::error_code ec;
    if (dir.empty()) return FileError{"(empty path): not a folder"};
    fs::path at = fs::absolute(dir, ec);
    if (ec) return FileError{quoted(dir) + ": " + ec.message()};
    constexpr int levels_max = 256;
    for (int i = 0; i < levels_max; ++i) {
        const auto st = fs::status(at, ec);
        if (fs::exists(st)) {
            if (!fs::is_directory(st)) {
                return FileError{quoted(dir) + ": " + (at == fs::absolute(dir) ? std::string("exists and is not a folder")
                                                                                : quoted(at) + " is not a folder")};
            }
            if (::access(at.c_str(), W_OK | X_OK) != 0) {
                return FileError{quoted(dir) + ": cannot write in " + quoted(at) + ": " + errno_text(errno)};
            }
            return std::nullopt;
        }
        if (at == at.parent_path()) break;
        at = at.parent_path();
    }
    return FileError{quoted(dir) + ": no existing folder above it"};
}

}  // namespace

std::optional<FileError> check_output_dir(const fs::path& dir) {
    if (auto e = refuse_link(dir)) return e;
    return check_folder(dir);
}

std::optional<FileError> check_output_file(const fs::path& file) {
    if (file.filename().empty()) return FileError{quoted(file) + ": names a folder, not a file"};
    if (auto e = refuse_not_regular(file)) return e;
    const fs::path parent = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    if (auto e = check_folder(parent)) return FileError{quoted(file) + ": " + e->message};
    return std::nullopt;
}

std::optional<FileError> write_file_atomically(const fs::path& file, std::string_view content) {
    auto temporary = write_temporary(file, content);
    if (auto* e = std::get_if<FileError>(&temporary)) return *e;
    return install(std::get<fs::path>(temporary), file);
}

std::optional<FileError> write_new_file(const fs::path& file, std::string_view content, bool& taken) {
    taken = false;
    auto temporary = write_temporary(file, content);
    if (auto* e = std::get_if<FileError>(&temporary)) return *e;
    const fs::path& tmp = std::get<fs::path>(temporary);
    // link() never replaces: EEXIST when another file (or another process) has the name.
    const int linked = ::link(tmp.c_str(), file.c_str());
    const int err = errno;
    ::unlink(tmp.c_str());
    if (linked == 0) return std::nullopt;
    if (err == EEXIST) {
        if (auto e = refuse_not_regular(file)) return e;  // a FIFO, a device, a link by that name
        taken = true;
        return std::nullopt;
    }
    return FileError{quoted(file) + ": cannot write it: " + errno_text(err)};
}

std::string dump_json(const nlohmann::ordered_json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string dump_json(const nlohmann::json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The length of the valid UTF-8 character at text[i] (1..4), or 0 when the bytes there are not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xbf;  // the allowed range of the first continuation byte
    if (lead >= 0xc2 && lead <= 0xdf) n = 2;
    else if (lead == 0xe0) { n = 3; lo = 0xa0; }
    else if ((lead >= 0xe1 && lead <= 0xec) || lead == 0xee || lead == 0xef) n = 3;
    else if (lead == 0xed) { n = 3; hi = 0x9f; }  // no surrogates
    else if (lead == 0xf0) { n = 4; lo = 0x90; }
    else if (lead >= 0xf1 && lead <= 0xf3) n = 4;
    else if (lead == 0xf4) { n = 4; hi = 0x8f; }
    else return 0;
    if (i + n > text.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80) return 0;
    }
    return n;
}


std::string printable(std::string_view text, std::size_t bytes_max) {
    constexpr std::string_view hex = "0123456789abcdef";
    const std::size_t keep = std::min(text.size(), bytes_max);
    std::string out;
    out.reserve(keep + 16);
    std::size_t i = 0;
    while (i < keep) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const std::size_t n = utf8_length(text, i);
        if (n > 1 && i + n <= keep) {
            out.append(text.substr(i, n));  // a whole, valid character
            i += n;
        } else if (n > 1) {
            break;  // a character cut by the limit: left out
        } else if (n == 1 && byte >= 0x20 && byte != 0x7f) {
            out += static_cast<char>(byte);
            ++i;
        } else {
            // Control bytes and bytes that are not UTF-8: \xNN, so the line stays valid text.
            out += "\\x";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
            ++i;
        }
    }
    if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

std::string markdown_cell(std::string_view text) {
    std::string out;
    for (const char ch : text) {
        if (ch == '|') out += '\\';
        out += ch;
    }
    return out;
}

}  // namespace deskcheck::cli
