// uta.fusion, the `fused` phase's kernel group: its round trip (custom and
// generic form) and every verifier message. It has no folds: what fuses is
// uta-fuse-kernels' business (test/Transforms/fuse-kernels.mlir), and
// canonicalization leaves a group as it is (checked below).
// RUN: uta-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: uta-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | uta-opt -split-input-file | FileCheck %s
// RUN: uta-opt %s -split-input-file -verify-diagnostics -canonicalize | FileCheck %s

// CHECK-LABEL: func @group
//  CHECK-SAME:   (%[[A:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
//       CHECK:   %[[R:.*]] = uta.fusion(%[[A]], %[[B]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
//  CHECK-NEXT:   ^bb0(%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>):
//  CHECK-NEXT:     %[[M:.*]] = uta.mul %[[X]], %[[Y]]
//  CHECK-NEXT:     %[[E:.*]] = uta.exp %[[M]]
//  CHECK-NEXT:     uta.yield %[[E]] : tensor<8xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[R]]
func.func @group(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %r = uta.fusion (%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>, %y: tensor<8xf32>):
    %0 = uta.mul %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = uta.exp %0 : tensor<8xf32>
    uta.yield %1 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @argument_count(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.fusion' op has 1 inputs but its body takes 2 arguments}}
  %r = uta.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>, %y: tensor<8xf32>):
    %0 = uta.exp %x : tensor<8xf32>
    uta.yield %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @argument_type(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.fusion' op input 0 has type 'tensor<8xf32>' but body argument 0 has type 'tensor<8xf16>'}}
  %r = uta.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf16>):
    %0 = uta.cast %x : tensor<8xf16> -> tensor<8xf32>
    uta.yield %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// A body that does not end with uta.yield is an error, not a crash.
func.func @no_yield(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.fusion' op body must end with 'uta.yield'}}
  %r = "uta.fusion"(%a) ({
  ^bb0(%x: tensor<8xf32>):
    %0 = uta.exp %x : tensor<8xf32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A yield of no values is an error, not a read past its operands (the
// verifier ran before the yield's own operand count was checked).
func.func @yield_no_operands(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.fusion' op body must yield one value, its 'uta.yield' has 0 operands}}
  %r = "uta.fusion"(%a) ({
  ^bb0(%x: tensor<8xf32>):
    %0 = uta.exp %x : tensor<8xf32>
    "uta.yield"() : () -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Two yielded values likewise: the message never names a type read from
// beyond the operand list.
func.func @yield_two_operands(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.fusion' op body must yield one value, its 'uta.yield' has 2 operands}}
  %r = "uta.fusion"(%a) ({
  ^bb0(%x: tensor<8xf32>):
    %0 = uta.exp %x : tensor<8xf32>
    "uta.yield"(%0, %0) : (tensor<8xf32>, tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @yield_type(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.fusion' op yields 'tensor<8xf16>' but its result has type 'tensor<8xf32>'}}
  %r = uta.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>):
    %0 = uta.cast %x : tensor<8xf32> -> tensor<8xf16>
    uta.yield %0 : tensor<8xf16>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @yield_argument(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.fusion' op must yield a value computed in its body}}
  %r = uta.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>):
    uta.yield %x : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
