// Every gpu.barrier of the gpu phase is reached by all threads of its block:
// kernels with barriers (grade_rms_norm, alone or ending a fused Flash
// Clifford layer) have no range guard and put each barrier at the top level
// of the kernel body, never inside an scf.if or scf.for, where a
// thread-dependent condition would leave part of the block out (undefined
// behaviour on CUDA, a deadlock risk). Checked with and without
// vectorization, for features held in registers (one round, or a partial
// second round) and read twice (loops).
//
// The nesting is checked without counting spaces. A printed line that opens
// a region ends in `{` (`} else {` too), and a lone `}` closes one. From a
// kernel's label to its gpu.return, every such line is matched by a check,
// and every gap between two checks is guarded by a negative check of
// {{\{$|^ *\}$|gpu.barrier}}, so no region (an scf.for around a barrier,
// say) and no barrier goes unlisted. No listed region opens another, so the
// first lone `}` after its opening line closes it, and a barrier right after
// that `}` (CHECK-NEXT), or in a gap between closed regions, is at the
// kernel's top level. The count of barriers follows from the list.
// RUN: utac %s --compile-to=gpu > %t.vec
// RUN: utac %s --compile-to=gpu --uta-vectorize=off > %t.scalar
// RUN: FileCheck %s --input-file=%t.vec
// RUN: FileCheck %s --input-file=%t.scalar

// SGP, F = 512: 256 threads per block, 2 features each; a barrier after
// the stores, then one per halving (an scf.if of the threads that fold,
// closed before the barrier): 1 + 8.
// CHECK-LABEL: gpu.func @sgp_k0_grade_rms_norm({{.*}}
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: gpu.return
func.func @sgp(%x: tensor<8x3x512xf32>, %y: tensor<8x3x512xf32>,
               %w: tensor<512x20xf32>) -> tensor<8x3x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x3x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x3x512xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x3x512xf32>, tensor<8x3x512xf32>, tensor<512x20xf32>) -> tensor<8x3x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x3x512xf32>
  return %n : tensor<8x3x512xf32>
}

// F = 61: 64 threads, those past the features hold zeros (an scf.if that
// yields them, closed before the first barrier): 1 + 6 barriers, then the
// guarded stores.
// CHECK-LABEL: gpu.func @odd_k0_grade_rms_norm({{.*}}
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} -> ({{.*}}) {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: } else {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: gpu.return
func.func @odd(%x: tensor<8x3x61xf32>) -> tensor<8x3x61xf32> {
  %n = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x3x61xf32>
  return %n : tensor<8x3x61xf32>
}

// F = 4100: 256 threads striding over the features in loops (closed
// before the first barrier, opened again after the last): 1 + 8.
// CHECK-LABEL: gpu.func @wide_k0_grade_rms_norm({{.*}}
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.for {{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.if %{{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//  CHECK-NEXT: gpu.barrier
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: scf.for {{.*}} {
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: {{^ *\}$}}
//   CHECK-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       CHECK: gpu.return
func.func @wide(%x: tensor<8x3x4100xf32>) -> tensor<8x3x4100xf32> {
  %n = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x3x4100xf32>
  return %n : tensor<8x3x4100xf32>
}
