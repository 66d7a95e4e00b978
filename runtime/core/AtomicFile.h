//===- AtomicFile.h - Files written whole or not at all ---------*- C++ -*-===//
//
// The runtime's outputs (.npy results, profile reports) are written to a
// temporary file in the target's folder and renamed over the target once
// complete and synced, so that a failure or a crash never leaves a partial
// file under the name a reader looks for.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_ATOMICFILE_H
#define UTA_RUNTIME_CORE_ATOMICFILE_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>

namespace uta::runtime {

/// Writes the concatenation of `pieces` to `path` atomically; an
/// InvalidInput status naming `path` when the file cannot be written.
Status
writeFileAtomically(const std::string &path,
                    std::initializer_list<std::span<const std::byte>> pieces);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_ATOMICFILE_H
