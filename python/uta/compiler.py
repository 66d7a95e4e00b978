"""Compiling graphs: uta.compile, compiled graphs and the kernel cache.

Over the compiler half of the C API (libuta_c.so): the same pipelines and
kernel cache as ``utac`` and the C++ API's ``uta::compile`` (docs/api.md,
docs/cache.md).

    exe = uta.compile(graph, device=dev).load(dev)
"""
import ctypes

from . import _capi
from .errors import InvalidInput, check
from .graph import _compiler
from .runtime import Device, Executable

TARGETS = {"ptx": _capi.TARGET_PTX, "spirv": _capi.TARGET_SPIRV,
           "msl": _capi.TARGET_MSL}
TARGET_NAMES = {code: name for name, code in TARGETS.items()}


class KernelCache:
    """A kernel cache: `directory` on disk, or "" for memory only. The
    default of compile is the process-wide cache (UTA_CACHE_DIR, ...)."""

    def __init__(self, directory="", _handle=None):
        lib = _compiler()
        if _handle is None:
            handle = ctypes.c_void_p()
            check(lib.uta_kernel_cache_open(str(directory).encode(),
                                            ctypes.byref(handle)))
            _handle = handle.value
        self._lib, self._handle = lib, _handle

    @classmethod
    def process(cls):
        handle = ctypes.c_void_p()
        check(_compiler().uta_kernel_cache_process(ctypes.byref(handle)))
        return cls(_handle=handle.value)

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.uta_kernel_cache_destroy(handle)

    def stats(self):
        """The counters since the cache was opened, as a dict."""
        stats = _capi.CacheStats()
        self._lib.uta_kernel_cache_stats(self._handle, ctypes.byref(stats))
        return {name: getattr(stats, name) for name, _ in stats._fields_}


class CompiledGraph:
    """A graph compiled for a target: module and manifest, as ``utac -o``
    writes them."""

    def __init__(self, handle):
        self._lib = _compiler()
        self._handle = handle
        self.name = self._lib.uta_compiled_graph_name(handle).decode()
        self.target = TARGET_NAMES[self._lib.uta_compiled_graph_target(handle)]
        self.cache_hit = bool(self._lib.uta_compiled_graph_cache_hit(handle))
        self.has_reductions = bool(
            self._lib.uta_compiled_graph_has_reductions(handle))

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.uta_compiled_graph_destroy(handle)

    @property
    def module(self):
        """The module file's bytes (PTX text, SPIR-V words, MSL source)."""
        size = ctypes.c_size_t()
        address = self._lib.uta_compiled_graph_module(self._handle,
                                                      ctypes.byref(size))
        return ctypes.string_at(address, size.value)

    @property
    def manifest(self):
        """The manifest's JSON text (docs/manifest.md)."""
        return self._lib.uta_compiled_graph_manifest(self._handle).decode()

    def save(self, path):
        """Writes the module to `path` and the manifest to `path`.json, for
        uta.load where no compiler is installed."""
        check(self._lib.uta_compiled_graph_save(self._handle,
                                                str(path).encode()))

    def load(self, device):
        """Loads on `device` (a uta.Device or a backend name); on the
        reference device, the float64 interpreter runs the graph."""
        if not isinstance(device, Device):
            device = Device(device)
        handle = ctypes.c_void_p()
        check(self._lib.uta_compiled_graph_load(self._handle, device._handle,
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
    options = ctypes.c_void_p()
    if device is not None:
        if not isinstance(device, Device):
            device = Device(device)
        check(lib.uta_compile_options_for_device(device._handle,
                                                 ctypes.byref(options)))
    else:
        check(lib.uta_compile_options_create(ctypes.byref(options)))
    try:
        if target is not None:
            if target not in TARGETS:
                raise InvalidInput(f"unknown target {target!r} (expected "
                                   "ptx, spirv or msl)")
            lib.uta_compile_options_set_target(options, TARGETS[target])
        if sm is not None:
            check(lib.uta_compile_options_set_sm(options, str(sm).encode()))
        if block_size is not None:
            lib.uta_compile_options_set_block_size(options, int(block_size))
        lib.uta_compile_options_set_fusion(options, int(bool(fusion)))
        lib.uta_compile_options_set_vectorize(options, int(bool(vectorize)))
        lib.uta_compile_options_set_allow_tf32(options, int(bool(allow_tf32)))
        lib.uta_compile_options_set_fast_math(options, int(bool(fast_math)))
        if cache is not None:
            lib.uta_compile_options_set_cache(options, cache._handle)
        compiled = ctypes.c_void_p()
        check(lib.uta_compile(graph._handle, options, ctypes.byref(compiled)))
        return CompiledGraph(compiled.value)
    finally:
        lib.uta_compile_options_destroy(options)
