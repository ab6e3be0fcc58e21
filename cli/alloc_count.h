// The heap bytes the process holds, counted by the CLI's replacement of the global operator new and
// delete (cli/alloc_count.cpp) while counting is on: `bench --scaling` reads a run's peak from it.
// Off, the count costs one relaxed load per allocation. Under a sanitizer the replacement is left
// out (the sanitizer's allocator stays) and `available()` says so.
#pragma once

#include <cstdint>

namespace deskcheck::cli::alloc {

bool available();
// Starts counting from zero (bytes freed that were allocated before are not subtracted).
void start();
// Stops counting; the peak of live bytes allocated since start().
std::int64_t stop();

}  // namespace deskcheck::cli::alloc
