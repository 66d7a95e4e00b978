//===- NpyTest.cpp - Tests of the .npy reader and writer ------------------===//
//
// The literal files below were written out by hand from the format's
// definition and np.save's layout (NumPy >= 1.24): the magic, the version,
// the little-endian header length, the dict with sorted keys and a ", "
// after each value, 21 - len(str(shape[0])) spaces of growth room (none for
// 0-d), then spaces and a final '\n' so that the data starts at a multiple
// of 64 bytes. Each error case checks the exact message and that nothing was
// left in the directory.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace uta::runtime;
namespace fs = std::filesystem;

namespace {

std::vector<std::byte> toBytes(const std::string &text) {
  // Not memcpy: an empty vector's data() may be null, which memcpy forbids.
  const auto *begin = reinterpret_cast<const std::byte *>(text.data());
  return std::vector<std::byte>(begin, begin + text.size());
}

/// A fresh empty directory per test, removed at the end.
class NpyFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern =
        (fs::path(::testing::TempDir()) / "uta-npy-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }

  std::string pathOf(const std::string &name) const {
    return (fs::path(dir) / name).string();
  }
  void writeRaw(const std::string &name, const std::string &bytes) const {
    std::FILE *file = std::fopen(pathOf(name).c_str(), "wb");
    ASSERT_NE(file, nullptr);
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), file), bytes.size());
    std::fclose(file);
  }
  std::string readRaw(const std::string &name) const {
    std::string bytes;
    std::FILE *file = std::fopen(pathOf(name).c_str(), "rb");
    if (!file)
      return bytes;
    char buffer[4096];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
      bytes.append(buffer, got);
    std::fclose(file);
    return bytes;
  }
  std::set<std::string> listDir() const {
    std::set<std::string> names;
    for (const fs::directory_entry &entry : fs::directory_iterator(dir))
      names.insert(entry.path().filename().string());
    return names;
  }

  /// Writes `bytes` as `name`, reads it back, and expects the error
  /// "<path>: <message>" with nothing else appearing in the directory.
  void expectReadError(const std::string &bytes, const std::string &message) {
    writeRaw("bad.npy", bytes);
    std::set<std::string> before = listDir();
    Expected<NpyArray> array = readNpy(pathOf("bad.npy"));
    ASSERT_FALSE(array.ok());
    EXPECT_EQ(array.status().code(), ErrorCode::InvalidInput);
    EXPECT_EQ(array.status().message(), pathOf("bad.npy") + ": " + message);
    EXPECT_EQ(array.status().message().find('\n'), std::string::npos);
    EXPECT_EQ(listDir(), before);
    // The file reader and the in-memory parser agree.
    Expected<NpyArray> parsed = parseNpy(toBytes(bytes), pathOf("bad.npy"));
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().message(), array.status().message());
  }

  std::string dir;
};

// np.save(f, np.arange(6, dtype=np.float32).reshape(2, 3)): the dict is 59
// characters, 20 growth spaces follow, and 10 + 59 + 20 + 18 + 1 = 128, so
// 38 spaces in all and a header length of 118 = 0x76.
const std::string kFloat32Matrix =
    std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" +
    std::string(58, ' ') + "\n" +
    std::string("\x00\x00\x00\x00"  // 0.0f
                "\x00\x00\x80\x3f"  // 1.0f
                "\x00\x00\x00\x40"  // 2.0f
                "\x00\x00\x40\x40"  // 3.0f
                "\x00\x00\x80\x40"  // 4.0f
                "\x00\x00\xa0\x40", // 5.0f
                24);

// np.save(f, np.array([1, -2, 0.5], dtype=np.float16)): 57 + 20 + 40 + 1
// + 10 = 128, header length 118.
const std::string kFloat16Vector =
    std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
    "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }" +
    std::string(60, ' ') + "\n" +
    std::string("\x00\x3c"  // 1.0
                "\x00\xc0"  // -2.0
                "\x00\x38", // 0.5
                6);

// np.save(f, np.array(2.5)): a 0-d float64, no growth spaces; 55 + 62 + 1
// + 10 = 128, header length 118.
const std::string kFloat64Scalar =
    std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
    "{'descr': '<f8', 'fortran_order': False, 'shape': (), }" +
    std::string(62, ' ') + "\n" +
    std::string("\x00\x00\x00\x00\x00\x00\x04\x40", 8); // 2.5

