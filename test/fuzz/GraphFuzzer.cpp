//===- GraphFuzzer.cpp - grammar-aware libFuzzer harness of the IR --------===//
//
// MlirFuzzer mutates text, so nearly every input it makes fails in MLIR's
// parser and few reach the verifiers and passes. This harness reads its
// bytes as choices instead (FuzzedDataProvider) and writes a graph that is
// well formed by construction: uta and clifford ops on tensors of small
// shapes, uta.fusion regions, constants and returns. Then, as the choices
// say, it breaks the graph structurally: a yield with no value or two, a
// region that is empty, takes the wrong arguments, reads a value from
// above or holds another region; dimensions off by one, zero or past
// int64; attributes out of range (dims, permutations, grades, blade axes,
// algebras of more than 6 dimensions); a value returned twice, an argument
// returned; an op in generic form with an operand too many or too few.
//
// Each graph goes through utac's entry (InputModule::parse: the nesting
// bound, MLIR's parser and every verifier); one that verifies is compiled
// to SPIR-V and PTX as utac compiles it and interpreted by the float64
// reference under a small budget. A compile that succeeds must write a
// manifest the runtime's reader accepts. Errors are expected (MLIR prints
// them); a crash, a sanitizer report, an abort or a hang is a bug.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Input.h"
#include "test/fuzz/CompileChecks.h"

#include "llvm/ADT/StringExtras.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::uta;

namespace {

/// A tensor value of the graph being written.
struct Tensor {
  std::string name;
  std::vector<int64_t> shape;
  std::string element = "f32";
};

std::string typeOf(const std::vector<int64_t> &shape,
                   const std::string &element) {
  std::string text = "tensor<";
  // (A negative size is written as a dynamic one, which UTA refuses.)
  for (int64_t size : shape)
    text += (size < 0 ? std::string("?") : std::to_string(size)) + "x";
  return text + element + ">";
}

std::string typeOf(const Tensor &value) {
  return typeOf(value.shape, value.element);
}

std::string joinInts(const std::vector<int64_t> &values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text;
}

constexpr const char *kUnaryOps[] = {"exp",   "log",  "neg",     "abs",  "sqrt",
                                     "rsqrt", "tanh", "sigmoid", "relu", "silu",
                                     "gelu",  "erf",  "sign"};
constexpr const char *kBinaryOps[] = {"add", "sub", "mul", "div",
                                      "max", "min", "pow"};
constexpr const char *kReduceOps[] = {"reduce_sum", "reduce_max",
                                      "reduce_mean"};
constexpr const char *kElementTypes[] = {"f32", "f16", "bf16"};
constexpr const char *kCliffordUnaryOps[] = {"reverse", "grade_involution",
                                             "conjugate", "scalar_gate",
                                             "grade_rms_norm"};
constexpr const char *kCliffordBinaryOps[] = {
    "geometric_product", "outer_product", "left_contraction"};

/// Writes one graph from the fuzzer's choices.
class GraphWriter {
public:
  explicit GraphWriter(FuzzedDataProvider &choices) : choices(choices) {}

  std::string write() {
    // Half the graphs are left well formed; the others are broken in one
    // or two places.
    breaks = choices.ConsumeIntegralInRange<int>(-2, 2);
    unsigned ops = choices.ConsumeIntegralInRange<unsigned>(1, 12);
    for (unsigned i = 0; i < ops && choices.remaining_bytes(); ++i)
      writeOp();
    std::string text = "func.func @graph(";
    for (size_t i = 0; i < arguments.size(); ++i)
      text += (i ? ", " : "") + arguments[i].name + ": " + typeOf(arguments[i]);
    std::vector<Tensor> results = chooseResults();
    text += ") -> (";
    for (size_t i = 0; i < results.size(); ++i)
      text += (i ? ", " : "") + returnType(results[i]);
    text += ") {\n" + body + "  return ";
    for (size_t i = 0; i < results.size(); ++i)
      text += (i ? ", " : "") + results[i].name;
    if (!results.empty())
      text += " : ";
    for (size_t i = 0; i < results.size(); ++i)
      text += (i ? ", " : "") + typeOf(results[i]);
    return text + "\n}\n";
  }

private:
  /// Whether to break what is being written: one time in eight while the
  /// graph's breaks last.
  bool breakIt() {
    if (breaks <= 0 || choices.ConsumeIntegralInRange<int>(0, 7) != 0)
      return false;
    --breaks;
    return true;
  }

