// S-8: a value as the ledger keeps it. A read or an effect of a growing value happens once per
// read or write; keeping the whole value each time makes memory grow with the square of a text.
// Kept holds a short string whole and, for a long one, only its length, two 64-bit digests and how
// it is shown (model/shown.h shown_text): equality with another value stays decidable (exact when
// short, by length and both digests when long), and so does printing it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace deskcheck::sim {

// Strings up to this many bytes are kept whole (every flag, selection, key and short value).
inline constexpr std::size_t kept_whole_bytes_max = 256;

class Kept {
public:
    Kept() = default;
    explicit Kept(std::string_view text);
    Kept(const char* text) : Kept(std::string_view(text)) {}
    Kept(const std::string& text) : Kept(std::string_view(text)) {}
    // The Kept of `text`, which begins with the string `prefix` keeps (an append): the digests
    // continue from the prefix's instead of reading it again, so that n appends to a value cost the
    // appended bytes, not the sum of the value's lengths (S-8). Equal to Kept(text).
    static Kept extending(const Kept& prefix, std::string_view text);

    // The whole string, or nullptr when it was long (only its digests are kept).
    const std::string* whole() const { return whole_ ? &text_ : nullptr; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // As a trace shows it: model/shown.h shown_text of the whole.
    std::string shown() const;
    // Whether `text` is the string kept: exact when kept whole, else by length and both digests.
    bool same_as(std::string_view text) const;
    friend bool operator==(const Kept& a, const Kept& b) {
        return a.size_ == b.size_ && a.whole_ == b.whole_ && a.fnv_ == b.fnv_ && a.mix_ == b.mix_ && a.text_ == b.text_;
    }

private:
    std::string text_;  // the whole string, or its shown form when long
    bool whole_ = true;
    std::size_t size_ = 0;
    std::uint64_t fnv_ = 0;  // FNV-1a 64 of the whole
    std::uint64_t mix_ = 0;  // a second, independent digest of the whole
    std::uint64_t mix_words_ = 0;  // the second digest's state after the whole's complete 8-byte words
};

// A reading and a claim: both absent, or the same string.
bool same(const std::optional<Kept>& kept, const std::optional<std::string>& text);
std::optional<Kept> kept(const std::optional<std::string>& text);

}  // namespace deskcheck::sim