TEST_F(NpyFileTest, ParsesNumPyFloat32Matrix) {
  writeRaw("a.npy", kFloat32Matrix);
  Expected<NpyArray> array = readNpy(pathOf("a.npy"));
  ASSERT_TRUE(array.ok()) << array.status().message();
  EXPECT_EQ(array->dtype, NpyDType::kFloat32);
  EXPECT_EQ(array->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array->getNumElements(), 6);
  EXPECT_EQ(getNpyValuesAsFloat(*array),
            (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST_F(NpyFileTest, ParsesNumPyFloat16VectorAndFloat64Scalar) {
  writeRaw("v.npy", kFloat16Vector);
  Expected<NpyArray> vector = readNpy(pathOf("v.npy"));
  ASSERT_TRUE(vector.ok()) << vector.status().message();
  EXPECT_EQ(vector->dtype, NpyDType::kFloat16);
  EXPECT_EQ(vector->shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(getNpyValuesAsDouble(*vector),
            (std::vector<double>{1.0, -2.0, 0.5}));

  writeRaw("s.npy", kFloat64Scalar);
  Expected<NpyArray> scalar = readNpy(pathOf("s.npy"));
  ASSERT_TRUE(scalar.ok()) << scalar.status().message();
  EXPECT_EQ(scalar->dtype, NpyDType::kFloat64);
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->getNumElements(), 1);
  EXPECT_EQ(getNpyValuesAsDouble(*scalar), (std::vector<double>{2.5}));
}

TEST(NpyTest, WriterProducesNumPyBytes) {
  const float matrix[] = {0, 1, 2, 3, 4, 5};
  Expected<std::vector<std::byte>> bytes =
      encodeNpy(makeNpyArray(matrix, {2, 3}));
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, toBytes(kFloat32Matrix));

  const uint16_t halves[] = {0x3c00, 0xc000, 0x3800};
  bytes = encodeNpy(makeNpyArrayFromHalfBits(halves, {3}));
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, toBytes(kFloat16Vector));

  const double scalar[] = {2.5};
  bytes = encodeNpy(makeNpyArray(scalar, {}));
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, toBytes(kFloat64Scalar));
}

TEST(NpyTest, ParsesOtherValidHeaders) {
  struct Case {
    const char *what;
    std::string bytes;
    NpyDType dtype;
    std::vector<int64_t> shape;
  };
  const std::string threeDoubles("\x00\x00\x00\x00\x00\x00\xf0\x3f"
                                 "\x00\x00\x00\x00\x00\x00\x00\x40"
                                 "\x00\x00\x00\x00\x00\x00\x08\x40",
                                 24);
  const std::string sixHalves(12, '\0');
  const std::string sixFloats(24, '\0');
  Case cases[] = {
      // Older NumPy: 16-byte alignment and no growth room; 10 + 57 + 12 + 1
      // = 80, header length 70 = 0x46.
      {"16-byte aligned",
       std::string("\x93NUMPY\x01\x00\x46\x00", 10) +
           "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }" +
           std::string(12, ' ') + "\n" + threeDoubles,
       NpyDType::kFloat64,
       {3}},
      // Version 2.0: a 4-byte length; 12 + 59 + 20 + 36 + 1 = 128, header
      // length 116 = 0x74.
      {"version 2.0",
       std::string("\x93NUMPY\x02\x00\x74\x00\x00\x00", 12) +
           "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }" +
           std::string(56, ' ') + "\n" + sixHalves,
       NpyDType::kFloat16,
       {2, 3}},
      {"version 3.0",
       std::string("\x93NUMPY\x03\x00\x74\x00\x00\x00", 12) +
           "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }" +
           std::string(56, ' ') + "\n" + sixHalves,
       NpyDType::kFloat16,
       {2, 3}},
      // Python 2 wrote 'L' after long integers; a header needs no padding.
      {"python 2 longs",
       std::string("\x93NUMPY\x01\x00\x3d\x00", 10) +
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }" +
           sixFloats,
       NpyDType::kFloat32,
       {2, 3}},
      // Any key order, double quotes, odd spacing, a trailing comma in the
      // tuple and none after the last entry.
      {"free form",
       std::string("\x93NUMPY\x01\x00\x37\x00", 10) +
           "{ \"shape\":(2,3,),\"fortran_order\" :False,\"descr\":\"<f4\"}\n" +
           sixFloats,
       NpyDType::kFloat32,
       {2, 3}},
      {"empty array",
       std::string("\x93NUMPY\x01\x00\x3c\x00", 10) +
           "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 7), }\n",
       NpyDType::kFloat32,
       {0, 7}},
  };
  for (const Case &c : cases) {
    Expected<NpyArray> array = parseNpy(toBytes(c.bytes), c.what);
    ASSERT_TRUE(array.ok()) << c.what << ": " << array.status().message();
    EXPECT_EQ(array->dtype, c.dtype) << c.what;
    EXPECT_EQ(array->shape, c.shape) << c.what;
  }
  Expected<NpyArray> doubles = parseNpy(toBytes(cases[0].bytes), "f8");
  ASSERT_TRUE(doubles.ok());
  EXPECT_EQ(getNpyValuesAsDouble(*doubles), (std::vector<double>{1, 2, 3}));
}

