//===- VectorStorage.cpp - vec4 storage buffers for vector accesses -------===//
//
// The gpu phase accesses kernel buffers with aligned vector<4xT> loads and
// stores (passes/Conversion/UTAToGPU/VectorAccess.h). MLIR's SPIR-V lowering
// turns them into a pointer OpBitcast from the scalar element to the
// vector, which Vulkan's logical addressing forbids. This pass, run on the
// spirv.module once the kernel arguments are descriptor-bound globals,
// gives such accesses a legal form:
//
// - a buffer `struct { T[N] }` with N a multiple of 4 whose vector accesses
//   all carry an `Aligned` of the vector's size becomes `struct { vec4<T>
//   [N/4] }` (the same bytes): a vector access at element i reads or writes
//   vec4 i/4, and a scalar access reads or writes component i%4 of it,
//   through one OpAccessChain into the vector;
// - any other buffer keeps its scalar array, and each of its vector
//   accesses becomes 4 scalar ones (a buffer of N % 4 != 0 elements cannot
//   be typed as vec4: its last vector would reach past the buffer).
//
// `Aligned` is the producer's promise that the address is a multiple of the
// vector's size; buffers are bound at offset 0 of 16-byte-aligned memory,
// so element i is then a multiple of 4 (i >> 2 is exact).
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPIRVVECTORSTORAGEPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

/// Elements per vector access.
static constexpr unsigned kWidth = 4;

namespace {
/// The accesses of one storage buffer global, each through an access chain
/// `chain[0, index]` into its array.
struct BufferAccesses {
  spirv::ArrayType array;
  /// Chains that scalar loads and stores use.
  SmallVector<spirv::AccessChainOp> scalar;
  /// Pointer bitcasts of a chain to vector<4xT>, used by loads and stores.
  SmallVector<spirv::BitcastOp> vector;
  /// Whether every vector access promises the vector's alignment.
  bool aligned = true;
  /// Whether some use is none of the above: the buffer is left alone.
  bool unknown = false;
};
} // namespace

/// The array of the storage buffer `global` points to, if it is a struct
/// holding one array of scalar floats.
static spirv::ArrayType getScalarArray(spirv::GlobalVariableOp global) {
  auto pointer = dyn_cast<spirv::PointerType>(global.getType());
  if (!pointer ||
      pointer.getStorageClass() != spirv::StorageClass::StorageBuffer)
    return {};
  auto block = dyn_cast<spirv::StructType>(pointer.getPointeeType());
  if (!block || block.getNumElements() != 1)
    return {};
  auto array = dyn_cast<spirv::ArrayType>(block.getElementType(0));
  if (!array || !isa<FloatType>(array.getElementType()))
    return {};
  return array;
}

/// Whether `op` (a load or a store through a vector pointer) promises the
/// vector's alignment.
static bool isAlignedVectorAccess(Operation *op, unsigned vectorBytes) {
  std::optional<uint32_t> alignment;
  if (auto load = dyn_cast<spirv::LoadOp>(op))
    alignment = load.getAlignment();
  else if (auto store = dyn_cast<spirv::StoreOp>(op))
    alignment = store.getAlignment();
  return alignment && *alignment >= vectorBytes;
}

/// The spirv.mlir.addressof ops of each global variable, by its name: one
/// walk of the module for all globals (a walk per global made the pass
/// quadratic in the number of kernels).
using AddressesOfGlobals =
    llvm::DenseMap<StringAttr, SmallVector<spirv::AddressOfOp>>;

static AddressesOfGlobals collectAddresses(spirv::ModuleOp module) {
  AddressesOfGlobals addresses;
  module.walk([&](spirv::AddressOfOp addressOf) {
    addresses[addressOf.getVariableAttr().getAttr()].push_back(addressOf);
  });
  return addresses;
}

