"""DLPack in ctypes: the structs, reading a producer's tensor, exporting ours.

The structs follow the DLPack specification (dlpack.h, ABI of version 0.6+,
the unversioned ``DLManagedTensor`` that the capsule named "dltensor"
carries). Only what UTA exchanges is named: float tensors (f32, f16, bf16) on
the CPU or on one CUDA device.

Importing (``borrow``): the producer's ``__dlpack__`` gives a capsule, which
we consume as the protocol says (renamed "used_dltensor"), and the
``DLManagedTensor``'s deleter is called when UTA is done with its memory,
with the GIL held, from an object's ``__del__`` (where Python keeps any
exception in flight aside).

Exporting (``export``): a ``DLManagedTensor`` allocated here, whose deleter
(a ctypes callback) drops the reference that kept UTA's memory alive, in a
capsule named "dltensor" whose destructor calls that deleter unless a
consumer (torch.from_dlpack, numpy.from_dlpack) renamed it "used_dltensor"
and took ownership. That destructor runs Python code (ctypes), so a capsule
of ours dropped unconsumed while an exception is in flight cannot release its
tensor (Python reports it as ignored); consumers (numpy, torch, this module)
consume what they ask for at once.
"""
import ctypes
import threading
from ctypes import (POINTER, c_char_p, c_int, c_int32, c_int64, c_uint8,
                    c_uint16, c_uint64, c_void_p)

from . import _capi
from .errors import InvalidInput

# DLDeviceType
CPU, CUDA, CUDA_HOST = 1, 2, 3
DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl",
                7: "vulkan", 8: "metal", 10: "rocm", 13: "cuda_managed"}
# DLDataTypeCode
INT, UINT, FLOAT, BFLOAT = 0, 1, 2, 4


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32),
                ("dtype", DLDataType), ("shape", POINTER(c_int64)),
                ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor),
                            ("manager_ctx", c_void_p),
                            ("deleter", DELETER)]


class _RawManagedTensor(ctypes.Structure):
    """DLManagedTensor with the deleter read as an address."""
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p),
                ("deleter", c_void_p)]

# The C API's dtypes as DLPack (code, bits), and back.
DTYPE_TO_DL = {_capi.F32: (FLOAT, 32), _capi.F16: (FLOAT, 16),
               _capi.BF16: (BFLOAT, 16)}
DL_TO_DTYPE = {value: key for key, value in DTYPE_TO_DL.items()}
DTYPE_NAMES = {_capi.F32: "f32", _capi.F16: "f16", _capi.BF16: "bf16"}
CODE_NAMES = {INT: "int", UINT: "uint", FLOAT: "float", BFLOAT: "bfloat"}

_py = ctypes.pythonapi
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, c_void_p, c_char_p,
                                 c_void_p)(("PyCapsule_New", _py))
_capsule_is_valid = ctypes.PYFUNCTYPE(c_int, ctypes.py_object, c_char_p)(
    ("PyCapsule_IsValid", _py))
_capsule_get_pointer = ctypes.PYFUNCTYPE(c_void_p, ctypes.py_object,
                                         c_char_p)(("PyCapsule_GetPointer",
                                                    _py))
_capsule_is_valid_raw = ctypes.PYFUNCTYPE(c_int, c_void_p, c_char_p)(
    ("PyCapsule_IsValid", _py))
_capsule_get_pointer_raw = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(
    ("PyCapsule_GetPointer", _py))
_capsule_set_name = ctypes.PYFUNCTYPE(c_int, ctypes.py_object, c_char_p)(
    ("PyCapsule_SetName", _py))
_capsule_type = type(_capsule_new(1, b"uta_probe", None))
# Calls a DLManagedTensor's deleter with the GIL held.
_DELETER_CALL = ctypes.PYFUNCTYPE(None, c_void_p)


_deleter_calls = {}


def _call_deleter(deleter, managed):
    call = _deleter_calls.get(deleter)
    if call is None:
        # One function object per producer's deleter, made once.
        call = _deleter_calls.setdefault(deleter, _DELETER_CALL(deleter))
    call(managed)


def describe(code, bits, lanes=1):
    """'f32', 'bf16', or DLPack's own spelling ('int64') for the others."""
    dtype = DL_TO_DTYPE.get((code, bits)) if lanes == 1 else None
    if dtype is not None:
        return DTYPE_NAMES[dtype]
    name = f"{CODE_NAMES.get(code, f'code{code}')}{bits}"
    return name if lanes == 1 else f"{name}x{lanes}"


class Borrowed:
    """A producer's tensor that UTA consumed, valid while this object lives;
    its deleter runs when this object goes (DLPack's consumer rule)."""
    __slots__ = ("managed", "address", "device_type", "device_id", "dtype",
                 "shape")

    def __init__(self, managed, address, device_type, device_id, dtype,
                 shape):
        self.managed = managed
        self.address = address
        self.device_type = device_type
        self.device_id = device_id
        self.dtype = dtype
        self.shape = shape

    def __del__(self):
        managed, self.managed = self.managed, None
        if managed:
            deleter = _RawManagedTensor.from_address(managed).deleter
            if deleter:
                # With the GIL held: producers' deleters drop Python objects.
                _call_deleter(deleter, managed)


def _managed(capsule, what):
    """The DLManagedTensor of an unconsumed "dltensor" capsule."""
    if _capsule_is_valid(capsule, b"dltensor"):
        return DLManagedTensor.from_address(
            _capsule_get_pointer(capsule, b"dltensor"))
    if _capsule_is_valid(capsule, b"used_dltensor"):
        raise InvalidInput(f"{what}: the DLPack capsule was already consumed "
                           "(a capsule can be used once; pass the tensor "
                           "itself)")
    raise InvalidInput(f"{what}: a capsule that is not a DLPack tensor")


