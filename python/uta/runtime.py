"""Devices, executables and tensors: running compiled graphs from Python.

Needs only libuta_c_runtime.so (no compiler). Tensors come in and go out
through DLPack without copies (docs/python.md):

- inputs and ``out=`` tensors are any objects with ``__dlpack__`` (torch
  tensors, NumPy arrays, uta.Tensor) or "dltensor" capsules: on cuda, tensors
  of that CUDA device, whose memory the kernels read and write in place; on
  vulkan and the reference, host (CPU) tensors, read and written in place by
  the host run. Each is checked for dtype, shape, device and contiguity;
- results that UTA allocates come back as :class:`Tensor`, which exports
  itself through ``__dlpack__``: ``torch.from_dlpack(y)`` or
  ``numpy.from_dlpack(y)`` view UTA's memory without a copy.

CUDA streams: UTA launches on its own stream and a run returns once its
outputs are written (it synchronises that stream), so the outputs are ready
for work on any stream. Inputs are handed over with DLPack's stream
handshake: ``x.__dlpack__(stream=<UTA's stream>)`` makes the producer (torch)
order its pending work on its current stream before UTA's launches.
"""
import ctypes
import json

from . import _capi, _check, _dlpack
from ._check import (DEVICE_INDEX, FLOAT32_COUNT, UINT64, HandleOwner,
                     check_int, check_path, check_string)
from .errors import InvalidInput, check
from .graph import DTYPE_NAMES

_rt = _capi.runtime


def _describe(dtype, shape):
    return f"{DTYPE_NAMES.get(dtype, '?')} {list(shape)}"


class Device(HandleOwner):
    """An open backend: "cuda", "vulkan", "reference", or "best" (cuda where
    a GPU driver and device work, else vulkan)."""
    _noun = "device"

    def __init__(self, backend="best", index=0):
        name = check_string(backend, "uta.device", "backend")
        self.index = check_int(index, "uta.device", "index", DEVICE_INDEX)
        handle = ctypes.c_void_p()
        check(_rt.uta_device_open(name, self.index, ctypes.byref(handle)))
        self._handle = handle.value
        self.backend = _rt.uta_device_backend(self._handle).decode()
        self.description = _rt.uta_device_description(self._handle).decode()
        self.sm = _rt.uta_device_sm(self._handle).decode()
        self.cuda_stream = _rt.uta_device_cuda_stream(self._handle)

    def _destroy(self, handle):
        _rt.uta_device_destroy(handle)

    def __repr__(self):
        return f"<uta.Device {self.backend}: {self.description}>"

    @property
    def is_host(self):
        """Whether tensors given to runs on this device live on the host."""
        return self.backend != "cuda"

    @property
    def dlpack_device(self):
        """The DLPack (device_type, device_id) of the tensors runs take."""
        if self.is_host:
            return (_dlpack.CPU, 0)
        return (_dlpack.CUDA, self.index)

    def load(self, manifest_path):
        """Loads a compiled graph from the manifest that ``utac -o OUT`` or
        :meth:`uta.CompiledGraph.save` wrote (OUT.json)."""
        path = check_path(manifest_path, "uta.load", "manifest_path")
        handle = ctypes.c_void_p()
        check(_rt.uta_executable_load(self._live, path, ctypes.byref(handle)))
        return Executable(handle.value, self)


def as_device(device, where):
    """`device` itself, or a new Device for a backend name."""
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        return Device(device)
    raise InvalidInput(f"{where}: device must be a uta.Device or a backend "
                       f"name, got {type(device).__name__}")


class _Storage:
    """Memory UTA allocated for a result: a device tensor handle, or host
    bytes. Lives while a Tensor or an exported capsule refers to it."""
    __slots__ = ("handle", "host", "address")

    def __init__(self, handle=None, host=None):
        self.handle, self.host = handle, host
        if handle is not None:
            self.address = _rt.uta_device_tensor_address(handle)
        else:
            self.address = ctypes.addressof(host)

    def __del__(self):
        handle, self.handle = self.handle, None
        if handle:
            _rt.uta_device_tensor_destroy(handle)


