"""Compiling graphs: uta.compile, compiled graphs and the kernel cache.

Over the compiler half of the C API (libuta_c.so): the same pipelines and
kernel cache as ``utac`` and the C++ API's ``uta::compile`` (docs/api.md,
docs/cache.md).

    exe = uta.compile(graph, device=dev).load(dev)
"""
import ctypes

from . import _capi
from ._check import (C_UNSIGNED, HandleOwner, check_int, check_path,
                     check_string)
from .errors import InvalidInput, check
from .graph import Graph, _compiler
from .runtime import Executable, as_device

TARGETS = {"ptx": _capi.TARGET_PTX, "spirv": _capi.TARGET_SPIRV,
           "msl": _capi.TARGET_MSL}
TARGET_NAMES = {code: name for name, code in TARGETS.items()}


class KernelCache(HandleOwner):
    """A kernel cache: `directory` on disk, or "" for memory only. The
    default of compile is the process-wide cache (UTA_CACHE_DIR, ...)."""
    _noun = "kernel cache"

    def __init__(self, directory="", _handle=None):
        self._lib = _compiler()
        if _handle is None:
            path = check_path(directory, "uta.KernelCache", "directory")
            handle = ctypes.c_void_p()
            check(self._lib.uta_kernel_cache_open(path, ctypes.byref(handle)))
            _handle = handle.value
        self._handle = _handle

    @classmethod
    def process(cls):
        handle = ctypes.c_void_p()
        check(_compiler().uta_kernel_cache_process(ctypes.byref(handle)))
        return cls(_handle=handle.value)

    def _destroy(self, handle):
        self._lib.uta_kernel_cache_destroy(handle)

    def stats(self):
        """The counters since the cache was opened, as a dict."""
        stats = _capi.CacheStats()
        self._lib.uta_kernel_cache_stats(self._live, ctypes.byref(stats))
        return {name: getattr(stats, name) for name, _ in stats._fields_}


class CompiledGraph(HandleOwner):
    """A graph compiled for a target: module and manifest, as ``utac -o``
    writes them."""
    _noun = "compiled graph"

    def __init__(self, handle):
        self._lib = _compiler()
        self._handle = handle
        self.name = self._lib.uta_compiled_graph_name(handle).decode()
        self.target = TARGET_NAMES[self._lib.uta_compiled_graph_target(handle)]
        self.cache_hit = bool(self._lib.uta_compiled_graph_cache_hit(handle))
        self.has_reductions = bool(
            self._lib.uta_compiled_graph_has_reductions(handle))

    def _destroy(self, handle):
        self._lib.uta_compiled_graph_destroy(handle)

    @property
    def module(self):
        """The module file's bytes (PTX text, SPIR-V words, MSL source)."""
        size = ctypes.c_size_t()
        address = self._lib.uta_compiled_graph_module(self._live,
                                                      ctypes.byref(size))
        return ctypes.string_at(address, size.value)

    @property
    def manifest(self):
        """The manifest's JSON text (docs/manifest.md)."""
        return self._lib.uta_compiled_graph_manifest(self._live).decode()

    def save(self, path):
        """Writes the module to `path` and the manifest to `path`.json, for
        uta.load where no compiler is installed."""
        path = check_path(path, "uta.CompiledGraph.save", "path")
        check(self._lib.uta_compiled_graph_save(self._live, path))

    def load(self, device):
        """Loads on `device` (a uta.Device or a backend name); on the
        reference device, the float64 interpreter runs the graph."""
        device = as_device(device, "uta.CompiledGraph.load")
        handle = ctypes.c_void_p()
        check(self._lib.uta_compiled_graph_load(self._live, device._live,
                                                ctypes.byref(handle)))
        return Executable(handle.value, device)

    def tolerance(self, dtype="f32", fast_math=False):
        """The tolerance of ``utac run --check`` for this graph's results."""
        from .runtime import default_tolerance
        return default_tolerance(dtype, self.has_reductions, fast_math)


def compile(graph, target=None, device=None, sm=None, block_size=None,
            fusion=True, vectorize=True, allow_tf32=False, fast_math=False,
            cache=None):
    """Compiles `graph` through the pipelines of utac. The target is
    `target` ("ptx", "spirv", "msl"), else the one `device` runs (ptx at its
    sm for cuda, spirv for vulkan and the reference), else ptx."""
    lib = _compiler()
    # Every argument is checked before the options exist, so nothing leaks.
    if not isinstance(graph, Graph):
        raise InvalidInput(f"uta.compile: graph must be a uta.Graph, got "
                           f"{type(graph).__name__}")
    graph_handle = graph._live
    if target is not None and (not isinstance(target, str) or
                               target not in TARGETS):
        raise InvalidInput(f"unknown target {target!r} (expected ptx, spirv "
                           "or msl)")
    if sm is not None:
        sm = check_string(sm, "uta.compile", "sm")
    if block_size is not None:
        block_size = check_int(block_size, "uta.compile", "block_size",
                               C_UNSIGNED)
    if cache is not None and not isinstance(cache, KernelCache):
        raise InvalidInput(f"uta.compile: cache must be a uta.KernelCache, "
                           f"got {type(cache).__name__}")
    cache_handle = None if cache is None else cache._live
    options = ctypes.c_void_p()
    if device is not None:
        device = as_device(device, "uta.compile")
        check(lib.uta_compile_options_for_device(device._live,
                                                 ctypes.byref(options)))
    else:
        check(lib.uta_compile_options_create(ctypes.byref(options)))
    try:
        if target is not None:
            lib.uta_compile_options_set_target(options, TARGETS[target])
        if sm is not None:
            check(lib.uta_compile_options_set_sm(options, sm))
        if block_size is not None:
            lib.uta_compile_options_set_block_size(options, block_size)
        lib.uta_compile_options_set_fusion(options, int(bool(fusion)))
        lib.uta_compile_options_set_vectorize(options, int(bool(vectorize)))
        lib.uta_compile_options_set_allow_tf32(options, int(bool(allow_tf32)))
        lib.uta_compile_options_set_fast_math(options, int(bool(fast_math)))
        if cache_handle is not None:
            lib.uta_compile_options_set_cache(options, cache_handle)
        compiled = ctypes.c_void_p()
        check(lib.uta_compile(graph_handle, options, ctypes.byref(compiled)))
        return CompiledGraph(compiled.value)
    finally:
        lib.uta_compile_options_destroy(options)
