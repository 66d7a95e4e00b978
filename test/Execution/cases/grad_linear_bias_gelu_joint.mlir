// gpu-check-grad: joint
// linear + bias + GELU with its gradients in one graph (results first).
func.func @lbg(%x: tensor<96x200xf32>, %w: tensor<200x72xf32>, %b: tensor<72xf32>) -> tensor<96x72xf32> {
  %m = uta.matmul %x, %w : (tensor<96x200xf32>, tensor<200x72xf32>) -> tensor<96x72xf32>
  %a = uta.add %m, %b : (tensor<96x72xf32>, tensor<72xf32>) -> tensor<96x72xf32>
  %g = uta.gelu %a : tensor<96x72xf32>
  return %g : tensor<96x72xf32>
}
