"""Building graphs op by op: uta.Graph over the C API's graph builder.

Every builder of the C++ ``uta::Graph`` (include/uta/Graph.h) is a method
here, with the same name in snake_case, for both dialects. Shapes and dtypes
are inferred and checked by the ops' own verifiers when an op is added; a
builder that refuses raises :class:`uta.GraphError` at once, with the op's
message (``add: ...``), so the traceback points at the line that built it.

    g = uta.Graph("gelu_bias")
    x = g.input([512, 768])
    b = g.input([768])
    g.output(g.gelu(x + b))
"""
import ctypes
from typing import NamedTuple

from . import _capi
from ._check import (C_INT, INT64, HandleOwner, check_float, check_int,
                     check_ints, check_string)
from .errors import GraphError, InvalidInput

DTYPES = {"f32": _capi.F32, "float32": _capi.F32, "f16": _capi.F16,
          "float16": _capi.F16, "bf16": _capi.BF16, "bfloat16": _capi.BF16}
DTYPE_NAMES = {_capi.F32: "f32", _capi.F16: "f16", _capi.BF16: "bf16"}


def dtype_code(dtype):
    """The C API's code of "f32"/"f16"/"bf16" (or float32, ...)."""
    code = DTYPES.get(str(dtype).replace("torch.", "").replace("numpy.", ""))
    if code is None:
        raise InvalidInput(f"unknown dtype {dtype!r} (expected f32, f16 or "
                           "bf16)")
    return code


def _compiler():
    if _capi.compiler is None:
        raise InvalidInput("building and compiling graphs needs libuta_c.so, "
                           "which did not load here: "
                           f"{_capi.compiler_error} (uta.load still runs "
                           "graphs compiled elsewhere)")
    return _capi.compiler


class Algebra:
    """The real Clifford algebra Cl(p, q, r) (docs/language.md)."""

    def __init__(self, p, q, r=0):
        # uta_algebra_t holds C ints; the builders check the signature.
        self.p, self.q, self.r = (
            check_int(count, "uta.Algebra", name, C_INT, GraphError)
            for name, count in (("p", p), ("q", q), ("r", r)))

    def _c(self):
        return _capi.Algebra(self.p, self.q, self.r)

    @property
    def num_blades(self):
        """2^n; 0 for a signature outside 1 <= n <= 6."""
        return _compiler().uta_algebra_num_blades(self._c())

    @property
    def num_paths(self):
        """The paths of weighted_product/fc_product weights (20 for
        Cl(3,0))."""
        return _compiler().uta_algebra_num_paths(self._c())

    def __repr__(self):
        return f"Algebra({self.p}, {self.q}, {self.r})"


class Value:
    """A tensor of a Graph: its shape and dtype, and operators that add ops
    to the graph (+ - * / ** @ and unary -)."""
    __slots__ = ("graph", "id", "shape", "dtype")

    def __init__(self, graph, value_id, shape, dtype):
        self.graph, self.id, self.shape, self.dtype = (graph, value_id, shape,
                                                       dtype)

    def __repr__(self):
        return (f"<uta.Value {DTYPE_NAMES[self.dtype]} {list(self.shape)} of "
                f"@{self.graph.name}>")

    def __add__(self, other):
        return self.graph.add(self, other)

    def __sub__(self, other):
        return self.graph.sub(self, other)

    def __mul__(self, other):
        return self.graph.mul(self, other)

    def __truediv__(self, other):
        return self.graph.div(self, other)

    def __pow__(self, other):
        return self.graph.pow(self, other)

    def __matmul__(self, other):
        return self.graph.matmul(self, other)

    def __neg__(self):
        return self.graph.neg(self)


def _int64(value, op, name):
    """An int64 argument of builder `op` (an axis, a dim)."""
    return check_int(value, op, name, INT64, GraphError)


