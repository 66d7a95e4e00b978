//===- Npy.cpp - Reading and writing NumPy .npy files ---------------------===//
//
// The format (numpy.lib.format): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (uint16 for 1.0, uint32 for 2.0 and 3.0,
// little-endian), then the header: a Python dict literal with exactly the
// keys 'descr', 'fortran_order' and 'shape', padded with spaces and ended by
// '\n' so that the data starts at a multiple of 64 bytes. The raw elements
// follow. The header is parsed by a small recursive-descent reader of that
// literal, never evaluated.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Npy.h"

#include "runtime/core/AtomicFile.h"
#include "runtime/core/Half.h"
#include "runtime/core/UntrustedFile.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

using namespace uta::runtime;

// The data is kept in file order and read and written by memcpy.
static_assert(std::endian::native == std::endian::little,
              "the .npy code assumes a little-endian host");

static constexpr char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = 6;
/// NumPy aligns the start of the data to this many bytes.
static constexpr size_t kAlignment = 64;
/// NumPy leaves room in the header for the first dimension to grow to this
/// many digits (so that files can be appended to in place).
static constexpr size_t kGrowthAxisMaxDigits = 21;

size_t uta::runtime::getNpyElementSize(NpyDType dtype) {
  switch (dtype) {
  case NpyDType::kFloat16:
    return 2;
  case NpyDType::kFloat32:
    return 4;
  case NpyDType::kFloat64:
    return 8;
  }
  return 0;
}

std::string_view uta::runtime::getNpyDescr(NpyDType dtype) {
  switch (dtype) {
  case NpyDType::kFloat16:
    return "<f2";
  case NpyDType::kFloat32:
    return "<f4";
  case NpyDType::kFloat64:
    return "<f8";
  }
  return "";
}

int64_t NpyArray::getNumElements() const {
  std::optional<uint64_t> count = checkedElementCount(shape);
  return count ? int64_t(*count) : -1;
}

/// The byte size of an array, or nothing if it does not fit in size_t.
static std::optional<size_t> getByteSize(NpyDType dtype,
                                         std::span<const int64_t> shape) {
  std::optional<uint64_t> bytes =
      checkedByteSize(shape, getNpyElementSize(dtype));
  if (!bytes || *bytes > std::numeric_limits<size_t>::max())
    return std::nullopt;
  return size_t(*bytes);
}

/// Python's repr of the shape tuple: "()", "(5,)", "(2, 3)".
static std::string formatShape(std::span<const int64_t> shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i != 0)
      text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    text += ",";
  return text + ")";
}

/// `text` made safe for a one-line message: non-printable characters become
/// '?' and long texts are cut.
static std::string sanitize(std::string_view text) {
  constexpr size_t kMaxLength = 40;
  std::string out;
  for (char c : text.substr(0, kMaxLength))
    out += (c >= ' ' && c <= '~') ? c : '?';
  if (text.size() > kMaxLength)
    out += "...";
  return out;
}

template <typename T>
static NpyArray makeArray(NpyDType dtype, std::span<const T> values,
                          std::vector<int64_t> shape) {
  NpyArray array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  array.data.resize(values.size_bytes());
  if (!values.empty())
    std::memcpy(array.data.data(), values.data(), values.size_bytes());
  return array;
}

NpyArray uta::runtime::makeNpyArray(std::span<const float> values,
                                    std::vector<int64_t> shape) {
  return makeArray(NpyDType::kFloat32, values, std::move(shape));
}

NpyArray uta::runtime::makeNpyArray(std::span<const double> values,
                                    std::vector<int64_t> shape) {
  return makeArray(NpyDType::kFloat64, values, std::move(shape));
}

NpyArray uta::runtime::makeNpyArrayFromHalfBits(std::span<const uint16_t> bits,
                                                std::vector<int64_t> shape) {
  return makeArray(NpyDType::kFloat16, bits, std::move(shape));
}

