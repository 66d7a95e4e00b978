"""The C API (include/uta-c) loaded with ctypes: library lookup, signatures.

The package is pure Python over two shared libraries, so it works with any
CPython 3.9+ without being compiled against it:

- ``libuta_c_runtime.so`` (devices, loading compiled graphs, running), needed;
- ``libuta_c.so`` (building and compiling graphs), optional: a machine with
  only a GPU driver runs graphs that were compiled elsewhere.

The libraries are looked for in ``$UTA_LIBRARY_DIR``, then in the package's
``_lib`` folder (where ``cmake --build build --target uta-python`` and the
pip install put them). Each C++ library is loaded by path before the C library
that needs it, so no ``LD_LIBRARY_PATH`` is needed.
"""
import ctypes
import os
from ctypes import (POINTER, c_char_p, c_double, c_float, c_int, c_int64,
                    c_size_t, c_uint32, c_uint64, c_void_p)

# uta_status_t
OK, INVALID_INPUT, INTERNAL, UNAVAILABLE = 0, 1, 2, 3
# uta_dtype_t
F32, F16, BF16 = 0, 1, 2
# uta_target_t
TARGET_PTX, TARGET_SPIRV, TARGET_MSL = 0, 1, 2
# uta_run_options_t.flags
RUN_POISON_OUTPUTS = 1

API_VERSION = 1


class HostTensor(ctypes.Structure):
    """uta_host_tensor_t."""
    _fields_ = [("data", c_void_p), ("dtype", c_int), ("rank", c_size_t),
                ("shape", POINTER(c_int64)), ("num_elements", c_size_t)]


class RunOptions(ctypes.Structure):
    """uta_run_options_t."""
    _fields_ = [("flags", c_uint32), ("kernel_milliseconds", POINTER(c_double))]


class CacheStats(ctypes.Structure):
    """uta_cache_stats_t."""
    _fields_ = [("memory_hits", c_uint64), ("disk_hits", c_uint64),
                ("misses", c_uint64), ("corrupt", c_uint64),
                ("writes", c_uint64)]


class Algebra(ctypes.Structure):
    """uta_algebra_t."""
    _fields_ = [("p", c_int), ("q", c_int), ("r", c_int)]


_handle = c_void_p
_value = c_int64
_out = POINTER(c_void_p)
_shape = POINTER(c_int64)

# name: (restype, argtypes) of libuta_c_runtime.so.
_RUNTIME = {
    "uta_api_version": (c_int, []),
    "uta_last_error": (c_char_p, []),
    "uta_device_open": (c_int, [c_char_p, c_int, _out]),
    "uta_device_destroy": (None, [_handle]),
    "uta_device_backend": (c_char_p, [_handle]),
    "uta_device_description": (c_char_p, [_handle]),
    "uta_device_target": (c_int, [_handle, POINTER(c_int)]),
    "uta_device_sm": (c_char_p, [_handle]),
    "uta_device_cuda_stream": (c_uint64, [_handle]),
    "uta_device_tensor_allocate": (c_int, [_handle, c_int, _shape, c_size_t,
                                           _out]),
    "uta_device_tensor_wrap": (c_int, [_handle, c_uint64, c_int, _shape,
                                       c_size_t, _out]),
    "uta_device_tensor_destroy": (None, [_handle]),
    "uta_device_tensor_address": (c_uint64, [_handle]),
    "uta_device_tensor_upload": (c_int, [_handle, c_void_p, c_size_t]),
    "uta_device_tensor_download": (c_int, [_handle, c_void_p, c_size_t]),
    "uta_executable_load": (c_int, [_handle, c_char_p, _out]),
    "uta_executable_load_memory": (c_int, [_handle, c_char_p, c_size_t,
                                           c_void_p, c_size_t, _out]),
    "uta_executable_destroy": (None, [_handle]),
    "uta_executable_name": (c_char_p, [_handle]),
    "uta_executable_num_inputs": (c_size_t, [_handle]),
    "uta_executable_num_outputs": (c_size_t, [_handle]),
    "uta_executable_workspace_bytes": (c_uint64, [_handle]),
    "uta_executable_workspace_alignment": (c_uint64, [_handle]),
    "uta_executable_tensor_type": (c_int, [_handle, c_int, c_size_t,
                                           POINTER(c_int), POINTER(c_size_t),
                                           POINTER(_shape)]),
    "uta_executable_device": (c_int, [_handle, _out]),
    "uta_executable_run_host": (c_int, [_handle, POINTER(HostTensor), c_size_t,
                                        POINTER(HostTensor), c_size_t,
                                        POINTER(RunOptions)]),
    "uta_executable_run_device": (c_int, [_handle, POINTER(c_void_p), c_size_t,
                                          POINTER(c_void_p), c_size_t,
                                          POINTER(RunOptions)]),
    "uta_executable_run_addresses": (c_int, [_handle, POINTER(c_uint64),
                                             c_size_t, POINTER(c_uint64),
                                             c_size_t, POINTER(RunOptions)]),
    # (The report is a malloc'd string handed back to uta_string_free, so
    # its pointer is kept as a c_void_p, not converted by c_char_p.)
    "uta_executable_profile_addresses": (c_int, [_handle, POINTER(c_uint64),
                                                 c_size_t, POINTER(c_uint64),
                                                 c_size_t, c_uint32,
                                                 POINTER(c_void_p)]),
    "uta_string_free": (None, [c_void_p]),
    "uta_executable_run_on_cuda_stream": (c_int, [_handle, POINTER(c_uint64),
                                                  c_size_t, POINTER(c_uint64),
                                                  c_size_t, c_uint64, c_uint64,
                                                  c_uint64]),
    "uta_fill_normal": (None, [POINTER(c_float), c_size_t, c_uint64, c_uint64]),
    "uta_default_tolerance": (c_double, [c_int, c_int, c_int]),
}

