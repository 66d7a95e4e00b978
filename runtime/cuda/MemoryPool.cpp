//===- MemoryPool.cpp - A caching pool of device allocations --------------===//

#include "runtime/cuda/MemoryPool.h"

#include <bit>
#include <cassert>

using namespace uta::runtime;
using namespace uta::runtime::cuda;

MemoryPool::MemoryPool(AllocateFn allocateFn, FreeFn freeFn)
    : allocateFn_(std::move(allocateFn)), freeFn_(std::move(freeFn)) {}

MemoryPool::~MemoryPool() {
  trimLocked();
  for (auto &[address, bucket] : live_)
    freeFn_(address);
}

uint64_t MemoryPool::bucketSize(uint64_t bytes) {
  if (bytes <= kMinBlock)
    return kMinBlock;
  uint64_t power = std::bit_ceil(bytes);
  uint64_t midpoint = power / 4 * 3;
  return bytes <= midpoint ? midpoint : power;
}

Expected<uint64_t> MemoryPool::allocate(uint64_t bytes) {
  uint64_t bucket = bucketSize(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = free_.find(bucket);
  if (it != free_.end() && !it->second.empty()) {
    uint64_t address = it->second.back();
    it->second.pop_back();
    live_[address] = bucket;
    ++stats_.hits;
    stats_.cachedBytes -= bucket;
    stats_.liveBytes += bucket;
    return address;
  }
  Expected<uint64_t> address = allocateFn_(bucket);
  if (!address && stats_.cachedBytes) {
    // Whatever the failure, cached blocks are the one thing we can give up.
    trimLocked();
    address = allocateFn_(bucket);
  }
  if (!address)
    return address.status();
  live_[*address] = bucket;
  ++stats_.misses;
  stats_.liveBytes += bucket;
  return *address;
}

void MemoryPool::release(uint64_t address) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(address);
  assert(it != live_.end() && "release of a block the pool did not hand out");
  if (it == live_.end())
    return;
  uint64_t bucket = it->second;
  live_.erase(it);
  free_[bucket].push_back(address);
  stats_.liveBytes -= bucket;
  stats_.cachedBytes += bucket;
}

void MemoryPool::trim() {
  std::lock_guard<std::mutex> lock(mutex_);
  trimLocked();
}

MemoryPool::Stats MemoryPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void MemoryPool::trimLocked() {
  for (auto &[bucket, blocks] : free_)
    for (uint64_t address : blocks)
      freeFn_(address);
  free_.clear();
  stats_.cachedBytes = 0;
}
