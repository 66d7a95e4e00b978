"""The Clifford layers as functions on torch tensors: uta.nn.functional.

Each function runs one UTA operator (uta.custom_op), made once per kind,
algebra and option set, so its forward, backward and double backward are
UTA's compiled graphs and torch.compile sees one opaque operator. An
operator is registered with torch.library on its first use, which
torch.compile cannot trace: call a function once before compiling code that
uses it, or make the operator first (the ``*_op`` functions, which the
uta.nn modules call when they are constructed). Tensors
are [2^n, B, F] multivectors, blades ordered by grade then lexicographically
(docs/language.md), as Flash Clifford orders them.
"""
import threading

from ..errors import InvalidInput
from ..graph import Algebra
from ..torch_ops import CustomOp

_ops = {}
_ops_lock = threading.Lock()


def _algebra(algebra):
    if isinstance(algebra, Algebra):
        return algebra
    if isinstance(algebra, (tuple, list)):
        return Algebra(*algebra)
    raise InvalidInput(f"uta.nn: algebra must be a uta.Algebra or (p, q, r),"
                       f" got {type(algebra).__name__}")


def blade_grades(algebra):
    """The grade of each blade, in UTA's (and Flash Clifford's) order: by
    grade, then lexicographically, so only the counts matter."""
    algebra = _algebra(algebra)
    n = algebra.p + algebra.q + algebra.r
    return sorted(bin(mask).count("1") for mask in range(1 << n))


def _op(kind, algebra, build, allow_tf32=False, host_backend=None, **options):
    """The CustomOp of `kind` in `algebra` with `options` (which `build`
    closes over), made on first use."""
    algebra = _algebra(algebra)
    key = (kind, algebra.p, algebra.q, algebra.r, bool(allow_tf32),
           host_backend, tuple(sorted(options.items())))
    # The lookup without the lock, which torch.compile traces through; the
    # first call of a kind runs eagerly and makes the op under the lock.
    op = _ops.get(key)
    if op is not None:
        return op
    with _ops_lock:
        op = _ops.get(key)
        if op is None:
            signature = f"cl{algebra.p}_{algebra.q}_{algebra.r}"
            name = f"uta_nn::{kind}_{signature}_{len(_ops)}"
            op = CustomOp(name, build(algebra, **options),
                          allow_tf32=allow_tf32, host_backend=host_backend)
            _ops[key] = op
    return op


def _gated_product_graph(algebra, use_fc, normalize, epsilon):
    def build(g, x, y, weight):
        product = g.fc_product if use_fc else g.weighted_product
        z = product(algebra, g.scalar_gate(algebra, x),
                    g.scalar_gate(algebra, y), weight)
        return g.grade_rms_norm(algebra, z, epsilon) if normalize else z
    return build


def gated_product_op(algebra, use_fc=False, normalize=True, epsilon=1e-6,
                     allow_tf32=False, host_backend=None):
    return _op("gated_product", algebra, _gated_product_graph,
               allow_tf32=allow_tf32, host_backend=host_backend,
               use_fc=bool(use_fc), normalize=bool(normalize),
               epsilon=float(epsilon))


def gated_product(x, y, weight, algebra, use_fc=False, normalize=True,
                  epsilon=1e-6, allow_tf32=False, host_backend=None):
    """grade_rms_norm(product(scalar_gate(x), scalar_gate(y), weight)): the
    weighted product (SGP, weight [F, paths]) or, with `use_fc`, the fully
    connected one (weight [paths, F_in, F_out]); without `normalize`, the
    product alone."""
    return gated_product_op(algebra, use_fc, normalize, epsilon, allow_tf32,
                            host_backend)(x, y, weight)


def _grade_rms_norm_graph(algebra, epsilon):
    return lambda g, x: g.grade_rms_norm(algebra, x, epsilon)


def grade_rms_norm_op(algebra, epsilon=1e-6, host_backend=None):
    return _op("grade_rms_norm", algebra, _grade_rms_norm_graph,
               host_backend=host_backend, epsilon=float(epsilon))


def grade_rms_norm(x, algebra, epsilon=1e-6, host_backend=None):
    """Each grade of each batch element divided by its root mean square over
    the features (clifford.grade_rms_norm)."""
    return grade_rms_norm_op(algebra, epsilon, host_backend)(x)


def _linear_graph(algebra, bias):
    def build(g, x, weight, *maybe_bias):
        y = g.matmul(x, weight)
        return y + maybe_bias[0] if bias else y
    return build


def expand_grade_weights(weight, algebra, weight_expansion=None):
    """[grades, F_in, F_out] -> [2^n, F_in, F_out]: each blade takes its
    grade's matrix. `weight_expansion`, each blade's grade as a long tensor
    (Flash Clifford's buffer of that name), is made from the algebra when
    not given; modules pass theirs, which torch.compile traces without a
    break."""
    if weight_expansion is None:
        import torch
        weight_expansion = torch.tensor(blade_grades(algebra),
                                        device=weight.device)
    return weight.index_select(0, weight_expansion)


def multivector_linear_op(algebra, bias=True, allow_tf32=False,
                          host_backend=None):
    return _op("multivector_linear", algebra, _linear_graph,
               allow_tf32=allow_tf32, host_backend=host_backend,
               bias=bool(bias))


def multivector_linear(x, weight, bias=None, algebra=None, allow_tf32=False,
                       host_backend=None, weight_expansion=None):
    """The grade-wise linear map: blade k of x [2^n, B, F_in] times the
    matrix of its grade, weight [grades, F_in, F_out], plus `bias` ([1, 1,
    F_out], added to every blade, as Flash Clifford does) when given."""
    if algebra is None:
        raise InvalidInput("uta.nn.functional.multivector_linear: give the "
                           "algebra")
    op = multivector_linear_op(algebra, bias is not None, allow_tf32,
                               host_backend)
    expanded = expand_grade_weights(weight, algebra, weight_expansion)
    return op(x, expanded) if bias is None else op(x, expanded, bias)


def _layer_graph(algebra, use_fc, normalize, epsilon):
    gated = _gated_product_graph(algebra, use_fc, normalize, epsilon)

    def build(g, x, linear_weight, linear_bias, gp_weight):
        return gated(g, x, g.matmul(x, linear_weight) + linear_bias,
                     gp_weight)
    return build


def layer_op(algebra, use_fc=False, normalize=True, epsilon=1e-6,
             allow_tf32=False, host_backend=None):
    return _op("layer", algebra, _layer_graph, allow_tf32=allow_tf32,
               host_backend=host_backend, use_fc=bool(use_fc),
               normalize=bool(normalize), epsilon=float(epsilon))


def layer(x, linear_weight, linear_bias, gp_weight, algebra, use_fc=False,
          normalize=True, epsilon=1e-6, allow_tf32=False, host_backend=None,
          weight_expansion=None):
    """Flash Clifford's Layer as one operator: y = multivector_linear(x,
    linear_weight, linear_bias), then gated_product(x, y, gp_weight)."""
    op = layer_op(algebra, use_fc, normalize, epsilon, allow_tf32,
                  host_backend)
    return op(x, expand_grade_weights(linear_weight, algebra,
                                      weight_expansion),
              linear_bias, gp_weight)