_ALGEBRA = Algebra
# name: (restype, argtypes) of libuta_c.so.
_COMPILER = {
    "uta_algebra_num_blades": (c_int64, [_ALGEBRA]),
    "uta_algebra_num_paths": (c_int64, [_ALGEBRA]),
    "uta_graph_create": (c_void_p, [c_char_p]),
    "uta_graph_destroy": (None, [_handle]),
    "uta_graph_ok": (c_int, [_handle]),
    "uta_graph_error": (c_char_p, [_handle]),
    "uta_graph_str": (c_char_p, [_handle]),
    "uta_graph_value_type": (c_int, [_handle, _value, POINTER(c_int),
                                     POINTER(c_size_t), POINTER(_shape)]),
    "uta_graph_input": (_value, [_handle, _shape, c_size_t, c_int]),
    "uta_graph_constant": (_value, [_handle, _shape, c_size_t,
                                    POINTER(c_float), c_size_t, c_int]),
    "uta_graph_fill": (_value, [_handle, _shape, c_size_t, c_float, c_int]),
    "uta_graph_output": (c_int, [_handle, _value]),
    "uta_graph_num_inputs": (c_size_t, [_handle]),
    "uta_graph_num_outputs": (c_size_t, [_handle]),
    "uta_graph_gradient": (c_void_p, [_handle, _shape, c_size_t, c_int]),
    "uta_graph_training_half": (c_void_p, [_handle, _shape, c_size_t, c_int]),
    "uta_graph_saved_values": (c_size_t, [_handle, _shape, c_size_t]),
    "uta_graph_gelu": (_value, [_handle, _value, c_int]),
    "uta_graph_matmul": (_value, [_handle, _value, _value, c_int]),
    "uta_graph_softmax": (_value, [_handle, _value, c_int64]),
    "uta_graph_layer_norm": (_value, [_handle, _value, _value, _value, c_int64,
                                      c_float]),
    "uta_graph_cast": (_value, [_handle, _value, c_int]),
    "uta_graph_grade_project": (_value, [_handle, _ALGEBRA, _value, _shape,
                                         c_size_t, c_int64]),
    "uta_graph_grade_rms_norm": (_value, [_handle, _ALGEBRA, _value, c_float]),
    "uta_kernel_cache_open": (c_int, [c_char_p, _out]),
    "uta_kernel_cache_process": (c_int, [_out]),
    "uta_kernel_cache_destroy": (None, [_handle]),
    "uta_kernel_cache_stats": (None, [_handle, POINTER(CacheStats)]),
    "uta_compile_options_create": (c_int, [_out]),
    "uta_compile_options_destroy": (None, [_handle]),
    "uta_compile_options_for_device": (c_int, [_handle, _out]),
    "uta_compile_options_set_target": (None, [_handle, c_int]),
    "uta_compile_options_set_sm": (c_int, [_handle, c_char_p]),
    "uta_compile_options_set_block_size": (None, [_handle, ctypes.c_uint]),
    "uta_compile_options_set_fusion": (None, [_handle, c_int]),
    "uta_compile_options_set_vectorize": (None, [_handle, c_int]),
    "uta_compile_options_set_allow_tf32": (None, [_handle, c_int]),
    "uta_compile_options_set_fast_math": (None, [_handle, c_int]),
    "uta_compile_options_set_cache": (None, [_handle, _handle]),
    "uta_compile": (c_int, [_handle, _handle, _out]),
    "uta_compiled_graph_destroy": (None, [_handle]),
    "uta_compiled_graph_name": (c_char_p, [_handle]),
    "uta_compiled_graph_target": (c_int, [_handle]),
    "uta_compiled_graph_module": (c_void_p, [_handle, POINTER(c_size_t)]),
    "uta_compiled_graph_manifest": (c_char_p, [_handle]),
    "uta_compiled_graph_cache_hit": (c_int, [_handle]),
    "uta_compiled_graph_has_reductions": (c_int, [_handle]),
    "uta_compiled_graph_save": (c_int, [_handle, c_char_p]),
    "uta_compiled_graph_load": (c_int, [_handle, _handle, _out]),
}
# The builders that share a signature (include/uta-c/Compiler.h).
BINARY_OPS = ("add", "sub", "mul", "div", "max", "min", "pow")
UNARY_OPS = ("neg", "abs", "sign", "exp", "log", "sqrt", "rsqrt", "tanh",
             "erf", "sigmoid", "relu", "silu")