TEST_F(NpyFileTest, RoundTripOfEveryDTypeAndShapeKind) {
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {5}, {2, 3}, {2, 0, 3}, {1, 1, 1, 7}, {1234567, 0}};
  for (NpyDType dtype :
       {NpyDType::kFloat16, NpyDType::kFloat32, NpyDType::kFloat64}) {
    for (const std::vector<int64_t> &shape : shapes) {
      NpyArray array;
      array.dtype = dtype;
      array.shape = shape;
      array.data.resize(size_t(array.getNumElements()) *
                        getNpyElementSize(dtype));
      for (size_t i = 0; i < array.data.size(); ++i)
        array.data[i] = std::byte((i * 37 + 11) & 0xff);
      std::string path = pathOf("r.npy");
      ASSERT_TRUE(writeNpy(path, array).ok());
      std::string raw = readRaw("r.npy");
      // The data starts at a multiple of 64 bytes.
      EXPECT_EQ((raw.size() - array.data.size()) % 64, 0u);
      Expected<NpyArray> back = readNpy(path);
      ASSERT_TRUE(back.ok()) << back.status().message();
      EXPECT_EQ(back->dtype, dtype);
      EXPECT_EQ(back->shape, shape);
      EXPECT_EQ(back->data, array.data);
      EXPECT_EQ(listDir(), std::set<std::string>{"r.npy"});
    }
  }
}

