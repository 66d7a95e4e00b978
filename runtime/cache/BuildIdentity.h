//===- BuildIdentity.h - The compiler's identity for cache keys -*- C++ -*-===//
//
// A compiler's build identity is a hash of the bytes of the executable or
// shared object that holds its code. Any rebuild that changes the code
// changes the identity, so stale kernels from an older compiler never load;
// no version string has to be kept by hand.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CACHE_BUILDIDENTITY_H
#define UTA_RUNTIME_CACHE_BUILDIDENTITY_H

#include "runtime/core/Status.h"

#include <string>

namespace uta::runtime {

/// The file of the executable or shared object whose mapping holds `address`
/// (a function of that object): dladdr's file name for a shared object,
/// /proc/self/exe for the main program.
Expected<std::string> objectPathOf(const void *address);

/// XXH3-128 (32 hex digits) of the bytes of objectPathOf(address). Hashed
/// once per file per process; later calls return the remembered value.
Expected<std::string> buildIdentityOf(const void *address);

/// buildIdentityOf a function of this library, i.e. of whatever executable or
/// shared object UTAKernelCache is linked into (the compiler, for utac).
Expected<std::string> buildIdentity();

} // namespace uta::runtime

#endif // UTA_RUNTIME_CACHE_BUILDIDENTITY_H
