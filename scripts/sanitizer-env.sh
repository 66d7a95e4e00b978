#===- scripts/sanitizer-env.sh - runtime options of ASan, UBSan, LSan -----===#
#
# Sourced by scripts/sanitize.sh and scripts/fuzz.sh. Every report aborts
# (so a test that hits one fails however it checks the exit code) with a
# symbolized stack; leaks are reported at exit.
#===----------------------------------------------------------------------===#
sanitizer_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
export ASAN_OPTIONS="abort_on_error=1 detect_leaks=1 \
strict_string_checks=1 check_initialization_order=1 ${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1 abort_on_error=1 print_stacktrace=1 \
${UBSAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$sanitizer_root/scripts/lsan.supp \
print_suppressions=0 ${LSAN_OPTIONS:-}"
