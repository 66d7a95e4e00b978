//===- Pipelines.h - The compilation phases of UTA --------------*- C++ -*-===//
//
// The compiler's phases (docs/phases.md) as pass pipelines, shared by utac,
// uta-opt and the JIT. Each phase's pipeline runs every earlier phase first,
// so that `uta-opt --uta-lower-to-X-pipeline` replays `utac --compile-to=X`.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_PIPELINES_PIPELINES_H
#define UTA_LIB_PIPELINES_PIPELINES_H

#include "lib/Target/Phase.h"

#include "mlir/Pass/PassOptions.h"

#include <optional>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::uta {

struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<std::string> sm{*this, "sm",
                         llvm::cl::desc("CUDA architecture: 80, 86, 89, 90 "
                                        "or 90a"),
                         llvm::cl::init("90")};
  Option<std::string> fusion{
      *this, "fusion",
      llvm::cl::desc("Fusion policy: default, or none (one kernel per op)"),
      llvm::cl::init("default")};
  Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Report each fusion decision as a remark at the "
                     "producer"),
      llvm::cl::init(false)};
  Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Vectorize global memory accesses (128-bit loads and "
                     "stores where alignment and shapes allow)"),
      llvm::cl::init(true)};
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Matmuls on tensor cores (mma.sync, CUDA sm_80 and up); "
                     "false, the spirv pipeline and utac's --target=spirv "
                     "or msl use the tiled SIMT GEMM"),
      llvm::cl::init(true)};
  Option<bool> splitK{
      *this, "split-k",
      llvm::cl::desc("On CUDA with tensor cores, split long-K GEMMs whose "
                     "grid leaves SMs idle into partial products over runs "
                     "of K, summed in order (uta-split-k)"),
      llvm::cl::init(true)};
  Option<bool> mergeLaunches{
      *this, "merge-launches",
      llvm::cl::desc("Run independent simple kernels launched in a row as "
                     "one grid (CUDA; uta-merge-independent-launches); "
                     "utac sets it for --target=ptx only"),
      llvm::cl::init(true)};
  Option<bool> allowTf32{
      *this, "allow-tf32",
      llvm::cl::desc("f32 matmuls in plain TF32 on tensor cores (about 1e-3 "
                     "relative error) instead of 3xTF32 (f32 accuracy)"),
      llvm::cl::init(false)};
  Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("exp, log and tanh as approximate instructions (PTX), "
                     "RelaxedPrecision transcendentals (SPIR-V); f32 results "
                     "within the fast-math tolerance of docs/runtime.md"),
      llvm::cl::init(false)};
  Option<std::string> gemmConfig{
      *this, "gemm-config",
      llvm::cl::desc("GEMM table row to use wherever it applies instead of "
                     "the heuristic's choice (docs/gemm.md)"),
      llvm::cl::init("")};
  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("Threads per block"),
                             llvm::cl::init(256)};
  Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc("CUDA toolkit holding libdevice (default: $CUDA_HOME, "
                     "else /usr/local/cuda)"),
      llvm::cl::init("")};
};

/// The CUDA architectures --sm accepts.
bool isSupportedSM(llvm::StringRef sm);

/// The CUDA toolkit `options` name, or $CUDA_HOME, or /usr/local/cuda.
std::string getCudaToolkitPath(const PipelineOptions &options);

/// Adds the passes of every phase up to and including `last`.
void buildPipeline(OpPassManager &pm, Phase last,
                   const PipelineOptions &options);

/// Registers one uta-opt pipeline per phase (uta-simplify-pipeline,
/// uta-fuse-pipeline, uta-lower-to-gpu-pipeline, uta-lower-to-llvm-pipeline,
/// uta-lower-to-ptx-pipeline, uta-lower-to-spirv-pipeline) and the passes of
/// the target phases that live in lib/Target.
void registerPipelines();

} // namespace mlir::uta

#endif // UTA_LIB_PIPELINES_PIPELINES_H
