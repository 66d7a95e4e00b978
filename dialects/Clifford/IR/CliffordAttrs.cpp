//===- CliffordAttrs.cpp - The attributes of the clifford dialect ---------===//
//
// #clifford.algebra: verifies signatures and hands out the algebra tables,
// built once per signature and shared by every op that names it.
// #clifford.blades: a blade set, printed as its ascending blade indices.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>
#include <bit>
#include <mutex>

using namespace mlir;
using namespace mlir::uta::clifford;

#define GET_ATTRDEF_CLASSES
#include "dialects/Clifford/IR/CliffordAttrs.cpp.inc"

void CliffordDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Clifford/IR/CliffordAttrs.cpp.inc"
      >();
}

LogicalResult AlgebraAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  unsigned p, unsigned q, unsigned r) {
  // Summed in 64 bits so that huge p, q, r cannot wrap around into range.
  uint64_t n = uint64_t(p) + q + r;
  if (n < 1 || n > ::uta::ga::kMaxDimension)
    return emitError() << "#clifford.algebra<" << p << ", " << q << ", " << r
                       << "> has " << n
                       << " basis vectors but UTA supports 1 to "
                       << ::uta::ga::kMaxDimension;
  return success();
}

const ::uta::ga::Algebra &AlgebraAttr::getAlgebra() const {
  // At most 7^3 signatures exist with n <= 6; each table is built on first use.
  constexpr unsigned kSide = ::uta::ga::kMaxDimension + 1;
  static std::array<std::once_flag, kSide * kSide * kSide> once;
  static std::array<std::optional<::uta::ga::Algebra>, kSide * kSide * kSide>
      tables;
  unsigned slot = (getP() * kSide + getQ()) * kSide + getR();
  std::call_once(once[slot], [&] {
    tables[slot] = ::uta::ga::Algebra::get(getP(), getQ(), getR());
  });
  return *tables[slot];
}

Attribute BladeSetAttr::parse(AsmParser &parser, Type) {
  // `<` (index (`,` index)*)? `>`, indices strictly ascending and below 64.
  uint64_t blades = 0;
  int64_t last = -1;
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalGreater()))
    return BladeSetAttr::get(parser.getContext(), blades);
  do {
    SMLoc loc = parser.getCurrentLocation();
    int64_t blade = 0;
    if (parser.parseInteger(blade))
      return {};
    if (blade < 0 || blade >= 64) {
      parser.emitError(loc)
          << "blade index " << blade << " is out of range (0 to 63)";
      return {};
    }
    if (blade <= last) {
      parser.emitError(loc) << "blade indices must be strictly ascending, but "
                            << blade << " follows " << last;
      return {};
    }
    blades |= uint64_t(1) << blade;
    last = blade;
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater())
    return {};
  return BladeSetAttr::get(parser.getContext(), blades);
}

void BladeSetAttr::print(AsmPrinter &printer) const {
  printer << '<';
  bool first = true;
  for (uint64_t rest = getBlades(); rest; rest &= rest - 1) {
    if (!first)
      printer << ", ";
    printer << std::countr_zero(rest);
    first = false;
  }
  printer << '>';
}