TEST_F(NpyFileTest, OverwritesAnExistingFile) {
  const float first[] = {1, 2, 3, 4};
  const float second[] = {9};
  ASSERT_TRUE(writeNpy(pathOf("o.npy"), makeNpyArray(first, {4})).ok());
  ASSERT_TRUE(writeNpy(pathOf("o.npy"), makeNpyArray(second, {1})).ok());
  Expected<NpyArray> back = readNpy(pathOf("o.npy"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(getNpyValuesAsFloat(*back), (std::vector<float>{9}));
  EXPECT_EQ(listDir(), std::set<std::string>{"o.npy"});
}

TEST(NpyTest, LongHeadersUseVersion2) {
  // 22000 dimensions of size 1 need a header longer than 65535 bytes.
  std::vector<int64_t> shape(22000, 1);
  std::string header = encodeNpyHeader(NpyDType::kFloat32, shape);
  ASSERT_GT(header.size(), 65535u);
  EXPECT_EQ(header[6], '\x02');
  EXPECT_EQ(header.size() % 64, 0u);
  uint32_t length = uint8_t(header[8]) | uint8_t(header[9]) << 8 |
                    uint8_t(header[10]) << 16 |
                    uint32_t(uint8_t(header[11])) << 24;
  EXPECT_EQ(length + 12, header.size());
  std::string file = header + std::string(4, '\0');
  Expected<NpyArray> array = parseNpy(toBytes(file), "long");
  ASSERT_TRUE(array.ok()) << array.status().message();
  EXPECT_EQ(array->shape, shape);

  // A short header in version 2.0 when asked: 12 + 57 + 20 + 38 + 1 = 128.
  std::string forced = encodeNpyHeader(NpyDType::kFloat32, {{5}}, 2);
  EXPECT_EQ(forced,
            std::string("\x93NUMPY\x02\x00\x74\x00\x00\x00", 12) +
                "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }" +
                std::string(58, ' ') + "\n");
}

TEST(NpyTest, HeaderPadding) {
  // For shape (1, 2, 3, 4, 5, 6, 7) the dict is 74 characters, plus 20
  // growth spaces and '\n': 10 + 74 + 20 + 1 = 105, so 23 spaces of padding
  // make 128.
  std::string header =
      encodeNpyHeader(NpyDType::kFloat32, {{1, 2, 3, 4, 5, 6, 7}});
  EXPECT_EQ(header.size(), 128u);
  // For shape (10000000000, 2) the dict is 69 characters and the growth room
  // 10: 10 + 69 + 10 + 1 = 90, padding 38.
  header = encodeNpyHeader(NpyDType::kFloat64, {{10000000000, 2}});
  EXPECT_EQ(header, std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                        "{'descr': '<f8', 'fortran_order': False, 'shape': "
                        "(10000000000, 2), }" +
                        std::string(48, ' ') + "\n");
  // NumPy always pads with at least one space, so a header that would end
  // exactly on a 64-byte boundary gets a whole block: for (7, 1 twelve
  // times, 100) the dict is 97 characters, and 10 + 97 + 20 + 1 = 128.
  std::vector<int64_t> shape = {7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 100};
  header = encodeNpyHeader(NpyDType::kFloat32, shape);
  EXPECT_EQ(header.size(), 192u);
  EXPECT_EQ(header.substr(107), std::string(84, ' ') + "\n");
}

TEST_F(NpyFileTest, ReadErrors) {
  const std::string v1 = std::string("\x93NUMPY\x01\x00", 8);
  auto file = [&](const std::string &dict, size_t dataSize) {
    std::string header = dict + "\n";
    std::string length = {char(header.size() & 0xff), char(header.size() >> 8)};
    return v1 + length + header + std::string(dataSize, '\0');
  };
  const std::string good = "{'descr': '<f4', 'fortran_order': False, "
                           "'shape': (2, 3), }";
  // The cases that are well-formed apart from the one thing under test.
  ASSERT_TRUE(parseNpy(toBytes(file(good, 24)), "good").ok());

  expectReadError("", "not a .npy file (bad magic bytes)");
  expectReadError("PK\x03\x04 a zip file", "not a .npy file (bad magic bytes)");
  expectReadError(std::string("\x93NUMPX\x01\x00", 8) + "abc",
                  "not a .npy file (bad magic bytes)");
  expectReadError(std::string("\x93NUMPY\x04\x00", 8) + "abcd",
                  "unsupported .npy format version 4.0");
  expectReadError(std::string("\x93NUMPY\x01\x01", 8) + "abcd",
                  "unsupported .npy format version 1.1");
  expectReadError(std::string("\x93NUMPY\x01\x00\x76", 9),
                  "truncated header (file has 9 bytes)");
  expectReadError(kFloat32Matrix.substr(0, 40),
                  "truncated header (file has 40 bytes, the header needs 128)");
  expectReadError(kFloat32Matrix.substr(0, kFloat32Matrix.size() - 4),
                  "truncated data: shape (2, 3) of '<f4' needs 24 bytes, the "
                  "file has 20");
  expectReadError(kFloat32Matrix + "abcd",
                  "4 unexpected bytes after the data of shape (2, 3) of "
                  "'<f4'");
  expectReadError(file("{'descr': '<f4', 'fortran_order': True, 'shape': "
                       "(2, 3), }",
                       24),
                  "fortran_order arrays are not supported (save the array "
                  "in C order)");
  expectReadError(file("{'descr': '>f4', 'fortran_order': False, 'shape': "
                       "(2, 3), }",
                       24),
                  "big-endian dtype '>f4' is not supported (expected '<f2', "
                  "'<f4' or '<f8')");
  expectReadError(file("{'descr': '<i4', 'fortran_order': False, 'shape': "
                       "(2, 3), }",
                       24),
                  "unsupported dtype '<i4' (expected '<f2', '<f4' or '<f8')");
  expectReadError(file("{'descr': '|O', 'fortran_order': False, 'shape': "
                       "(2, 3), }",
                       48),
                  "unsupported dtype '|O' (expected '<f2', '<f4' or '<f8')");
  expectReadError(file("{'descr': [('x', '<f4')], 'fortran_order': False, "
                       "'shape': (2, 3), }",
                       24),
                  "structured dtypes are not supported");
  expectReadError(file("{'descr': '<f4', 'shape': (2, 3), }", 24),
                  "malformed header: missing key 'fortran_order'");
  expectReadError(file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2, 3), 'extra': 1}",
                       24),
                  "malformed header: unexpected key 'extra'");
  expectReadError(file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': "
                       "False, 'shape': (2, 3), }",
                       24),
                  "malformed header: duplicate key 'descr'");
  expectReadError(file("[1, 2]", 24),
                  "malformed header: expected '{' at the start of the header");
  expectReadError(file("{'descr' '<f4'}", 24),
                  "malformed header: expected ':' after key 'descr'");
  expectReadError(file("{'descr': '<f4', 'fortran_order': 0, 'shape': (2, "
                       "3), }",
                       24),
                  "malformed header: expected True or False for "
                  "'fortran_order'");
  expectReadError(file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(6), }",
                       24),
                  "malformed header: shape (6) is not a tuple");
  expectReadError(file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2, -3), }",
                       24),
                  "malformed header: negative dimension in shape");
  expectReadError(file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2 3), }",
                       24),
                  "malformed header: expected ',' or ')' in shape");
  expectReadError(file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2, 3), } junk",
                       24),
                  "malformed header: unexpected text after the header "
                  "dictionary");
  expectReadError(file("{'descr': '<f4", 24),
                  "malformed header: unterminated string for 'descr'");
  expectReadError(file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(4294967296, 4294967296), }",
                       0),
                  "shape (4294967296, 4294967296) is too large");
  expectReadError(file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(99999999999999999999,), }",
                       0),
                  "malformed header: dimension too large in shape");
}

