#include "cli/args.h"

#include <charconv>
#include <cstdint>
#include <iostream>

namespace deskcheck::cli {

Args::Args(std::string command, std::vector<std::string> argv, std::set<std::string> flags,
           std::set<std::string> options)
    : command_(std::move(command)) {
    for (std::size_t i = 0; i < argv.size() && !error_; ++i) {
        // -h is --help for every command that has one.
        const std::string& a = argv[i] == "-h" && flags.count("--help") != 0 ? std::string("--help") : argv[i];
        if (a.rfind("--", 0) != 0 || a == "--") {
            positional_.push_back(a);
            continue;
        }
        std::string name = a;
        std::optional<std::string> inline_value;
        if (const auto eq = a.find('='); eq != std::string::npos) {
            name = a.substr(0, eq);
            inline_value = a.substr(eq + 1);
        }
        if (flags.count(name) != 0 && !inline_value) {
            flags_set_.insert(name);
        } else if (options.count(name) != 0) {
            if (inline_value) {
                values_[name] = *inline_value;
            } else if (i + 1 < argv.size()) {
                values_[name] = argv[++i];
            } else {
                error_ = "option " + name + " needs a value";
            }
        } else {
            error_ = "unknown option '" + a + "' (see deskcheck " + command_ + " --help)";
        }
    }
}

std::optional<std::string> Args::option(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::uint64_t> Args::number(const std::string& name) {
    const auto v = option(name);
    if (!v) return std::nullopt;
    std::uint64_t out = 0;
    const auto* end = v->data() + v->size();
    const auto r = std::from_chars(v->data(), end, out);
    if (r.ec == std::errc::result_out_of_range && r.ptr == end) {
        fail("option " + name + " is beyond " + std::to_string(UINT64_MAX) + ", got '" + *v + "'");
        return std::nullopt;
    }
    if (r.ec != std::errc() || r.ptr != end || v->empty()) {
        fail("option " + name + " expects an unsigned number, got '" + *v + "'");
        return std::nullopt;
    }
    return out;
}

std::optional<std::uint64_t> Args::number(const std::string& name, std::uint64_t min, std::uint64_t max) {
    const auto n = number(name);
    if (n && (*n < min || *n > max)) {
        fail(name + " must lie in " + std::to_string(min) + ".." + std::to_string(max) + ", got '" + *option(name) + "'");
        return std::nullopt;
    }
    return n;
}

void Args::fail(std::string message) {
    if (!error_) error_ = std::move(message);
}

int usage_error(const std::string& command, const std::string& message) {
    std::cerr << "deskcheck " << command << ": " << message << "\n";
    return exit_usage;
}

}  // namespace deskcheck::cli
