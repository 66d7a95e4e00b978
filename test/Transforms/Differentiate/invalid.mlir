// Every error of uta-differentiate, located: at the function for its
// arguments, results, body and name, at the op that has no VJP rule, at the
// module for the choice of function. The cases that need options are parts
// of their own (split-file), run with those options.
// RUN: rm -rf %t && split-file %s %t
// RUN: uta-opt %t/errors.mlir -split-input-file --uta-differentiate -verify-diagnostics -o /dev/null
// RUN: uta-opt %t/wrt-out-of-range.mlir --uta-differentiate=wrt=0,2 -verify-diagnostics -o /dev/null
// RUN: uta-opt %t/wrt-repeated.mlir --uta-differentiate=wrt=1,0,1 -verify-diagnostics -o /dev/null
// RUN: uta-opt %t/wrt-integer.mlir --uta-differentiate=wrt=1 -verify-diagnostics -o /dev/null
// RUN: uta-opt %t/joint-name-taken.mlir --uta-differentiate=joint=true -verify-diagnostics -o /dev/null
// RUN: uta-opt %t/function-missing.mlir --uta-differentiate=function=g -verify-diagnostics -o /dev/null
// An integer argument left out of wrt is no error: it has no gradient.
// RUN: uta-opt %t/integer-left-out.mlir --uta-differentiate=wrt=0 | FileCheck %s --check-prefix=LEFT-OUT

//--- errors.mlir

// An integer tensor argument is legal in a function, but not differentiable
// (the default wrt takes every argument).
// expected-error@+1 {{cannot differentiate with respect to argument #1 of type 'tensor<4xi32>': not a floating-point tensor}}
func.func @integer_argument(%x: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<4xf32> {
  %0 = uta.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Partial weight gradients over runs of the batch are what uta-split-k
// makes after differentiation: they have no VJP rule.
func.func @weight_gradient_runs(%g: tensor<4x8x3xf32>, %x: tensor<4x8x2xf32>) -> tensor<2x10x2x3xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op with batch_runs 2 (partial gradients, made after differentiation) has no VJP}}
  %r = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x {batch_runs = 2} : (tensor<4x8x3xf32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>) -> tensor<2x10x2x3xf32>
  return %r : tensor<2x10x2x3xf32>
}

// -----

// A scalar is not a tensor.
// expected-error@+1 {{cannot differentiate with respect to argument #0 of type 'f32': not a floating-point tensor}}
func.func @scalar_argument(%s: f32, %x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Nor is an unranked tensor.
// expected-error@+1 {{cannot differentiate with respect to argument #1 of type 'tensor<*xf32>': not a floating-point tensor}}
func.func @unranked_argument(%x: tensor<4xf32>, %u: tensor<*xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error@+1 {{cannot differentiate @no_results: it has no results}}
func.func @no_results(%x: tensor<4xf32>) {
  return
}

// -----

// Every result must be a floating-point tensor too.
// expected-error@+1 {{cannot differentiate @integer_result: result #1 has type 'tensor<4xi32>', not a floating-point tensor}}
func.func @integer_result(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %n = arith.constant dense<1> : tensor<4xi32>
  return %x, %n : tensor<4xf32>, tensor<4xi32>
}

// -----

// expected-error@+1 {{cannot differentiate @two_blocks: its body must be one block}}
func.func @two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1(%x : tensor<4xf32>)
^bb1(%y: tensor<4xf32>):
  return %y : tensor<4xf32>
}

// -----

// The name of the gradient function is taken (by a private declaration, so
// that @f stays the only public function).
func.func private @f_vjp(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// expected-error@+1 {{cannot build @f_vjp: the module has a symbol of that name}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// path_adjoint, the weight gradient's building block, has no VJP rule, so
// weighted_product is differentiable once only.
func.func @path_adjoint(%g: tensor<4x2x3xf32>, %x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>) -> tensor<10x2x3xf32> {
  // expected-error@+1 {{cannot differentiate 'clifford.path_adjoint': it has no VJP rule}}
  %0 = clifford.path_adjoint <2, 0, 0> %g, %x, %y : (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<10x2x3xf32>
  %1 = uta.exp %0 : tensor<10x2x3xf32>
  return %1 : tensor<10x2x3xf32>
}

// -----

// A transpose that rounds to TF32 has a rule, which refuses: rounding is
// piecewise constant, and a zero gradient would be silently wrong.
func.func @rounding_transpose(%x: tensor<4x2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'uta.transpose' op has no gradient: round_to_tf32 is piecewise constant}}
  %0 = uta.transpose %x [1, 0] {round_to_tf32} : tensor<4x2xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A call has no rule either.
func.func private @opaque(tensor<4xf32>) -> tensor<4xf32>
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{cannot differentiate 'func.call': it has no VJP rule}}
  %0 = func.call @opaque(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An op without a rule that reaches no result is not differentiated: no
// error.
func.func @path_adjoint_unused(%g: tensor<4x2x3xf32>, %x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %0 = clifford.path_adjoint <2, 0, 0> %g, %x, %y : (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<10x2x3xf32>
  %1 = uta.exp %x : tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// Without function= the module must have one public function: the second
// is reported.
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-error@+1 {{uta-differentiate: the module has several public functions; name one with function=}}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// ... and not none.
// expected-error@+1 {{uta-differentiate: the module has no public function}}
module {
  func.func private @hidden(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

//--- wrt-out-of-range.mlir

// wrt=0,2 with two arguments.
// expected-error@+1 {{cannot differentiate with respect to argument #2: @f has 2 arguments}}
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.mul %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- wrt-repeated.mlir

// wrt=1,0,1.
// expected-error@+1 {{argument #1 is listed twice in wrt}}
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.mul %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- wrt-integer.mlir

// wrt=1 names the integer argument.
// expected-error@+1 {{cannot differentiate with respect to argument #1 of type 'tensor<4xi32>': not a floating-point tensor}}
func.func @f(%x: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<4xf32> {
  %0 = uta.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- joint-name-taken.mlir

// joint=true builds @f_fwd_bwd, whose name is taken; @f_vjp would not be.
func.func private @f_fwd_bwd(tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// expected-error@+1 {{cannot build @f_fwd_bwd: the module has a symbol of that name}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- function-missing.mlir

// function=g names nothing.
// expected-error@+1 {{uta-differentiate: no function named @g}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

//--- integer-left-out.mlir

// LEFT-OUT-LABEL: func.func @f_vjp(
//  LEFT-OUT-SAME:     %[[X:arg[0-9]+]]: tensor<4xf32>, %[[N:arg[0-9]+]]: tensor<4xi32>, %[[G:arg[0-9]+]]: tensor<4xf32>) -> tensor<4xf32>
//  LEFT-OUT-NEXT:   %[[E:.*]] = uta.exp %[[X]]
//  LEFT-OUT-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[E]]
//  LEFT-OUT-NEXT:   return %[[DX]] : tensor<4xf32>
func.func @f(%x: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<4xf32> {
  %0 = uta.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