  template <typename T, size_t N> const T &pick(const T (&table)[N]) {
    return table[choices.ConsumeIntegralInRange<size_t>(0, N - 1)];
  }

  /// A size as the choices give it: small, or broken (0, off by one, huge).
  int64_t size(int64_t usual) {
    if (!breakIt())
      return usual;
    switch (choices.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
      return 0;
    case 1:
      return usual + 1;
    case 2:
      return int64_t(1) << 40;
    case 3:
      return -1;
    default:
      return std::max<int64_t>(1, usual - 1);
    }
  }

  std::vector<int64_t> smallShape(unsigned minRank = 1) {
    unsigned rank = choices.ConsumeIntegralInRange<unsigned>(minRank, 3);
    std::vector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(choices.ConsumeIntegralInRange<int64_t>(1, 5));
    return shape;
  }

  std::string fresh() { return "%v" + std::to_string(counter++); }

  /// A value to read: one already written, or a new argument of `shape`
  /// (a new argument of a small shape when `shape` is empty).
  /// (Values of rank 0, which a reduction makes, are read only where
  /// `shape` asks for rank 0 by being {}: no op here needs them.)
  /// New arguments are of `element` (now and then, broken, of another).
  Tensor operand(std::vector<int64_t> shape = {},
                 const std::string &element = "f32") {
    std::vector<const Tensor *> matching;
    for (const Tensor &value : values)
      if (!value.shape.empty() && (shape.empty() || value.shape == shape) &&
          value.element == element)
        matching.push_back(&value);
    if (!matching.empty() && choices.ConsumeBool())
      return *matching[choices.ConsumeIntegralInRange<size_t>(
          0, matching.size() - 1)];
    Tensor argument{"%arg" + std::to_string(arguments.size()),
                    shape.empty() ? smallShape() : shape, element};
    if (breakIt())
      argument.element = pick(kElementTypes);
    arguments.push_back(argument);
    values.push_back(argument);
    return argument;
  }

  /// Appends `result = text : type` to the body and records the value.
  void emit(const std::string &text, Tensor result) {
    body += "  " + result.name + " = " + text + "\n";
    values.push_back(std::move(result));
  }

  /// The result type to write: now and then another than the op makes
  /// (a size or the element type changed). `result` takes it, so that its
  /// readers agree with it and the op's verifier, not the parser, judges.
  std::string resultType(Tensor &result) {
    if (breakIt()) {
      if (!result.shape.empty()) {
        size_t d =
            choices.ConsumeIntegralInRange<size_t>(0, result.shape.size() - 1);
        result.shape[d] = size(result.shape[d]);
      }
      result.element = pick(kElementTypes);
    }
    return typeOf(result);
  }

  /// A function result type: now and then another than the value's.
  std::string returnType(const Tensor &result) {
    Tensor declared = result;
    return resultType(declared);
  }

  void writeOp() {
    switch (choices.ConsumeIntegralInRange<int>(0, 12)) {
    case 0:
    case 1:
      return writeUnary();
    case 2:
    case 3:
      return writeBinary();
    case 4:
      return writeMatmul();
    case 5:
      return writeReduce();
    case 6:
      return writeSoftmaxOrTranspose();
    case 7:
      return writeReshapeOrBroadcast();
    case 8:
      return writeConstant();
    case 9:
    case 10:
      return writeFusion();
    case 11:
      return writeClifford();
    default:
      return writeGenericOp();
    }
  }

  void writeUnary() {
    Tensor x = operand({}, choices.ConsumeIntegralInRange<int>(0, 3)
                               ? "f32"
                               : pick(kElementTypes));
    Tensor result{fresh(), x.shape, x.element};
    emit(std::string("uta.") + pick(kUnaryOps) + " " + x.name + " : " +
             typeOf(x),
         result);
  }

  void writeBinary() {
    Tensor x = operand();
    // The other operand: the same shape, its last dimension (broadcast),
    // or, broken, another shape.
    std::vector<int64_t> shape = x.shape;
    if (choices.ConsumeBool())
      shape = {x.shape.back()}; // (operands have rank 1 or more)
    if (breakIt())
      shape = smallShape();
    Tensor y = operand(shape, x.element);
    Tensor result{fresh(), x.shape, x.element};
    std::string type = resultType(result);
    emit(std::string("uta.") + pick(kBinaryOps) + " " + x.name + ", " + y.name +
             " : (" + typeOf(x) + ", " + typeOf(y) + ") -> " + type,
         result);
  }