/// Calls `use(i, value)` for every element, widened to double.
template <typename Fn> static void forEachValue(const NpyArray &array, Fn use) {
  size_t elementSize = getNpyElementSize(array.dtype);
  size_t count = array.data.size() / elementSize;
  const std::byte *bytes = array.data.data();
  for (size_t i = 0; i < count; ++i) {
    const std::byte *at = bytes + i * elementSize;
    switch (array.dtype) {
    case NpyDType::kFloat16: {
      uint16_t bits;
      std::memcpy(&bits, at, sizeof(bits));
      use(i, double(halfToFloat(bits)));
      break;
    }
    case NpyDType::kFloat32: {
      float value;
      std::memcpy(&value, at, sizeof(value));
      use(i, double(value));
      break;
    }
    case NpyDType::kFloat64: {
      double value;
      std::memcpy(&value, at, sizeof(value));
      use(i, value);
      break;
    }
    }
  }
}

std::vector<double> uta::runtime::getNpyValuesAsDouble(const NpyArray &array) {
  std::vector<double> values(array.data.size() /
                             getNpyElementSize(array.dtype));
  forEachValue(array, [&](size_t i, double value) { values[i] = value; });
  return values;
}

std::vector<float> uta::runtime::getNpyValuesAsFloat(const NpyArray &array) {
  std::vector<float> values(array.data.size() / getNpyElementSize(array.dtype));
  forEachValue(array,
               [&](size_t i, double value) { values[i] = float(value); });
  return values;
}

//===----------------------------------------------------------------------===//
// Header parsing
//===----------------------------------------------------------------------===//

namespace {
/// What the header dictionary says.
struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<std::vector<int64_t>> shape;
};

/// A reader of the dict literal. Every method returns false after storing a
/// message in `error`.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  bool parse(Header &header);
  const std::string &getError() const { return error; }
  /// Whether the error is a well-formed header asking for a feature that is
  /// not supported here, rather than a malformed one.
  bool isUnsupported() const { return unsupported; }

private:
  bool fail(std::string message) {
    error = std::move(message);
    return false;
  }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  bool peek(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos;
    return true;
  }
  bool expect(char c, std::string_view where) {
    if (consume(c))
      return true;
    return fail(std::string("expected '") + c + "' " + std::string(where));
  }
  bool parseString(std::string &value);
  bool parseBool(bool &value);
  bool parseInt(int64_t &value);
  bool parseShape(std::vector<int64_t> &shape);
  bool parseEntry(Header &header);

  std::string_view text;
  size_t pos = 0;
  std::string error;
  bool unsupported = false;
};
} // namespace

bool HeaderParser::parseString(std::string &value) {
  skipSpace();
  if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
    return fail("expected a string");
  char quote = text[pos++];
  size_t end = text.find(quote, pos);
  if (end == std::string_view::npos)
    return fail("unterminated string");
  value = std::string(text.substr(pos, end - pos));
  if (value.find('\\') != std::string::npos)
    return fail("escapes in strings are not supported");
  pos = end + 1;
  return true;
}

bool HeaderParser::parseBool(bool &value) {
  skipSpace();
  for (auto [word, meaning] : {std::pair{std::string_view("True"), true},
                               std::pair{std::string_view("False"), false}}) {
    if (text.substr(pos, word.size()) == word) {
      pos += word.size();
      value = meaning;
      return true;
    }
  }
  return fail("expected True or False");
}

bool HeaderParser::parseInt(int64_t &value) {
  skipSpace();
  if (pos < text.size() && text[pos] == '-')
    return fail("negative dimension in shape");
  if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
    return fail("expected an integer in shape");
  value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    int digit = text[pos++] - '0';
    if (value > (std::numeric_limits<int64_t>::max() - digit) / 10)
      return fail("dimension too large in shape");
    value = value * 10 + digit;
  }
  // Python 2 wrote long integers with an 'L' suffix.
  if (pos < text.size() && text[pos] == 'L')
    ++pos;
  return true;
}

bool HeaderParser::parseShape(std::vector<int64_t> &shape) {
  if (!expect('(', "to open the shape tuple"))
    return false;
  shape.clear();
  bool sawComma = false;
  while (!consume(')')) {
    int64_t dim;
    if (!parseInt(dim))
      return false;
    shape.push_back(dim);
    sawComma = consume(',');
    if (!sawComma && !peek(')'))
      return fail("expected ',' or ')' in shape");
  }
  // "(5)" is the integer 5 in Python, not a tuple.
  if (shape.size() == 1 && !sawComma)
    return fail("shape (" + std::to_string(shape[0]) + ") is not a tuple");
  return true;
}

