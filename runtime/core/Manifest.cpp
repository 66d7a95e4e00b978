//===- Manifest.cpp - Reading and checking a manifest ---------------------===//
//
// The reader walks the JSON document once, keeping the key path of where it
// is, so every message says exactly which key is missing or wrong. nlohmann
// json is used without exceptions: the document is parsed with
// allow_exceptions=false, and values are only read after their type has been
// checked (a wrong-typed get<> would abort in a -fno-exceptions build).
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Manifest.h"

#include "runtime/core/Half.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>

using namespace uta::runtime;
using json = nlohmann::json;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

const char *uta::runtime::elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::kF32:
    return "f32";
  case ElementType::kF16:
    return "f16";
  case ElementType::kBF16:
    return "bf16";
  }
  return "?";
}

std::optional<ElementType>
uta::runtime::parseElementType(std::string_view name) {
  if (name == "f32")
    return ElementType::kF32;
  if (name == "f16")
    return ElementType::kF16;
  if (name == "bf16")
    return ElementType::kBF16;
  return std::nullopt;
}

size_t uta::runtime::elementTypeSize(ElementType type) {
  return type == ElementType::kF32 ? 4 : 2;
}

const char *uta::runtime::moduleTargetName(ModuleTarget target) {
  switch (target) {
  case ModuleTarget::kPtx:
    return "ptx";
  case ModuleTarget::kSpirv:
    return "spirv";
  case ModuleTarget::kMsl:
    return "msl";
  }
  return "?";
}

const char *uta::runtime::bufferRoleName(BufferRole role) {
  switch (role) {
  case BufferRole::kArgument:
    return "argument";
  case BufferRole::kResult:
    return "result";
  case BufferRole::kIntermediate:
    return "intermediate";
  case BufferRole::kConstant:
    return "constant";
  }
  return "?";
}

uint64_t BufferDesc::numElements() const {
  // The reader has checked the shape; a hand-made one that overflows is 0.
  return checkedElementCount(shape).value_or(0);
}

const BufferDesc *Manifest::findBuffer(int64_t id) const {
  for (const BufferDesc &buffer : buffers)
    if (buffer.id == id)
      return &buffer;
  return nullptr;
}

/// Positions of the buffers with `role`, ordered by their index.
static std::vector<size_t> buffersByIndex(const Manifest &manifest,
                                          BufferRole role) {
  std::map<int64_t, size_t> byIndex;
  for (size_t i = 0; i < manifest.buffers.size(); ++i)
    if (manifest.buffers[i].role == role)
      byIndex[manifest.buffers[i].index] = i;
  std::vector<size_t> positions;
  for (auto &entry : byIndex)
    positions.push_back(entry.second);
  return positions;
}

std::vector<size_t> Manifest::argumentBuffers() const {
  return buffersByIndex(*this, BufferRole::kArgument);
}

std::vector<size_t> Manifest::resultBuffers() const {
  std::vector<size_t> positions;
  for (int64_t id : results)
    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i].id == id)
        positions.push_back(i);
  return positions;
}

std::string Manifest::modulePath() const {
  if (directory.empty())
    return module;
  return directory + "/" + module;
}

//===----------------------------------------------------------------------===//
// Files (the reading itself is UntrustedFile's)
//===----------------------------------------------------------------------===//

Expected<std::vector<std::byte>> uta::runtime::readModule(const Manifest &m) {
  return readFileInFolder(m.directory, m.module, kMaxModuleBytes);
}

//===----------------------------------------------------------------------===//
// The reader
//===----------------------------------------------------------------------===//

namespace {

/// "a string", "an integer", ... for "expected X, got Y".
const char *describe(const json &value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::object:
    return "an object";
  case json::value_t::array:
    return "an array";
  case json::value_t::string:
    return "a string";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    return "an integer";
  case json::value_t::number_float:
    return "a number";
  default:
    return "something else";
  }
}

std::string join(const std::string &path, std::string_view key) {
  if (path.empty())
    return std::string(key);
  return path + "." + std::string(key);
}

