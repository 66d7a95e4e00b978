//===- VectorAccess.cpp - Vector loads and stores of kernel buffers -------===//

#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uta;

AccessLanes AccessLanes::rows(ArrayRef<Value> inner) {
  assert(inner.size() == kVectorWidth && "one innermost index per lane");
  AccessLanes lanes;
  lanes.kind = Kind::Rows;
  lanes.inner.assign(inner.begin(), inner.end());
  return lanes;
}

AccessLanes AccessLanes::flat(Value base, ArrayRef<SmallVector<Value>> indices,
                              ArrayRef<int64_t> shape) {
  assert(indices.size() == kVectorWidth && "one index tuple per lane");
  AccessLanes lanes;
  lanes.kind = Kind::Flat;
  lanes.flatBase = base;
  lanes.laneIndices.assign(indices.begin(), indices.end());
  lanes.flatShape.assign(shape.begin(), shape.end());
  return lanes;
}

std::pair<VectorType, int64_t> mlir::uta::getVectorAccessType(Value buffer) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  int64_t bytes = element.getIntOrFloatBitWidth() / 8 * kVectorWidth;
  return {VectorType::get({kVectorWidth}, element), bytes};
}

VectorAccessGroup::VectorAccessGroup(Block *block, AccessLanes lanes)
    : block(block), lanes(std::move(lanes)) {}

void VectorAccessGroup::setLane(unsigned newLane) {
  assert((lanes.kind == AccessLanes::Kind::Single ? newLane == 0
                                                  : newLane < kVectorWidth) &&
         "no such lane");
  lane = newLane;
}

VectorAccessGroup::IndexKey VectorAccessGroup::keyOf(Value index) {
  if (std::optional<int64_t> constant = getConstantIntValue(index))
    return {Value(), *constant};
  return {index, 0};
}

Value VectorAccessGroup::getFlatView(OpBuilder &b, Location loc, Value buffer) {
  for (auto [from, view] : flatViews)
    if (from == buffer)
      return view;
  auto type = cast<MemRefType>(buffer.getType());
  auto flatType =
      MemRefType::get({type.getNumElements()}, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  Value view = memref::ReinterpretCastOp::create(
      b, loc, flatType, buffer, /*offset=*/0,
      /*sizes=*/ArrayRef<int64_t>{type.getNumElements()},
      /*strides=*/ArrayRef<int64_t>{1});
  flatViews.push_back({buffer, view});
  return view;
}

std::optional<VectorAccessGroup::Placement>
VectorAccessGroup::place(OpBuilder &b, Location loc, Value buffer,
                         ValueRange indices) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      type.getRank() != static_cast<int64_t>(indices.size()))
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();

  // Flat lanes: exactly this lane's element of a buffer of the lanes' shape.
  if (lanes.kind == AccessLanes::Kind::Flat &&
      shape == ArrayRef<int64_t>(lanes.flatShape) &&
      llvm::all_of(
          llvm::zip_equal(indices, lanes.laneIndices[lane]), [](auto pair) {
            return keyOf(std::get<0>(pair)) == keyOf(std::get<1>(pair));
          })) {
    Placement placement;
    placement.memref = getFlatView(b, loc, buffer);
    placement.base = {lanes.flatBase};
    placement.key = {keyOf(placement.memref), keyOf(lanes.flatBase)};
    placement.position = lane;
    return placement;
  }

  // The other rules keep the outer indices and need every row of the buffer
  // to start on a vector boundary.
  if (shape.back() % kVectorWidth != 0)
    return std::nullopt;
  Placement placement;
  placement.memref = buffer;
  llvm::append_range(placement.base, indices.drop_back());
  Value last = indices.back();
  if (lanes.kind == AccessLanes::Kind::Rows && last == lanes.inner[lane]) {
    placement.base.push_back(lanes.inner.front());
    placement.position = lane;
  } else if (std::optional<int64_t> constant = getConstantIntValue(last)) {
    int64_t first = *constant / kVectorWidth * kVectorWidth;
    placement.base.push_back(arith::ConstantIndexOp::create(b, loc, first));
    placement.position = *constant - first;
  } else {
    return std::nullopt;
  }
  placement.key.push_back(keyOf(buffer));
  for (Value index : placement.base)
    placement.key.push_back(keyOf(index));
  return placement;
}

Value VectorAccessGroup::read(OpBuilder &b, Location loc, Value buffer,
                              ValueRange indices) {
  if (b.getInsertionBlock() != block)
    return Value();
  std::optional<Placement> placement = place(b, loc, buffer, indices);
  if (!placement)
    return Value();
  Value vector;
  for (auto &[key, value] : loaded)
    if (key == placement->key)
      vector = value;
  if (!vector) {
    auto [vectorType, alignment] = getVectorAccessType(buffer);
    vector = vector::LoadOp::create(b, loc, vectorType, placement->memref,
                                    placement->base, /*nontemporal=*/false,
                                    llvm::MaybeAlign(alignment));
    loaded.push_back({placement->key, vector});
  }
  return vector::ExtractOp::create(b, loc, vector, placement->position);
}

bool VectorAccessGroup::write(OpBuilder &b, Location loc, Value buffer,
                              ValueRange indices, Value element) {
  if (b.getInsertionBlock() != block)
    return false;
  std::optional<Placement> placement = place(b, loc, buffer, indices);
  if (!placement)
    return false;
  PendingStore *store = nullptr;
  for (PendingStore &candidate : pending)
    if (candidate.placement.key == placement->key)
      store = &candidate;
  if (!store) {
    pending.push_back({buffer, *placement,
                       SmallVector<Value>(kVectorWidth, Value()),
                       SmallVector<SmallVector<Value>>(kVectorWidth)});
    store = &pending.back();
  }
  // A second store to one element replaces the first, as it would in order.
  store->elements[placement->position] = element;
  store->indices[placement->position].assign(indices.begin(), indices.end());
  return true;
}

void VectorAccessGroup::finish(OpBuilder &b, Location loc) {
  for (PendingStore &store : pending) {
    if (llvm::all_of(store.elements, [](Value v) { return bool(v); })) {
      auto [vectorType, alignment] = getVectorAccessType(store.buffer);
      Value vector =
          vector::FromElementsOp::create(b, loc, vectorType, store.elements);
      vector::StoreOp::create(b, loc, vector, store.placement.memref,
                              store.placement.base, /*nontemporal=*/false,
                              llvm::MaybeAlign(alignment));
      continue;
    }
    for (auto [element, indices] :
         llvm::zip_equal(store.elements, store.indices))
      if (element)
        memref::StoreOp::create(b, loc, element, store.buffer, indices);
  }
  pending.clear();
}