def device_of(obj, what):
    """(device_type, device_id) of a DLPack producer or capsule."""
    if isinstance(obj, _capsule_type):
        device = _managed(obj, what).dl_tensor.device
        return device.device_type, device.device_id
    if hasattr(obj, "__dlpack_device__"):
        return tuple(obj.__dlpack_device__())
    raise InvalidInput(f"{what}: a {type(obj).__name__} is not a tensor: "
                       "expected an object with __dlpack__ (a NumPy array, "
                       "a torch tensor, a uta.Tensor)")


def borrow(obj, what, stream=None):
    """Consumes the DLPack tensor of `obj` (an object with __dlpack__, or a
    capsule), checking that it is a dense, row-major float tensor. `stream`
    is passed to a CUDA producer, which orders its pending work before it.
    """
    if isinstance(obj, _capsule_type):
        capsule = obj
    elif hasattr(obj, "__dlpack__"):
        try:
            capsule = obj.__dlpack__(stream=stream)
        except (BufferError, TypeError, ValueError, RuntimeError) as error:
            # The producer's own reason (a read-only NumPy array, a torch
            # tensor that requires grad), under the argument's name.
            raise InvalidInput(f"{what}: {type(obj).__name__}.__dlpack__ "
                               f"refused: {error}") from error
    else:
        raise InvalidInput(f"{what}: a {type(obj).__name__} is not a tensor: "
                           "expected an object with __dlpack__ (a NumPy "
                           "array, a torch tensor, a uta.Tensor)")
    if not _capsule_is_valid(capsule, b"dltensor"):
        _managed(capsule, what)  # raises the reason
    # Consumed: the capsule no longer releases the tensor; Borrowed does.
    pointer = _capsule_get_pointer(capsule, b"dltensor")
    _capsule_set_name(capsule, b"used_dltensor")
    borrowed = Borrowed(pointer, 0, 0, 0, None, None)
    tensor = DLTensor.from_address(pointer)  # dl_tensor comes first
    ndim = tensor.ndim
    shape = tuple(tensor.shape[:ndim])
    kind = tensor.dtype
    code, bits, lanes = kind.code, kind.bits, kind.lanes
    dtype = DL_TO_DTYPE.get((code, bits)) if lanes == 1 else None
    if dtype is None:
        raise InvalidInput(f"{what}: a {describe(code, bits, lanes)} tensor; "
                           "UTA takes f32, f16 and bf16")
    strides = tensor.strides
    # Without elements no stride is ever stepped over (torch gives an empty
    # tensor the strides of sizes at least 1: (3, 0) has strides (1, 1)).
    if strides and 0 not in shape:
        strides = strides[:ndim]
        expected = 1
        for axis in reversed(range(ndim)):
            # A size-1 axis may have any stride; it is never stepped over.
            if shape[axis] != 1 and strides[axis] != expected:
                raise InvalidInput(
                    f"{what}: not contiguous (shape {list(shape)}, strides "
                    f"{list(strides)} in elements); UTA reads dense "
                    "row-major tensors: pass x.contiguous() (torch) or "
                    "numpy.ascontiguousarray(x)")
            expected *= shape[axis]
    borrowed.address = (tensor.data or 0) + tensor.byte_offset
    device = tensor.device
    borrowed.device_type, borrowed.device_id = (device.device_type,
                                                device.device_id)
    borrowed.dtype, borrowed.shape = dtype, shape
    return borrowed


#===------------------------------------------------------------------------===#
# Exporting
#===------------------------------------------------------------------------===#

# Exports not yet released by their consumer: address of the DLManagedTensor
# -> (the struct, its shape array, the object keeping the memory alive).
_exports = {}
_exports_lock = threading.Lock()


def _delete(managed_pointer):
    address = ctypes.cast(managed_pointer, c_void_p).value
    with _exports_lock:
        entry = _exports.pop(address, None)
    # Released outside the lock: dropping the memory calls into the C API.
    del entry


_DELETER = DELETER(_delete)


def _destroy_capsule(capsule):
    # An unconsumed capsule still owns its tensor (the DLPack protocol).
    if _capsule_is_valid_raw(capsule, b"dltensor"):
        _delete(_capsule_get_pointer_raw(capsule, b"dltensor"))


_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, c_void_p)(_destroy_capsule)


def export(address, device_type, device_id, dtype, shape, keep_alive):
    """A "dltensor" capsule over `address`, keeping `keep_alive` (whatever
    owns the memory) until the consumer calls the deleter."""
    managed = DLManagedTensor()
    shape_array = (c_int64 * max(len(shape), 1))(*shape)
    code, bits = DTYPE_TO_DL[dtype]
    tensor = managed.dl_tensor
    tensor.data = address
    tensor.device = DLDevice(device_type, device_id)
    tensor.ndim = len(shape)
    tensor.dtype = DLDataType(code, bits, 1)
    tensor.shape = shape_array
    tensor.strides = None  # row-major
    tensor.byte_offset = 0
    managed.manager_ctx = None
    managed.deleter = _DELETER
    pointer = ctypes.addressof(managed)
    with _exports_lock:
        _exports[pointer] = (managed, shape_array, keep_alive)
    return _capsule_new(pointer, b"dltensor",
                        ctypes.cast(_CAPSULE_DESTRUCTOR, c_void_p))


def live_exports():
    """How many exported tensors their consumers still hold (for tests)."""
    with _exports_lock:
        return len(_exports)
