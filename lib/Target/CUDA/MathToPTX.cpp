//===- MathToPTX.cpp - Math ops whose PTX UTA chooses itself --------------===//
//
// Lowers math.sqrt to the correctly rounded sqrt.rn.f32 ahead of
// convert-gpu-to-nvvm, whose libdevice mapping would produce an approximate
// square root; with fast-math, lowers exp, log and tanh to PTX's approximate
// instructions, which libdevice never uses.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/CUDA/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numbers>

namespace mlir::uta {
#define GEN_PASS_DEF_CONVERTMATHTOPTXPASS
#include "lib/Target/CUDA/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {

/// One f32 PTX instruction `opcode $0, $1;` on `input`. convert-gpu-to-nvvm
/// has no intrinsic for these, so the instruction is spelled out; without
/// side effects, LLVM may still move and merge it.
Value createPtxInstruction(PatternRewriter &rewriter, Location loc,
                           StringRef opcode, Value input) {
  auto asmOp = LLVM::InlineAsmOp::create(
      rewriter, loc, rewriter.getF32Type(), ValueRange{input},
      (opcode + " $0, $1;").str(), "=f,f", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(rewriter.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return asmOp.getResult(0);
}

Value f32Constant(PatternRewriter &rewriter, Location loc, double value) {
  return arith::ConstantOp::create(rewriter, loc,
                                   rewriter.getF32FloatAttr(value));
}

/// An f32 math op as `scaleOut * instruction(scaleIn * x)` (a scale of 1 is
/// left out).
template <typename MathOp>
struct LowerToInstruction final : OpRewritePattern<MathOp> {
  LowerToInstruction(MLIRContext *context, StringRef opcode, double scaleIn,
                     double scaleOut)
      : OpRewritePattern<MathOp>(context), opcode(opcode.str()),
        scaleIn(scaleIn), scaleOut(scaleOut) {}

  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "kernels compute in f32");
    Location loc = op.getLoc();
    Value x = op->getOperand(0);
    if (scaleIn != 1.0)
      x = arith::MulFOp::create(rewriter, loc, x,
                                f32Constant(rewriter, loc, scaleIn));
    Value y = createPtxInstruction(rewriter, loc, opcode, x);
    if (scaleOut != 1.0)
      y = arith::MulFOp::create(rewriter, loc, y,
                                f32Constant(rewriter, loc, scaleOut));
    rewriter.replaceOp(op, y);
    return success();
  }

  std::string opcode;
  double scaleIn, scaleOut;
};

struct ConvertMathToPTXPass final
    : uta::impl::ConvertMathToPTXPassBase<ConvertMathToPTXPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<LowerToInstruction<math::SqrtOp>>(context, "sqrt.rn.f32", 1.0,
                                                   1.0);
    if (fastMath) {
      // e^x = 2^(x log2 e); ln x = log2(x) ln 2.
      patterns.add<LowerToInstruction<math::ExpOp>>(
          context, "ex2.approx.ftz.f32", std::numbers::log2e, 1.0);
      patterns.add<LowerToInstruction<math::LogOp>>(
          context, "lg2.approx.ftz.f32", 1.0, std::numbers::ln2);
      patterns.add<LowerToInstruction<math::TanhOp>>(context, "tanh.approx.f32",
                                                     1.0, 1.0);
    }
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
