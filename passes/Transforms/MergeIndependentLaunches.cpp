//===- MergeIndependentLaunches.cpp - Independent kernels in one grid -----===//
//
// uta-merge-independent-launches: two launches in a row whose kernels share
// no buffer that either of them writes become one launch of one kernel. Its
// first blocks run the first kernel's body, the others the second's, each on
// block ids counted from its own first block. A small memory-bound kernel
// spends part of its time ramping up and draining, with the GPU partly
// idle; in one grid the second kernel's blocks fill the first one's tail,
// and one launch is saved.
//
// Only simple kernels qualify: a body of one block of SIMT ops (arith,
// math, memref, vector, scf, and gpu's ids, barriers, shuffles and dynamic
// shared memory), launched as a one-dimensional grid of constant size
// without tensor maps, clusters or async tokens. Both launches must have the
// same block size. The tensor-core GEMMs, whose blocks also
// coordinate through global memory, never qualify. A launch runs at most
// kMaxLaunchParts kernels: each merge clones the kernels merged so far, and
// the merged kernel's code and nesting grow with every part, so that a long
// run of independent launches would cost time quadratic in its length, and
// one kernel as large as all of them.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTAMERGEINDEPENDENTLAUNCHESPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The most kernels one launch runs. The gain is in the tails of the grids
/// merged (FCGP's two kernels, measured); past a few parts, a part more
/// saves one launch of a run that is long already.
constexpr int64_t kMaxLaunchParts = 8;

/// Whether a kernel reads and whether it writes a buffer.
struct BufferAccess {
  bool read = false;
  bool written = false;

  BufferAccess &operator|=(BufferAccess other) {
    read |= other.read;
    written |= other.written;
    return *this;
  }
};

/// How a kernel accesses its buffer argument `buffer`: the effects of its
/// users, through any views of it. A user whose effects are unknown counts
/// as reading and writing.
BufferAccess getAccess(Value buffer) {
  BufferAccess access;
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value) {
        worklist.append(user->result_begin(), user->result_end());
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects) {
        access |= {true, true};
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffectsOnValue(value, instances);
      for (const MemoryEffects::EffectInstance &instance : instances) {
        access.read |= isa<MemoryEffects::Read>(instance.getEffect());
        access.written |= !isa<MemoryEffects::Read>(instance.getEffect());
      }
    }
  }
  return access;
}

/// The buffer a host value views: a host function argument or an
/// allocation, or null where it is neither.
Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  if (isa<BlockArgument>(value) || value.getDefiningOp<memref::AllocOp>())
    return value;
  return nullptr;
}

/// Whether `op` may run in the body of a merged kernel: it does not depend on
/// the grid beyond the block id and grid size along x, which the merge
/// rewrites.
bool isSimtOp(Operation *op) {
  if (isa<arith::ArithDialect, math::MathDialect, memref::MemRefDialect,
          vector::VectorDialect, scf::SCFDialect>(op->getDialect()))
    return true;
  return isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::ThreadIdOp, gpu::BlockDimOp,
             gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::SubgroupSizeOp,
             gpu::BarrierOp, gpu::ShuffleOp, gpu::SubgroupReduceOp,
             gpu::DynamicSharedMemoryOp>(op);
}

/// Whether `kernel` carries attributes of a dialect other than its being a
/// kernel (tensor maps, NVVM launch bounds...), which a merge would drop.
bool hasDialectAttributes(gpu::GPUFuncOp kernel) {
  return llvm::any_of(kernel->getDiscardableAttrs(), [](NamedAttribute attr) {
    return attr.getName().strref().contains('.') &&
           attr.getName() != gpu::GPUDialect::getKernelFuncAttrName();
  });
}