  void writeMatmul() {
    int64_t m = choices.ConsumeIntegralInRange<int64_t>(1, 9);
    int64_t k = choices.ConsumeIntegralInRange<int64_t>(1, 9);
    int64_t n = choices.ConsumeIntegralInRange<int64_t>(1, 9);
    bool transposeA = choices.ConsumeBool();
    bool transposeB = choices.ConsumeBool();
    Tensor a = operand(transposeA ? std::vector<int64_t>{k, m}
                                  : std::vector<int64_t>{m, k});
    Tensor b = operand(transposeB ? std::vector<int64_t>{n, size(k)}
                                  : std::vector<int64_t>{size(k), n},
                       a.element);
    Tensor result{fresh(), {m, n}, a.element};
    std::string type = resultType(result);
    std::vector<std::string> flags;
    if (transposeA)
      flags.push_back("transpose_a = true");
    if (transposeB)
      flags.push_back("transpose_b = true");
    std::string attributes =
        flags.empty() ? "" : " {" + llvm::join(flags, ", ") + "}";
    emit("uta.matmul " + a.name + ", " + b.name + attributes + " : (" +
             typeOf(a) + ", " + typeOf(b) + ") -> " + type,
         result);
  }

  void writeReduce() {
    Tensor x = operand();
    int64_t rank = int64_t(x.shape.size());
    int64_t dim = choices.ConsumeIntegralInRange<int64_t>(0, rank - 1);
    std::vector<int64_t> shape = x.shape;
    shape.erase(shape.begin() + dim);
    if (breakIt())
      dim = choices.ConsumeBool() ? rank : -1;
    Tensor result{fresh(), shape, x.element};
    std::string type = resultType(result);
    emit(std::string("uta.") + pick(kReduceOps) + " " + x.name + " dims [" +
             std::to_string(dim) + "] : " + typeOf(x) + " -> " + type,
         result);
  }

  void writeSoftmaxOrTranspose() {
    Tensor x = operand();
    int64_t rank = int64_t(x.shape.size());
    if (choices.ConsumeBool()) {
      int64_t dim = size(choices.ConsumeIntegralInRange<int64_t>(0, rank - 1));
      Tensor result{fresh(), x.shape, x.element};
      emit("uta.softmax " + x.name + " dim " + std::to_string(dim) + " : " +
               typeOf(x),
           result);
      return;
    }
    std::vector<int64_t> permutation;
    for (int64_t d = rank - 1; d >= 0; --d)
      permutation.push_back(d);
    std::vector<int64_t> shape;
    for (int64_t d : permutation)
      shape.push_back(x.shape[d]);
    if (breakIt())
      permutation[0] = permutation.back();
    Tensor result{fresh(), shape, x.element};
    std::string type = resultType(result);
    emit("uta.transpose " + x.name + " [" + joinInts(permutation) +
             "] : " + typeOf(x) + " -> " + type,
         result);
  }

  void writeReshapeOrBroadcast() {
    Tensor x = operand();
    int64_t count = 1;
    for (int64_t s : x.shape)
      count *= s;
    bool reshape = choices.ConsumeBool();
    std::vector<int64_t> shape =
        reshape ? std::vector<int64_t>{size(count)} : x.shape;
    if (!reshape)
      shape.insert(shape.begin(),
                   choices.ConsumeIntegralInRange<int64_t>(1, 3));
    Tensor result{fresh(), shape, x.element};
    std::string type = resultType(result);
    emit(std::string(reshape ? "uta.reshape " : "uta.broadcast_to ") + x.name +
             " : " + typeOf(x) + " -> " + type,
         result);
  }

  void writeConstant() {
    std::vector<int64_t> shape = smallShape();
    if (breakIt())
      shape.back() = size(shape.back());
    Tensor result{fresh(), shape, "f32"};
    std::string value = choices.ConsumeBool() ? "1.5" : "-0.25";
    emit("arith.constant dense<" + value + "> : " + typeOf(shape, "f32"),
         result);
  }

