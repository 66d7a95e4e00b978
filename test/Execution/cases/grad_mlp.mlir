// gpu-check-grad: vjp
// A two-layer MLP block: linear + bias + GELU, layer norm, a second linear
// layer with a batch of inputs against one weight, softmax; two results, and
// %h used twice (its cotangents are summed).
func.func @mlp(%x: tensor<2x4x8xf32>, %w1: tensor<8x6xf32>, %b1: tensor<6xf32>,
               %lw: tensor<6xf32>, %lb: tensor<6xf32>, %w2: tensor<5x6xf32>)
    -> (tensor<2x4x5xf32>, tensor<2x4x6xf32>) {
  %m = uta.matmul %x, %w1 : (tensor<2x4x8xf32>, tensor<8x6xf32>) -> tensor<2x4x6xf32>
  %a = uta.add %m, %b1 : (tensor<2x4x6xf32>, tensor<6xf32>) -> tensor<2x4x6xf32>
  %h = uta.gelu %a : tensor<2x4x6xf32>
  %n = uta.layer_norm %h, %lw, %lb axis 2
      : (tensor<2x4x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x4x6xf32>
  %r = uta.add %n, %h : (tensor<2x4x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %o = uta.matmul %r, %w2 {transpose_b = true}
      : (tensor<2x4x6xf32>, tensor<5x6xf32>) -> tensor<2x4x5xf32>
  %s = uta.softmax %o dim 2 : tensor<2x4x5xf32>
  return %s, %h : tensor<2x4x5xf32>, tensor<2x4x6xf32>
}
