"""The exceptions of the uta package, one per uta_status_t of the C API.

Every failing call of the C library raises one of these with the library's
one-line message; checks done in Python (tensors given to a run, arguments
checked before they reach C, objects used after release) raise
:class:`InvalidInput` too, so callers catch one family.
"""
from . import _capi


class Error(Exception):
    """Any error of UTA."""


class InvalidInput(Error, ValueError):
    """Bad input: shapes, dtypes, devices, files, options, a graph that does
    not compile (utac's exit code 1)."""


class GraphError(InvalidInput):
    """A builder of :class:`uta.Graph` refused an op; the message starts with
    the op's name (``add: ...``)."""


class Unavailable(Error, RuntimeError):
    """The backend cannot run here: no driver, GPU or Vulkan device (exit
    code 3)."""


class InternalError(Error, RuntimeError):
    """Anything else that went wrong while running."""


_BY_STATUS = {_capi.INVALID_INPUT: InvalidInput,
              _capi.UNAVAILABLE: Unavailable,
              _capi.INTERNAL: InternalError}


def check(status):
    """Raises the exception of a failed C call (status != UTA_OK)."""
    if status != _capi.OK:
        raise _BY_STATUS.get(status, InternalError)(_capi.last_error())