class Tensor:
    """A result that UTA allocated: on the run's device (cuda) or in host
    memory (vulkan, reference). Exported without a copy by ``__dlpack__``;
    ``free()`` drops this object's hold on the memory (views exported
    before keep theirs)."""

    def __init__(self, storage, dtype, shape, device):
        self._storage = storage
        self.dtype = DTYPE_NAMES[dtype]
        self._dtype = dtype
        self.shape = tuple(shape)
        self.device = device

    def __repr__(self):
        state = "freed" if self._storage is None else hex(self.data_ptr())
        return (f"<uta.Tensor {_describe(self._dtype, self.shape)} on "
                f"{self.device.backend} at {state}>")

    def _live(self, what="tensor"):
        if self._storage is None:
            raise InvalidInput(f"{what}: the uta.Tensor was freed")
        return self._storage

    def data_ptr(self):
        """The address of the first element (a CUDA device pointer on
        cuda)."""
        return self._live().address

    def free(self):
        """Releases this object's hold on the memory now."""
        self._storage = None

    def __dlpack_device__(self):
        self._live()
        return self.device.dlpack_device

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        # The run that wrote the memory has finished (it synchronised UTA's
        # stream), so no stream needs to wait. Exported unversioned, which
        # DLPack allows a producer to answer any max_version with.
        storage = self._live()
        if dl_device is not None and tuple(dl_device) != \
                self.device.dlpack_device:
            raise BufferError("uta.Tensor: no copies to another device")
        if copy:
            raise BufferError("uta.Tensor: exports without copying only")
        device_type, device_id = self.device.dlpack_device
        return _dlpack.export(storage.address, device_type, device_id,
                              self._dtype, self.shape, storage)

    def numpy(self):
        """A NumPy view of a host tensor (no copy)."""
        import numpy
        return numpy.from_dlpack(self)


