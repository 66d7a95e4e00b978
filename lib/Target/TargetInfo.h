//===- TargetInfo.h - What differs between the kernel targets ---*- C++ -*-===//
//
// The compiler reaches PTX, SPIR-V and MSL down one road (docs/phases.md);
// where the targets differ (the last phase, how the target module is read
// out of the lowered program, what the manifest adds to each kernel argument,
// what --compile-to prints) is behind this small interface, one
// implementation per target in lib/Target/{CUDA,SPIRV,Metal}, so the driver
// and the compiler library hold no per-target conditionals.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_TARGET_TARGETINFO_H
#define UTA_LIB_TARGET_TARGETINFO_H

#include "lib/Target/Phase.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir::uta {

/// What `utac --target=` names.
enum class Target { Ptx, Spirv, Msl };

/// The target called `name` (`ptx`, `spirv`, `msl`).
std::optional<Target> parseTarget(llvm::StringRef name);
llvm::StringRef getTargetName(Target target);

/// The target whose module the phase `phase` is (ptx, spirv, msl); nullopt
/// for the phases before.
std::optional<Target> getTargetOfPhase(Phase phase);

/// Where one kernel argument goes in a target's resource interface, beyond
/// its position: what the manifest adds to the argument (docs/manifest.md).
struct KernelArgSlot {
  /// SPIR-V: descriptor set and binding.
  std::optional<std::pair<uint32_t, uint32_t>> binding;
  /// MSL: the [[buffer(N)]] index.
  std::optional<uint32_t> bufferIndex;
};

/// A kernel as the target module knows it.
struct TargetKernel {
  /// The symbol in the module (PTX .entry, SPIR-V entry point, Metal
  /// function).
  std::string entryPoint;
  /// One per gpu.func argument, in order.
  llvm::SmallVector<KernelArgSlot> args;
};

/// The target module read out of a lowered program.
struct TargetModule {
  /// The bytes of the module file (PTX text, SPIR-V words, Metal source).
  std::string image;
  /// By gpu.func name; a kernel missing here keeps its own name and adds
  /// nothing to its arguments.
  llvm::StringMap<TargetKernel> kernels;
};

class TargetInfo {
public:
  virtual ~TargetInfo();

  virtual Target getTarget() const = 0;
  /// The phase after which emitModule reads the program.
  virtual Phase getFinalPhase() const = 0;
  /// Whether the manifest names the CUDA architecture (`sm`).
  virtual bool namesSM() const { return false; }
  /// The target module of `module`, which went through getFinalPhase().
  /// Errors are emitted at the op concerned.
  virtual FailureOr<TargetModule> emitModule(ModuleOp module) const = 0;
  /// What `--compile-to` prints of an emitted module: PTX and MSL as they
  /// are, SPIR-V disassembled.
  virtual FailureOr<std::string> printModule(ModuleOp module,
                                             const TargetModule &emitted) const;
};

/// The one TargetInfo of `target`.
const TargetInfo &getTargetInfo(Target target);

} // namespace mlir::uta

#endif // UTA_LIB_TARGET_TARGETINFO_H