def _ints(values, op, name):
    """An int64 array argument of builder `op` (a shape, axes, indices) as
    the C array and its length."""
    values = check_ints(values, op, name, INT64, GraphError)
    return _capi.shape_array(values), len(values)


class TrainingPair(NamedTuple):
    """Graph.training_pair's result: the forward graph (inputs -> outputs,
    then `num_residuals` residuals), the backward graph (saved values, then
    one cotangent per output -> gradients), and for each saved value the
    forward value it takes, an index into the forward's inputs followed by
    its outputs."""
    forward: "Graph"
    backward: "Graph"
    saved: tuple
    num_residuals: int


class Graph(HandleOwner):
    """One function of uta and clifford ops under construction."""
    _noun = "graph"

    def __init__(self, name, _handle=None):
        self._lib = _compiler()
        if _handle is None:
            encoded = check_string(name, "uta.Graph", "name", GraphError)
            _handle = self._lib.uta_graph_create(encoded)
            if not _handle:
                raise MemoryError("uta_graph_create")
        self._handle = _handle
        self.name = name
        self._inputs, self._outputs = [], []
        if not self._lib.uta_graph_ok(self._handle):
            raise GraphError(self._error())

    def _destroy(self, handle):
        self._lib.uta_graph_destroy(handle)

    def _error(self):
        return self._lib.uta_graph_error(self._live).decode()

    def _value(self, value_id):
        if value_id < 0:
            raise GraphError(self._error())
        dtype = ctypes.c_int()
        rank = ctypes.c_size_t()
        shape = ctypes.POINTER(ctypes.c_int64)()
        self._lib.uta_graph_value_type(self._live, value_id,
                                       ctypes.byref(dtype),
                                       ctypes.byref(rank),
                                       ctypes.byref(shape))
        return Value(self, value_id,
                     tuple(shape[i] for i in range(rank.value)), dtype.value)

    def _id(self, value, name):
        if not isinstance(value, Value):
            raise GraphError(f"{name}: expected a uta.Value, got "
                             f"{type(value).__name__}")
        if value.graph is not self:
            raise GraphError(f"{name}: the value belongs to graph "
                             f"@{value.graph.name}, not @{self.name}")
        return value.id

    def _call(self, op, *args):
        return self._value(getattr(self._lib, "uta_graph_" + op)(
            self._live, *args))

    @property
    def ok(self):
        return bool(self._lib.uta_graph_ok(self._live))

    @property
    def inputs(self):
        """The function's arguments, in order, as values."""
        return tuple(self._inputs)

    @property
    def outputs(self):
        """The function's results, in order, as values."""
        return tuple(self._outputs)

    def __str__(self):
        """The graph as MLIR, what compile parses."""
        return self._lib.uta_graph_str(self._live).decode()

    # Arguments, constants and results.

    def input(self, shape, dtype="f32"):
        """The next function argument (sizes positive)."""
        sizes, rank = _ints(shape, "input", "shape")
        value = self._call("input", sizes, rank, dtype_code(dtype))
        self._inputs.append(value)
        return value

    def constant(self, shape, values, dtype="f32"):
        """A constant of `shape` holding `values` row-major (any iterable of
        numbers; one value is repeated), rounded to `dtype`."""
        sizes, rank = _ints(shape, "constant", "shape")
        flat = [check_float(v, "constant", f"values[{i}]", GraphError)
                for i, v in enumerate(_flatten(values))]
        data = (ctypes.c_float * max(len(flat), 1))(*flat)
        return self._call("constant", sizes, rank, data, len(flat),
                          dtype_code(dtype))

    def fill(self, shape, value, dtype="f32"):
        sizes, rank = _ints(shape, "fill", "shape")
        return self._call("fill", sizes, rank,
                          check_float(value, "fill", "value", GraphError),
                          dtype_code(dtype))

    def output(self, *results):
        """Appends each value to the function's results."""
        for result in results:
            if not self._lib.uta_graph_output(self._live,
                                              self._id(result, "output")):
                raise GraphError(self._error())
            self._outputs.append(result)

    # Gradients (docs/autodiff.md).

    def gradient(self, wrt=None, joint=False):
        """The gradient graph, a new uta.Graph: ``name_vjp`` takes this
        graph's inputs, then one cotangent per output, and returns the
        gradient of each input listed in `wrt` (indices into inputs; None:
        all). With `joint`, ``name_fwd_bwd`` returns this graph's outputs
        first, then the gradients. Raises uta.GraphError (``gradient: ...``)
        for a graph with an error or no outputs, and for an index out of
        range or repeated; this graph is left as it was."""
        indices, count = _ints([] if wrt is None else wrt, "gradient", "wrt")
        handle = self._lib.uta_graph_gradient(self._live, indices, count,
                                              int(bool(joint)))
        if not handle:
            raise MemoryError("uta_graph_gradient")
        name = self.name + ("_fwd_bwd" if joint else "_vjp")
        gradient = Graph(name, _handle=handle)  # raises, and frees, on error
        # The C API numbers the new graph's inputs, then its outputs.
        num_inputs = self._lib.uta_graph_num_inputs(handle)
        num_outputs = self._lib.uta_graph_num_outputs(handle)
        gradient._inputs = [gradient._value(i) for i in range(num_inputs)]
        gradient._outputs = [gradient._value(num_inputs + i)
                             for i in range(num_outputs)]
        return gradient

    def training_pair(self, wrt=None):
        """The training pair, a uta.TrainingPair of two new graphs whose
        composition is ``gradient(wrt, joint=True)``: ``name_forward`` takes
        this graph's inputs and returns its outputs, then the residuals it
        saves for the backward; ``name_backward`` takes the saved values
        (``saved``: for each, an index into the forward's inputs followed by
        its outputs), then one cotangent per output, and returns the
        gradients of the inputs in `wrt` (None: all). Values that are
        expensive to recompute (GEMM outputs, norm statistics) are saved,
        cheap pointwise ones recomputed by the backward (docs/autodiff.md).
        Raises uta.GraphError (``training pair: ...``) as gradient() does."""
        indices, count = _ints([] if wrt is None else wrt, "training_pair",
                               "wrt")
        halves = []
        for backward, suffix in ((0, "_forward"), (1, "_backward")):
            handle = self._lib.uta_graph_training_half(self._live, indices,
                                                       count, backward)
            if not handle:
                raise MemoryError("uta_graph_training_half")
            half = Graph(self.name + suffix, _handle=handle)
            num_inputs = self._lib.uta_graph_num_inputs(handle)
            num_outputs = self._lib.uta_graph_num_outputs(handle)
            half._inputs = [half._value(i) for i in range(num_inputs)]
            half._outputs = [half._value(num_inputs + i)
                             for i in range(num_outputs)]
            halves.append(half)
        forward, backward = halves
        num_saved = self._lib.uta_graph_saved_values(backward._live, None, 0)
        saved = (ctypes.c_int64 * max(1, num_saved))()
        self._lib.uta_graph_saved_values(backward._live, saved, num_saved)
        return TrainingPair(forward, backward, tuple(saved[:num_saved]),
                            len(forward.outputs) - len(self.outputs))

    # uta: matmul, reductions, normalisations, layout, conversion.

    def gelu(self, x, tanh_approximation=False):
        return self._call("gelu", self._id(x, "gelu"),
                          int(bool(tanh_approximation)))

    def matmul(self, lhs, rhs, transpose_b=False):
        return self._call("matmul", self._id(lhs, "matmul"),
                          self._id(rhs, "matmul"), int(bool(transpose_b)))

    def softmax(self, x, dim):
        return self._call("softmax", self._id(x, "softmax"),
                          _int64(dim, "softmax", "dim"))

    def layer_norm(self, x, weight, bias, axis, epsilon=1e-5):
        return self._call("layer_norm", self._id(x, "layer_norm"),
                          self._id(weight, "layer_norm"),
                          self._id(bias, "layer_norm"),
                          _int64(axis, "layer_norm", "axis"),
                          check_float(epsilon, "layer_norm", "epsilon",
                                      GraphError))

    def cast(self, x, dtype):
        return self._call("cast", self._id(x, "cast"), dtype_code(dtype))

    # clifford.

    def grade_project(self, algebra, x, grades, blade_axis=0):
        values, count = _ints(grades, "grade_project", "grades")
        return self._call("grade_project", _algebra(algebra),
                          self._id(x, "grade_project"), values, count,
                          _int64(blade_axis, "grade_project", "blade_axis"))

    def grade_rms_norm(self, algebra, x, epsilon=1e-6):
        return self._call("grade_rms_norm", _algebra(algebra),
                          self._id(x, "grade_rms_norm"),
                          check_float(epsilon, "grade_rms_norm", "epsilon",
                                      GraphError))