static BufferAccesses
collectAccesses(ArrayRef<spirv::AddressOfOp> addressesOfGlobal,
                spirv::ArrayType array) {
  BufferAccesses accesses;
  accesses.array = array;
  unsigned vectorBytes =
      array.getElementType().getIntOrFloatBitWidth() / 8 * kWidth;
  for (spirv::AddressOfOp addressOf : addressesOfGlobal) {
    for (Operation *user : addressOf->getUsers()) {
      auto chain = dyn_cast<spirv::AccessChainOp>(user);
      if (!chain || chain.getIndices().size() != 2) {
        accesses.unknown = true;
        continue;
      }
      bool scalarUse = false;
      for (Operation *chainUser : chain->getUsers()) {
        if (isa<spirv::LoadOp, spirv::StoreOp>(chainUser)) {
          scalarUse = true;
          continue;
        }
        auto bitcast = dyn_cast<spirv::BitcastOp>(chainUser);
        auto target =
            bitcast ? dyn_cast<spirv::PointerType>(bitcast.getType()) : nullptr;
        auto vectorType =
            target ? dyn_cast<VectorType>(target.getPointeeType()) : nullptr;
        if (!vectorType || vectorType.getNumElements() != kWidth ||
            vectorType.getElementType() != array.getElementType()) {
          accesses.unknown = true;
          continue;
        }
        for (Operation *access : bitcast->getUsers()) {
          if (!isa<spirv::LoadOp, spirv::StoreOp>(access))
            accesses.unknown = true;
          else if (!isAlignedVectorAccess(access, vectorBytes))
            accesses.aligned = false;
        }
        accesses.vector.push_back(bitcast);
      }
      if (scalarUse)
        accesses.scalar.push_back(chain);
    }
  }
  return accesses;
}

static Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return spirv::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

/// Retypes `global` to an array of vec4 and rewrites its accesses.
static void retypeToVectors(spirv::GlobalVariableOp global,
                            ArrayRef<spirv::AddressOfOp> addressesOfGlobal,
                            BufferAccesses &accesses) {
  auto pointer = cast<spirv::PointerType>(global.getType());
  auto block = cast<spirv::StructType>(pointer.getPointeeType());
  Type element = accesses.array.getElementType();
  auto vectorType = VectorType::get({kWidth}, element);
  auto array = spirv::ArrayType::get(vectorType,
                                     accesses.array.getNumElements() / kWidth,
                                     accesses.array.getArrayStride() * kWidth);
  SmallVector<spirv::StructType::MemberDecorationInfo> memberDecorations;
  block.getMemberDecorations(memberDecorations);
  SmallVector<spirv::StructType::StructDecorationInfo> structDecorations;
  block.getStructDecorations(structDecorations);
  SmallVector<spirv::StructType::OffsetInfo> offsets;
  if (block.hasOffset())
    offsets.push_back(block.getMemberOffset(0));
  auto newBlock = spirv::StructType::get({array}, offsets, memberDecorations,
                                         structDecorations);
  auto newPointer =
      spirv::PointerType::get(newBlock, pointer.getStorageClass());
  global.setType(newPointer);
  for (spirv::AddressOfOp addressOf : addressesOfGlobal)
    addressOf.getPointer().setType(newPointer);

  // chain[0, i] -> chain[0, i >> 2] (a vec4), or chain[0, i >> 2, i & 3]
  // (its component i % 4).
  auto rechain = [&](spirv::AccessChainOp chain, bool component) {
    OpBuilder b(chain);
    Location loc = chain.getLoc();
    Value index = chain.getIndices()[1];
    Type indexType = index.getType();
    SmallVector<Value> indices = {
        chain.getIndices()[0],
        spirv::ShiftRightLogicalOp::create(b, loc, index,
                                           intConstant(b, loc, indexType, 2))};
    if (component)
      indices.push_back(spirv::BitwiseAndOp::create(
          b, loc, index, intConstant(b, loc, indexType, kWidth - 1)));
    return spirv::AccessChainOp::create(b, loc, chain.getBasePtr(), indices);
  };
  llvm::SetVector<spirv::AccessChainOp> old(accesses.scalar.begin(),
                                            accesses.scalar.end());
  for (spirv::BitcastOp bitcast : accesses.vector) {
    auto chain = bitcast.getOperand().getDefiningOp<spirv::AccessChainOp>();
    bitcast.replaceAllUsesWith(rechain(chain, /*component=*/false).getResult());
    bitcast.erase();
    old.insert(chain);
  }
  for (spirv::AccessChainOp chain : accesses.scalar) {
    spirv::AccessChainOp replacement = rechain(chain, /*component=*/true);
    for (OpOperand &use : llvm::make_early_inc_range(chain->getUses()))
      if (isa<spirv::LoadOp, spirv::StoreOp>(use.getOwner()))
        use.set(replacement.getResult());
  }
  // The old chains (one may serve both kinds of access) are unused now.
  for (spirv::AccessChainOp chain : old)
    if (chain->use_empty())
      chain.erase();
}