  /// A uta.fusion of a few pointwise ops over block arguments, in generic
  /// form, so that every part of it can be broken.
  void writeFusion() {
    Tensor x = operand();
    unsigned numInputs = choices.ConsumeIntegralInRange<unsigned>(1, 2);
    std::vector<Tensor> inputs = {x};
    if (numInputs == 2)
      inputs.push_back(operand(x.shape, x.element));
    // Block arguments: as many as inputs and of their types, unless broken.
    std::vector<Tensor> blockArguments;
    size_t numArguments = inputs.size();
    if (breakIt())
      numArguments = choices.ConsumeIntegralInRange<size_t>(0, 3);
    for (size_t i = 0; i < numArguments; ++i) {
      Tensor argument{"%b" + std::to_string(counter++), x.shape, x.element};
      if (i < inputs.size())
        argument = {argument.name, inputs[i].shape, inputs[i].element};
      if (breakIt())
        argument.element = pick(kElementTypes);
      blockArguments.push_back(argument);
    }
    std::string region;
    if (!blockArguments.empty()) {
      region += "  ^bb0(";
      for (size_t i = 0; i < blockArguments.size(); ++i)
        region += (i ? ", " : "") + blockArguments[i].name + ": " +
                  typeOf(blockArguments[i]);
      region += "):\n";
    }
    // The body: pointwise ops on the block arguments (or, broken, on a
    // value from above, which the region may not read).
    std::vector<Tensor> inside = blockArguments;
    if (inside.empty() || breakIt())
      inside.push_back(x);
    unsigned numOps =
        choices.ConsumeIntegralInRange<unsigned>(breakIt() ? 0 : 1, 3);
    for (unsigned i = 0; i < numOps; ++i) {
      const Tensor &a =
          inside[choices.ConsumeIntegralInRange<size_t>(0, inside.size() - 1)];
      Tensor result{"%f" + std::to_string(counter++), a.shape, a.element};
      if (choices.ConsumeBool()) {
        region += "    " + result.name + " = uta." + pick(kUnaryOps) + " " +
                  a.name + " : " + typeOf(a) + "\n";
      } else {
        const Tensor &b = inside[choices.ConsumeIntegralInRange<size_t>(
            0, inside.size() - 1)];
        region += "    " + result.name + " = uta." + pick(kBinaryOps) + " " +
                  a.name + ", " + b.name + " : (" + typeOf(a) + ", " +
                  typeOf(b) + ") -> " + typeOf(result) + "\n";
      }
      inside.push_back(result);
    }
    if (breakIt()) // a fusion inside the fusion
      region += "    %n" + std::to_string(counter++) +
                " = \"uta.fusion\"() ({\n    }) : () -> " + typeOf(x) + "\n";
    // The yield: of the last value, unless broken (no value, two values,
    // none at all, or of another type).
    const Tensor &last = inside.back();
    switch (breakIt() ? choices.ConsumeIntegralInRange<int>(0, 3) : 4) {
    case 0:
      region += "    \"uta.yield\"() : () -> ()\n";
      break;
    case 1:
      region += "    \"uta.yield\"(" + last.name + ", " + last.name + ") : (" +
                typeOf(last) + ", " + typeOf(last) + ") -> ()\n";
      break;
    case 2:
      break;
    case 3:
      region += "    \"uta.yield\"(" + last.name + ") : (" + typeOf(last) +
                ") -> ()\n";
      region += "  ^bb1:\n    \"uta.yield\"(" + last.name + ") : (" +
                typeOf(last) + ") -> ()\n";
      break;
    default:
      region += "    \"uta.yield\"(" + last.name + ") : (" + typeOf(last) +
                ") -> ()\n";
    }
    Tensor result{fresh(), last.shape, last.element};
    std::string operands, types;
    for (size_t i = 0; i < inputs.size(); ++i) {
      operands += (i ? ", " : "") + inputs[i].name;
      types += (i ? ", " : "") + typeOf(inputs[i]);
    }
    std::string type = resultType(result);
    emit("\"uta.fusion\"(" + operands + ") ({\n" + region + "  }) : (" + types +
             ") -> " + type,
         result);
  }

