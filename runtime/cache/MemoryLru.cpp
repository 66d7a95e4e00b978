//===- MemoryLru.cpp - The in-process layer of the kernel cache -----------===//
//
// A list in use order plus an index into it: O(1) get, put and eviction.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/MemoryLru.h"

using namespace uta::runtime;

std::shared_ptr<const CacheEntry> MemoryLru::get(const CacheKey &key) {
  auto it = index_.find(key);
  if (it == index_.end())
    return nullptr;
  order_.splice(order_.begin(), order_, it->second);
  return it->second->entry;
}

uint64_t MemoryLru::put(const CacheKey &key,
                        std::shared_ptr<const CacheEntry> entry) {
  erase(key);
  // The key is part of the cost, so that many empty entries stay bounded.
  uint64_t bytes = entry->payloadBytes() + CacheKey::kNumBytes;
  if (bytes > capacity_)
    return 0;
  uint64_t dropped = 0;
  while (bytes_ + bytes > capacity_) {
    remove(std::prev(order_.end()));
    ++dropped;
  }
  order_.push_front(Slot{key, std::move(entry), bytes});
  index_.emplace(key, order_.begin());
  bytes_ += bytes;
  return dropped;
}

void MemoryLru::erase(const CacheKey &key) {
  auto it = index_.find(key);
  if (it != index_.end())
    remove(it->second);
}

void MemoryLru::clear() {
  index_.clear();
  order_.clear();
  bytes_ = 0;
}

void MemoryLru::remove(Order::iterator it) {
  bytes_ -= it->bytes;
  index_.erase(it->key);
  order_.erase(it);
}