std::string element(const std::string &path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

/// Checks values against the schema, with messages that name the key path.
class Reader {
public:
  explicit Reader(std::string source) : source(std::move(source)) {}

  Status fail(const std::string &path, const std::string &what) const {
    if (path.empty())
      return Status::error(ErrorCode::InvalidInput, source + ": " + what);
    return Status::error(ErrorCode::InvalidInput,
                         source + ": " + path + ": " + what);
  }

  /// Looks up `key` in the object at `path`; fails when it is missing.
  Status member(const json &object, const std::string &path, const char *key,
                const json *&out) const {
    auto it = object.find(key);
    if (it == object.end())
      return fail(path, std::string("expected \"") + key + "\"");
    out = &*it;
    return Status();
  }

  Status object(const json &value, const std::string &path) const {
    if (!value.is_object())
      return fail(path,
                  std::string("expected an object, got ") + describe(value));
    return Status();
  }

  Status array(const json &object, const std::string &path, const char *key,
               const json *&out) const {
    UTA_TRY(member(object, path, key, out));
    if (!out->is_array())
      return fail(join(path, key),
                  std::string("expected an array, got ") + describe(*out));
    return Status();
  }

  Status string(const json &object, const std::string &path, const char *key,
                std::string &out) const {
    const json *value;
    UTA_TRY(member(object, path, key, value));
    if (!value->is_string())
      return fail(join(path, key),
                  std::string("expected a string, got ") + describe(*value));
    out = value->get<std::string>();
    return Status();
  }

  /// An integer in [lo, hi], as a value or at `path`.
  Status integer(const json &value, const std::string &path, int64_t lo,
                 int64_t hi, int64_t &out) const {
    if (!value.is_number_integer())
      return fail(path,
                  std::string("expected an integer, got ") + describe(value));
    if (value.is_number_unsigned() &&
        value.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
      return fail(path, "integer out of range");
    int64_t v = value.get<int64_t>();
    if (v < lo || v > hi)
      return fail(path, std::to_string(v) + " is out of range [" +
                            std::to_string(lo) + ", " + std::to_string(hi) +
                            "]");
    out = v;
    return Status();
  }

  Status integer(const json &object, const std::string &path, const char *key,
                 int64_t lo, int64_t hi, int64_t &out) const {
    const json *value;
    UTA_TRY(member(object, path, key, value));
    return integer(*value, join(path, key), lo, hi, out);
  }

  /// An array of exactly three positive 32-bit sizes (grid, block).
  Status dims3(const json &object, const std::string &path, const char *key,
               std::array<uint32_t, 3> &out) const {
    const json *value;
    UTA_TRY(array(object, path, key, value));
    std::string at = join(path, key);
    if (value->size() != 3)
      return fail(at, "expected 3 sizes, got " + std::to_string(value->size()));
    for (size_t i = 0; i < 3; ++i) {
      int64_t v;
      UTA_TRY(integer((*value)[i], element(at, i), 1,
                      std::numeric_limits<uint32_t>::max(), v));
      out[i] = uint32_t(v);
    }
    return Status();
  }

private:
  std::string source;
};

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
/// cuTensorMapEncodeTiled's limits: five dimensions, boxes of 256.
constexpr size_t kMaxTensorMapRank = 5;
constexpr int64_t kMaxTensorMapBox = 256;

/// One constant value: a number, or "nan", "inf", "-inf" (JSON has no
/// non-finite numbers).
Status constantValue(const Reader &reader, const json &value,
                     const std::string &path, double &out) {
  if (value.is_number()) {
    out = value.get<double>();
    return Status();
  }
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    if (text == "nan") {
      out = std::numeric_limits<double>::quiet_NaN();
      return Status();
    }
    if (text == "inf" || text == "-inf") {
      out = text == "inf" ? std::numeric_limits<double>::infinity()
                          : -std::numeric_limits<double>::infinity();
      return Status();
    }
  }
  return reader.fail(path, std::string("expected a number (or \"nan\", "
                                       "\"inf\", \"-inf\"), got ") +
                               describe(value));
}

/// Stores `value` as element `i` of `data` in `type`'s storage.
void storeElement(std::vector<std::byte> &data, ElementType type, size_t i,
                  double value) {
  float f = float(value);
  if (type == ElementType::kF32) {
    std::memcpy(&data[i * 4], &f, 4);
    return;
  }
  uint16_t bits =
      type == ElementType::kF16 ? floatToHalf(f) : floatToBfloat16(f);
  std::memcpy(&data[i * 2], &bits, 2);
}

Status parseBuffer(const Reader &reader, const json &value,
                   const std::string &path, const std::string &directory,
                   BufferDesc &buffer) {
  UTA_TRY(reader.object(value, path));
  UTA_TRY(reader.integer(value, path, "id", 0, kMaxInt64, buffer.id));

  std::string role;
  UTA_TRY(reader.string(value, path, "role", role));
  if (role == "argument")
    buffer.role = BufferRole::kArgument;
  else if (role == "result")
    buffer.role = BufferRole::kResult;
  else if (role == "intermediate")
    buffer.role = BufferRole::kIntermediate;
  else if (role == "constant")
    buffer.role = BufferRole::kConstant;
  else
    return reader.fail(join(path, "role"),
                       "unknown role \"" + role +
                           "\" (expected argument, result, intermediate or "
                           "constant)");
  if (buffer.role == BufferRole::kArgument ||
      buffer.role == BufferRole::kResult)
    UTA_TRY(reader.integer(value, path, "index", 0, kMaxInt64, buffer.index));

  std::string dtype;
  UTA_TRY(reader.string(value, path, "dtype", dtype));
  std::optional<ElementType> type = parseElementType(dtype);
  if (!type)
    return reader.fail(join(path, "dtype"),
                       "unknown dtype \"" + dtype +
                           "\" (expected f32, f16 or bf16)");
  buffer.type = *type;

  const json *shape;
  UTA_TRY(reader.array(value, path, "shape", shape));
  std::string shapePath = join(path, "shape");
  for (size_t i = 0; i < shape->size(); ++i) {
    int64_t extent;
    UTA_TRY(reader.integer((*shape)[i], element(shapePath, i), 0, kMaxInt64,
                           extent));
    buffer.shape.push_back(extent);
  }
  // Checked before anything is sized from it: 2^32 x 2^32 f32 is refused,
  // not wrapped to a small size.
  std::optional<uint64_t> byteSize =
      checkedByteSize(buffer.shape, elementTypeSize(buffer.type));
  if (!byteSize)
    return reader.fail(shapePath, shapeString(buffer.shape) + " of " + dtype +
                                      " has more bytes than fit int64");
  uint64_t elements = *checkedElementCount(buffer.shape);

  int64_t bytes;
  UTA_TRY(reader.integer(value, path, "bytes", 0, kMaxInt64, bytes));
  buffer.bytes = uint64_t(bytes);
  uint64_t expected = *byteSize;
  if (buffer.bytes != expected)
    return reader.fail(join(path, "bytes"),
                       std::to_string(bytes) + " does not match shape " +
                           shapeString(buffer.shape) + " of " + dtype + " (" +
                           std::to_string(expected) + " bytes)");

  int64_t alignment;
  UTA_TRY(
      reader.integer(value, path, "alignment", 1, int64_t(1) << 30, alignment));
  if (alignment & (alignment - 1))
    return reader.fail(join(path, "alignment"),
                       std::to_string(alignment) + " is not a power of two");
  buffer.alignment = uint64_t(alignment);

  if (buffer.role != BufferRole::kConstant)
    return Status();

  // Constant contents: inline "values", or raw bytes in a sibling
  // "data_file".
  auto values = value.find("values");
  auto dataFile = value.find("data_file");
  if (values != value.end() && dataFile != value.end())
    return reader.fail(path, "expected one of \"values\" and \"data_file\", "
                             "got both");
  if (values != value.end()) {
    std::string valuesPath = join(path, "values");
    if (!values->is_array())
      return reader.fail(valuesPath, std::string("expected an array, got ") +
                                         describe(*values));
    if (values->size() != elements)
      return reader.fail(valuesPath, "expected " + std::to_string(elements) +
                                         " values for shape " +
                                         shapeString(buffer.shape) + ", got " +
                                         std::to_string(values->size()));
    buffer.constantData.resize(buffer.bytes);
    for (size_t i = 0; i < values->size(); ++i) {
      double v;
      UTA_TRY(constantValue(reader, (*values)[i], element(valuesPath, i), v));
      storeElement(buffer.constantData, buffer.type, i, v);
    }
    return Status();
  }
  if (dataFile != value.end()) {
    std::string filePath = join(path, "data_file");
    if (!dataFile->is_string())
      return reader.fail(filePath, std::string("expected a string, got ") +
                                       describe(*dataFile));
    std::string name = dataFile->get<std::string>();
    std::string full = directory.empty() ? name : directory + "/" + name;
    // The manifest declares the size: a larger file is refused unread.
    Expected<std::vector<std::byte>> data =
        readFileInFolder(directory, name, buffer.bytes);
    if (!data)
      return reader.fail(filePath, data.status().message());
    if (data->size() != buffer.bytes)
      return reader.fail(
          filePath, full + " holds " + std::to_string(data->size()) +
                        " bytes, expected " + std::to_string(buffer.bytes));
    buffer.constantData = std::move(*data);
    return Status();
  }
  return reader.fail(path, "expected \"values\" (or \"data_file\")");
}

Status parseKernelArg(const Reader &reader, const json &value,
                      const std::string &path, ModuleTarget target,
                      KernelArg &arg) {
  UTA_TRY(reader.object(value, path));
  std::string kind;
  UTA_TRY(reader.string(value, path, "kind", kind));
  if (kind == "buffer") {
    arg.kind = KernelArg::Kind::kBuffer;
    UTA_TRY(reader.integer(value, path, "buffer", 0, kMaxInt64, arg.buffer));
  } else if (kind == "i32") {
    arg.kind = KernelArg::Kind::kI32;
    UTA_TRY(reader.integer(value, path, "value",
                           std::numeric_limits<int32_t>::min(),
                           std::numeric_limits<int32_t>::max(), arg.intValue));
  } else if (kind == "i64") {
    arg.kind = KernelArg::Kind::kI64;
    UTA_TRY(reader.integer(value, path, "value",
                           std::numeric_limits<int64_t>::min(), kMaxInt64,
                           arg.intValue));
  } else if (kind == "tensor_map") {
    if (target != ModuleTarget::kPtx)
      return reader.fail(join(path, "kind"),
                         "tensor maps are arguments of PTX kernels only");
    arg.kind = KernelArg::Kind::kTensorMap;
    UTA_TRY(reader.integer(value, path, "buffer", 0, kMaxInt64, arg.buffer));
    const json *box;
    UTA_TRY(reader.array(value, path, "box", box));
    std::string boxPath = join(path, "box");
    if (box->empty() || box->size() > kMaxTensorMapRank)
      return reader.fail(boxPath,
                         "a box has 1 to " + std::to_string(kMaxTensorMapRank) +
                             " dimensions, not " + std::to_string(box->size()));
    for (size_t i = 0; i < box->size(); ++i) {
      int64_t extent;
      UTA_TRY(reader.integer((*box)[i], element(boxPath, i), 1,
                             kMaxTensorMapBox, extent));
      arg.box.push_back(extent);
    }
    if (value.contains("swizzle")) {
      UTA_TRY(reader.integer(value, path, "swizzle", 0, 128, arg.swizzle));
      if (arg.swizzle != 0 && arg.swizzle != 32 && arg.swizzle != 64 &&
          arg.swizzle != 128)
        return reader.fail(join(path, "swizzle"),
                           std::to_string(arg.swizzle) +
                               " is not a swizzle (expected 0, 32, 64 or "
                               "128 bytes)");
    }
  } else if (kind == "f32") {
    arg.kind = KernelArg::Kind::kF32;
    const json *number;
    UTA_TRY(reader.member(value, path, "value", number));
    double v;
    UTA_TRY(constantValue(reader, *number, join(path, "value"), v));
    arg.floatValue = float(v);
  } else {
    return reader.fail(join(path, "kind"),
                       "unknown kind \"" + kind +
                           "\" (expected buffer, i32, i64, f32 or "
                           "tensor_map)");
  }

  auto binding = value.find("binding");
  if (binding != value.end()) {
    std::string at = join(path, "binding");
    UTA_TRY(reader.object(*binding, at));
    int64_t set, index;
    UTA_TRY(reader.integer(*binding, at, "set", 0,
                           std::numeric_limits<uint32_t>::max(), set));
    UTA_TRY(reader.integer(*binding, at, "binding", 0,
                           std::numeric_limits<uint32_t>::max(), index));
    arg.binding = std::array<uint32_t, 2>{uint32_t(set), uint32_t(index)};
  } else if (target == ModuleTarget::kSpirv) {
    return reader.fail(path, "expected \"binding\" (spirv target)");
  }
  if (value.contains("buffer_index")) {
    int64_t index;
    UTA_TRY(reader.integer(value, path, "buffer_index", 0,
                           std::numeric_limits<uint32_t>::max(), index));
    arg.bufferIndex = uint32_t(index);
  } else if (target == ModuleTarget::kMsl) {
    return reader.fail(path, "expected \"buffer_index\" (msl target)");
  }
  return Status();
}

/// The array `args` of the object at `path`.
Status parseKernelArgs(const Reader &reader, const json &value,
                       const std::string &path, ModuleTarget target,
                       std::vector<KernelArg> &out) {
  const json *args;
  UTA_TRY(reader.array(value, path, "args", args));
  std::string argsPath = join(path, "args");
  out.resize(args->size());
  for (size_t i = 0; i < args->size(); ++i)
    UTA_TRY(parseKernelArg(reader, (*args)[i], element(argsPath, i), target,
                           out[i]));
  return Status();
}

Status parseKernel(const Reader &reader, const json &value,
                   const std::string &path, ModuleTarget target,
                   KernelDesc &kernel) {
  UTA_TRY(reader.object(value, path));
  UTA_TRY(reader.string(value, path, "name", kernel.name));
  UTA_TRY(reader.string(value, path, "entry_point", kernel.entryPoint));
  if (kernel.entryPoint.empty())
    return reader.fail(join(path, "entry_point"), "is empty");
  return parseKernelArgs(reader, value, path, target, kernel.args);
}

bool isFlopsUnit(const std::string &unit) {
  for (const char *known : {"simt", "tf32", "3xtf32", "bf16", "f16"})
    if (unit == known)
      return true;
  return false;
}

/// A launch's `plan`: the row's name (optional), the schedule and precision,
/// the tile, the warps and the stages, as the compiler wrote them.
static Status parsePlan(const Reader &reader, const json &value,
                        const std::string &path, LaunchDesc &launch) {
  UTA_TRY(reader.object(value, path));
  LaunchDesc::Plan plan;
  if (value.contains("row"))
    UTA_TRY(reader.string(value, path, "row", plan.row));
  UTA_TRY(reader.string(value, path, "schedule", plan.schedule));
  UTA_TRY(reader.string(value, path, "precision", plan.precision));
  auto extents = [&](const char *key, auto &out) -> Status {
    const json *values;
    UTA_TRY(reader.array(value, path, key, values));
    std::string at = join(path, key);
    if (values->size() != out.size())
      return reader.fail(at, "expected " + std::to_string(out.size()) +
                                 " sizes, got " +
                                 std::to_string(values->size()));
    for (size_t i = 0; i < out.size(); ++i)
      UTA_TRY(
          reader.integer((*values)[i], element(at, i), 1, kMaxInt64, out[i]));
    return Status();
  };
  UTA_TRY(extents("tile", plan.tile));
  UTA_TRY(extents("warps", plan.warps));
  UTA_TRY(reader.integer(value, path, "stages", 1, kMaxInt64, plan.stages));
  UTA_TRY(reader.integer(value, path, "b_stages", 0, kMaxInt64, plan.bStages));
  launch.plan = std::move(plan);
  return Status();
}

/// `ownArgs` tells whether the launch gives arguments of its own (version
/// 2), which checkReferences compares with its kernel's.
Status parseLaunch(const Reader &reader, const json &value,
                   const std::string &path, ModuleTarget target,
                   int64_t version, LaunchDesc &launch, bool &ownArgs) {
  UTA_TRY(reader.object(value, path));
  ownArgs = value.contains("args");
  if (ownArgs && version < 2)
    return reader.fail(join(path, "args"),
                       "a launch's own arguments need version 2 (a reader "
                       "of version 1 would pass its kernel's)");
  if (ownArgs)
    UTA_TRY(parseKernelArgs(reader, value, path, target, launch.args));
  UTA_TRY(reader.string(value, path, "kernel", launch.kernel));
  UTA_TRY(reader.dims3(value, path, "grid", launch.grid));
  UTA_TRY(reader.dims3(value, path, "block", launch.block));
  int64_t shared;
  UTA_TRY(reader.integer(value, path, "shared_bytes", 0,
                         std::numeric_limits<uint32_t>::max(), shared));
  launch.sharedBytes = uint32_t(shared);
  if (value.contains("cluster")) {
    std::array<uint32_t, 3> cluster;
    UTA_TRY(reader.dims3(value, path, "cluster", cluster));
    launch.cluster = cluster;
  }
  if (value.contains("cost")) {
    std::string costPath = join(path, "cost");
    const json &cost = value["cost"];
    UTA_TRY(reader.object(cost, costPath));
    LaunchDesc::Cost parsed;
    UTA_TRY(reader.integer(cost, costPath, "bytes_read", 0, kMaxInt64,
                           parsed.bytesRead));
    UTA_TRY(reader.integer(cost, costPath, "bytes_written", 0, kMaxInt64,
                           parsed.bytesWritten));
    std::string flopsPath = join(costPath, "flops");
    const json *flops;
    UTA_TRY(reader.member(cost, costPath, "flops", flops));
    UTA_TRY(reader.object(*flops, flopsPath));
    for (const auto &[unit, count] : flops->items()) {
      if (!isFlopsUnit(unit))
        return reader.fail(join(flopsPath, unit),
                           "is not a unit of operations (simt, tf32, 3xtf32, "
                           "bf16 or f16)");
      int64_t operations;
      UTA_TRY(reader.integer(count, join(flopsPath, unit), 0, kMaxInt64,
                             operations));
      parsed.flops.emplace_back(unit, operations);
    }
    launch.cost = std::move(parsed);
  }
  if (value.contains("plan"))
    UTA_TRY(parsePlan(reader, value["plan"], join(path, "plan"), launch));
  if (value.contains("in_place")) {
    const json *pairs;
    UTA_TRY(reader.array(value, path, "in_place", pairs));
    std::string pairsPath = join(path, "in_place");
    for (size_t i = 0; i < pairs->size(); ++i) {
      std::string pairPath = element(pairsPath, i);
      const json &pair = (*pairs)[i];
      if (!pair.is_array() || pair.size() != 2)
        return reader.fail(pairPath, "must be a pair [input, result] of "
                                     "buffer ids");
      int64_t input, output;
      UTA_TRY(
          reader.integer(pair[0], element(pairPath, 0), 0, kMaxInt64, input));
      UTA_TRY(
          reader.integer(pair[1], element(pairPath, 1), 0, kMaxInt64, output));
      launch.inPlace.emplace_back(input, output);
    }
  }
  if (value.contains("zero")) {
    const json *zeroed;
    UTA_TRY(reader.array(value, path, "zero", zeroed));
    std::string zeroPath = join(path, "zero");
    launch.zeroed.resize(zeroed->size());
    for (size_t i = 0; i < zeroed->size(); ++i)
      UTA_TRY(reader.integer((*zeroed)[i], element(zeroPath, i), 0, kMaxInt64,
                             launch.zeroed[i]));
  }
  return Status();
}

/// Checks what no single key can: ids, indices, and the references between
/// buffers, kernels, launches and results.
/// What cuTensorMapEncodeTiled accepts: the box's rank is the buffer's,
/// every row (and the box's innermost extent) a multiple of 16 bytes.
Status checkTensorMap(const Reader &reader, const BufferDesc &buffer,
                      const KernelArg &arg, const std::string &path) {
  if (arg.box.size() != buffer.shape.size())
    return reader.fail(join(path, "box"),
                       "a box of " + std::to_string(arg.box.size()) +
                           " dimensions for buffer " +
                           std::to_string(buffer.id) + " of " +
                           std::to_string(buffer.shape.size()));
  uint64_t elementBytes = elementTypeSize(buffer.type);
  if (buffer.shape.size() > 1 && buffer.shape.back() * elementBytes % 16 != 0)
    return reader.fail(join(path, "buffer"),
                       "the rows of buffer " + std::to_string(buffer.id) +
                           " are not a multiple of 16 bytes, as tensor maps "
                           "need");
  if (arg.box.back() * elementBytes % 16 != 0)
    return reader.fail(join(path, "box"),
                       "the box's innermost extent is not a multiple of 16 "
                       "bytes, as tensor maps need");
  if (arg.swizzle != 0 &&
      uint64_t(arg.box.back()) * elementBytes > uint64_t(arg.swizzle))
    return reader.fail(join(path, "box"),
                       "the box's innermost extent is wider than its " +
                           std::to_string(arg.swizzle) + "-byte swizzle");
  return Status();
}

/// What a cluster launch needs: a PTX module for sm_90 (clusters are a
/// Hopper feature), a cluster shape that divides the grid, and at most 8
/// blocks per cluster, the portable size every sm_90 device runs.
Status checkCluster(const Reader &reader, const Manifest &manifest,
                    const LaunchDesc &launch, const std::string &path) {
  if (manifest.target != ModuleTarget::kPtx ||
      (manifest.sm != "90" && manifest.sm != "90a"))
    return reader.fail(path, "thread block clusters need a ptx module for "
                             "sm 90 or 90a");
  const std::array<uint32_t, 3> &cluster = *launch.cluster;
  for (size_t d = 0; d < 3; ++d)
    if (launch.grid[d] % cluster[d] != 0)
      return reader.fail(element(path, d),
                         "a cluster of " + std::to_string(cluster[d]) +
                             " blocks does not divide the grid's " +
                             std::to_string(launch.grid[d]));
  uint64_t blocks = uint64_t(cluster[0]) * cluster[1] * cluster[2];
  if (blocks > 8)
    return reader.fail(path, "a cluster of " + std::to_string(blocks) +
                                 " blocks; at most 8 are portable");
  return Status();
}

/// A launch's own arguments against its kernel's: the same kinds, slots and
/// tensor-map boxes, buffers that exist.
Status checkLaunchArgs(const Reader &reader, const Manifest &manifest,
                       const std::map<int64_t, size_t> &byId,
                       const LaunchDesc &launch, const std::string &path) {
  const KernelDesc &kernel = manifest.kernels[launch.kernelIndex];
  std::string argsPath = join(path, "args");
  if (launch.args.size() != kernel.args.size())
    return reader.fail(argsPath, std::to_string(launch.args.size()) +
                                     " arguments, where kernel \"" +
                                     kernel.name + "\" takes " +
                                     std::to_string(kernel.args.size()));
  for (size_t a = 0; a < launch.args.size(); ++a) {
    const KernelArg &arg = launch.args[a], &expected = kernel.args[a];
    std::string argPath = element(argsPath, a);
    bool sameBox = arg.box == expected.box && arg.swizzle == expected.swizzle;
    if (arg.kind != expected.kind || arg.binding != expected.binding ||
        arg.bufferIndex != expected.bufferIndex || !sameBox)
      return reader.fail(argPath, "differs from kernel \"" + kernel.name +
                                      "\"'s argument in more than its "
                                      "buffer or value");
    bool namesBuffer = arg.kind == KernelArg::Kind::kBuffer ||
                       arg.kind == KernelArg::Kind::kTensorMap;
    if (namesBuffer && !byId.count(arg.buffer))
      return reader.fail(join(argPath, "buffer"),
                         "no buffer with id " + std::to_string(arg.buffer));
    if (arg.kind == KernelArg::Kind::kTensorMap)
      UTA_TRY(checkTensorMap(reader, manifest.buffers[byId.at(arg.buffer)], arg,
                             argPath));
  }
  return Status();
}

Status checkReferences(const Reader &reader, Manifest &manifest,
                       const std::vector<bool> &ownArgs) {
  std::map<int64_t, size_t> byId;
  std::map<int64_t, size_t> argumentIndex, resultIndex;
  for (size_t i = 0; i < manifest.buffers.size(); ++i) {
    const BufferDesc &buffer = manifest.buffers[i];
    std::string path = element("buffers", i);
    if (!byId.emplace(buffer.id, i).second)
      return reader.fail(join(path, "id"),
                         "duplicate buffer id " + std::to_string(buffer.id));
    auto *indices = buffer.role == BufferRole::kArgument ? &argumentIndex
                    : buffer.role == BufferRole::kResult ? &resultIndex
                                                         : nullptr;
    if (indices && !indices->emplace(buffer.index, i).second)
      return reader.fail(join(path, "index"), std::string("duplicate ") +
                                                  bufferRoleName(buffer.role) +
                                                  " index " +
                                                  std::to_string(buffer.index));
  }
  // Argument positions are 0..n-1, so that inputs bind by position.
  int64_t expected = 0;
  for (auto &[index, position] : argumentIndex) {
    if (index != expected)
      return reader.fail(join(element("buffers", position), "index"),
                         "argument " + std::to_string(expected) +
                             " is missing (argument indices must be 0.." +
                             std::to_string(argumentIndex.size() - 1) + ")");
    ++expected;
  }

  for (size_t i = 0; i < manifest.results.size(); ++i) {
    std::string path = element("results", i);
    auto it = byId.find(manifest.results[i]);
    if (it == byId.end())
      return reader.fail(path, "no buffer with id " +
                                   std::to_string(manifest.results[i]));
    const BufferDesc &buffer = manifest.buffers[it->second];
    if (buffer.role == BufferRole::kIntermediate)
      return reader.fail(path, "buffer " + std::to_string(buffer.id) +
                                   " is an intermediate");
    if (buffer.role == BufferRole::kResult && buffer.index != int64_t(i))
      return reader.fail(path, "buffer " + std::to_string(buffer.id) +
                                   " has result index " +
                                   std::to_string(buffer.index));
  }
  for (auto &[index, position] : resultIndex)
    if (index >= int64_t(manifest.results.size()) ||
        manifest.results[index] != manifest.buffers[position].id)
      return reader.fail(element("buffers", position),
                         "result buffer " +
                             std::to_string(manifest.buffers[position].id) +
                             " is not results[" + std::to_string(index) + "]");

  std::map<std::string, size_t> kernelByName;
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const KernelDesc &kernel = manifest.kernels[k];
    std::string path = element("kernels", k);
    if (!kernelByName.emplace(kernel.name, k).second)
      return reader.fail(join(path, "name"),
                         "duplicate kernel name \"" + kernel.name + "\"");
    for (size_t a = 0; a < kernel.args.size(); ++a) {
      const KernelArg &arg = kernel.args[a];
      std::string argPath = element(join(path, "args"), a);
      bool namesBuffer = arg.kind == KernelArg::Kind::kBuffer ||
                         arg.kind == KernelArg::Kind::kTensorMap;
      if (namesBuffer && !byId.count(arg.buffer))
        return reader.fail(join(argPath, "buffer"),
                           "no buffer with id " + std::to_string(arg.buffer));
      if (arg.kind == KernelArg::Kind::kTensorMap)
        UTA_TRY(checkTensorMap(reader, manifest.buffers[byId.at(arg.buffer)],
                               arg, argPath));
    }
  }
  for (size_t l = 0; l < manifest.launches.size(); ++l) {
    LaunchDesc &launch = manifest.launches[l];
    auto it = kernelByName.find(launch.kernel);
    if (it == kernelByName.end())
      return reader.fail(join(element("launches", l), "kernel"),
                         "no kernel named \"" + launch.kernel + "\"");
    launch.kernelIndex = it->second;
    if (ownArgs[l])
      UTA_TRY(checkLaunchArgs(reader, manifest, byId, launch,
                              element("launches", l)));
    else
      launch.args = manifest.kernels[launch.kernelIndex].args;
    if (launch.cluster)
      UTA_TRY(checkCluster(reader, manifest, launch,
                           join(element("launches", l), "cluster")));
    std::string inPlacePath = join(element("launches", l), "in_place");
    launch.inPlacePositions.clear();
    for (size_t p = 0; p < launch.inPlace.size(); ++p) {
      auto [inputId, outputId] = launch.inPlace[p];
      auto input = byId.find(inputId), output = byId.find(outputId);
      if (input == byId.end() || output == byId.end())
        return reader.fail(
            element(inPlacePath, p),
            "no buffer with id " +
                std::to_string(input == byId.end() ? inputId : outputId));
      if (inputId == outputId || manifest.buffers[input->second].bytes !=
                                     manifest.buffers[output->second].bytes)
        return reader.fail(element(inPlacePath, p),
                           "pairs buffers " + std::to_string(inputId) +
                               " and " + std::to_string(outputId) +
                               ", which are not two of equal size");
      launch.inPlacePositions.emplace_back(input->second, output->second);
    }
    std::string zeroPath = join(element("launches", l), "zero");
    if (!launch.zeroed.empty() && manifest.target != ModuleTarget::kPtx)
      return reader.fail(zeroPath, "zeroing buffers before a launch is "
                                   "supported for ptx modules only");
    launch.zeroedPositions.clear();
    for (size_t z = 0; z < launch.zeroed.size(); ++z) {
      auto buffer = byId.find(launch.zeroed[z]);
      if (buffer == byId.end())
        return reader.fail(element(zeroPath, z),
                           "no buffer with id " +
                               std::to_string(launch.zeroed[z]));
      const BufferDesc &desc = manifest.buffers[buffer->second];
      if (desc.role != BufferRole::kIntermediate)
        return reader.fail(element(zeroPath, z),
                           "buffer " + std::to_string(desc.id) + " has role " +
                               bufferRoleName(desc.role) +
                               ", not intermediate");
      if (desc.bytes % 4 != 0)
        return reader.fail(element(zeroPath, z),
                           "buffer " + std::to_string(desc.id) + " has " +
                               std::to_string(desc.bytes) +
                               " bytes, not a multiple of 4");
      launch.zeroedPositions.push_back(buffer->second);
    }
  }
  return Status();
}

