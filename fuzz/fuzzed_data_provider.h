// A small subset of LLVM's FuzzedDataProvider (<fuzzer/FuzzedDataProvider.h>), written for
// deskcheck so that every build — g++ standalone replay, clang + libFuzzer, OSS-Fuzz with libc++ —
// decodes the same bytes into the same values. The semantics follow the upstream class exactly:
// integers are taken from the END of the input (big-endian byte by byte, then reduced modulo the
// range), strings and byte runs from the FRONT; an exhausted input yields the minimum of every
// range and empty strings. Only integral draws: no floats anywhere near a scenario (STYLE 2).
#pragma once

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace deskcheck::fuzz {

class FuzzedDataProvider {
public:
    FuzzedDataProvider(const std::uint8_t* data, std::size_t size) : data_(data), remaining_(size) {}
    FuzzedDataProvider(const FuzzedDataProvider&) = delete;
    FuzzedDataProvider& operator=(const FuzzedDataProvider&) = delete;

    std::size_t remaining_bytes() const { return remaining_; }

    // An integer in [min, max]; min when the input is exhausted. min <= max.
    template <typename T>
    T ConsumeIntegralInRange(T min, T max) {
        static_assert(std::is_integral_v<T>, "an integral type is required");
        static_assert(sizeof(T) <= sizeof(std::uint64_t), "unsupported integral type");
        if (min > max) return min;  // upstream aborts; callers here never pass an empty range
        const std::uint64_t range = static_cast<std::uint64_t>(max) - static_cast<std::uint64_t>(min);
        std::uint64_t result = 0;
        std::size_t offset = 0;
        while (offset < sizeof(T) * CHAR_BIT && (range >> offset) > 0 && remaining_ != 0) {
            --remaining_;
            result = (result << CHAR_BIT) | data_[remaining_];
            offset += CHAR_BIT;
        }
        if (range != std::numeric_limits<std::uint64_t>::max()) result = result % (range + 1);
        return static_cast<T>(static_cast<std::uint64_t>(min) + result);
    }

    template <typename T>
    T ConsumeIntegral() {
        return ConsumeIntegralInRange<T>(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    }

    bool ConsumeBool() { return (1 & ConsumeIntegral<std::uint8_t>()) != 0; }

    template <typename T, std::size_t N>
    T PickValueInArray(const std::array<T, N>& values) {
        static_assert(N > 0, "the array must not be empty");
        return values[ConsumeIntegralInRange<std::size_t>(0, N - 1)];
    }

    // Up to max_length bytes from the front. "\\" is a backslash; "\" followed by anything else
    // ends the string (so inserting bytes lengthens it: a stable encoding for mutations).
    std::string ConsumeRandomLengthString(std::size_t max_length) {
        std::string out;
        for (std::size_t i = 0; i < max_length && remaining_ != 0; ++i) {
            char next = static_cast<char>(data_[0]);
            advance(1);
            if (next == '\\' && remaining_ != 0) {
                next = static_cast<char>(data_[0]);
                advance(1);
                if (next != '\\') break;
            }
            out += next;
        }
        return out;
    }

    std::string ConsumeBytesAsString(std::size_t num_bytes) {
        const std::size_t n = num_bytes < remaining_ ? num_bytes : remaining_;
        std::string out(reinterpret_cast<const char*>(data_), n);
        advance(n);
        return out;
    }

    std::string ConsumeRemainingBytesAsString() { return ConsumeBytesAsString(remaining_); }

private:
    void advance(std::size_t n) {
        data_ += n;
        remaining_ -= n;
    }

    const std::uint8_t* data_;
    std::size_t remaining_;
};

}  // namespace deskcheck::fuzz