REDUCTIONS = ("reduce_sum", "reduce_max", "reduce_mean")
RESHAPINGS = ("transpose", "reshape", "broadcast_to")
PRODUCTS = ("geometric_product", "outer_product", "left_contraction",
            "scalar_product", "sandwich")
INVOLUTIONS = ("reverse", "grade_involution", "conjugate", "dual",
               "scalar_gate")
LAYER_PRODUCTS = ("weighted_product", "fc_product")
for _op in BINARY_OPS:
    _COMPILER["uta_graph_" + _op] = (_value, [_handle, _value, _value])
for _op in UNARY_OPS:
    _COMPILER["uta_graph_" + _op] = (_value, [_handle, _value])
for _op in REDUCTIONS:
    _COMPILER["uta_graph_" + _op] = (_value, [_handle, _value, _shape,
                                              c_size_t, c_int])
for _op in RESHAPINGS:
    _COMPILER["uta_graph_" + _op] = (_value, [_handle, _value, _shape,
                                              c_size_t])
for _op in PRODUCTS:
    _COMPILER["uta_graph_" + _op] = (_value, [_handle, _ALGEBRA, _value,
                                              _value, c_int64])
for _op in INVOLUTIONS:
    _COMPILER["uta_graph_" + _op] = (_value, [_handle, _ALGEBRA, _value,
                                              c_int64])
for _op in LAYER_PRODUCTS:
    _COMPILER["uta_graph_" + _op] = (_value, [_handle, _ALGEBRA, _value,
                                              _value, _value])


def _library_dirs():
    dirs = []
    if os.environ.get("UTA_LIBRARY_DIR"):
        dirs.append(os.environ["UTA_LIBRARY_DIR"])
    dirs.append(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "_lib"))
    return dirs


def _load(names):
    """Loads `names` in order from the first folder that has the last one."""
    tried = []
    for folder in _library_dirs():
        if not os.path.exists(os.path.join(folder, names[-1])):
            tried.append(folder)
            continue
        libraries = [ctypes.CDLL(os.path.join(folder, name))
                     for name in names
                     if os.path.exists(os.path.join(folder, name))]
        return libraries[-1]
    raise OSError(f"{names[-1]} is in none of {', '.join(tried)} (set "
                  "UTA_LIBRARY_DIR to the build's lib folder, or build the "
                  "uta-python target; docs/python.md)")


def _declare(library, table):
    for name, (restype, argtypes) in table.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes


runtime = _load(["libuta_runtime.so", "libuta_c_runtime.so"])
_declare(runtime, _RUNTIME)
if runtime.uta_api_version() != API_VERSION:
    raise ImportError(f"libuta_c_runtime.so has C API version "
                      f"{runtime.uta_api_version()}, this package needs "
                      f"{API_VERSION}")

# The compiler half is optional: without it, graphs compiled elsewhere still
# load and run (uta.load).
compiler = None
compiler_error = None
try:
    compiler = _load(["libuta.so", "libuta_c.so"])
    _declare(compiler, _COMPILER)
except OSError as error:
    compiler_error = str(error)


def last_error():
    return runtime.uta_last_error().decode("utf-8", "replace")


def shape_array(shape):
    """A ctypes int64 array of `shape` (a pointer the C API reads)."""
    return (c_int64 * max(len(shape), 1))(*shape)
