#===- cmake/Install.cmake - `cmake --install` and find_package(UTA) ------===#
#
# Installs the C++ API as a CMake package (docs/api.md):
#   include/uta/*.h                   the public headers (no MLIR or LLVM)
#   lib/libuta.so, lib/libuta_runtime.so
#   lib/cmake/UTA/UTAConfig.cmake     find_package(UTA CONFIG REQUIRED) gives
#                                     UTA::uta and UTA::runtime
# The libraries find each other through $ORIGIN and libMLIR.so through the
# absolute folder it was linked from (Debian's /usr/lib/llvm-22/lib, which is
# not on the loader's path), so installed programs need no LD_LIBRARY_PATH.
#
# Also holds UTA_TSAN (scripts/tsan.sh): ThreadSanitizer for the runtime and
# the API libraries and their tests only; libMLIR and the compiler's static
# libraries stay uninstrumented.
#===----------------------------------------------------------------------===#
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(UTA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/UTA)

foreach(target uta uta_runtime)
  set_target_properties(${target} PROPERTIES
    INSTALL_RPATH "$ORIGIN"
    INSTALL_RPATH_USE_LINK_PATH ON)
endforeach()

# Everything here is component uta-api, so that scripts/api-example.sh can
# install the API alone; a plain `cmake --install` installs it too.
install(TARGETS uta uta_runtime
  EXPORT UTATargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT uta-api
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/uta
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT uta-api
  FILES_MATCHING PATTERN "*.h")
install(EXPORT UTATargets
  NAMESPACE UTA::
  DESTINATION ${UTA_INSTALL_CMAKEDIR}
  COMPONENT uta-api)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/UTAConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/UTAConfig.cmake
  INSTALL_DESTINATION ${UTA_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/cmake/UTAConfig.cmake
  DESTINATION ${UTA_INSTALL_CMAKEDIR}
  COMPONENT uta-api)

option(UTA_TSAN "Build the runtime, the API libraries and their tests with \
ThreadSanitizer (scripts/tsan.sh)" OFF)
if(UTA_TSAN)
  set(UTA_TSAN_TARGETS uta uta_runtime UTARuntimeCore UTARuntimeExec
    UTAKernelCache)
  foreach(target UTARuntimeCuda UTARuntimeVulkan JitTest)
    if(TARGET ${target})
      list(APPEND UTA_TSAN_TARGETS ${target})
    endif()
  endforeach()
  foreach(target ${UTA_TSAN_TARGETS})
    target_compile_options(${target} PRIVATE -fsanitize=thread -g)
    target_link_options(${target} PRIVATE -fsanitize=thread)
  endforeach()
endif()
