//===- CliffordExpansion.cpp - Clifford ops expanded into scalar code -----===//
//
// The helpers that CliffordExpansion.h declares.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

namespace mlir::uta::clifford_kernels {

//===----------------------------------------------------------------------===//
// Compile-time expansion of the products
//===----------------------------------------------------------------------===//

CliffordAttrs getCliffordAttrs(Operation *op) {
  auto multivectorOp = dyn_cast<MultivectorOpInterface>(op);
  if (!multivectorOp)
    return CliffordAttrs();
  return CliffordAttrs{&multivectorOp.getAlgebra().getAlgebra(),
                       multivectorOp.getMultivectorAxis()};
}

/// Calls `fn` with every non-zero term of a product keeping `terms` between
/// the blades `lhsBlades` and `rhsBlades`, in Cayley-table order.
static void forEachTerm(const Algebra &algebra, ProductTerms terms,
                        uint64_t lhsBlades, uint64_t rhsBlades,
                        llvm::function_ref<void(const Term &)> fn) {
  forEachProductTerm(
      algebra, terms, lhsBlades, rhsBlades,
      [&](unsigned i, unsigned j, ::uta::ga::BladeProduct product) {
        // A non-zero term lies on a path by the definition of paths.
        std::optional<unsigned> path = algebra.pathIndex(
            algebra.grade(i), algebra.grade(product.blade), algebra.grade(j));
        assert(path && "a non-zero product must lie on a path");
        fn({i, j, product.blade, product.sign, path.value_or(0)});
      });
}

SmallVector<SmallVector<Term>> expandProduct(const Algebra &algebra,
                                             ProductTerms terms,
                                             uint64_t lhsBlades,
                                             uint64_t rhsBlades) {
  SmallVector<SmallVector<Term>> buckets(algebra.numBlades());
  forEachTerm(algebra, terms, lhsBlades, rhsBlades,
              [&](const Term &t) { buckets[t.result].push_back(t); });
  return buckets;
}

SmallVector<SmallVector<Term>> expandAdjoint(const Algebra &algebra,
                                             ProductTerms terms, bool byLhs,
                                             uint64_t cotangentBlades,
                                             uint64_t otherBlades) {
  SmallVector<SmallVector<Term>> buckets(algebra.numBlades());
  uint64_t all = ~uint64_t(0);
  forEachTerm(algebra, terms, byLhs ? all : otherBlades,
              byLhs ? otherBlades : all, [&](const Term &t) {
                if ((cotangentBlades >> t.result) & 1)
                  buckets[byLhs ? t.lhs : t.rhs].push_back(t);
              });
  return buckets;
}

std::pair<uint64_t, uint64_t> getOperandBlades(Operation *op) {
  if (auto multivectorOp = dyn_cast<MultivectorOpInterface>(op))
    return multivectorOp.getOperandBladeSets();
  return {~uint64_t(0), ~uint64_t(0)};
}

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

void addSignedTerm(OpBuilder &b, Location loc, Value &sum, SignedValue term) {
  if (!sum)
    sum = term.sign > 0 ? term.value
                        : arith::NegFOp::create(b, loc, term.value).getResult();
  else if (term.sign > 0)
    sum = arith::AddFOp::create(b, loc, sum, term.value);
  else
    sum = arith::SubFOp::create(b, loc, sum, term.value);
}

Value emitSignedSum(OpBuilder &b, Location loc, ArrayRef<SignedValue> terms) {
  Value sum;
  for (const SignedValue &term : terms)
    addSignedTerm(b, loc, sum, term);
  return sum ? sum : f32Constant(b, loc, 0.0);
}

SmallVector<Value> insertIndex(ValueRange indices, int64_t axis, Value index) {
  SmallVector<Value> result(indices);
  result.insert(result.begin() + axis, index);
  return result;
}

SmallVector<int64_t> dropAxis(ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<int64_t> result(shape);
  result.erase(result.begin() + axis);
  return result;
}

Value BladeReader::get(OpBuilder &b, Location loc, unsigned blade) {
  if (!askedForBlades) {
    askedForBlades = true;
    computed = io.readBlades(b, loc, operand, otherIndices, bladeAxis);
  }
  if (computed)
    return (*computed)[blade];
  Value &value = cache[blade];
  if (!value) {
    Value index = arith::ConstantIndexOp::create(b, loc, blade);
    value =
        io.read(b, loc, operand, insertIndex(otherIndices, bladeAxis, index));
  }
  return value;
}

Value PathWeightReader::get(OpBuilder &b, Location loc, unsigned path) {
  Value &value = cache[path];
  if (!value)
    value =
        io.read(b, loc, operand,
                indicesOfPath(arith::ConstantIndexOp::create(b, loc, path)));
  return value;
}

SmallVector<Value> emitBilinear(OpBuilder &b, Location loc,
                                ArrayRef<SmallVector<Term>> buckets,
                                llvm::function_ref<Value(unsigned)> lhs,
                                llvm::function_ref<Value(unsigned)> rhs,
                                llvm::function_ref<int(unsigned)> rhsSign) {
  SmallVector<Value> blades;
  for (ArrayRef<Term> bucket : buckets) {
    SmallVector<SignedValue> products;
    for (const Term &t : bucket) {
      // Named reads: argument order is unspecified, the IR's must not be.
      Value l = lhs(t.lhs), r = rhs(t.rhs);
      Value product = arith::MulFOp::create(b, loc, l, r);
      products.push_back({t.sign * rhsSign(t.rhs), product});
    }
    blades.push_back(emitSignedSum(b, loc, products));
  }
  return blades;
}

SmallVector<Value> emitPathWeighted(OpBuilder &b, Location loc,
                                    const Algebra &algebra,
                                    ArrayRef<SmallVector<Term>> buckets,
                                    BladeReader &x, BladeReader &y,
                                    PathWeightReader &w) {
  SmallVector<Value> blades;
  for (ArrayRef<Term> bucket : buckets) {
    SmallVector<SmallVector<SignedValue>> byPath(algebra.numPaths());
    for (const Term &t : bucket) {
      Value l = x.get(b, loc, t.lhs), r = y.get(b, loc, t.rhs);
      Value product = arith::MulFOp::create(b, loc, l, r);
      byPath[t.path].push_back({t.sign, product});
    }
    SmallVector<SignedValue> weighted;
    for (auto [path, terms] : llvm::enumerate(byPath)) {
      if (terms.empty())
        continue;
      Value sum = emitSignedSum(b, loc, terms);
      weighted.push_back(
          {+1, arith::MulFOp::create(b, loc, w.get(b, loc, path), sum)});
    }
    blades.push_back(emitSignedSum(b, loc, weighted));
  }
  return blades;
}

SmallVector<Value> emitAdjoint(OpBuilder &b, Location loc,
                               const Algebra &algebra,
                               ArrayRef<SmallVector<Term>> buckets, bool ofLhs,
                               BladeReader &cotangent, BladeReader &other,
                               PathWeightReader *weights) {
  SmallVector<Value> blades;
  for (ArrayRef<Term> bucket : buckets) {
    // Per path when weighted; all in one sum otherwise.
    SmallVector<SmallVector<SignedValue>> byPath(weights ? algebra.numPaths()
                                                         : 1);
    for (const Term &t : bucket) {
      // Named reads: argument order is unspecified, the IR's must not be.
      Value g = cotangent.get(b, loc, t.result);
      Value product;
      if (ofLhs) {
        Value y = other.get(b, loc, t.rhs);
        product = arith::MulFOp::create(b, loc, g, y);
      } else {
        Value x = other.get(b, loc, t.lhs);
        product = arith::MulFOp::create(b, loc, x, g);
      }
      byPath[weights ? t.path : 0].push_back({t.sign, product});
    }
    if (!weights) {
      blades.push_back(emitSignedSum(b, loc, byPath.front()));
      continue;
    }
    SmallVector<SignedValue> weighted;
    for (auto [path, terms] : llvm::enumerate(byPath)) {
      if (terms.empty())
        continue;
      Value sum = emitSignedSum(b, loc, terms);
      weighted.push_back(
          {+1, arith::MulFOp::create(b, loc, weights->get(b, loc, path), sum)});
    }
    blades.push_back(emitSignedSum(b, loc, weighted));
  }
  return blades;
}

SmallVector<Value> emitPathAdjoint(OpBuilder &b, Location loc,
                                   const Algebra &algebra,
                                   ArrayRef<SmallVector<Term>> buckets,
                                   BladeReader &cotangent, BladeReader &x,
                                   BladeReader &y) {
  // perPath[p]: cotangent_k * (signed sum of x_i * y_j over p's terms into
  // k), for the blades k in ascending order.
  SmallVector<SmallVector<SignedValue>> perPath(algebra.numPaths());
  for (auto [blade, bucket] : llvm::enumerate(buckets)) {
    SmallVector<SmallVector<SignedValue>> byPath(algebra.numPaths());
    for (const Term &t : bucket) {
      Value l = x.get(b, loc, t.lhs), r = y.get(b, loc, t.rhs);
      byPath[t.path].push_back({t.sign, arith::MulFOp::create(b, loc, l, r)});
    }
    for (auto [path, terms] : llvm::enumerate(byPath)) {
      if (terms.empty())
        continue;
      Value sum = emitSignedSum(b, loc, terms);
      Value g = cotangent.get(b, loc, blade);
      perPath[path].push_back({+1, arith::MulFOp::create(b, loc, g, sum)});
    }
  }
  SmallVector<Value> paths;
  for (ArrayRef<SignedValue> terms : perPath)
    paths.push_back(emitSignedSum(b, loc, terms));
  return paths;
}

ValueRange
emitLoop(OpBuilder &b, Location loc, Value lower, int64_t upper, int64_t step,
         ValueRange inits,
         llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
             body) {
  auto loop = scf::ForOp::create(
      b, loc, lower, arith::ConstantIndexOp::create(b, loc, upper),
      arith::ConstantIndexOp::create(b, loc, step), inits,
      [&](OpBuilder &nb, Location, Value i, ValueRange acc) {
        scf::YieldOp::create(nb, loc, body(nb, i, acc));
      });
  return loop.getResults();
}

ValueRange
emitLoop(OpBuilder &b, Location loc, int64_t count, ValueRange inits,
         llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
             body) {
  return emitLoop(b, loc, arith::ConstantIndexOp::create(b, loc, 0), count, 1,
                  inits, body);
}

Value emitBlockTreeSums(OpBuilder &b, Location loc, KernelIO &io, Value lane,
                        int64_t group, ArrayRef<Value> partials) {
  // sums[i * group + lane]; only loads and stores are conditional, the
  // barriers are not.
  Value sums = io.allocateWorkgroupBuffer(b, loc, partials.size() * group);
  SmallVector<Value> slots;
  for (auto [i, partial] : llvm::enumerate(partials)) {
    slots.push_back(arith::AddIOp::create(
        b, loc, lane, arith::ConstantIndexOp::create(b, loc, i * group)));
    memref::StoreOp::create(b, loc, partial, sums, slots[i]);
  }
  gpu::BarrierOp::create(b, loc);
  for (int64_t stride = group / 2; stride >= 1; stride /= 2) {
    Value strideIndex = arith::ConstantIndexOp::create(b, loc, stride);
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         lane, strideIndex);
    auto fold = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
    OpBuilder nb = fold.getThenBodyBuilder();
    for (Value slot : slots) {
      Value mine = memref::LoadOp::create(nb, loc, sums, slot);
      Value theirs = memref::LoadOp::create(
          nb, loc, sums,
          arith::AddIOp::create(nb, loc, slot, strideIndex).getResult());
      memref::StoreOp::create(
          nb, loc, arith::AddFOp::create(nb, loc, mine, theirs), sums, slot);
    }
    gpu::BarrierOp::create(b, loc);
  }
  return sums;
}

void writeBlades(OpBuilder &b, Location loc, KernelIO &io,
                 ValueRange otherIndices, int64_t bladeAxis,
                 ArrayRef<Value> blades, unsigned result) {
  for (auto [blade, value] : llvm::enumerate(blades)) {
    Value index = arith::ConstantIndexOp::create(b, loc, blade);
    io.write(b, loc, result, insertIndex(otherIndices, bladeAxis, index),
             value);
  }
}

LogicalResult
emitPositions(OpBuilder &b, Location loc, Value thread,
              ArrayRef<int64_t> positions, bool vectorize, KernelIO &io,
              llvm::function_ref<LogicalResult(ValueRange)> body) {
  SmallVector<Value> at = delinearize(b, loc, thread, positions);
  if (!vectorize)
    return body(at);
  io.beginAccessGroup(b, AccessLanes::single());
  if (failed(body(at)))
    return failure();
  io.endAccessGroup(b, loc);
  return success();
}

} // namespace mlir::uta::clifford_kernels