TEST_F(NpyFileTest, ReadErrorsOfTheFileItself) {
  Expected<NpyArray> missing = readNpy(pathOf("missing.npy"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            pathOf("missing.npy") + ": cannot open: no such file or directory");
  fs::create_directory(pathOf("sub"));
  Expected<NpyArray> directory = readNpy(pathOf("sub"));
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().message(),
            pathOf("sub") + ": not a regular file (a directory)");
  EXPECT_EQ(listDir(), std::set<std::string>{"sub"});
}

// Inputs are untrusted: only regular files are read, without blocking, and
// never more than their header declares.
TEST_F(NpyFileTest, RefusesFilesThatAreNotRegular) {
  // A FIFO with no writer: a plain open would wait forever.
  ASSERT_EQ(::mkfifo(pathOf("fifo.npy").c_str(), 0600), 0);
  Expected<NpyArray> array = readNpy(pathOf("fifo.npy"));
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.status().message(),
            pathOf("fifo.npy") + ": not a regular file (a FIFO)");
  // A link to /dev/zero: reading it would never end.
  fs::create_symlink("/dev/zero", pathOf("zero.npy"));
  array = readNpy(pathOf("zero.npy"));
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.status().code(), ErrorCode::InvalidInput);
  EXPECT_EQ(array.status().message(),
            pathOf("zero.npy") + ": not a regular file (a character device)");
  // A socket cannot even be opened.
  int socketFd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(socketFd, 0);
  sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  std::string socketPath = pathOf("socket.npy");
  ASSERT_LT(socketPath.size(), sizeof(address.sun_path));
  std::strcpy(address.sun_path, socketPath.c_str());
  ASSERT_EQ(
      ::bind(socketFd, reinterpret_cast<sockaddr *>(&address), sizeof(address)),
      0);
  array = readNpy(socketPath);
  ::close(socketFd);
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.status().message(),
            socketPath + ": not a regular file (a socket)");
  // A link to a regular file is followed.
  const float values[] = {1, 2};
  ASSERT_TRUE(writeNpy(pathOf("real.npy"), makeNpyArray(values, {2})).ok());
  fs::create_symlink(pathOf("real.npy"), pathOf("link.npy"));
  array = readNpy(pathOf("link.npy"));
  ASSERT_TRUE(array.ok()) << array.status().message();
  EXPECT_EQ(getNpyValuesAsFloat(*array), (std::vector<float>{1, 2}));
}

