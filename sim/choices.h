// Where the scenario builder (sim/build.h) gets its decisions: one stream of choices, answered by
// the seeded PRNG (campaigns, the nightly, the benchmark), by libFuzzer's bytes (fuzz_batch,
// `deskcheck convert`) or by a vector of numbers (RapidCheck's choice vector, the choice shrinker).
// This is Hypothesis's choice sequence (MacIver & Donaldson, ECOOP 2020): the builder asks, the
// source answers, and an answer of 0 is always the simplest (the lowest index, "no", the lower
// bound), so an exhausted or zeroed stream builds the smallest desktop and shrinking the stream
// towards zeros keeps every step a valid, simpler scenario.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/prng.h"

namespace deskcheck::sim {

class Choices {
public:
    Choices() = default;
    Choices(const Choices&) = delete;
    Choices& operator=(const Choices&) = delete;
    virtual ~Choices() = default;

    // An index in [0, n), n > 0; 0 is the simplest.
    virtual std::uint64_t below(std::uint64_t n) = 0;
    // True with probability permille / 1000; false is the simplest.
    virtual bool chance(std::uint32_t permille) = 0;
    // A number in [lo, hi]; lo is the simplest.
    // chance() by an index of 1000: "yes" when it is at least 1000 - permille (0 is "no"). For
    // sources whose answers are indices (bytes, vectors, libFuzzer's provider).
    bool chance_by_index(std::uint32_t permille) {
        assert(permille <= 1000);
        return below(1000) >= 1000 - permille;
    }
    std::int64_t between(std::int64_t lo, std::int64_t hi) {
        assert(lo <= hi);
        const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        assert(span < UINT64_MAX);  // the builder never asks for the whole 64-bit range
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
    }
};

// The seeded PRNG: uniform answers (the population the campaign's shares were tuned on).
class PrngChoices final : public Choices {
public:
    explicit PrngChoices(Prng& rng) : rng_(rng) {}
    std::uint64_t below(std::uint64_t n) override { return rng_.below(n); }
    bool chance(std::uint32_t permille) override { return rng_.chance(permille); }

private:
    Prng& rng_;
};

// libFuzzer's bytes, read from the end as FuzzedDataProvider reads integers: as many bytes as the
// range needs, the answer their value modulo the range. An exhausted input answers 0, so short
// inputs build small desktops, and a mutated byte changes one answer.
class ByteChoices final : public Choices {
public:
    ByteChoices(const std::uint8_t* data, std::size_t size) : data_(data), left_(size) {}
    std::uint64_t below(std::uint64_t n) override {
        assert(n > 0);
        std::uint64_t value = 0;
        for (std::uint64_t range = n - 1; range != 0 && left_ != 0; range >>= 8) value = (value << 8) | data_[--left_];
        return value % n;
    }
    bool chance(std::uint32_t permille) override { return chance_by_index(permille); }
    std::size_t bytes_left() const { return left_; }

private:
    const std::uint8_t* data_;
    std::size_t left_;
};

// A vector of 32-bit numbers, one per answer: a number u answers below(n) with u * n / 2^32 (so a
// smaller number is never a later index, and uniform numbers give uniform answers), chance(p)
// with "yes" when that index of 1000 is at least 1000 - p. Past the end every answer is 0.
// `used()` says how many numbers the builder read.
class VectorChoices final : public Choices {
public:
    explicit VectorChoices(const std::vector<std::uint32_t>& values) : values_(values) {}
    std::uint64_t below(std::uint64_t n) override {
        assert(n > 0);
        const std::uint64_t u = next_value();
        if (n > (std::uint64_t{1} << 32)) return u % n;
        return (u * n) >> 32;
    }
    bool chance(std::uint32_t permille) override { return chance_by_index(permille); }
    std::size_t used() const { return used_; }

private:
    std::uint64_t next_value() {
        const std::size_t i = used_++;
        return i < values_.size() ? values_[i] : 0;
    }
    const std::vector<std::uint32_t>& values_;
    std::size_t used_ = 0;
};

// Wraps a source and writes down each answer as the number VectorChoices would answer the same
// with: replaying `recorded()` builds the same scenario; shrinking it builds simpler ones.
class RecordingChoices final : public Choices {
public:
    explicit RecordingChoices(Choices& inner) : inner_(inner) {}
    std::uint64_t below(std::uint64_t n) override {
        const std::uint64_t k = inner_.below(n);
        record(k, n);
        return k;
    }
    bool chance(std::uint32_t permille) override {
        const bool yes = inner_.chance(permille);
        record(yes ? 1000 - permille : 0, 1000);
        return yes;
    }
    const std::vector<std::uint32_t>& recorded() const { return recorded_; }

private:
    // The smallest u with u * n / 2^32 == k.
    void record(std::uint64_t k, std::uint64_t n) {
        if (n > (std::uint64_t{1} << 32)) {
            recorded_.push_back(static_cast<std::uint32_t>(k));
            return;
        }
        const std::uint64_t u = ((k << 32) + n - 1) / n;
        assert(u <= UINT32_MAX && ((u * n) >> 32) == k);
        recorded_.push_back(static_cast<std::uint32_t>(u));
    }
    Choices& inner_;
    std::vector<std::uint32_t> recorded_;
};

}  // namespace deskcheck::sim
