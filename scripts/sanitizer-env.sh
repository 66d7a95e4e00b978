#===- scripts/sanitizer-env.sh - runtime options of ASan, UBSan, LSan -----===#
#
# Sourced by scripts/sanitize.sh and scripts/fuzz.sh. Every report aborts
# (so a test that hits one fails however it checks the exit code) with a
# symbolized stack; leaks are reported at exit. Two settings come from the
# uninstrumented libraries UTA runs with:
# - allow_user_poisoning=0: LLVM's headers poison and unpoison the slabs of
#   its BumpPtrAllocator by hand when they are compiled with ASan. UTA's
#   instrumented copies of that inline code and libMLIR's uninstrumented ones
#   share allocators (the MLIRContext's), so a slab poisoned by one is handed
#   out by the other without unpoisoning, and a later read of valid memory
#   is reported (use-after-poison in mlir::FileLineColRange::get). Only
#   those hand-made annotations are switched off; ASan's own checks stay.
# - lavapipe (Mesa's Vulkan driver) stays loaded: the Vulkan loader unloads
#   it when UTA destroys its instance, and memory that only its globals
#   still referenced then looks leaked, in a module LeakSanitizer can no
#   longer name (so no suppression could match it).
#===----------------------------------------------------------------------===#
# shellcheck shell=bash
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
export ASAN_OPTIONS="abort_on_error=1 detect_leaks=1 allow_user_poisoning=0 \
strict_string_checks=1 check_initialization_order=1 ${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1 abort_on_error=1 print_stacktrace=1 \
${UBSAN_OPTIONS:-}"
lavapipe=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
if [ -f "$lavapipe" ]; then
  export LD_PRELOAD="$lavapipe${LD_PRELOAD:+ $LD_PRELOAD}"
fi