/// Collects the parser's message when the document is not valid JSON.
class ErrorCollector : public nlohmann::json_sax<json> {
public:
  std::string message;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t &) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &error) override {
    message = error.what();
    // Drop the library's "[json.exception.parse_error.101] " prefix.
    size_t bracket = message.find("] ");
    if (!message.empty() && message[0] == '[' && bracket != std::string::npos)
      message = message.substr(bracket + 2);
    return false;
  }
};

} // namespace

Expected<Manifest> uta::runtime::parseManifest(std::string_view text,
                                               std::string path,
                                               std::string directory) {
  Reader reader(path.empty() ? std::string("manifest") : path);
  json document = json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    ErrorCollector collector;
    json::sax_parse(text, &collector);
    return reader.fail("", "invalid JSON: " + collector.message);
  }
  UTA_TRY(reader.object(document, ""));

  Manifest manifest;
  manifest.path = std::move(path);
  manifest.directory = std::move(directory);

  std::string format;
  UTA_TRY(reader.string(document, "", "format", format));
  if (format != "uta-manifest")
    return reader.fail("format",
                       "expected \"uta-manifest\", got \"" + format + "\"");
  int64_t version;
  UTA_TRY(reader.integer(document, "", "version", 0, kMaxInt64, version));
  if (version != 1 && version != 2)
    return reader.fail("version", "unsupported version " +
                                      std::to_string(version) +
                                      " (this runtime reads versions 1 and 2)");

  std::string target;
  UTA_TRY(reader.string(document, "", "target", target));
  if (target == "ptx")
    manifest.target = ModuleTarget::kPtx;
  else if (target == "spirv")
    manifest.target = ModuleTarget::kSpirv;
  else if (target == "msl")
    manifest.target = ModuleTarget::kMsl;
  else
    return reader.fail("target", "unknown target \"" + target +
                                     "\" (expected ptx, spirv or msl)");
  if (manifest.target == ModuleTarget::kPtx) {
    UTA_TRY(reader.string(document, "", "sm", manifest.sm));
    static constexpr const char *kKnownSm[] = {"80", "86", "89", "90", "90a"};
    bool known = false;
    for (const char *sm : kKnownSm)
      known |= manifest.sm == sm;
    if (!known)
      return reader.fail("sm", "unknown sm \"" + manifest.sm +
                                   "\" (expected 80, 86, 89, 90 or 90a)");
  }

  UTA_TRY(reader.string(document, "", "entry", manifest.entry));
  UTA_TRY(reader.string(document, "", "module", manifest.module));
  if (Status name = checkFileNameInFolder(manifest.module); !name.ok())
    return reader.fail("module", name.message());

  const json *buffers, *kernels, *launches, *results;
  UTA_TRY(reader.array(document, "", "buffers", buffers));
  manifest.buffers.resize(buffers->size());
  for (size_t i = 0; i < buffers->size(); ++i)
    UTA_TRY(parseBuffer(reader, (*buffers)[i], element("buffers", i),
                        manifest.directory, manifest.buffers[i]));

  UTA_TRY(reader.array(document, "", "kernels", kernels));
  manifest.kernels.resize(kernels->size());
  for (size_t i = 0; i < kernels->size(); ++i)
    UTA_TRY(parseKernel(reader, (*kernels)[i], element("kernels", i),
                        manifest.target, manifest.kernels[i]));

  UTA_TRY(reader.array(document, "", "launches", launches));
  manifest.launches.resize(launches->size());
  std::vector<bool> ownArgs(launches->size());
  for (size_t i = 0; i < launches->size(); ++i) {
    bool own = false;
    UTA_TRY(parseLaunch(reader, (*launches)[i], element("launches", i),
                        manifest.target, version, manifest.launches[i], own));
    ownArgs[i] = own;
  }

  UTA_TRY(reader.array(document, "", "results", results));
  manifest.results.resize(results->size());
  for (size_t i = 0; i < results->size(); ++i)
    UTA_TRY(reader.integer((*results)[i], element("results", i), 0, kMaxInt64,
                           manifest.results[i]));

  UTA_TRY(checkReferences(reader, manifest, ownArgs));
  return manifest;
}

Expected<Manifest> uta::runtime::readManifest(const std::string &path) {
  Expected<std::vector<std::byte>> bytes = readFileBytes(path);
  if (!bytes)
    return bytes.status();
  size_t slash = path.rfind('/');
  std::string directory =
      slash == std::string::npos ? std::string(".") : path.substr(0, slash);
  if (directory.empty()) // "/out.json"
    directory = "/";
  std::string_view text(reinterpret_cast<const char *>(bytes->data()),
                        bytes->size());
  return parseManifest(text, path, std::move(directory));
}
