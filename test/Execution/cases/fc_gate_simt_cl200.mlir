// gpu-check: --sm=90a --uta-gemm-config=fcwgmma64x128x32
// A gated fc_product whose named tile is of the schedule that forms A in
// shared memory, which does not read a gate: it runs tiled on the SIMT
// cores instead, each staged pair product scaled by its gate.
func.func @fc_gate_simt_cl200(%x: tensor<4x70x24xf32>, %y: tensor<4x70x24xf32>, %w: tensor<10x24x40xf32>, %g: tensor<70x24xf32>) -> tensor<4x70x40xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w gate %g : (tensor<4x70x24xf32>, tensor<4x70x24xf32>, tensor<10x24x40xf32>, tensor<70x24xf32>) -> tensor<4x70x40xf32>
  return %r : tensor<4x70x40xf32>
}
