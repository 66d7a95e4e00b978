//===- MemoryPool.h - A caching pool of device allocations ------*- C++ -*-===//
//
// Driver allocations are slow (cuMemAlloc synchronizes and can take tens of
// microseconds to milliseconds), and a graph run allocates the same sizes
// again and again. The pool rounds each request up to a size bucket and
// keeps released blocks in a free list per bucket, so a repeated run
// allocates nothing. Buckets are the powers of two and the midpoints 3/4 of
// the way up to them (256, 384, 512, 768, 1024, ...), so at most a third of
// a block is unused. When the device is out of memory, the cached blocks are
// freed and the allocation is tried once more.
//
// The pool knows nothing of CUDA: it calls the two functions it is given,
// which keeps it testable without a GPU.
//
// Thread-safe: one mutex guards the free lists, the live blocks and the
// counters (the allocate and free functions run under it too, so they need
// no locking of their own).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CUDA_MEMORYPOOL_H
#define UTA_RUNTIME_CUDA_MEMORYPOOL_H

#include "runtime/core/Status.h"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace uta::runtime::cuda {

class MemoryPool {
public:
  /// Allocates exactly `bytes` bytes, returning an address.
  using AllocateFn = std::function<Expected<uint64_t>(uint64_t bytes)>;
  /// Frees an address that AllocateFn returned.
  using FreeFn = std::function<void(uint64_t address)>;

  /// The smallest bucket.
  static constexpr uint64_t kMinBlock = 256;

  MemoryPool(AllocateFn allocateFn, FreeFn freeFn);
  /// Frees the cached blocks and any block still handed out.
  ~MemoryPool();
  MemoryPool(const MemoryPool &) = delete;
  MemoryPool &operator=(const MemoryPool &) = delete;

  /// The bucket a request of `bytes` bytes is served from.
  static uint64_t bucketSize(uint64_t bytes);

  /// A block of at least `bytes` bytes.
  Expected<uint64_t> allocate(uint64_t bytes);
  /// Puts a block from allocate() back on its free list.
  void release(uint64_t address);
  /// Frees every cached (released) block.
  void trim();

  struct Stats {
    /// Requests served from a free list / by a new allocation.
    uint64_t hits = 0, misses = 0;
    /// Bytes in blocks handed out / waiting on free lists.
    uint64_t liveBytes = 0, cachedBytes = 0;
  };
  /// A snapshot of the counters.
  Stats stats() const;

private:
  /// trim() with the mutex held.
  void trimLocked();

  AllocateFn allocateFn_;
  FreeFn freeFn_;
  mutable std::mutex mutex_;
  // Everything below is guarded by mutex_.
  /// Bucket size -> released blocks of that size.
  std::map<uint64_t, std::vector<uint64_t>> free_;
  /// Block handed out -> its bucket size.
  std::unordered_map<uint64_t, uint64_t> live_;
  Stats stats_;
};

} // namespace uta::runtime::cuda

#endif // UTA_RUNTIME_CUDA_MEMORYPOOL_H
