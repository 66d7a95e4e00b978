// A kernel of two results (fc_product_pair_adjoints) launched as one grid
// with an independent kernel: the launch records each part's result buffer
// count, so that --stats and the manifest count both of the first part's
// results as written and its three inputs as read. Cl(2,0), pairs
// [14, 64, 32] f32 (114688 bytes), x and y [4, 64, 32] (32768 each); the
// exp reads and writes 4096 bytes.
// RUN: utac %s --stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: utac %s --compile-to=gpu | FileCheck %s --check-prefix=GPU
// RUN: env UTA_CACHE_DIR=%t.cache utac %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t.ptx.json

// STATS:      with fusion (default): 1 kernels
// STATS-NEXT:   both_k0_fc_product_pair_adjoints_k1_exp {{[0-9]+}} threads 184320 B read 69632 B written

// GPU:       gpu.launch_func @kernels::@both_k0_fc_product_pair_adjoints_k1_exp
// GPU-SAME:    uta.launch_parts = array<i32: 6, 3>, uta.launch_results = array<i32: 2, 1>

// MANIFEST:      "kernel": "both_k0_fc_product_pair_adjoints_k1_exp",
// MANIFEST:        "bytes_read": 184320,
// MANIFEST-NEXT:   "bytes_written": 69632

func.func @both(%t: tensor<14x64x32xf32>, %x: tensor<4x64x32xf32>, %y: tensor<4x64x32xf32>, %a: tensor<1024xf32>) -> (tensor<4x64x32xf32>, tensor<4x64x32xf32>, tensor<1024xf32>) {
  %dx, %dy = clifford.fc_product_pair_adjoints <2, 0, 0> %t, %x, %y : (tensor<14x64x32xf32>, tensor<4x64x32xf32>, tensor<4x64x32xf32>) -> (tensor<4x64x32xf32>, tensor<4x64x32xf32>)
  %e = uta.exp %a : tensor<1024xf32>
  return %dx, %dy, %e : tensor<4x64x32xf32>, tensor<4x64x32xf32>, tensor<1024xf32>
}
