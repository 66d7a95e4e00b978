//===- PreciseMathToLLVM.cpp - IEEE square roots on NVIDIA GPUs -----------===//
//
// Lowers math.sqrt to llvm.intr.sqrt ahead of convert-gpu-to-nvvm, whose
// libdevice mapping would produce an approximate square root.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uta {
#define GEN_PASS_DEF_CONVERTPRECISEMATHTOLLVMPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {
/// math.sqrt -> the PTX instruction sqrt.rn.f32. convert-gpu-to-nvvm
/// rejects llvm.intr.sqrt on f32 (it wants libdevice), so the instruction is
/// spelled out; without side effects, LLVM may still move and merge it.
struct LowerSqrtToIntrinsic final : OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "kernels compute in f32");
    rewriter.replaceOpWithNewOp<LLVM::InlineAsmOp>(
        op, op.getType(), ValueRange{op.getOperand()}, "sqrt.rn.f32 $0, $1;",
        "=f,f", /*has_side_effects=*/false, /*is_align_stack=*/false,
        LLVM::TailCallKind::None,
        LLVM::AsmDialectAttr::get(getContext(), LLVM::AsmDialect::AD_ATT),
        /*operand_attrs=*/ArrayAttr());
    return success();
  }
};

struct ConvertPreciseMathToLLVMPass final
    : uta::impl::ConvertPreciseMathToLLVMPassBase<
          ConvertPreciseMathToLLVMPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerSqrtToIntrinsic>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
