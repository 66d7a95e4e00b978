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

# A shared library of UTA takes the sanitizer runtime from the executable
# that loads it, so its __asan_* and __ubsan_* references are undefined when
# it is linked: the libraries that ask the linker for -Wl,--no-undefined
# (the API and C API libraries) drop that option here, at the end of the
# configuration, once every target exists.
function(uta_drop_no_undefined directory)
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    get_target_property(options ${target} LINK_OPTIONS)
    if(type STREQUAL "SHARED_LIBRARY" AND options)
      list(REMOVE_ITEM options -Wl,--no-undefined)
      set_target_properties(${target} PROPERTIES LINK_OPTIONS "${options}")
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory ${subdirectories})
    uta_drop_no_undefined(${subdirectory})
  endforeach()
endfunction()

if(UTA_SANITIZE)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
    CALL uta_drop_no_undefined ${CMAKE_SOURCE_DIR})
endif()