bool HeaderParser::parseEntry(Header &header) {
  std::string key;
  if (!parseString(key))
    return fail(error + " as a key");
  if (!expect(':', "after key '" + sanitize(key) + "'"))
    return false;
  if (key == "descr") {
    if (header.descr)
      return fail("duplicate key 'descr'");
    unsupported = true;
    if (peek('['))
      return fail("structured dtypes are not supported");
    if (peek('('))
      return fail("subarray dtypes are not supported");
    unsupported = false;
    std::string descr;
    if (!parseString(descr))
      return fail(error + " for 'descr'");
    header.descr = descr;
    return true;
  }
  if (key == "fortran_order") {
    if (header.fortranOrder)
      return fail("duplicate key 'fortran_order'");
    bool value;
    if (!parseBool(value))
      return fail(error + " for 'fortran_order'");
    header.fortranOrder = value;
    return true;
  }
  if (key == "shape") {
    if (header.shape)
      return fail("duplicate key 'shape'");
    std::vector<int64_t> shape;
    if (!parseShape(shape))
      return false;
    header.shape = std::move(shape);
    return true;
  }
  return fail("unexpected key '" + sanitize(key) + "'");
}

bool HeaderParser::parse(Header &header) {
  if (!expect('{', "at the start of the header"))
    return false;
  while (!consume('}')) {
    if (!parseEntry(header))
      return false;
    if (!consume(',') && !peek('}'))
      return fail("expected ',' or '}' after an entry");
  }
  skipSpace();
  if (pos != text.size())
    return fail("unexpected text after the header dictionary");
  for (auto [present, key] :
       {std::pair{header.descr.has_value(), "descr"},
        std::pair{header.fortranOrder.has_value(), "fortran_order"},
        std::pair{header.shape.has_value(), "shape"}})
    if (!present)
      return fail(std::string("missing key '") + key + "'");
  return true;
}

static Status invalid(std::string_view name, const std::string &what) {
  return Status::error(ErrorCode::InvalidInput,
                       std::string(name) + ": " + what);
}

/// The element type of a descriptor, or an error naming it.
static Expected<NpyDType> getDType(std::string_view name,
                                   const std::string &descr) {
  for (NpyDType dtype :
       {NpyDType::kFloat16, NpyDType::kFloat32, NpyDType::kFloat64})
    if (descr == getNpyDescr(dtype))
      return dtype;
  if (descr.size() > 1 && descr[0] == '>')
    return invalid(name, "big-endian dtype '" + sanitize(descr) +
                             "' is not supported (expected '<f2', '<f4' or "
                             "'<f8')");
  return invalid(name, "unsupported dtype '" + sanitize(descr) +
                           "' (expected '<f2', '<f4' or '<f8')");
}

namespace {
/// What the magic, the version and the header say about the bytes after
/// them.
struct NpyLayout {
  /// Bytes of the magic, the version and the header length field.
  size_t prefixSize = 0;
  uint64_t headerLength = 0;
  NpyDType dtype = NpyDType::kFloat32;
  std::vector<int64_t> shape;
  /// Checked: the shape's element count times the element size fits.
  size_t dataSize = 0;
  /// "shape (2, 3) of '<f4'", for messages.
  std::string what;
};
} // namespace

/// The size of the magic, the version and the header length field; at
/// least the first 8 bytes of the file must be in `start`.
static Expected<size_t> parsePrefixSize(std::span<const std::byte> start,
                                        std::string_view name) {
  if (start.size() < kMagicSize + 2 ||
      std::memcmp(start.data(), kMagic, kMagicSize) != 0)
    return invalid(name, "not a .npy file (bad magic bytes)");
  unsigned major = uint8_t(start[6]), minor = uint8_t(start[7]);
  if (!(minor == 0 && (major == 1 || major == 2 || major == 3)))
    return invalid(name, "unsupported .npy format version " +
                             std::to_string(major) + "." +
                             std::to_string(minor));
  // Version 1.0 has a 2-byte header length, 2.0 and 3.0 (whose header is
  // UTF-8 rather than latin-1, the same for every header accepted here) a
  // 4-byte one.
  size_t lengthSize = major == 1 ? 2 : 4;
  return kMagicSize + 2 + lengthSize;
}

