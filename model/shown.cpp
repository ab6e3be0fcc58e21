#include "model/shown.h"

#include <algorithm>

namespace deskcheck {

std::string quoted_text(std::string_view text) {
    constexpr char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            case '\n': out += "\\n"; break;
            default: {
                const auto u = static_cast<unsigned char>(c);
                if (u < 0x20 || u == 0x7f) {  // never drives a terminal
                    out += "\\x";
                    out += hex[u >> 4];
                    out += hex[u & 0xf];
                } else {
                    out += c;  // printable ASCII and UTF-8 bytes as they are
                }
            }
        }
    }
    out += '"';
    return out;
}

std::string shown_text(std::string_view text) {
    // A prefix long enough for shown_chars_max code points of its quoted form (4 bytes at most
    // each), and for the closing quote to tell whether the whole fits.
    constexpr std::size_t prefix_max = 4 * shown_chars_max + 2;
    const std::string quoted = quoted_text(text.substr(0, std::min(text.size(), prefix_max)));
    if (text.size() <= prefix_max && quoted.size() <= shown_chars_max) return quoted;
    std::size_t chars = 0;
    std::size_t end = 0;
    for (; end < quoted.size(); ++end) {
        const bool starts_a_code_point = (static_cast<unsigned char>(quoted[end]) & 0xC0) != 0x80;
        if (starts_a_code_point && chars++ == shown_chars_max) break;
    }
    return quoted.substr(0, end) + "\u2026\" (" + std::to_string(text.size()) + " bytes, fnv1a64 " + hex16(fnv1a64(text)) + ")";
}

}  // namespace deskcheck
