// RUN: uta-opt %s -pass-pipeline='builtin.module(gpu.module(uta-tensor-map-arguments))' -split-input-file -verify-diagnostics

// A tensor map must name a pointer argument of its kernel.
gpu.module @kernels {
  // expected-error@+1 {{has a tensor map #uta.tensor_map<argument = 1, source = 0, box = [64, 16]> that does not name one of its pointer arguments}}
  llvm.func @scalar(%x: !llvm.ptr, %n: i32) attributes {nvvm.kernel, uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [64, 16]>]} {
    llvm.return
  }
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{has a tensor map #uta.tensor_map<argument = 3, source = 0, box = [64, 16]> that does not name one of its pointer arguments}}
  llvm.func @missing(%x: !llvm.ptr) attributes {nvvm.kernel, uta.tensor_maps = [#uta.tensor_map<argument = 3, source = 0, box = [64, 16]>]} {
    llvm.return
  }
}