/// The header length from the whole prefix, checked against the bytes the
/// file has (`fileSize`) and the bound on headers.
static Expected<uint64_t> parseHeaderLength(std::span<const std::byte> prefix,
                                            uint64_t fileSize,
                                            std::string_view name) {
  uint64_t headerLength = 0;
  for (size_t i = kMagicSize + 2; i < prefix.size(); ++i)
    headerLength |= uint64_t(uint8_t(prefix[i])) << (8 * (i - kMagicSize - 2));
  if (headerLength > kMaxNpyHeaderBytes)
    return invalid(name, "a header of " + std::to_string(headerLength) +
                             " bytes, more than the " +
                             std::to_string(kMaxNpyHeaderBytes) + " allowed");
  if (headerLength > fileSize - prefix.size())
    return invalid(name,
                   "truncated header (file has " + std::to_string(fileSize) +
                       " bytes, the header needs " +
                       std::to_string(prefix.size() + headerLength) + ")");
  return headerLength;
}

/// Parses the header dictionary and checks that the file (of `fileSize`
/// bytes) holds exactly the data it declares, before any of it is read.
static Status parseHeader(std::string_view text, uint64_t fileSize,
                          std::string_view name, NpyLayout &layout) {
  Header header;
  HeaderParser parser(text);
  if (!parser.parse(header))
    return invalid(name, (parser.isUnsupported() ? "" : "malformed header: ") +
                             parser.getError());
  if (*header.fortranOrder)
    return invalid(name, "fortran_order arrays are not supported (save the "
                         "array in C order)");
  Expected<NpyDType> dtype = getDType(name, *header.descr);
  if (!dtype)
    return dtype.status();
  layout.dtype = *dtype;
  layout.shape = std::move(*header.shape);
  std::optional<size_t> dataSize = getByteSize(*dtype, layout.shape);
  if (!dataSize)
    return invalid(name,
                   "shape " + formatShape(layout.shape) + " is too large");
  layout.dataSize = *dataSize;
  layout.what =
      "shape " + formatShape(layout.shape) + " of '" + *header.descr + "'";
  uint64_t available = fileSize - layout.prefixSize - layout.headerLength;
  if (available < layout.dataSize)
    return invalid(name, "truncated data: " + layout.what + " needs " +
                             std::to_string(layout.dataSize) +
                             " bytes, the file has " +
                             std::to_string(available));
  if (available > layout.dataSize)
    return invalid(name, std::to_string(available - layout.dataSize) +
                             " unexpected bytes after the data of " +
                             layout.what);
  return Status();
}

Expected<NpyArray> uta::runtime::parseNpy(std::span<const std::byte> bytes,
                                          std::string_view name) {
  NpyLayout layout;
  Expected<size_t> prefixSize = parsePrefixSize(bytes, name);
  if (!prefixSize)
    return prefixSize.status();
  layout.prefixSize = *prefixSize;
  if (bytes.size() < layout.prefixSize)
    return invalid(name, "truncated header (file has " +
                             std::to_string(bytes.size()) + " bytes)");
  Expected<uint64_t> headerLength =
      parseHeaderLength(bytes.first(layout.prefixSize), bytes.size(), name);
  if (!headerLength)
    return headerLength.status();
  layout.headerLength = *headerLength;
  std::string_view text(reinterpret_cast<const char *>(bytes.data()) +
                            layout.prefixSize,
                        size_t(layout.headerLength));
  UTA_TRY(parseHeader(text, bytes.size(), name, layout));

  NpyArray array;
  array.dtype = layout.dtype;
  array.shape = std::move(layout.shape);
  auto data = bytes.subspan(layout.prefixSize + size_t(layout.headerLength));
  array.data.assign(data.begin(), data.end());
  return array;
}

