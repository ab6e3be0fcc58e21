#include "cli/alloc_count.h"

#include <atomic>
#include <cstdlib>
#include <new>

#include <malloc.h>

#if defined(__SANITIZE_ADDRESS__)
#define DESKCHECK_NO_ALLOC_COUNT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define DESKCHECK_NO_ALLOC_COUNT 1
#endif
#endif

namespace deskcheck::cli::alloc {
namespace {

std::atomic<bool> counting{false};
std::atomic<std::int64_t> live{0};
std::atomic<std::int64_t> peak{0};

}  // namespace

// Called by the operators below, outside the namespace's anonymous part.
void note(std::int64_t bytes) {
    const std::int64_t now = live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::int64_t seen = peak.load(std::memory_order_relaxed);
    while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {}
}
bool on() { return counting.load(std::memory_order_relaxed); }

#ifdef DESKCHECK_NO_ALLOC_COUNT
bool available() { return false; }
#else
bool available() { return true; }
#endif

void start() {
    live.store(0);
    peak.store(0);
    counting.store(true);
}

std::int64_t stop() {
    counting.store(false);
    return peak.load();
}

}  // namespace deskcheck::cli::alloc

#ifndef DESKCHECK_NO_ALLOC_COUNT

namespace {

void* allocate(std::size_t n) {
    void* p = std::malloc(n == 0 ? 1 : n);
    if (p == nullptr) throw std::bad_alloc();
    if (deskcheck::cli::alloc::on()) deskcheck::cli::alloc::note(static_cast<std::int64_t>(malloc_usable_size(p)));
    return p;
}

void release(void* p) noexcept {
    if (p == nullptr) return;
    if (deskcheck::cli::alloc::on()) deskcheck::cli::alloc::note(-static_cast<std::int64_t>(malloc_usable_size(p)));
    std::free(p);
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }

#endif