class Executable(HandleOwner):
    """A compiled graph loaded on a device; call it to run."""
    _noun = "executable"
    # Its own handle to the device, for allocating outputs: the C executable
    # outlives the Device it was loaded on, and so does this object.
    _device_handle = None

    def __init__(self, handle, device):
        self._handle = handle
        device_handle = ctypes.c_void_p()
        check(_rt.uta_executable_device(handle, ctypes.byref(device_handle)))
        self._device_handle = device_handle.value
        self.device = device
        self.name = _rt.uta_executable_name(handle).decode()
        self.inputs = [self._type(0, i) for i in
                       range(_rt.uta_executable_num_inputs(handle))]
        self.outputs = [self._type(1, i) for i in
                        range(_rt.uta_executable_num_outputs(handle))]
        self._host = device.is_host
        self._stream = device.cuda_stream or None

    def _destroy(self, handle):
        _rt.uta_executable_destroy(handle)
        device_handle, self._device_handle = self._device_handle, None
        _rt.uta_device_destroy(device_handle)

    def __repr__(self):
        signature = ", ".join(_describe(d, s) for d, s in self.inputs)
        results = ", ".join(_describe(d, s) for d, s in self.outputs)
        return (f"<uta.Executable @{self.name}({signature}) -> ({results}) "
                f"on {self.device.backend}>")

    @property
    def workspace_bytes(self):
        """Device bytes a run holds for its intermediates where they share
        one workspace (CUDA runs, on torch's stream or not): intermediates
        that no launch needs at the same time share bytes, so this is about
        the most memory live at one launch."""
        return _rt.uta_executable_workspace_bytes(self._handle)

    def _type(self, output, index):
        dtype = ctypes.c_int()
        rank = ctypes.c_size_t()
        shape = ctypes.POINTER(ctypes.c_int64)()
        check(_rt.uta_executable_tensor_type(self._handle, output, index,
                                             ctypes.byref(dtype),
                                             ctypes.byref(rank),
                                             ctypes.byref(shape)))
        return dtype.value, tuple(shape[i] for i in range(rank.value))

    def _borrow(self, obj, what, expected):
        """A producer's tensor checked against `expected` (dtype, shape) and
        this device."""
        if isinstance(obj, Tensor):
            obj._live(what)
        device = _dlpack.device_of(obj, what)
        wanted = self.device.dlpack_device
        if device[0] != wanted[0] or (device[1] is not None and
                                      device[1] != wanted[1]):
            have = (f"{_dlpack.DEVICE_NAMES.get(device[0], device[0])}:"
                    f"{device[1]}")
            want = (f"{_dlpack.DEVICE_NAMES[wanted[0]]}:{wanted[1]}")
            raise InvalidInput(
                f"{what}: a tensor on {have}, but @{self.name} runs on "
                f"{self.device.backend} and takes {want} tensors"
                + (" (move it with .cpu(), or open the cuda device)"
                   if self._host else " (move it with .to('cuda'))"))
        # A CUDA producer orders its pending writes before UTA's stream.
        stream = self._stream if device[0] == _dlpack.CUDA else None
        borrowed = _dlpack.borrow(obj, what, stream)
        if (borrowed.dtype, borrowed.shape) != expected:
            raise InvalidInput(f"{what}: expected {_describe(*expected)}, got "
                               f"{_describe(borrowed.dtype, borrowed.shape)}")
        return borrowed

    def __call__(self, *inputs, out=None, poison=False, timing=None):
        """Runs the graph: one tensor per input, in order. Returns a tuple of
        the outputs: `out`'s tensors when given (one per output, written in
        place), else new :class:`Tensor` objects. `poison` fills the outputs
        with NaN first (a check that every element is written; one copy per
        output on a GPU). `timing`, a list, receives the kernels' summed GPU
        time in milliseconds."""
        self._live  # refuses a released executable before any tensor moves
        if len(inputs) != len(self.inputs):
            raise InvalidInput(f"@{self.name} takes {len(self.inputs)} "
                               f"inputs, got {len(inputs)}")
        if timing is not None and not hasattr(timing, "append"):
            raise InvalidInput(f"@{self.name}: timing must be a list, got "
                               f"{type(timing).__name__}")
        if out is not None:
            out = tuple(out)
            if len(out) != len(self.outputs):
                raise InvalidInput(f"@{self.name} returns "
                                   f"{len(self.outputs)} outputs, out= has "
                                   f"{len(out)}")
        borrowed = [self._borrow(x, f"input {i}", self.inputs[i])
                    for i, x in enumerate(inputs)]
        if out is not None:
            results = [self._borrow(y, f"out {i}", self.outputs[i])
                       for i, y in enumerate(out)]
        else:
            results = [self._allocate(dtype, shape)
                       for dtype, shape in self.outputs]
        kernel_ms = ctypes.c_double(-1.0)
        options = _capi.RunOptions(
            _capi.RUN_POISON_OUTPUTS if poison else 0,
            ctypes.pointer(kernel_ms) if timing is not None else None)
        # The borrowed tensors and `results` keep the memory alive until the
        # run has returned; UTA wraps, and never frees, these addresses.
        check(_rt.uta_executable_run_addresses(
            self._live, _addresses(borrowed), len(borrowed),
            _addresses(results), len(results), ctypes.byref(options)))
        if timing is not None:
            timing.append(kernel_ms.value)
        if out is not None:
            return out
        return tuple(Tensor(storage, dtype, shape, self.device)
                     for storage, (dtype, shape) in zip(results,
                                                        self.outputs))

    def profile(self, *inputs, runs=20):
        """Runs the graph `runs` times on `inputs` (new outputs each time,
        unread) and returns the profile (docs/profiling.md) as a dict, what
        `uta-run --profile-json` writes: "device", "launches" (per launch
        its "kernel", median "milliseconds" over the runs after the first,
        "runs", and "cost": the operations by unit and the bytes the
        compiler counted, with the rates they make), "total_milliseconds".
        The reference device times nothing: its report has no launches."""
        self._live
        if len(inputs) != len(self.inputs):
            raise InvalidInput(f"@{self.name} takes {len(self.inputs)} "
                               f"inputs, got {len(inputs)}")
        runs = check_int(runs, f"@{self.name}.profile", "runs",
                         _check.IntRange(1, 100000))
        borrowed = [self._borrow(x, f"input {i}", self.inputs[i])
                    for i, x in enumerate(inputs)]
        results = [self._allocate(dtype, shape)
                   for dtype, shape in self.outputs]
        report = ctypes.c_void_p()
        check(_rt.uta_executable_profile_addresses(
            self._live, _addresses(borrowed), len(borrowed),
            _addresses(results), len(results), runs, ctypes.byref(report)))
        try:
            text = ctypes.string_at(report.value).decode("utf-8", "replace")
        finally:
            _rt.uta_string_free(report)
        return json.loads(text)

    def bind(self, *inputs, out=None, poison=False):
        """A run with its tensors fixed, for calling again and again at the
        least cost (one C call): inputs and outputs are checked, wrapped and
        handed over (with the CUDA stream handshake) once, here. Each call
        reads the inputs' memory as it is then and writes the same outputs.
        The handshake is not repeated: on cuda, work that the caller queues
        after bind() (new input values) must have finished before a call,
        e.g. torch.cuda.current_stream().synchronize()."""
        return BoundRun(self, inputs, out, poison)

    def _allocate(self, dtype, shape):
        if self._host:
            count = 1
            for size in shape:
                count *= size
            bytes_ = count * (4 if dtype == _capi.F32 else 2)
            return _Storage(host=(ctypes.c_uint8 * max(bytes_, 1))())
        handle = ctypes.c_void_p()
        sizes = _capi.shape_array(shape)
        check(_rt.uta_device_tensor_allocate(self._device_handle, dtype,
                                             sizes, len(shape),
                                             ctypes.byref(handle)))
        return _Storage(handle=handle.value)


