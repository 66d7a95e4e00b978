//===- MemoryLru.h - The in-process layer of the kernel cache ---*- C++ -*-===//
//
// A least-recently-used map from keys to entries, bounded by the entries'
// bytes. Not synchronised: KernelCache holds its mutex around every call.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CACHE_MEMORYLRU_H
#define UTA_RUNTIME_CACHE_MEMORYLRU_H

#include "runtime/cache/CacheEntry.h"
#include "runtime/cache/CacheKey.h"

#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>

namespace uta::runtime {

class MemoryLru {
public:
  explicit MemoryLru(uint64_t capacityBytes) : capacity_(capacityBytes) {}

  /// The entry, now the most recently used; null when absent.
  std::shared_ptr<const CacheEntry> get(const CacheKey &key);
  /// Inserts or replaces; returns how many other entries were dropped to
  /// stay within the capacity. An entry larger than the capacity is not kept.
  uint64_t put(const CacheKey &key, std::shared_ptr<const CacheEntry> entry);
  void erase(const CacheKey &key);
  void clear();

  uint64_t bytes() const { return bytes_; }
  uint64_t size() const { return order_.size(); }

private:
  struct Slot {
    CacheKey key;
    std::shared_ptr<const CacheEntry> entry;
    uint64_t bytes;
  };
  using Order = std::list<Slot>;

  void remove(Order::iterator it);

  uint64_t capacity_;
  uint64_t bytes_ = 0;
  /// Most recently used first.
  Order order_;
  std::unordered_map<CacheKey, Order::iterator, CacheKeyHash> index_;
};

} // namespace uta::runtime

#endif // UTA_RUNTIME_CACHE_MEMORYLRU_H
