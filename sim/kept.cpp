#include "sim/kept.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "model/shown.h"

namespace deskcheck::sim {
namespace {

// A second digest, unlike FNV's structure (so that one collision is not the other's), and fast:
// eight bytes at a time, multiply-xorshift, then the last bytes one at a time and the length. In
// two parts, so that an append continues from the state after the complete words (Kept::extending).
constexpr std::uint64_t mix_seed = 0x9e3779b97f4a7c15ULL;

// The state after the complete 8-byte words of `bytes`, continuing from `h`.
std::uint64_t mix_words(std::uint64_t h, std::string_view bytes) {
    for (std::size_t i = 0; i + 8 <= bytes.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, bytes.data() + i, 8);
        h = (h ^ word) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
    }
    return h;
}

// The digest of the whole `bytes` from the state after its complete words.
std::uint64_t mix_final(std::uint64_t h, std::string_view bytes) {
    for (std::size_t i = bytes.size() / 8 * 8; i < bytes.size(); ++i) {
        h = (h ^ static_cast<unsigned char>(bytes[i])) * 0xc4ceb9fe1a85ec53ULL;
        h ^= h >> 29;
    }
    h ^= bytes.size();
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 31);
}

std::uint64_t mix_digest(std::string_view bytes) { return mix_final(mix_words(mix_seed, bytes), bytes); }

// shown_text(text) of a long text, its FNV-1a 64 `fnv` given (one pass over the text, not two):
// the cut head is shown_text's of a prefix just too long to be shown whole, the tail is the whole's.
std::string shown_long(std::string_view text, std::uint64_t fnv) {
    const std::size_t prefix = 4 * shown_chars_max + 3;  // past model/shown.cpp's prefix_max
    std::string head = shown_text(text.substr(0, std::min(text.size(), prefix)));
    const std::size_t tail = head.rfind("\xe2\x80\xa6\" (");
    if (text.size() < prefix || tail == std::string::npos) return shown_text(text);
    head.erase(tail + 4);  // the ellipsis and the closing quote
    return head + " (" + std::to_string(text.size()) + " bytes, fnv1a64 " + hex16(fnv) + ")";
}

}  // namespace

Kept::Kept(std::string_view text)
    : whole_(text.size() <= kept_whole_bytes_max), size_(text.size()), fnv_(fnv1a64(text)),
      mix_words_(mix_words(mix_seed, text)) {
    mix_ = mix_final(mix_words_, text);
    text_ = whole_ ? std::string(text) : shown_long(text, fnv_);
}

Kept Kept::extending(const Kept& prefix, std::string_view text) {
    assert(text.size() >= prefix.size_);  // the caller checked that `text` begins with the prefix
    if (text.size() <= kept_whole_bytes_max) return Kept(text);  // short: as cheap either way
    Kept k;
    k.whole_ = false;
    k.size_ = text.size();
    k.fnv_ = fnv1a64(text.substr(prefix.size_), prefix.fnv_);
    const std::size_t words_done = prefix.size_ / 8 * 8;
    k.mix_words_ = mix_words(prefix.mix_words_, text.substr(words_done, (text.size() - words_done) / 8 * 8));
    k.mix_ = mix_final(k.mix_words_, text);
    k.text_ = shown_long(text, k.fnv_);
    return k;
}

std::string Kept::shown() const { return whole_ ? shown_text(text_) : text_; }

bool Kept::same_as(std::string_view text) const {
    if (text.size() != size_) return false;
    if (whole_) return text == text_;
    return fnv1a64(text) == fnv_ && mix_digest(text) == mix_;
}

bool same(const std::optional<Kept>& kept, const std::optional<std::string>& text) {
    if (!kept || !text) return kept.has_value() == text.has_value();
    return kept->same_as(*text);
}

std::optional<Kept> kept(const std::optional<std::string>& text) {
    if (!text) return std::nullopt;
    return Kept(*text);
}

}  // namespace deskcheck::sim
