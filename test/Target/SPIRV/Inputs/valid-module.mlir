spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @with_size() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @with_size
  spirv.ExecutionMode @with_size "LocalSize", 256, 1, 1
}