/// A launch that may share a grid, with what the merge needs of it.
struct Candidate {
  gpu::LaunchFuncOp launch;
  gpu::GPUFuncOp kernel;
  /// The kernels it runs.
  int64_t parts = 1;
  int64_t blocks = 0;
  SmallVector<int64_t, 3> blockSize;
  int64_t sharedBytes = 0;
  /// The buffers it accesses, by root buffer.
  llvm::DenseMap<Value, BufferAccess> buffers;
};

std::optional<int64_t> getConstant(Value value) {
  APInt constant;
  if (!value || !matchPattern(value, m_ConstantInt(&constant)))
    return std::nullopt;
  return constant.getSExtValue();
}

/// What the merge needs of a kernel, whichever launch runs it.
struct MergeableKernel {
  /// How it accesses each argument (nothing for scalars).
  SmallVector<BufferAccess> arguments;
};

/// `kernel` as a part of a merged kernel, or nothing where it cannot be.
std::optional<MergeableKernel> getMergeableKernel(gpu::GPUFuncOp kernel) {
  if (!kernel.getBody().hasOneBlock() ||
      kernel.getNumWorkgroupAttributions() != 0 ||
      kernel.getNumPrivateAttributions() != 0 || kernel.getAllArgAttrs() ||
      hasDialectAttributes(kernel))
    return std::nullopt;
  Block &body = kernel.getBody().front();
  auto terminator = dyn_cast<gpu::ReturnOp>(body.getTerminator());
  if (!terminator || terminator.getNumOperands() != 0)
    return std::nullopt;
  WalkResult simt = body.walk([](Operation *op) {
    return isa<gpu::ReturnOp>(op) || isSimtOp(op) ? WalkResult::advance()
                                                  : WalkResult::interrupt();
  });
  if (simt.wasInterrupted())
    return std::nullopt;
  MergeableKernel mergeable;
  for (BlockArgument argument : kernel.getArguments())
    mergeable.arguments.push_back(isa<MemRefType>(argument.getType())
                                      ? getAccess(argument)
                                      : BufferAccess());
  return mergeable;
}

/// The kernels' verdicts, each computed once however often it is launched.
using MergeableKernels =
    llvm::DenseMap<Operation *, std::optional<MergeableKernel>>;

/// `launch` as a candidate, or nothing where it may not share a grid.
std::optional<Candidate> getCandidate(gpu::LaunchFuncOp launch,
                                      SymbolTableCollection &symbols,
                                      MergeableKernels &mergeable) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.hasClusterSize() ||
      launch->hasAttr(UTADialect::getTensorMapsAttrName()))
    return std::nullopt;
  auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
      launch, launch.getKernelAttr());
  if (!kernel)
    return std::nullopt;
  auto known = mergeable.find(kernel);
  if (known == mergeable.end())
    known = mergeable.try_emplace(kernel, getMergeableKernel(kernel)).first;
  if (!known->second)
    return std::nullopt;

  Candidate candidate;
  candidate.launch = launch;
  candidate.kernel = kernel;
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  std::optional<int64_t> blocks = getConstant(grid.x);
  if (!blocks || getConstant(grid.y) != 1 || getConstant(grid.z) != 1)
    return std::nullopt;
  candidate.blocks = *blocks;
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  for (Value size : {block.x, block.y, block.z}) {
    std::optional<int64_t> threads = getConstant(size);
    if (!threads)
      return std::nullopt;
    candidate.blockSize.push_back(*threads);
  }
  if (Value shared = launch.getDynamicSharedMemorySize()) {
    std::optional<int64_t> bytes = getConstant(shared);
    if (!bytes)
      return std::nullopt;
    candidate.sharedBytes = *bytes;
  }
  for (auto [operand, access] :
       llvm::zip_equal(launch.getKernelOperands(), known->second->arguments)) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    Value root = getRootBuffer(operand);
    if (!root)
      return std::nullopt;
    candidate.buffers[root] |= access;
  }
  return candidate;
}

