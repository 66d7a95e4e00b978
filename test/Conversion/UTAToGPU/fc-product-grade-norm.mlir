// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 allow-tf32=true" -canonicalize -cse 2>&1 | FileCheck %s --check-prefix=SM90

// A grade_rms_norm that alone reads fc_product's result is applied by
// fc_product's warp-specialised kernel (sm_90a, K-major weights): one
// launch. Its counters (a ticket, then one per row tile and grade: 1 + 2 *
// 3 words) are zeroed right before it; its blocks' row sums ([4 blades][2
// column tiles][200 rows]) are not.
// REMARK: remark: grade_rms_norm in the epilogue of fc_product ({{.*}}warp-specialised{{.*}}): its blocks exchange per-row sums of squares
// CHECK-LABEL: func.func @fc_norm(
//       CHECK:   %[[RESULT:.*]] = memref.alloc() : memref<4x200x256xf32>
//  CHECK-NEXT:   %[[COUNTERS:.*]] = memref.alloc() : memref<7xf32>
//  CHECK-NEXT:   gpu.memset %[[COUNTERS]], %{{.*}} : memref<7xf32>, f32
//  CHECK-NEXT:   %[[SUMS:.*]] = memref.alloc() : memref<1600xf32>
//  CHECK-NEXT:   gpu.launch_func @kernels::@fc_norm_k0_fc_product {{.*}} args({{.*}}, %[[RESULT]] : memref<4x200x256xf32>, %{{.*}} : i32, %[[COUNTERS]] : memref<7xf32>, %[[SUMS]] : memref<1600xf32>,
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   return %[[RESULT]]
// Each block takes a ticket, its place in the block order.
// CHECK-LABEL: gpu.func @fc_norm_k0_fc_product(
//       CHECK:   %[[EPSILON:.*]] = arith.constant 5.000000e-01 : f32
//       CHECK:   llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr, i32
//  CHECK-NEXT:   memref.store
//       CHECK:   gpu.barrier
// In the epilogue: a release fence and the count by one thread, its wait
// for the group (acquire loads), the group's sums from L2, then the rows
// multiplied by 1 / sqrt(sum / 256 + epsilon) as they are stored.
//       CHECK:   llvm.fence syncscope("device") release
//  CHECK-NEXT:   llvm.atomicrmw add %[[COUNTER:.*]], %{{.*}} syncscope("device") monotonic
// The wait polls at most 2^25 times, then traps: a group that cannot
// complete ends the kernel with an error rather than a hang.
//       CHECK:   %[[WAIT:.*]]:2 = scf.while (%[[POLLS:.*]] = %{{.*}}) : (i32) -> (i32, i32) {
//  CHECK-NEXT:     %[[ARRIVED:.*]] = llvm.load %[[COUNTER]] atomic syncscope("device") acquire
//  CHECK-NEXT:     %[[INCOMPLETE:.*]] = arith.cmpi ult, %[[ARRIVED]], %[[GROUP:.*]] : i32
//  CHECK-NEXT:     %[[PATIENT:.*]] = arith.cmpi ult, %[[POLLS]], %c33554432_i32 : i32
//  CHECK-NEXT:     %[[GO_ON:.*]] = arith.andi %[[INCOMPLETE]], %[[PATIENT]] : i1
//  CHECK-NEXT:     scf.condition(%[[GO_ON]]) %[[POLLS]], %[[ARRIVED]] : i32, i32
//       CHECK:   %[[NEVER:.*]] = arith.cmpi ult, %[[WAIT]]#1, %[[GROUP]] : i32
//  CHECK-NEXT:   scf.if %[[NEVER]] {
//  CHECK-NEXT:     llvm.intr.trap
//       CHECK:   llvm.load %{{.*}} atomic syncscope("device") monotonic {{.*}} -> f32
//       CHECK:   %[[MEAN:.*]] = arith.divf %{{.*}}, %cst{{.*}} : f32
//  CHECK-NEXT:   %[[SHIFTED:.*]] = arith.addf %[[MEAN]], %[[EPSILON]] : f32
//  CHECK-NEXT:   %[[NORM:.*]] = math.sqrt %[[SHIFTED]] : f32
//  CHECK-NEXT:   arith.divf %{{.*}}, %[[NORM]] : f32
//       CHECK:   vector.load
//  CHECK-NEXT:   memref.load
//  CHECK-NEXT:   vector.broadcast
//  CHECK-NEXT:   arith.mulf
// CHECK-NOT: gpu.func @fc_norm_k1
// sm_90 has no warp-specialised schedule: the norm is a kernel of its own.
// SM90-LABEL: func.func @fc_norm(
//   SM90-NOT:   gpu.memset
//       SM90:   gpu.launch_func @kernels::@fc_norm_k0_fc_product
//       SM90:   gpu.launch_func @kernels::@fc_norm_k1_grade_rms_norm
func.func @fc_norm(%x: tensor<4x200x32xf32>, %y: tensor<4x200x32xf32>, %w: tensor<10x256x32xf32>) -> tensor<4x200x256xf32> {
  %p = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<4x200x32xf32>, tensor<4x200x32xf32>, tensor<10x256x32xf32>) -> tensor<4x200x256xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p {epsilon = 5.0e-01 : f32} : tensor<4x200x256xf32>
  return %n : tensor<4x200x256xf32>
}

// -----

// Blocks wait only on a group of at most 16: Fout 1536 makes 12 column
// tiles of 128, 36 blocks for a vector grade of Cl(3,0).
// REMARK: remark: grade_rms_norm runs as a kernel of its own, not in fc_product's epilogue: grade 1 spans 36 blocks of a row tile, more than the 16 that wait on each other
// CHECK-LABEL: func.func @fc_norm_wide(
//   CHECK-NOT:   gpu.memset
//       CHECK:   gpu.launch_func @kernels::@fc_norm_wide_k0_fc_product
//       CHECK:   gpu.launch_func @kernels::@fc_norm_wide_k1_grade_rms_norm
func.func @fc_norm_wide(%x: tensor<8x128x32xf32>, %y: tensor<8x128x32xf32>, %w: tensor<20x1536x32xf32>) -> tensor<8x128x1536xf32> {
  %p = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x128x32xf32>, tensor<8x128x32xf32>, tensor<20x1536x32xf32>) -> tensor<8x128x1536xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x128x1536xf32>
  return %n : tensor<8x128x1536xf32>
}

// -----

// The product is read by the norm and returned: it is stored as it is,
// and the norm is a kernel of its own.
// CHECK-LABEL: func.func @fc_norm_shared(
//   CHECK-NOT:   gpu.memset
//       CHECK:   gpu.launch_func @kernels::@fc_norm_shared_k0_fc_product
//       CHECK:   gpu.launch_func @kernels::@fc_norm_shared_k1_grade_rms_norm
func.func @fc_norm_shared(%x: tensor<4x200x32xf32>, %y: tensor<4x200x32xf32>, %w: tensor<10x256x32xf32>) -> (tensor<4x200x256xf32>, tensor<4x200x256xf32>) {
  %p = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<4x200x32xf32>, tensor<4x200x32xf32>, tensor<10x256x32xf32>) -> tensor<4x200x256xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x200x256xf32>
  return %p, %n : tensor<4x200x256xf32>, tensor<4x200x256xf32>
}