TEST_F(NpyFileTest, SizesAreCheckedBeforeAnythingIsAllocated) {
  auto file = [](uint8_t major, uint32_t headerLength,
                 const std::string &rest) {
    std::string bytes = std::string("\x93NUMPY", 6) + char(major) + '\0';
    for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
      bytes += char((headerLength >> (8 * i)) & 0xff);
    return bytes + rest;
  };
  // A header length of almost 4 GiB in a file of 16 bytes.
  expectReadError(file(2, 0xfffffff0u, "{}"),
                  "a header of 4294967280 bytes, more than the 1048576 "
                  "allowed");
  // Just over the bound, and the file does have that many bytes.
  std::string big(kMaxNpyHeaderBytes + 1, ' ');
  expectReadError(file(2, uint32_t(big.size()), big),
                  "a header of 1048577 bytes, more than the 1048576 allowed");
  auto header = [&](const std::string &shape) {
    std::string dict =
        "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }\n";
    return file(1, uint32_t(dict.size()), dict);
  };
  // The byte size overflows int64 (2^31 * 2^31 * 4 = 2^64).
  expectReadError(header("(2147483648, 2147483648)"),
                  "shape (2147483648, 2147483648) is too large");
  // 4 TiB declared, none there: refused from the file's size, unallocated.
  expectReadError(header("(1099511627776,)"),
                  "truncated data: shape (1099511627776,) of '<f4' needs "
                  "4398046511104 bytes, the file has 0");
  // Zero elements, whatever the other sizes: an empty array, no data.
  writeRaw("empty.npy", header("(0, 4294967296)"));
  Expected<NpyArray> empty = readNpy(pathOf("empty.npy"));
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(empty->getNumElements(), 0);
  EXPECT_TRUE(empty->data.empty());
  writeRaw("trailing.npy", header("(0, 3)") + "x");
  Expected<NpyArray> trailing = readNpy(pathOf("trailing.npy"));
  ASSERT_FALSE(trailing.ok());
  EXPECT_EQ(trailing.status().message(),
            pathOf("trailing.npy") +
                ": 1 unexpected bytes after the data of shape (0, 3) of "
                "'<f4'");
}

TEST_F(NpyFileTest, WriteErrorsLeaveNothingBehind) {
  const float values[] = {1, 2, 3, 4, 5};

  // The data does not match the shape: a bug of the caller.
  Status status = writeNpy(pathOf("w.npy"), makeNpyArray(values, {2, 3}));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), ErrorCode::Internal);
  EXPECT_EQ(status.message(), pathOf("w.npy") + ": shape (2, 3) of '<f4' "
                                                "needs 24 bytes of data, got "
                                                "20");
  EXPECT_TRUE(listDir().empty());

  status = writeNpy(pathOf("w.npy"), makeNpyArray(values, {-5}));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            pathOf("w.npy") + ": shape (-5,) is invalid or too large");
  EXPECT_TRUE(listDir().empty());

  status = writeNpy(pathOf("nodir/w.npy"), makeNpyArray(values, {5}));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), ErrorCode::InvalidInput);
  EXPECT_EQ(status.message(), pathOf("nodir/w.npy") +
                                  ": cannot create: No such file or directory");
  EXPECT_TRUE(listDir().empty());

  // The target is a directory: the rename fails and the temporary file,
  // already complete, must be removed.
  fs::create_directory(pathOf("sub"));
  status = writeNpy(pathOf("sub"), makeNpyArray(values, {5}));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), pathOf("sub") + ": cannot write: Is a directory");
  EXPECT_EQ(listDir(), std::set<std::string>{"sub"});
}

TEST_F(NpyFileTest, WritesInTheCurrentDirectoryForABareName) {
  fs::path previous = fs::current_path();
  fs::current_path(dir);
  const double values[] = {0.25, -1};
  Status status = writeNpy("bare.npy", makeNpyArray(values, {2}));
  fs::current_path(previous);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(listDir(), std::set<std::string>{"bare.npy"});
  Expected<NpyArray> back = readNpy(pathOf("bare.npy"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(getNpyValuesAsDouble(*back), (std::vector<double>{0.25, -1}));
}

} // namespace