Expected<NpyArray> uta::runtime::readNpy(const std::string &path) {
  // A regular file only (a FIFO or /dev/zero behind a link is refused at
  // once), read in steps, each checked against the file's size before
  // anything is allocated from what the file says.
  Expected<RegularFile> file = RegularFile::open(path);
  if (!file)
    return file.status();
  uint64_t fileSize = file->size();
  std::byte prefix[kMagicSize + 2 + 4];
  size_t start = size_t(std::min<uint64_t>(fileSize, kMagicSize + 2));
  UTA_TRY(file->readExactly({prefix, start}));
  NpyLayout layout;
  Expected<size_t> prefixSize = parsePrefixSize({prefix, start}, path);
  if (!prefixSize)
    return prefixSize.status();
  layout.prefixSize = *prefixSize;
  if (fileSize < layout.prefixSize)
    return invalid(path, "truncated header (file has " +
                             std::to_string(fileSize) + " bytes)");
  UTA_TRY(
      file->readExactly({prefix + start, size_t(layout.prefixSize - start)}));
  Expected<uint64_t> headerLength =
      parseHeaderLength({prefix, layout.prefixSize}, fileSize, path);
  if (!headerLength)
    return headerLength.status();
  layout.headerLength = *headerLength;
  std::string text(size_t(layout.headerLength), '\0');
  UTA_TRY(file->readExactly(
      {reinterpret_cast<std::byte *>(text.data()), text.size()}));
  UTA_TRY(parseHeader(text, fileSize, path, layout));

  NpyArray array;
  array.dtype = layout.dtype;
  array.shape = std::move(layout.shape);
  array.data.resize(layout.dataSize);
  UTA_TRY(file->readExactly(array.data));
  UTA_TRY(file->expectEnd());
  return array;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

std::string uta::runtime::encodeNpyHeader(NpyDType dtype,
                                          std::span<const int64_t> shape,
                                          unsigned majorVersion) {
  // The keys in sorted order, each followed by ", ", as NumPy prints them.
  std::string dict =
      "{'descr': '" + std::string(getNpyDescr(dtype)) +
      "', 'fortran_order': False, 'shape': " + formatShape(shape) + ", }";
  if (!shape.empty()) {
    size_t digits = std::to_string(shape[0]).size();
    if (digits < kGrowthAxisMaxDigits)
      dict.append(kGrowthAxisMaxDigits - digits, ' ');
  }
  auto wrap = [&](unsigned major) {
    size_t lengthSize = major == 1 ? 2 : 4;
    size_t used = kMagicSize + 2 + lengthSize + dict.size() + 1;
    // As NumPy: a full block of padding when already aligned.
    size_t padding = kAlignment - used % kAlignment;
    size_t headerLength = dict.size() + padding + 1;
    std::string out(kMagic, kMagicSize);
    out += char(major);
    out += char(0);
    for (size_t i = 0; i < lengthSize; ++i)
      out += char((headerLength >> (8 * i)) & 0xff);
    out += dict;
    out.append(padding, ' ');
    out += '\n';
    return std::pair{out, headerLength};
  };
  if (majorVersion == 0) {
    auto [out, headerLength] = wrap(1);
    if (headerLength <= 0xffff)
      return out;
    majorVersion = 2;
  }
  return wrap(majorVersion).first;
}

/// Checks that `data` holds exactly the elements of `shape`.
static Status checkData(std::string_view name, NpyDType dtype,
                        std::span<const int64_t> shape, size_t dataSize) {
  std::optional<size_t> expected = getByteSize(dtype, shape);
  if (!expected)
    return Status::error(ErrorCode::Internal, std::string(name) + ": shape " +
                                                  formatShape(shape) +
                                                  " is invalid or too large");
  if (*expected != dataSize)
    return Status::error(ErrorCode::Internal,
                         std::string(name) + ": shape " + formatShape(shape) +
                             " of '" + std::string(getNpyDescr(dtype)) +
                             "' needs " + std::to_string(*expected) +
                             " bytes of data, got " + std::to_string(dataSize));
  return Status();
}

Expected<std::vector<std::byte>>
uta::runtime::encodeNpy(const NpyArray &array) {
  Status status =
      checkData("array", array.dtype, array.shape, array.data.size());
  if (!status)
    return status;
  std::string header = encodeNpyHeader(array.dtype, array.shape);
  std::vector<std::byte> bytes(header.size() + array.data.size());
  std::memcpy(bytes.data(), header.data(), header.size());
  if (!array.data.empty())
    std::memcpy(bytes.data() + header.size(), array.data.data(),
                array.data.size());
  return bytes;
}

Status uta::runtime::writeNpy(const std::string &path, NpyDType dtype,
                              std::span<const int64_t> shape,
                              std::span<const std::byte> data) {
  Status status = checkData(path, dtype, shape, data.size());
  if (!status)
    return status;
  std::string header = encodeNpyHeader(dtype, shape);

  return writeFileAtomically(
      path, {std::as_bytes(std::span(header.data(), header.size())), data});
}

Status uta::runtime::writeNpy(const std::string &path, const NpyArray &array) {
  return writeNpy(path, array.dtype, array.shape, array.data);
}