/// Rewrites each vector access of a buffer that keeps its scalar array into
/// 4 scalar accesses.
static void scalarize(BufferAccesses &accesses) {
  for (spirv::BitcastOp bitcast : accesses.vector) {
    auto chain = bitcast.getOperand().getDefiningOp<spirv::AccessChainOp>();
    Type element = accesses.array.getElementType();
    for (Operation *access : llvm::make_early_inc_range(bitcast->getUsers())) {
      if (!isa<spirv::LoadOp, spirv::StoreOp>(access))
        continue; // Left for the validator to report.
      OpBuilder b(access);
      Location loc = access->getLoc();
      Value index = chain.getIndices()[1];
      SmallVector<Value> pointers;
      for (unsigned k = 0; k < kWidth; ++k) {
        Value at =
            k == 0 ? index
                   : spirv::IAddOp::create(
                         b, loc, index, intConstant(b, loc, index.getType(), k))
                         .getResult();
        pointers.push_back(spirv::AccessChainOp::create(
            b, loc, chain.getBasePtr(), ValueRange{chain.getIndices()[0], at}));
      }
      if (auto load = dyn_cast<spirv::LoadOp>(access)) {
        SmallVector<Value> elements;
        for (Value pointer : pointers)
          elements.push_back(spirv::LoadOp::create(b, loc, pointer));
        Value vector = spirv::CompositeConstructOp::create(
            b, loc, load.getType(), elements);
        load.replaceAllUsesWith(vector);
        load.erase();
        continue;
      }
      auto store = cast<spirv::StoreOp>(access);
      for (auto [k, pointer] : llvm::enumerate(pointers)) {
        Value part = spirv::CompositeExtractOp::create(
            b, loc, element, store.getValue(),
            b.getI32ArrayAttr({static_cast<int32_t>(k)}));
        spirv::StoreOp::create(b, loc, pointer, part);
      }
      store.erase();
    }
    if (bitcast->use_empty())
      bitcast.erase();
    if (chain->use_empty())
      chain.erase();
  }
}

namespace {
struct UTASPIRVVectorStoragePass final
    : uta::impl::UTASPIRVVectorStoragePassBase<UTASPIRVVectorStoragePass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    SmallVector<spirv::GlobalVariableOp> globals(
        module.getOps<spirv::GlobalVariableOp>());
    // The rewrites below replace chains, bitcasts and loads, never an
    // addressof, so the map stays valid throughout.
    AddressesOfGlobals addresses = collectAddresses(module);
    for (spirv::GlobalVariableOp global : globals) {
      spirv::ArrayType array = getScalarArray(global);
      if (!array)
        continue;
      auto found = addresses.find(global.getSymNameAttr());
      ArrayRef<spirv::AddressOfOp> addressesOfGlobal;
      if (found != addresses.end())
        addressesOfGlobal = found->second;
      BufferAccesses accesses = collectAccesses(addressesOfGlobal, array);
      if (accesses.vector.empty())
        continue;
      if (!accesses.unknown && accesses.aligned &&
          array.getNumElements() % kWidth == 0)
        retypeToVectors(global, addressesOfGlobal, accesses);
      else
        scalarize(accesses);
    }
  }
};
} // namespace
