"""What the package checks before a Python value or a handle reaches C.

ctypes converts without a word: an int past its C type wraps (``2**32 + 64``
as an unsigned is 64, ``-5`` as a size_t is 2^64 - 5), a string is cut at
its first NUL, and a handle that was destroyed is passed as it is. So every
integer, float, string and path that the package hands to the C API goes
through one of the checks here first, and every object that owns a C handle
derives from :class:`HandleOwner`, which refuses a use after release. Each
refusal raises :class:`uta.InvalidInput` (or the error class a caller
names) with the function and the argument: ``uta.fill_normal: count must be
a non-negative integer, got -5``.
"""
import ctypes
import math
import operator
import os
import sys

from .errors import InvalidInput


class IntRange:
    """The integers an argument may take: `lo`..`hi`, where `ctype` (the C
    type, for messages) is what bounds it."""
    __slots__ = ("lo", "hi", "ctype")

    def __init__(self, lo, hi, ctype=None):
        self.lo, self.hi, self.ctype = lo, hi, ctype


def _unsigned_max(c_type):
    return (1 << (8 * ctypes.sizeof(c_type))) - 1


def _signed(c_type, name):
    bits = 8 * ctypes.sizeof(c_type)
    return IntRange(-(1 << (bits - 1)), (1 << (bits - 1)) - 1, name)


C_INT = _signed(ctypes.c_int, "a C int")
INT64 = _signed(ctypes.c_int64, "int64")
C_UNSIGNED = IntRange(0, _unsigned_max(ctypes.c_uint), "a C unsigned")
UINT64 = IntRange(0, _unsigned_max(ctypes.c_uint64), "uint64")
# A device index: a C int, and never negative.
DEVICE_INDEX = IntRange(0, C_INT.hi, C_INT.ctype)
# A count of float32 elements: what one ctypes array can hold (less than
# a size_t).
FLOAT32_COUNT = IntRange(0, sys.maxsize // 4, "a ctypes float array")


def _spell(bound):
    """2^63 - 1 rather than 9223372036854775807 (for bounds past 2^16)."""
    magnitude = abs(bound)
    if magnitude >= 1 << 16:
        if magnitude & (magnitude - 1) == 0:
            sign = "-" if bound < 0 else ""
            return f"{sign}2^{magnitude.bit_length() - 1}"
        if bound > 0 and (bound + 1) & bound == 0:
            return f"2^{bound.bit_length()} - 1"
    return str(bound)


def _show(value):
    """The refused value, briefly: its type and a repr cut to 60 chars."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _is_bool(value):
    # Python's bool and numpy.bool_ (named "bool" in NumPy 2) are
    # integers to operator.index, but never a count or an index.
    return isinstance(value, bool) or type(value).__name__ in ("bool",
                                                               "bool_")


def check_int(value, where, name, allowed=INT64, error=InvalidInput):
    """`value` as an int in `allowed` (an :class:`IntRange`). Takes what
    operator.index takes (int, numpy and torch integers), not bools,
    floats or strings."""
    if _is_bool(value) or not hasattr(type(value), "__index__"):
        raise error(f"{where}: {name} must be an integer, got "
                    f"{_show(value)}")
    number = operator.index(value)
    if number < allowed.lo:
        wanted = {0: "a non-negative integer", 1: "a positive integer"}.get(
            allowed.lo, f"at least {_spell(allowed.lo)}")
    elif number > allowed.hi:
        wanted = f"at most {_spell(allowed.hi)}"
    else:
        return number
    if allowed.ctype and wanted.startswith(("at least", "at most")):
        wanted += f" ({allowed.ctype})"
    raise error(f"{where}: {name} must be {wanted}, got {number}")


def check_ints(values, where, name, allowed=INT64, error=InvalidInput):
    """A list of ints from a sequence (a shape, axes, indices), each
    checked by check_int as ``name[i]``."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise error(f"{where}: {name} must be a sequence of integers, got "
                    f"{_show(values)}")
    return [check_int(v, where, f"{name}[{i}]", allowed, error)
            for i, v in enumerate(values)]


def check_float(value, where, name, error=InvalidInput):
    """`value` as a float that a C float holds: a real number (not a bool
    or a string); inf and nan pass, a finite value that float32 would
    round to inf does not."""
    if _is_bool(value) or not hasattr(type(value), "__float__"):
        raise error(f"{where}: {name} must be a real number, got "
                    f"{_show(value)}")
    try:
        number = float(value)
    except (TypeError, ValueError) as reason:
        raise error(f"{where}: {name} must be a real number, got "
                    f"{_show(value)} ({reason})") from None
    if math.isfinite(number) and math.isinf(ctypes.c_float(number).value):
        raise error(f"{where}: {name} = {number!r} is past float32's range "
                    "(about 3.4e38)")
    return number


def check_string(value, where, name, error=InvalidInput):
    """A str as the NUL-terminated UTF-8 bytes that a C string holds."""
    if not isinstance(value, str):
        raise error(f"{where}: {name} must be a str, got {_show(value)}")
    if "\0" in value:
        raise error(f"{where}: {name} contains a NUL character: {value!r}")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as reason:
        raise error(f"{where}: {name} is not valid UTF-8: {reason}") from None


def check_path(value, where, name, error=InvalidInput):
    """A path (str, bytes or os.PathLike) as the bytes that the C API opens,
    encoded as the OS's own calls encode it (os.fsencode)."""
    try:
        encoded = os.fsencode(value)
    except TypeError:
        raise error(f"{where}: {name} must be a path (str, bytes or "
                    f"os.PathLike), got {_show(value)}") from None
    if b"\0" in encoded:
        raise error(f"{where}: {name} contains a NUL byte: {value!r}")
    return encoded


class HandleOwner:
    """An object that owns one C handle and destroys it exactly once: on
    :meth:`release` or when it is collected. Uses go through :attr:`_live`,
    which raises InvalidInput once the handle is gone, so C never sees a
    dangling pointer. (Releasing an object while another thread is running
    on it is not supported.)"""
    _handle = None
    _noun = "object"

    def _destroy(self, handle):
        raise NotImplementedError

    def _subject(self):
        """How messages name this object: ``uta.Executable @gelu_bias``."""
        name = getattr(self, "name", None)
        return f"uta.{type(self).__name__}" + (f" @{name}" if name else "")

    @property
    def _live(self):
        """The handle, checked to be live."""
        handle = self._handle
        if not handle:
            raise InvalidInput(f"{self._subject()}: this {self._noun} was "
                               "released")
        return handle

    @property
    def released(self):
        """Whether release() was called (every use now raises)."""
        return not self._handle

    def release(self):
        """Destroys the C object now instead of when this one is collected;
        any use after raises uta.InvalidInput. Releasing again does
        nothing. What was made from this object (executables of a device or
        a compiled graph, result tensors) keeps what it needs and goes on
        working."""
        # dict.pop is atomic under the GIL: two threads releasing at once
        # destroy the handle once. The class's _handle (None) is left.
        handle = self.__dict__.pop("_handle", None)
        if handle:
            self._destroy(handle)

    def __del__(self):
        self.release()