  /// A clifford op on a multivector tensor [2^n, B] of an algebra the
  /// choices give (now and then past 6 dimensions, or with an axis that is
  /// not the blade axis).
  void writeClifford() {
    int p = choices.ConsumeIntegralInRange<int>(0, 3);
    int q = choices.ConsumeIntegralInRange<int>(0, 1);
    int r = choices.ConsumeIntegralInRange<int>(0, 1);
    if (breakIt())
      p = choices.ConsumeIntegralInRange<int>(4, 9);
    int64_t blades = int64_t(1) << std::min(p + q + r, 20);
    int64_t batch = choices.ConsumeIntegralInRange<int64_t>(1, 4);
    std::string algebra = "<" + std::to_string(p) + ", " + std::to_string(q) +
                          ", " + std::to_string(r) + ">";
    int64_t features = choices.ConsumeIntegralInRange<int64_t>(1, 3);
    Tensor x = operand({size(blades), batch, features});
    std::string axis =
        breakIt() ? " {blade_axis = " + std::to_string(size(1)) + "}" : "";
    Tensor result{fresh(), x.shape, x.element};
    switch (choices.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      emit(std::string("clifford.") + pick(kCliffordUnaryOps) + " " + algebra +
               " " + x.name + axis + " : " + typeOf(x),
           result);
      return;
    case 1: {
      int64_t grade =
          size(choices.ConsumeIntegralInRange<int64_t>(0, p + q + r));
      emit("clifford.grade_project " + algebra + " " + x.name + " grades [" +
               std::to_string(grade) + "]" + axis + " : " + typeOf(x),
           result);
      return;
    }
    default: {
      Tensor y = operand(x.shape);
      std::string type = resultType(result);
      emit(std::string("clifford.") + pick(kCliffordBinaryOps) + " " + algebra +
               " " + x.name + ", " + y.name + axis + " : (" + typeOf(x) + ", " +
               typeOf(y) + ") -> " + type,
           result);
    }
    }
  }

  /// An op in generic form with an operand too many or too few, or a
  /// region it does not take.
  void writeGenericOp() {
    if (!breakIt())
      return writeUnary();
    Tensor x = operand();
    Tensor result{fresh(), x.shape, x.element};
    std::string name = std::string("uta.") + pick(kUnaryOps);
    switch (choices.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      emit("\"" + name + "\"() : () -> " + typeOf(x), result);
      return;
    case 1:
      emit("\"" + name + "\"(" + x.name + ", " + x.name + ") : (" + typeOf(x) +
               ", " + typeOf(x) + ") -> " + typeOf(x),
           result);
      return;
    default:
      emit("\"" + name + "\"(" + x.name + ") ({\n  }) : (" + typeOf(x) +
               ") -> " + typeOf(x),
           result);
    }
  }

  /// The values returned: the last one, or, as the choices say, a value
  /// twice, an argument, or none.
  std::vector<Tensor> chooseResults() {
    if (values.empty())
      return {operand()};
    std::vector<Tensor> results = {values.back()};
    switch (choices.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      results.push_back(values.back());
      break;
    case 1:
      if (!arguments.empty())
        results.push_back(arguments.front());
      break;
    case 2:
      results.push_back(
          values[choices.ConsumeIntegralInRange<size_t>(0, values.size() - 1)]);
      break;
    case 3:
      if (breakIt())
        results.clear();
      break;
    default:
      break;
    }
    return results;
  }

  FuzzedDataProvider &choices;
  int breaks = 0;
  std::vector<Tensor> arguments, values;
  std::string body;
  unsigned counter = 0;
};

/// The reference's budget here: small, so that inputs stay fast.
constexpr uint64_t kReferenceBudget = uint64_t(1) << 20;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ::uta::fuzz::ScratchFolder folder("GraphFuzzer");
  static const std::string path = (folder.path / "graph.mlir").string();
  FuzzedDataProvider choices(data, size);
  std::string graph = GraphWriter(choices).write();
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << graph;
    file.close();
    ::uta::fuzz::check(file.good(), "GraphFuzzer",
                       "cannot write the scratch file");
  }
  // UTA_GRAPH_FUZZER_PRINT=1 shows the graph an input makes (to reproduce
  // a crash with utac).
  static const bool print = std::getenv("UTA_GRAPH_FUZZER_PRINT");
  if (print)
    std::fprintf(stderr, "%s", graph.c_str());
  std::unique_ptr<InputModule> input = InputModule::parse(path, "GraphFuzzer");
  if (!input)
    return 0;
  input->getContext().disableMultithreading();
  for (Target target : {Target::Spirv, Target::Ptx})
    ::uta::fuzz::compileAndReadManifest(*input->getModule(), target,
                                        "GraphFuzzer");
  ::uta::fuzz::interpretWithBudget(*input->getModule(), kReferenceBudget);
  return 0;
}
