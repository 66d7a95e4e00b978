//===- LaunchCheck.h - A manifest's launches against the device -*- C++ -*-===//
//
// The backend-independent checks the executor makes before a module is
// loaded and before any launch: every grid and block size is at least 1 and
// within the device's maxima, a block's thread count and a launch's dynamic
// shared memory are within the device's, each kernel takes no more
// arguments than the device allows and binds no buffer larger than it
// allows, and the launches, kernels and buffers refer to each other
// consistently (which the manifest reader also checks, but a Manifest may be
// built in code). What only a backend can know (a kernel's own parameters,
// its static shared memory, its thread limit, a SPIR-V module's entry
// points and bindings) the backend checks at load.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_LAUNCHCHECK_H
#define UTA_RUNTIME_CORE_LAUNCHCHECK_H

#include "runtime/core/Backend.h"
#include "runtime/core/Manifest.h"
#include "runtime/core/Status.h"

namespace uta::runtime {

/// Checks `manifest` against `limits`. Errors are InvalidInput and name the
/// manifest and the key: "out.json: launches[1] (mul).block: [2048, 1, 1]
/// exceeds the device's maximum block [1024, 1024, 64]".
Status checkLaunches(const Manifest &manifest, const DeviceLimits &limits);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_LAUNCHCHECK_H
