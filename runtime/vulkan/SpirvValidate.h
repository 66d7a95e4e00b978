//===- SpirvValidate.h - SPIRV-Tools' validator on a module -----*- C++ -*-===//
//
// A SPIR-V module from a manifest is untrusted input, and drivers do not
// check what they are given: lavapipe dereferences past its tables for a
// header whose ID bound is 0xffffffff. So before vkCreateShaderModule sees
// a module, SPIRV-Tools' validator (linked as a library, no MLIR) checks it
// under the Vulkan 1.1 rules the backend asks of the device, which is also
// what utac validates its output against.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_VULKAN_SPIRVVALIDATE_H
#define UTA_RUNTIME_VULKAN_SPIRVVALIDATE_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <span>

namespace uta::runtime::vulkan {

/// Validates `image` for Vulkan 1.1 (SPIR-V 1.0 to 1.3). Fails with
/// InvalidInput, one line: "the SPIR-V validator rejects the module for
/// Vulkan 1.1: <what> (at word N)".
Status validateSpirv(std::span<const std::byte> image);

} // namespace uta::runtime::vulkan

#endif // UTA_RUNTIME_VULKAN_SPIRVVALIDATE_H
