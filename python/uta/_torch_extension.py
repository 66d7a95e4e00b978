"""libuta_torch.so: uta.custom_op's per-call path in C++ (docs/python.md).

The build compiles it against one torch and stages it in ``uta/_lib`` with
that torch's version. It is loaded (``torch.ops.load_library``) the first
time an op runs, only under the same torch version: its operators,
``torch.ops.uta_ext``, then run each call's checks, allocations and launches
and the eager autograd node in C++. Where it is missing, built for another
torch or turned off with ``UTA_TORCH_EXTENSION=0``, uta.custom_op runs the
same path in Python; :func:`status` says which and why.
"""
import os
import threading

from . import _capi

_LIBRARY = "libuta_torch.so"

_lock = threading.Lock()
_loaded = {}  # "ops": torch.ops.uta_ext, or None; "why": a line


def _find():
    for folder in _capi._library_dirs():
        path = os.path.join(folder, _LIBRARY)
        if os.path.exists(path):
            return path
    return None


def _try_load(torch):
    if os.environ.get("UTA_TORCH_EXTENSION", "1") == "0":
        return None, "turned off by UTA_TORCH_EXTENSION=0"
    path = _find()
    if path is None:
        return None, (f"{_LIBRARY} is in none of "
                      f"{', '.join(_capi._library_dirs())} (the build makes "
                      "it where its Python has torch)")
    try:
        with open(path[:-len(".so")] + ".version") as version_file:
            built_for = version_file.read().strip()
    except OSError as error:
        return None, f"{path}: no torch version beside it: {error}"
    # The C++ ABI of torch changes between releases, not between the CUDA
    # builds of one release.
    if built_for.split("+")[0] != torch.__version__.split("+")[0]:
        return None, (f"{path} was built for torch {built_for}, this is "
                      f"torch {torch.__version__}")
    try:
        torch.ops.load_library(path)
    except (OSError, RuntimeError) as error:
        return None, f"{path} does not load: {error}"
    return torch.ops.uta_ext, f"{path} (torch {built_for})"


def load(torch):
    """torch.ops.uta_ext, loaded once; None where the extension is not
    used."""
    if "ops" not in _loaded:
        with _lock:
            if "ops" not in _loaded:
                ops, _loaded["why"] = _try_load(torch)
                _loaded["ops"] = ops
    return _loaded["ops"]


def status():
    """One line: the extension in use, or why the Python path runs."""
    import torch
    load(torch)
    return _loaded["why"]