def _addresses(tensors):
    """A C array of the tensors' addresses (Borrowed or _Storage)."""
    return (ctypes.c_uint64 * max(len(tensors), 1))(
        *[t.address for t in tensors])


class BoundRun:
    """Executable.bind: a run whose tensors are fixed; call it to run. Holds
    its executable, and refuses to run once that was released."""

    def __init__(self, exe, inputs, out, poison):
        handle = exe._live
        if len(inputs) != len(exe.inputs):
            raise InvalidInput(f"@{exe.name} takes {len(exe.inputs)} "
                               f"inputs, got {len(inputs)}")
        if out is not None and len(out) != len(exe.outputs):
            raise InvalidInput(f"@{exe.name} returns {len(exe.outputs)} "
                               f"outputs, out= has {len(out)}")
        self._exe = exe
        # Keeps the callers' memory (the capsules) alive while bound.
        self._borrowed = [exe._borrow(x, f"input {i}", exe.inputs[i])
                          for i, x in enumerate(inputs)]
        if out is not None:
            self._results = [exe._borrow(y, f"out {i}", exe.outputs[i])
                             for i, y in enumerate(out)]
            self.outputs = tuple(out)
        else:
            self._results = [exe._allocate(dtype, shape)
                             for dtype, shape in exe.outputs]
            self.outputs = tuple(Tensor(storage, dtype, shape, exe.device)
                                 for storage, (dtype, shape) in
                                 zip(self._results, exe.outputs))
        self._options = _capi.RunOptions(
            _capi.RUN_POISON_OUTPUTS if poison else 0, None)
        self._args = (handle, _addresses(self._borrowed),
                      len(self._borrowed), _addresses(self._results),
                      len(self._results), ctypes.byref(self._options))

    def __call__(self):
        """Runs once; returns the outputs (the same objects every call)."""
        # _args holds the executable's handle: never pass it once released.
        if self._exe.released:
            raise InvalidInput(f"{self._exe._subject()}: this bound run's "
                               "executable was released")
        check(_rt.uta_executable_run_addresses(*self._args))
        return self.outputs


def device(backend="best", index=0):
    """Opens a device (see :class:`Device`)."""
    return Device(backend, index)


def load(manifest_path, device=None):
    """Loads a compiled graph's manifest on `device` (a uta.Device or a
    backend name; default "best")."""
    return as_device("best" if device is None else device,
                     "uta.load").load(manifest_path)


def fill_normal(count, seed, stream=0):
    """`count` seeded standard-normal float32 numbers, never zero, as a
    ctypes array: argument `stream` of ``utac run --seed=SEED``
    (docs/random-inputs.md)."""
    count = check_int(count, "uta.fill_normal", "count", FLOAT32_COUNT)
    seed = check_int(seed, "uta.fill_normal", "seed", UINT64)
    stream = check_int(stream, "uta.fill_normal", "stream", UINT64)
    values = (ctypes.c_float * count)()
    _rt.uta_fill_normal(values, count, seed, stream)
    return values


def default_tolerance(dtype="f32", reduces=False, fast_math=False):
    """The tolerance of ``utac run --check`` (docs/runtime.md)."""
    from .graph import dtype_code
    return _rt.uta_default_tolerance(dtype_code(dtype), int(bool(reduces)),
                                     int(bool(fast_math)))
