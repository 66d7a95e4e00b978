// RUN: uta-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{a tensor map's box extents are 1 to 256, not 0}}
func.func @zero_extent() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [0, 16]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map's box extents are 1 to 256, not 257}}
func.func @too_long() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [257]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map's box has 1 to 5 dimensions, not 6}}
func.func @too_many_dimensions() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [1, 1, 1, 1, 1, 16]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map cannot describe its own argument 2}}
func.func @itself() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 2, source = 2, box = [16]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map's swizzle is 0, 32, 64 or 128 bytes, not 48}}
func.func @bad_swizzle() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [16], swizzle = 48>]} {
  return
}
