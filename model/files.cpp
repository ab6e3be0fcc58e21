// Path helpers of the files port (model/files.h).
#include "model/files.h"

#include <cassert>

namespace deskcheck {

std::string_view to_string(FsError e) {
    switch (e) {
        case FsError::NotFound: return "not_found";
        case FsError::AlreadyExists: return "already_exists";
        case FsError::NotAFolder: return "not_a_folder";
        case FsError::IsAFolder: return "is_a_folder";
        case FsError::NotEmpty: return "not_empty";
        case FsError::NoSpace: return "no_space";
        case FsError::PermissionDenied: return "permission_denied";
        case FsError::PartialWrite: return "partial_write";
        case FsError::BadPath: return "bad_path";
        case FsError::CrossesLink: return "crosses_a_symbolic_link";
        case FsError::NotRegular: return "not_a_regular_file";
    }
    return "?";
}

bool valid_path(std::string_view path) {
    if (path.empty() || path.size() > path_bytes_max) return false;
    std::size_t depth = 0;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view segment = path.substr(start, end - start);
        if (segment.empty() || segment == "." || segment == "..") return false;
        if (++depth > path_depth_max) return false;
        start = end + 1;
    }
    return true;
}

std::string parent_of(std::string_view path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::vector<std::string> ancestors_of(std::string_view path) {
    std::vector<std::string> out;
    std::size_t slash = path.find('/');
    while (slash != std::string_view::npos && out.size() < path_depth_max) {
        out.emplace_back(path.substr(0, slash));
        slash = path.find('/', slash + 1);
    }
    assert(out.empty() || out.back() == parent_of(path));
    return out;
}

}  // namespace deskcheck
