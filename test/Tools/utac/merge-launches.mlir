// Two independent kernels in a row are one launch for CUDA: utac reports the
// merge with --remarks, counts both parts with --stats and writes one launch
// to the manifest. SPIR-V keeps its dispatches, and --uta-fusion=none keeps
// one kernel per op.
// RUN: utac %s --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: utac %s --stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: utac %s --compile-to=gpu | FileCheck %s --check-prefix=GPU
// RUN: utac %s --compile-to=gpu --uta-fusion=none | FileCheck %s --check-prefix=APART
// RUN: utac %s --target=spirv --compile-to=gpu | FileCheck %s --check-prefix=APART
// RUN: utac %s --target=spirv --remarks 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=NO-REMARK
// RUN: env UTA_CACHE_DIR=%t.cache utac %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t.ptx.json

// REMARK: merge-launches.mlir:[[@LINE+9]]:8: remark: kernel 'two_k1_tanh' runs in one launch with 'two_k0_exp': they share no written buffer
// NO-REMARK-NOT: runs in one launch

// STATS:      without fusion: 2 kernels
// STATS:      with fusion (default): 1 kernels
// STATS-NEXT:   two_k0_exp_k1_tanh 512 threads 8192 B read 8192 B written

func.func @two(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %0 = uta.exp %a : tensor<1024xf32>
  %1 = uta.tanh %b : tensor<1024xf32>
  return %0, %1 : tensor<1024xf32>, tensor<1024xf32>
}

// GPU:     gpu.launch_func @kernels::@two_k0_exp_k1_tanh
// The merged launch does the arithmetic of both: 8 operations per exp and
// 12 per tanh, 1024 each; each part's input may live in its result.
// GPU-SAME:  {uta.flops = {simt = 20480 : i64}, uta.in_place = array<i64: 0, 1, 3, 4>, uta.launch_parts = array<i32: 3, 3>}
// GPU-NOT: gpu.launch_func

// APART: gpu.launch_func @kernels::@two_k0_exp
// APART: gpu.launch_func @kernels::@two_k1_tanh

// MANIFEST:      "kernels": [
// MANIFEST:        "name": "two_k0_exp_k1_tanh",
// MANIFEST-NOT:    "name":
// MANIFEST:      "launches": [
// MANIFEST:        "kernel": "two_k0_exp_k1_tanh",
// MANIFEST-NOT:    "kernel":