def _flatten(values):
    """`values` as a flat list in row-major order."""
    if hasattr(values, "tolist"):  # NumPy arrays and torch tensors
        values = values.tolist()
    # A string is one (bad) value for check_float, not a list of them.
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        return [values]
    flat = []
    for value in values:
        flat.extend(_flatten(value))
    return flat


def _algebra(algebra):
    if not isinstance(algebra, Algebra):
        raise GraphError(f"expected a uta.Algebra, got "
                         f"{type(algebra).__name__}")
    return algebra._c()


# The builders that share a signature, defined from the C API's lists.
def _binary(op):
    def build(self, lhs, rhs):
        return self._call(op, self._id(lhs, op), self._id(rhs, op))
    build.__doc__ = f"uta.{op}, NumPy broadcasting."
    return build


def _unary(op):
    def build(self, x):
        return self._call(op, self._id(x, op))
    build.__doc__ = f"uta.{op}."
    return build


def _reduction(op):
    def build(self, x, dims, keep_dims=False):
        values, count = _ints(dims, op, "dims")
        return self._call(op, self._id(x, op), values, count,
                          int(bool(keep_dims)))
    build.__doc__ = f"uta.{op} over `dims` (ascending, unique); f32."
    return build


def _reshaping(op):
    def build(self, x, sizes):
        values, count = _ints(sizes, op, "sizes")
        return self._call(op, self._id(x, op), values, count)
    build.__doc__ = f"uta.{op}."
    return build


