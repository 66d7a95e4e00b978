#===- cmake/Sanitizers.cmake - the ASan + UBSan + fuzzer build -----------===#
#
# UTA_SANITIZE (scripts/sanitize.sh, scripts/fuzz.sh, docs/security.md):
# every UTA object (dialects, passes, lib, runtime, tools, tests) is compiled
# by clang with -fsanitize=address,undefined and libFuzzer's coverage
# instrumentation (-fsanitize=fuzzer-no-link), so that one build runs the
# whole test suite under both sanitizers and links the fuzzers of test/fuzz.
# libMLIR.so and the system libraries stay uninstrumented.
#
# Included before HandleLLVMOptions, whose LLVM_USE_SANITIZER machinery adds
# the flags (and leaves out -Wl,-z,defs, which a shared library that takes
# the sanitizer runtime from its executable cannot pass). Its UBSan flags
# are ours: every check, vptr and function included, each one fatal.
#===----------------------------------------------------------------------===#
option(UTA_SANITIZE "Build with clang's AddressSanitizer, \
UndefinedBehaviorSanitizer and fuzzer coverage; builds test/fuzz" OFF)

if(UTA_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "UTA_SANITIZE needs clang (-DCMAKE_CXX_COMPILER="
      "clang++-22): libFuzzer and -fsanitize=fuzzer-no-link are clang's")
  endif()
  set(LLVM_USE_SANITIZER "Address;Undefined")
  set(LLVM_UBSAN_FLAGS "-fsanitize=undefined -fno-sanitize-recover=all")
  set(LLVM_USE_SANITIZE_COVERAGE ON)
endif()
