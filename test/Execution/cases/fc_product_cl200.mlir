func.func @fc_product_cl200(%x: tensor<4x67x31xf32>, %y: tensor<4x67x31xf32>, %w: tensor<10x31x17xf32>) -> tensor<4x67x17xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x67x31xf32>, tensor<4x67x31xf32>, tensor<10x31x17xf32>) -> tensor<4x67x17xf32>
  return %r : tensor<4x67x17xf32>
}