def _product(op):
    def build(self, algebra, lhs, rhs, blade_axis=0):
        return self._call(op, _algebra(algebra), self._id(lhs, op),
                          self._id(rhs, op),
                          _int64(blade_axis, op, "blade_axis"))
    build.__doc__ = f"clifford.{op}."
    return build


def _involution(op):
    def build(self, algebra, x, blade_axis=0):
        return self._call(op, _algebra(algebra), self._id(x, op),
                          _int64(blade_axis, op, "blade_axis"))
    build.__doc__ = f"clifford.{op}."
    return build


def _layer_product(op):
    def build(self, algebra, lhs, rhs, weights):
        return self._call(op, _algebra(algebra), self._id(lhs, op),
                          self._id(rhs, op), self._id(weights, op))
    build.__doc__ = f"clifford.{op}: operands [2^n, B, F], blade axis 0."
    return build


for _ops, _make in ((_capi.BINARY_OPS, _binary), (_capi.UNARY_OPS, _unary),
                    (_capi.REDUCTIONS, _reduction),
                    (_capi.RESHAPINGS, _reshaping),
                    (_capi.PRODUCTS, _product),
                    (_capi.INVOLUTIONS, _involution),
                    (_capi.LAYER_PRODUCTS, _layer_product)):
    for _op in _ops:
        setattr(Graph, _op, _make(_op))
