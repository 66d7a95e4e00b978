// utac --remarks prints the fusion decisions of the graph as located remarks
// on stderr, alone or with another action, and not without the flag.
// RUN: utac %s --remarks 2>&1 >/dev/null | FileCheck %s
// RUN: utac %s --compile-to=fused --remarks 2>&1 >/dev/null | FileCheck %s
// RUN: utac %s --compile-to=fused 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: remark:

// The exp feeds two consumers of one kernel, which recomputes it for each
// (one remark, at the first that takes it); the mul is read once by the add.
// CHECK-DAG: fuse-kernels-remarks-utac.mlir:[[@LINE+2]]:8: remark: fused into 'uta.add': it has 2 consumers, and computing it 2 times
func.func @graph(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = uta.exp %a : tensor<64xf32>
  // CHECK-DAG: fuse-kernels-remarks-utac.mlir:[[@LINE+1]]:8: remark: fused into 'uta.add': its consumer reads each element once
  %1 = uta.mul %0, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %2 = uta.add %1, %0 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %2 : tensor<64xf32>
}
