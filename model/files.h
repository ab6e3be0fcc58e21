// The files port (DESIGN "The port", R-6, R-7): the only way model/ touches files.
//
// Small on purpose: read, write, create one folder, move, remove, list, stat. Paths are relative,
// '/'-separated, without "." or ".." segments ("out/a/b.txt"); "" is the root. Every call answers
// an error value (FsError) or its result: a real folder (host/) or an in-memory one (sim/memfs.h)
// implements it, and a failure — no space, permission denied, a partial write — is something the
// caller sees and must handle, never an exception.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace deskcheck {

enum class FsError : std::uint8_t {
    NotFound,          // the path (or its parent folder) does not exist
    AlreadyExists,     // make_folder / move onto something that exists
    NotAFolder,        // a parent of the path is a file, or list() of a file
    IsAFolder,         // read/write of a folder
    NotEmpty,          // remove() of a folder that still holds something
    NoSpace,           // the device is full
    PermissionDenied,  // the operation is not allowed
    PartialWrite,      // write() stored only a prefix of the bytes before failing
    BadPath,           // empty segment, ".", "..", a leading '/'
    CrossesLink,       // a component of the path is a symbolic link: never followed
    NotRegular,        // the path names a device, a FIFO or a socket, not a file or a folder
};
std::string_view to_string(FsError e);

// A result: either a value or an error (errors are values, DESIGN "Conventions").
template <class T>
struct FsResult {
    std::optional<T> value;
    FsError error = FsError::NotFound;  // meaningful only when !value
    bool ok() const { return value.has_value(); }
    static FsResult good(T v) { return FsResult{std::move(v), FsError::NotFound}; }
    static FsResult bad(FsError e) { return FsResult{std::nullopt, e}; }
};
struct FsDone {};  // the value of a mutation that succeeded

struct FsStat {
    bool is_folder = false;
    std::uint64_t size = 0;  // bytes of a file; 0 for a folder
    friend bool operator==(const FsStat&, const FsStat&) = default;
};

class Files {
public:
    virtual ~Files() = default;
    virtual FsResult<std::string> read(std::string_view path) = 0;
    // Creates or replaces the file; its parent folder must exist.
    virtual FsResult<FsDone> write(std::string_view path, std::string_view bytes) = 0;
    // Creates one folder; its parent must exist (the caller creates levels one by one, so it
    // knows exactly which ones it created: R-6).
    virtual FsResult<FsDone> make_folder(std::string_view path) = 0;
    // Renames a file or folder; `to` must not exist, its parent must.
    virtual FsResult<FsDone> move(std::string_view from, std::string_view to) = 0;
    // Removes a file or an empty folder.
    virtual FsResult<FsDone> remove(std::string_view path) = 0;
    // The names (not paths) in a folder, sorted bytewise.
    virtual FsResult<std::vector<std::string>> list(std::string_view path) = 0;
    virtual FsResult<FsStat> stat(std::string_view path) = 0;
};

// Path helpers (pure): the parent ("" for a top-level name), and the chain of ancestors of a path
// from the top down ("a/b/c.txt" -> {"a", "a/b"}).
std::string parent_of(std::string_view path);
std::vector<std::string> ancestors_of(std::string_view path);
bool valid_path(std::string_view path);

// Bounds (DESIGN "Bounded everything").
inline constexpr std::size_t path_bytes_max = 1024;
inline constexpr std::size_t path_depth_max = 32;

}  // namespace deskcheck
