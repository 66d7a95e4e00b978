"""torch.nn modules of the Clifford layers: uta.nn.

Each module holds its parameters as torch does and runs through one UTA
operator of uta.nn.functional, so training uses UTA's gradient graphs and
torch.compile(fullgraph=True) sees no graph break. :class:`Layer` takes
Flash Clifford's constructor arguments and parameter names and shapes, so
its state_dict loads unchanged; the other modules take a ``uta.Algebra``
(or ``(p, q, r)``) and so work in any algebra the dialect takes.

    layer = uta.nn.Layer(n_features=512, dims=3)       # Cl(3,0), SGP
    y = layer(x)                                       # x [8, B, 512]
"""
import math

from ..errors import InvalidInput
from ..graph import Algebra
from . import functional


def _torch():
    from ..torch_ops import _import_torch
    return _import_torch()


def _num_grades(algebra):
    return max(functional.blade_grades(algebra)) + 1


def _num_paths(algebra):
    """The paths of the weighted and fully connected products: the (grade
    of x, grade of y, grade of the result) triples that a blade product
    reaches. The compiler says so too (Algebra.num_paths); this count needs
    none, for a machine with only the runtime."""
    algebra = functional._algebra(algebra)
    n = algebra.p + algebra.q + algebra.r
    null = (1 << algebra.r) - 1  # e0.. come first when r > 0
    paths = set()
    for a in range(1 << n):
        for b in range(1 << n):
            if a & b & null:
                continue  # a null generator squared: the term vanishes
            paths.add((bin(a).count("1"), bin(b).count("1"),
                       bin(a ^ b).count("1")))
    return len(paths)


def _define():
    torch = _torch()

    class MultivectorLinear(torch.nn.Module):
        """Grade-wise linear map of [2^n, B, F_in] multivectors: weight
        [grades, F_in, F_out], optional bias [1, 1, F_out] on every blade."""

        def __init__(self, in_features, out_features, algebra, bias=True,
                     allow_tf32=False):
            super().__init__()
            self.algebra = functional._algebra(algebra)
            self.allow_tf32 = allow_tf32
            grades = _num_grades(self.algebra)
            self.weight = torch.nn.Parameter(
                torch.randn(grades, in_features, out_features) /
                math.sqrt(in_features))
            self.bias = torch.nn.Parameter(
                torch.zeros(1, 1, out_features)) if bias else None
            self.register_buffer("weight_expansion", torch.tensor(
                functional.blade_grades(self.algebra), dtype=torch.long))

            # Registered now: torch.compile cannot trace a registration.
            self._op = functional.multivector_linear_op(
                self.algebra, bias, allow_tf32)

        def forward(self, x):
            expanded = self.weight.index_select(0, self.weight_expansion)
            # Modules take any strides, as torch's do; the operators take
            # dense tensors (a copy only where x is not one already).
            x = x.contiguous()
            if self.bias is None:
                return self._op(x, expanded)
            return self._op(x, expanded, self.bias)

    class GatedProduct(torch.nn.Module):
        """The GELU-gated weighted (SGP) or, with `use_fc`, fully connected
        geometric product of two multivectors, grade RMS normalised."""

        def __init__(self, n_features, algebra, use_fc=False, normalize=True,
                     out_features=None, allow_tf32=False):
            super().__init__()
            self.algebra = functional._algebra(algebra)
            self.use_fc, self.normalize = bool(use_fc), bool(normalize)
            self.allow_tf32 = allow_tf32
            paths = _num_paths(self.algebra)
            n = self.algebra.p + self.algebra.q + self.algebra.r
            if use_fc:
                out_features = out_features or n_features
                shape = (paths, n_features, out_features)
                std = 1 / math.sqrt(n_features * (n + 1))
            else:
                if out_features not in (None, n_features):
                    raise InvalidInput("uta.nn.GatedProduct: the weighted "
                                       "product keeps the feature count")
                shape = (n_features, paths)
                std = 1 / math.sqrt(n + 1)
            self.weight = torch.nn.Parameter(torch.randn(shape) * std)
            self._op = functional.gated_product_op(
                self.algebra, use_fc, normalize, allow_tf32=allow_tf32)

        def forward(self, x, y):
            return self._op(x.contiguous(), y.contiguous(), self.weight)

    class GradeRMSNorm(torch.nn.Module):
        def __init__(self, algebra, epsilon=1e-6):
            super().__init__()
            self.algebra = functional._algebra(algebra)
            self.epsilon = epsilon
            self._op = functional.grade_rms_norm_op(self.algebra, epsilon)

        def forward(self, x):
            return self._op(x.contiguous())

    class Layer(torch.nn.Module):
        """Flash Clifford's Layer: y = grade-wise linear(x) + bias, then the
        GELU-gated weighted (or, with `use_fc`, fully connected) product of x
        and y, grade RMS normalised. Same constructor arguments (`dims` 2 or
        3 means Cl(dims, 0); `algebra` takes any other) and the same
        parameters: gp_weight [F, paths] ([paths, F, F] with use_fc),
        linear_weight [grades, F, F], linear_bias [1, 1, F], and the buffer
        weight_expansion (each blade's grade)."""

        def __init__(self, n_features, dims=None, normalize=True,
                     use_fc=False, algebra=None, allow_tf32=False):
            super().__init__()
            if algebra is None:
                if dims not in (2, 3):
                    raise InvalidInput(f"uta.nn.Layer: dims {dims!r}; give "
                                       "2 or 3, or an algebra")
                algebra = Algebra(dims, 0)
            self.algebra = functional._algebra(algebra)
            n = self.algebra.p + self.algebra.q + self.algebra.r
            self.normalize, self.use_fc = bool(normalize), bool(use_fc)
            self.allow_tf32 = allow_tf32
            paths = _num_paths(self.algebra)
            grades = _num_grades(self.algebra)
            shape = (paths, n_features, n_features) if use_fc else \
                (n_features, paths)
            self.gp_weight = torch.nn.Parameter(torch.empty(shape))
            self.linear_weight = torch.nn.Parameter(
                torch.empty(grades, n_features, n_features))
            self.linear_bias = torch.nn.Parameter(
                torch.zeros(1, 1, n_features))
            self.register_buffer("weight_expansion", torch.tensor(
                functional.blade_grades(self.algebra), dtype=torch.long))
            std = 1 / math.sqrt(n + 1)
            if use_fc:
                std /= math.sqrt(n_features)
            torch.nn.init.normal_(self.gp_weight, std=std)
            torch.nn.init.normal_(self.linear_weight,
                                  std=1 / math.sqrt(n_features))
            self._op = functional.layer_op(self.algebra, use_fc, normalize,
                                           allow_tf32=allow_tf32)

        def forward(self, x):
            expanded = self.linear_weight.index_select(0,
                                                       self.weight_expansion)
            return self._op(x.contiguous(), expanded, self.linear_bias,
                            self.gp_weight)

    return {"MultivectorLinear": MultivectorLinear,
            "GatedProduct": GatedProduct, "GradeRMSNorm": GradeRMSNorm,
            "Layer": Layer}


_classes = None


def __getattr__(name):
    # The classes derive from torch.nn.Module: made when first asked for,
    # so `import uta` never imports torch.
    global _classes
    if name in ("MultivectorLinear", "GatedProduct", "GradeRMSNorm",
                "Layer"):
        if _classes is None:
            _classes = _define()
        return _classes[name]
    raise AttributeError(f"module 'uta.nn' has no attribute {name!r}")


__all__ = ["functional", "GatedProduct", "GradeRMSNorm", "Layer",
           "MultivectorLinear"]
