// The graph that RuntimeTest.c loads through the runtime-only C API: utac
// compiles it to SPIR-V at build time (test/CAPI/CMakeLists.txt).
func.func @gelu_bias(%x: tensor<37x61xf32>, %b: tensor<61xf32>) -> tensor<37x61xf32> {
  %0 = uta.add %x, %b : (tensor<37x61xf32>, tensor<61xf32>) -> tensor<37x61xf32>
  %1 = uta.gelu %0 : tensor<37x61xf32>
  return %1 : tensor<37x61xf32>
}