/// Whether `first` and `second` may run in either order or at once: no
/// buffer that one writes is accessed by the other. The host function's
/// arguments are distinct buffers.
bool areIndependent(const Candidate &first, const Candidate &second) {
  return llvm::all_of(first.buffers, [&](const auto &entry) {
    auto other = second.buffers.find(entry.first);
    if (other == second.buffers.end())
      return true;
    BufferAccess a = entry.second, b = other->second;
    return !a.written && !b.written;
  });
}

/// `first`'s and `second`'s names joined, without the prefix they share up
/// to its last '_' (the host function's name): fcgp_k0_gate and fcgp_k1_t
/// give fcgp_k0_gate_k1_t.
std::string getMergedName(StringRef first, StringRef second) {
  size_t common = 0;
  while (common < first.size() && common < second.size() &&
         first[common] == second[common])
    ++common;
  size_t prefix = second.substr(0, common).rfind('_');
  return (first + "_" +
          second.drop_front(prefix == StringRef::npos ? 0 : prefix + 1))
      .str();
}

/// Clones the body of `part` into `block` (before its terminator) on the
/// merged kernel's arguments from `firstArgument`, with the block id along
/// x replaced by `blockId` and the grid size along x by `blocks`.
void clonePart(OpBuilder &b, Candidate &part, Block &block,
               gpu::GPUFuncOp merged, unsigned firstArgument, Value blockId) {
  IRMapping mapping;
  for (BlockArgument argument : part.kernel.getArguments())
    mapping.map(argument,
                merged.getArgument(firstArgument + argument.getArgNumber()));
  b.setInsertionPoint(block.getTerminator());
  for (Operation &op : part.kernel.getBody().front().without_terminator())
    b.clone(op, mapping);
  Location loc = part.launch.getLoc();
  Value blocks;
  block.walk([&](Operation *op) {
    if (auto id = dyn_cast<gpu::BlockIdOp>(op);
        id && id.getDimension() == gpu::Dimension::x) {
      id.replaceAllUsesWith(blockId);
      id.erase();
    } else if (auto size = dyn_cast<gpu::GridDimOp>(op);
               size && size.getDimension() == gpu::Dimension::x) {
      if (!blocks) {
        b.setInsertionPointToStart(&block);
        blocks = arith::ConstantIndexOp::create(b, loc, part.blocks);
      }
      size.replaceAllUsesWith(blocks);
      size.erase();
    }
  });
}

