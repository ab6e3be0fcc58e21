// How a value is shown to people (traces, reports, pages), and the project's one digest of bytes.
// Header-only: the checker (checks/) prints with it too, and links no model/ library.
//
// FNV-1a, 64 bit: deterministic on every compiler (snapshot fingerprints, cut values, the golden
// trace hashes). Not a cryptographic hash.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace deskcheck {

inline constexpr std::uint64_t fnv1a64_offset = 14695981039346656037ULL;

// `h`: the digest so far (fnv1a64_offset to start), so that a digest can run over several pieces.
constexpr std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h = fnv1a64_offset) {
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return h;
}

// 16 lower-case hex digits.
inline std::string hex16(std::uint64_t h) {
    constexpr char hex[] = "0123456789abcdef";
    std::string out(16, '0');
    for (std::size_t i = 0; i < 16; ++i) out[15 - i] = hex[(h >> (4 * i)) & 0xfU];
    return out;
}

// A text quoted for a terminal: "a\tb" with C-style escapes (\" \\ \t \r \n, other control bytes
// as \xNN), printable ASCII and UTF-8 bytes kept.
inline std::string quoted_text(std::string_view text) {
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

// S-8: a text or value that may be long, shown so that a line stays short whatever it holds:
// quoted_text when the quoted form has at most shown_chars_max bytes; longer, its first
// shown_chars_max code points as the timeline page cuts them (cli/html_timeline.h value_chars_max),
// "…", the closing quote, and the length and FNV-1a 64 digest of the whole:
//   "abc…" (409600 bytes, fnv1a64 0123456789abcdef)
// Two different values show differently (but for a digest collision): S-1's trace hashes still tell
// runs apart, and memory and output stay linear in the input.
inline constexpr std::size_t shown_chars_max = 80;
inline std::string shown_text(std::string_view text) {
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