/// Replaces the launches of `first` and `second` by one launch, where
/// `second` was, of a kernel that runs both; returns it as a candidate.
Candidate merge(Candidate &first, Candidate &second, SymbolTable &kernels) {
  MLIRContext *context = first.launch.getContext();
  Location loc = second.launch.getLoc();
  SmallVector<Type> argumentTypes(first.kernel.getArgumentTypes());
  llvm::append_range(argumentTypes, second.kernel.getArgumentTypes());

  OpBuilder b(context);
  b.setInsertionPointAfter(second.kernel);
  auto merged = gpu::GPUFuncOp::create(
      b, loc, getMergedName(first.kernel.getName(), second.kernel.getName()),
      FunctionType::get(context, argumentTypes, {}));
  merged->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  if (DenseI32ArrayAttr known = first.kernel.getKnownBlockSizeAttr();
      known && known == second.kernel.getKnownBlockSizeAttr())
    merged.setKnownBlockSizeAttr(known);
  kernels.insert(merged);

  // Blocks [0, first.blocks) run `first`, the rest `second`.
  Block &entry = merged.getBody().front();
  b.setInsertionPointToStart(&entry);
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value split = arith::ConstantIndexOp::create(b, loc, first.blocks);
  Value inFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, blockId, split);
  auto parts = scf::IfOp::create(b, loc, inFirst, /*withElseRegion=*/true);
  gpu::ReturnOp::create(b, loc);
  clonePart(b, first, *parts.thenBlock(), merged, 0, blockId);
  b.setInsertionPointToStart(parts.elseBlock());
  Value secondId = arith::SubIOp::create(b, loc, blockId, split);
  clonePart(b, second, *parts.elseBlock(), merged,
            first.kernel.getNumArguments(), secondId);

  b.setInsertionPoint(second.launch);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  int64_t sharedBytes = std::max(first.sharedBytes, second.sharedBytes);
  Value sharedSize;
  if (sharedBytes)
    sharedSize = arith::ConstantIntOp::create(b, loc, sharedBytes, 32);
  SmallVector<Value> operands(first.launch.getKernelOperands());
  llvm::append_range(operands, second.launch.getKernelOperands());
  auto launch = gpu::LaunchFuncOp::create(
      b, loc, merged,
      gpu::KernelDim3{index(first.blocks + second.blocks), index(1), index(1)},
      gpu::KernelDim3{index(second.blockSize[0]), index(second.blockSize[1]),
                      index(second.blockSize[2])},
      sharedSize, operands);
  // The operand counts of the parts, for `utac --stats`.
  auto counts = [](Candidate &part) {
    if (auto parts = part.launch->getAttrOfType<DenseI32ArrayAttr>(
            UTADialect::getLaunchPartsAttrName()))
      return SmallVector<int32_t>(parts.asArrayRef());
    return SmallVector<int32_t>{
        static_cast<int32_t>(part.launch.getNumKernelOperands())};
  };
  SmallVector<int32_t> partOperands = counts(first);
  llvm::append_range(partOperands, counts(second));
  launch->setAttr(UTADialect::getLaunchPartsAttrName(),
                  b.getDenseI32ArrayAttr(partOperands));
  // Their result buffer counts, where one writes other than one.
  auto results = [](Candidate &part) {
    if (auto counts = part.launch->getAttrOfType<DenseI32ArrayAttr>(
            UTADialect::getLaunchResultsAttrName()))
      return SmallVector<int32_t>(counts.asArrayRef());
    return SmallVector<int32_t>(part.parts, 1);
  };
  SmallVector<int32_t> partResults = results(first);
  llvm::append_range(partResults, results(second));
  if (llvm::any_of(partResults, [](int32_t count) { return count != 1; }))
    launch->setAttr(UTADialect::getLaunchResultsAttrName(),
                    b.getDenseI32ArrayAttr(partResults));
  // The merged kernel does the arithmetic of both parts.
  llvm::MapVector<StringAttr, int64_t> flops;
  for (Candidate *part : {&first, &second})
    if (auto counts = part->launch->getAttrOfType<DictionaryAttr>(
            UTADialect::getFlopsAttrName()))
      for (NamedAttribute count : counts)
        flops[count.getName()] += cast<IntegerAttr>(count.getValue()).getInt();
  SmallVector<NamedAttribute> summed;
  for (auto [unit, count] : flops)
    summed.push_back(b.getNamedAttr(unit, b.getI64IntegerAttr(count)));
  if (!summed.empty())
    launch->setAttr(UTADialect::getFlopsAttrName(),
                    b.getDictionaryAttr(summed));
  // Each part's in-place inputs (operand, result operand) that the other
  // part does not read: the result's writes would overwrite them under it.
  SmallVector<int64_t> inPlace;
  int64_t offset = 0;
  for (auto [part, other] : {std::pair{&first, &second}, {&second, &first}}) {
    if (auto pairs = part->launch->getAttrOfType<DenseI64ArrayAttr>(
            UTADialect::getInPlaceAttrName())) {
      ArrayRef<int64_t> numbers = pairs.asArrayRef();
      for (size_t i = 0; i + 1 < numbers.size(); i += 2)
        if (!llvm::is_contained(other->launch.getKernelOperands(),
                                part->launch.getKernelOperand(numbers[i])))
          inPlace.append({numbers[i] + offset, numbers[i + 1] + offset});
    }
    offset += part->launch.getNumKernelOperands();
  }
  if (!inPlace.empty())
    launch->setAttr(UTADialect::getInPlaceAttrName(),
                    b.getDenseI64ArrayAttr(inPlace));
  // The GEMM plan of its one part on the engine, where it has one (SIMT
  // GEMMs may merge; the tensor-core ones never do).
  Attribute firstPlan =
      first.launch->getAttr(UTADialect::getGemmPlanAttrName());
  Attribute secondPlan =
      second.launch->getAttr(UTADialect::getGemmPlanAttrName());
  if (bool(firstPlan) != bool(secondPlan))
    launch->setAttr(UTADialect::getGemmPlanAttrName(),
                    firstPlan ? firstPlan : secondPlan);

  Candidate result;
  result.launch = launch;
  result.kernel = merged;
  result.parts = first.parts + second.parts;
  result.blocks = first.blocks + second.blocks;
  result.blockSize = second.blockSize;
  result.sharedBytes = sharedBytes;
  result.buffers = first.buffers;
  for (const auto &[root, access] : second.buffers)
    result.buffers[root] |= access;
  first.launch.erase();
  second.launch.erase();
  return result;
}

struct MergeIndependentLaunchesPass final
    : uta::impl::UTAMergeIndependentLaunchesPassBase<
          MergeIndependentLaunchesPass> {
  using UTAMergeIndependentLaunchesPassBase::
      UTAMergeIndependentLaunchesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    MergeableKernels mergeable;
    llvm::SetVector<gpu::GPUFuncOp> replaced;
    module.walk([&](func::FuncOp host) {
      for (Block &block : host.getBody())
        mergeInBlock(block, symbols, mergeable, replaced);
    });
    if (replaced.empty())
      return;
    // The kernels still named anywhere, gathered in one walk (a lookup of
    // each replaced kernel's uses would walk the module once per kernel).
    llvm::DenseSet<std::pair<StringAttr, StringAttr>> used;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert({use.getSymbolRef().getRootReference(),
                     use.getSymbolRef().getLeafReference()});
    for (gpu::GPUFuncOp kernel : replaced) {
      auto kernels = cast<gpu::GPUModuleOp>(kernel->getParentOp());
      if (!used.contains({kernels.getSymNameAttr(), kernel.getNameAttr()}))
        kernel.erase();
    }
  }

  /// Merges each launch of `block` into the one before it where both are
  /// candidates and independent, and only allocations and ops without
  /// memory effects lie between them.
  void mergeInBlock(Block &block, SymbolTableCollection &symbols,
                    MergeableKernels &mergeable,
                    llvm::SetVector<gpu::GPUFuncOp> &replaced) {
    std::optional<Candidate> previous;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
      if (!launch) {
        if (!isa<memref::AllocOp>(op) && !isMemoryEffectFree(&op))
          previous.reset();
        continue;
      }
      std::optional<Candidate> current =
          getCandidate(launch, symbols, mergeable);
      if (!current || !previous || !canMerge(*previous, *current)) {
        previous = std::move(current);
        continue;
      }
      auto module = current->kernel->getParentOfType<gpu::GPUModuleOp>();
      replaced.insert(previous->kernel);
      replaced.insert(current->kernel);
      if (remarks)
        current->launch.emitRemark()
            << "kernel '" << current->kernel.getName()
            << "' runs in one launch with '" << previous->kernel.getName()
            << "': they share no written buffer";
      previous = merge(*previous, *current, symbols.getSymbolTable(module));
    }
  }

  static bool canMerge(const Candidate &first, const Candidate &second) {
    return first.parts + second.parts <= kMaxLaunchParts &&
           first.blockSize == second.blockSize &&
           first.kernel->getParentOp() == second.kernel->getParentOp() &&
           first.blocks + second.blocks <=
               std::numeric_limits<int32_t>::max() &&
           areIndependent(first, second);
  }
};

} // namespace
