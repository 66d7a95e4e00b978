"""UTA graphs as PyTorch custom operators: uta.custom_op.

A graph-building function becomes an operator of torch.library with a fake
(meta) implementation, autograd through UTA's training pair (the forward
returns the residuals the backward reads, so the backward recomputes only
what is cheap; docs/autodiff.md) and, for double backward, the gradient of
the gradient graph, and a compiled-graph cache keyed by the input shapes,
dtypes and device. torch.compile sees one opaque operator per
call, so a model that uses them compiles with ``fullgraph=True``, static or
``dynamic=True``, and CUDA graphs capture it.

    def gelu_linear(g, x, w):
        return g.gelu(x @ w)

    op = uta.custom_op("mylib::gelu_linear", gelu_linear)
    y = op(x, w)          # torch tensors; y.sum().backward() works

How a call runs (docs/python.md):

- cuda tensors: on torch's current stream of their device, outputs and the
  intermediates' workspace from torch's caching allocator, no host wait
  (uta_executable_run_on_cuda_stream): ``torch.cuda.memory_allocated`` sees
  the memory and ``torch.cuda.graph`` captures the launches (once each
  signature has run outside capture);
- CPU tensors: on the Vulkan device (lavapipe where there is no GPU) when
  one opens, else on the float64 reference interpreter, or on the backend
  that `host_backend` names.

Torch is imported when an op is made, never at ``import uta``.
"""
import ctypes
import inspect
import threading

from . import _capi, _torch_extension
from ._check import check_ints, check_string
from .errors import Error, InternalError, InvalidInput, Unavailable, check
from .graph import DTYPE_NAMES, Graph

_rt = _capi.runtime

# The uta.Device of each torch device, opened once per process. Executables
# are loaded per device, so a model on cuda:1, or one replica per device
# under DistributedDataParallel, runs kernels loaded in its own device's
# context.
_devices = {}
_devices_lock = threading.Lock()

# The operators a higher level is named by (level 0 is the op's own name).
_LEVEL_SUFFIXES = ("", "_backward", "_double_backward")
# Level 0 returns the graph's outputs and, apart, the residuals that the
# backward reads.
_LEVEL_SCHEMAS = ("(Tensor[] inputs, int op_inputs) -> (Tensor[], Tensor[])",
                  "(Tensor[] inputs, int op_inputs) -> Tensor[]",
                  "(Tensor[] inputs, int op_inputs) -> Tensor[]")


class _PairLayout:
    """How the training pair of one signature passes values: `saved`, the
    forward values (an index into its inputs, then its outputs) that the
    backward graph takes before the cotangents; the forward's own outputs
    and its residuals, counted."""
    __slots__ = ("saved", "num_outputs", "num_residuals")

    def __init__(self, saved, num_outputs, num_residuals):
        self.saved = tuple(saved)
        self.num_outputs, self.num_residuals = num_outputs, num_residuals

    def num_values(self):
        """The forward's outputs and residuals."""
        return self.num_outputs + self.num_residuals

    def as_json(self):
        return {"saved": list(self.saved), "num_outputs": self.num_outputs,
                "num_residuals": self.num_residuals}


def _import_torch():
    try:
        import torch
    except ImportError as error:
        raise Unavailable(f"uta.custom_op needs torch: {error}") from None
    return torch


def _runs_eagerly(torch, tensors):
    """Whether an op on `tensors` runs eagerly: no torch.compile trace, no
    TorchDispatchMode in force (FakeTensorMode, make_fx's proxy mode), no
    functorch transform, and plain tensors, none a subclass."""
    from torch.utils._python_dispatch import _get_current_dispatch_mode
    return (not torch.compiler.is_compiling()
            and _get_current_dispatch_mode() is None
            and torch._C._functorch.peek_interpreter_stack() is None
            and all(type(t) is torch.Tensor for t in tensors))


_eager_functions = {}


def _eager_function(torch):
    """The torch.autograd.Function of eager calls: level 0's run, saving
    what its operator saves, and level 0's backward."""
    function = _eager_functions.get(torch)
    if function is not None:
        return function

    class EagerStep(torch.autograd.Function):
        @staticmethod
        def forward(ctx, op, op_inputs, *tensors):
            outputs, residuals = op.levels[0]._run(list(tensors), op_inputs)
            # What the operator's setup_context saves; the residuals are
            # intermediates here, not differentiable.
            ctx.save_for_backward(*tensors, *outputs, *residuals)
            ctx.op, ctx.op_inputs = op, op_inputs
            ctx.output_types = [(y.shape, y.dtype, y.device) for y in outputs]
            return tuple(outputs)

        @staticmethod
        def backward(ctx, *cotangents):
            grads, _ = ctx.op.levels[0]._backward(ctx, cotangents)
            return (None, None, *grads)

    _eager_functions[torch] = EagerStep
    return EagerStep


def _uta_device(torch_device, host_backend):
    """The uta.Device that runs tensors of `torch_device`."""
    from .runtime import Device
    if torch_device.type == "cuda":
        key = ("cuda", torch_device.index or 0)
    elif torch_device.type == "cpu":
        key = ("cpu", host_backend)
    else:
        raise InvalidInput(f"uta ops take cuda and cpu tensors, not "
                           f"{torch_device.type} ones")
    with _devices_lock:
        device = _devices.get(key)
        if device is None:
            if key[0] == "cuda":
                device = Device("cuda", key[1])
            elif host_backend is None:
                try:
                    device = Device("vulkan")
                except Unavailable:
                    device = Device("reference")
            else:
                device = Device(host_backend)
                if not device.is_host:
                    raise InvalidInput(f"host_backend {host_backend!r} runs "
                                       "no host (CPU) tensors")
            _devices[key] = device
    return device


def _size_hint(size):
    """An int, or the value a symbolic size (torch.SymInt) was traced at."""
    if isinstance(size, int):
        return size
    hint = size.node.hint
    if hint is None:
        raise InvalidInput(f"uta ops need sizes with a value to trace at; "
                           f"{size} has none (an unbacked size)")
    return int(hint)


class _Level:
    """One operator of an op's tower. Each takes its inputs as a list and
    the count of the op's own inputs among them, so every level's graph
    follows from the op's input types; the backward of level k is level
    k + 1:

    - level 0, the forward of the training pair: the op's inputs -> (its
      outputs, the residuals);
    - level 1, the backward of the pair: (the op's inputs, its outputs and
      residuals, one cotangent per output) -> the gradients of the `wrt`
      inputs; it runs the backward graph on the values the pair saves;
    - level 2, for double backward: (the op's inputs, the cotangents, one
      cotangent per gradient) -> the gradients of the `wrt` inputs and of
      the cotangents, by the gradient of the op's gradient graph, which
      recomputes through the forward. Level 1's gradient is that total, so
      the residuals, which it reads, are not differentiable."""

    def __init__(self, op, level):
        self.op, self.level = op, level
        torch = op._torch
        self.qualname = op.name + _LEVEL_SUFFIXES[level]
        self.library_op = torch.library.custom_op(
            self.qualname, self._run, mutates_args=(),
            schema=_LEVEL_SCHEMAS[level],
            # UTA takes dense row-major tensors: Inductor must not hand it
            # other strides than eager would.
            tags=(torch.Tag.needs_fixed_stride_order,))
        self.library_op.register_fake(self._fake)
        self.next = None

    def differentiate_with(self, next_level):
        self.next = next_level
        self.library_op.register_autograd(self._backward,
                                          setup_context=self._setup_context)

    def own_wrt(self, op_inputs):
        """The op's inputs that get gradients: `wrt`, or all of them."""
        return list(range(op_inputs) if self.op.wrt is None else self.op.wrt)

    def _split(self, outputs, inputs, op_inputs):
        """Level 0's outputs as (the op's outputs, the residuals)."""
        if self.level != 0:
            return outputs
        types = self.op._types(inputs, op_inputs, self.qualname, hinted=True)
        count = len(outputs) - self.op.layout(types).num_residuals
        return outputs[:count], outputs[count:]

    def _run(self, inputs, op_inputs):
        return self._split(self.op._execute(self.level, inputs, op_inputs),
                           inputs, op_inputs)

    def _call(self, tensors, op_inputs):
        """The level's operator on `tensors`. In a plain backward (autograd
        records nothing, no trace, no tensor subclass) its implementation
        is called directly: the dispatcher and torch.library's autograd
        layers around it cost several times the run itself. Under
        torch.compile, FakeTensors or create_graph, the operator."""
        torch = self.op._torch
        if not torch.is_grad_enabled() and _runs_eagerly(torch, tensors):
            return self._run(tensors, op_inputs)
        return self.library_op(tensors, op_inputs)

    def _fake(self, inputs, op_inputs):
        return self._split(self.op._fake_outputs(self.level, inputs,
                                                 op_inputs),
                           inputs, op_inputs)

    def _setup_context(self, ctx, inputs, output):
        tensors, op_inputs = inputs
        if self.level == 0:
            outputs, residuals = output
            ctx.mark_non_differentiable(*residuals)
            ctx.save_for_backward(*tensors, *outputs, *residuals)
        else:
            outputs = output
            ctx.save_for_backward(*tensors)
        ctx.op_inputs = op_inputs
        ctx.output_types = [(y.shape, y.dtype, y.device) for y in outputs]

    def _dense(self, cotangents, output_types):
        """The cotangents as dense tensors of the outputs' types: None for an
        output that reaches no loss, and a broadcast view (sum().backward()
        gives one), are what UTA does not take."""
        torch = self.op._torch
        dense = []
        for cotangent, (shape, dtype, device) in zip(cotangents,
                                                     output_types):
            if cotangent is None:
                cotangent = torch.zeros(shape, dtype=dtype, device=device)
            dense.append(cotangent.contiguous())
        return dense

    def _backward(self, ctx, cotangents, residual_cotangents=None):
        saved = list(ctx.saved_tensors)
        op_inputs = ctx.op_inputs
        if self.level == 0:
            # The residuals are not differentiable: their cotangents (zeros)
            # are not read.
            dense = self._dense(cotangents, ctx.output_types)
            grads = self.next._call(saved + dense, op_inputs)
            result = [None] * op_inputs
            for index, grad in zip(self.own_wrt(op_inputs), grads):
                result[index] = grad
            return result, None
        # Level 1: its inputs are the op's inputs, the forward's outputs
        # and residuals, then the cotangents; level 2 takes the op's inputs
        # and the cotangents, and returns the gradients of the `wrt` inputs
        # and of every cotangent.
        num_cotangents = len(saved) - op_inputs - self.op.layout(
            self.op._types(saved, op_inputs, self.qualname,
                           hinted=True)).num_values()
        cotangent_start = len(saved) - num_cotangents
        inputs = saved[:op_inputs] + saved[cotangent_start:]
        dense = self._dense(cotangents, ctx.output_types)
        grads = self.next._call(inputs + dense, op_inputs)
        positions = self.own_wrt(op_inputs) + list(
            range(cotangent_start, len(saved)))
        result = [None] * len(saved)
        for index, grad in zip(positions, grads):
            result[index] = grad
        return result, None


class CustomOp:
    """A graph-building function as a torch operator (see uta.custom_op)."""

    def __init__(self, name, build, wrt=None, host_backend=None,
                 allow_tf32=False, fast_math=False, package=None):
        self._torch = torch = _import_torch()
        name = check_string(name, "uta.custom_op", "name").decode()
        self.name = name if "::" in name else "uta::" + name
        if build is None and package is None:
            raise InvalidInput("uta.custom_op: give build, package or both")
        if build is not None and not callable(build):
            raise InvalidInput(f"uta.custom_op: build must be callable, got "
                               f"{type(build).__name__}")
        self.build = build
        self.wrt = None if wrt is None else tuple(
            check_ints(wrt, "uta.custom_op", "wrt"))
        if self.wrt is not None and (
                not self.wrt or min(self.wrt) < 0 or
                len(set(self.wrt)) != len(self.wrt)):
            raise InvalidInput(f"uta.custom_op: wrt {list(self.wrt)} must "
                               "list input indices, at least one, none "
                               "twice")
        self.host_backend = None if host_backend is None else check_string(
            host_backend, "uta.custom_op", "host_backend").decode()
        self.allow_tf32, self.fast_math = bool(allow_tf32), bool(fast_math)
        self._codes = {torch.float32: _capi.F32, torch.float16: _capi.F16,
                       torch.bfloat16: _capi.BF16}
        self._dtypes = {code: dtype for dtype, code in self._codes.items()}
        # (level, op input types) -> Graph; (level, types, device) -> run;
        # (level, op input types) -> _PackageEntry of a saved package.
        self._graphs = {}
        self._runs = {}
        # (shape, dtype, device) per input -> _Step of the C++ extension.
        self._steps = {}
        # Op input types -> _PairLayout.
        self._layouts = {}
        self._package = {} if package is None else _read_package(
            package, self.name, self._layouts)
        self._lock = threading.RLock()
        # torch.library would replace an operator of the same name.
        namespace, op_name = self.name.split("::", 1)
        for suffix in _LEVEL_SUFFIXES:
            if hasattr(getattr(torch.ops, namespace), op_name + suffix):
                raise InvalidInput(f"uta.custom_op: {self.name}{suffix} is "
                                   "already an operator of torch.library")
        try:
            self.levels = [_Level(self, k) for k in
                           range(len(_LEVEL_SUFFIXES))]
        except RuntimeError as error:
            raise InvalidInput(f"uta.custom_op: {error}") from None
        for lower, upper in zip(self.levels, self.levels[1:]):
            lower.differentiate_with(upper)

    def __repr__(self):
        return f"<uta.CustomOp {self.name}>"

    def __call__(self, *tensors):
        """Runs the op on torch tensors: one output comes back as a tensor,
        several as a tuple. Eagerly (no trace, no tensor subclass, no
        functorch transform) through a torch.autograd.Function with the
        same forward and backward as the operator's, which costs a fraction
        of torch.library's Python autograd layers; under torch.compile and
        the other cases, the operator."""
        torch = self._torch
        if _runs_eagerly(torch, tensors):
            extension = _torch_extension.load(torch)
            if extension is not None:
                outputs = self._call_extension(torch, extension, tensors)
            else:
                outputs = _eager_function(torch).apply(self, len(tensors),
                                                       *tensors)
        else:
            outputs, _ = self.levels[0].library_op(list(tensors),
                                                   len(tensors))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    @property
    def library_op(self):
        """The forward operator of torch.library (for opcheck)."""
        return self.levels[0].library_op

    def cache_info(self):
        """How many graphs were built and runs compiled, per level."""
        with self._lock:
            return {"graphs": len(self._graphs), "compiled": len(self._runs)}

    # Graphs: every level's follows from the op's input types.

    def graph(self, level, types):
        """The uta.Graph of `level` (0 and 1: the training pair's forward and
        backward, 2: the gradient of the gradient graph) for the op's input
        `types`, a tuple of (shape, dtype code) per input; built once."""
        return self._graph(("forward", "backward", "double")[level], types)

    def _graph(self, kind, types):
        """The graphs of one signature by kind: "op" (the build function's),
        "forward" and "backward" (its training pair), "vjp" (its gradient)
        and "double" (the gradient's gradient)."""
        key = (kind, types)
        graph = self._graphs.get(key)  # dict reads are atomic: no lock
        if graph is not None:
            return graph
        with self._lock:
            graph = self._graphs.get(key)
            if graph is not None:
                return graph
            own = list(range(len(types))) if self.wrt is None \
                else list(self.wrt)
            if kind == "op":
                graph = self._build(types)
            elif kind in ("forward", "backward"):
                pair = self._graph("op", types).training_pair(own)
                self._graphs[("forward", types)] = pair.forward
                self._graphs[("backward", types)] = pair.backward
                self._layouts[types] = _PairLayout(
                    pair.saved, len(pair.forward.outputs) - pair.num_residuals,
                    pair.num_residuals)
                graph = self._graphs[key]
            elif kind == "vjp":
                graph = self._graph("op", types).gradient(own)
            else:
                vjp = self._graph("vjp", types)
                cotangents = range(len(types), len(vjp.inputs))
                graph = vjp.gradient(own + list(cotangents))
            self._graphs[key] = graph
        return graph

    def layout(self, types):
        """The _PairLayout of the op's input `types`: from the package when
        it has them, else from the training pair."""
        layout = self._layouts.get(types)
        if layout is None:
            self._graph("forward", types)
            layout = self._layouts[types]
        return layout

    def output_types(self, level, types):
        """The (shape, dtype code) of each output of `level` for the op's
        input `types`: from the package when it has them, else from the
        graph."""
        entry = self._package.get((level, types))
        if entry is not None:
            return entry.outputs
        return [(v.shape, v.dtype) for v in self.graph(level, types).outputs]

    def save(self, directory, examples, levels=(0, 1), target="ptx",
             sm=None):
        """Compiles `levels` (0: the op, 1: its backward, 2: the double
        backward) for each example signature, a sequence of tensors or of
        (shape, dtype) pairs, and writes them with an index.json to
        `directory`: a package that ``uta.custom_op(name, package=...)``
        runs where no compiler is installed (a GPU machine with only the
        runtime). `target` and `sm` are uta.compile's."""
        import json
        import os
        from .compiler import compile as uta_compile
        torch = self._torch
        directory = os.fspath(directory)
        os.makedirs(directory, exist_ok=True)
        entries = []
        for example in examples:
            types = tuple(
                (tuple(t.shape), self._codes[t.dtype])
                if isinstance(t, torch.Tensor) else
                (tuple(t[0]), self._codes[t[1]]) for t in example)
            for level in levels:
                graph = self.graph(level, types)
                stem = f"{self.name.replace('::', '.')}.{level}.{len(entries)}"
                uta_compile(graph, target=target, sm=sm,
                            allow_tf32=self.allow_tf32,
                            fast_math=self.fast_math).save(
                    os.path.join(directory, stem))
                entries.append({
                    "level": level,
                    "inputs": [[list(s), DTYPE_NAMES[c]] for s, c in types],
                    "outputs": [[list(v.shape), DTYPE_NAMES[v.dtype]]
                                for v in graph.outputs],
                    "pair": self.layout(types).as_json(),
                    "manifest": stem + ".json"})
        index = {"op": self.name, "target": target, "sm": sm or "",
                 "entries": entries}
        path = os.path.join(directory, "index.json")
        with open(path + ".tmp", "w") as out:
            json.dump(index, out, indent=1)
        os.replace(path + ".tmp", path)

    def _build(self, types):
        if self.build is None:
            raise InvalidInput(
                f"{self.name}: no compiled graph for inputs "
                f"{_signature_text(types)} in its package, and no build "
                "function to make one")
        graph = Graph(self.name.split("::")[-1])
        values = [graph.input(list(shape), DTYPE_NAMES[code])
                  for shape, code in types]
        try:
            inspect.signature(self.build).bind(graph, *values)
        except TypeError as error:
            raise InvalidInput(f"{self.name}: called with {len(values)} "
                               f"tensors, which its build function does not "
                               f"take: {error}") from None
        except ValueError:
            pass  # a callable without a signature: let the call tell
        results = self.build(graph, *values)
        if results is None:
            raise InvalidInput(f"{self.name}: build returned no outputs")
        if not isinstance(results, (tuple, list)):
            results = (results,)
        graph.output(*results)
        return graph

    def _types(self, tensors, op_inputs, where, hinted=False):
        """The (shape, dtype code) of the op's own inputs among `tensors`;
        `hinted`: symbolic sizes (a trace's) at their hints."""
        if not 0 <= op_inputs <= len(tensors):
            raise InvalidInput(f"{where}: op_inputs {op_inputs} of "
                               f"{len(tensors)} tensors")
        types = []
        for i, tensor in enumerate(tensors[:op_inputs]):
            code = self._codes.get(tensor.dtype)
            if code is None:
                raise InvalidInput(f"{where}: input {i} is {tensor.dtype}; "
                                   "UTA ops take float32, float16 and "
                                   "bfloat16 tensors")
            shape = tuple(tensor.shape)
            if hinted:
                shape = tuple(size if isinstance(size, int) else
                              _size_hint(size) for size in shape)
            types.append((shape, code))
        return tuple(types)

    # Fake (meta) implementation.

    def _fake_outputs(self, level, inputs, op_inputs):
        torch = self._torch
        where = self.name + _LEVEL_SUFFIXES[level]
        device = inputs[0].device if inputs else torch.device("cpu")
        shapes, dtypes = self._output_shapes(level, inputs, op_inputs, where)
        return [torch.empty(shape, dtype=dtype, device=device)
                for shape, dtype in zip(shapes, dtypes)]

    def _output_shapes(self, level, inputs, op_inputs, where):
        """The outputs' shapes (sizes may be symbolic) and dtypes.

        Symbolic input sizes of equal value form a group (two inputs that
        must agree on a batch size are one). The graph is built at the
        traced values, then with each group moved to value + 1 and to
        2 value + 1: an output size that follows a group at both probes is
        that group's size, one that moves with no group is a constant, and
        anything else is an error. A group that the graph does not take at
        both probes is specialised to its value, and the members of a group
        are checked equal (torch._check), so the trace is only reused where
        what was assumed holds."""
        torch = self._torch
        own = inputs[:op_inputs]
        self._types(own, op_inputs, where)  # checks the count and dtypes
        # Each symbolic size by its position: specialising one below changes
        # how the others print.
        groups, positions = {}, {}
        for i, tensor in enumerate(own):
            for d, size in enumerate(tensor.shape):
                if not isinstance(size, int):
                    value = _size_hint(size)
                    groups.setdefault(value, [])
                    if not any(size is other for other in groups[value]):
                        groups[value].append(size)
                    positions[i, d] = value

        def outputs_at(values):
            types = tuple(
                (tuple(values[positions[i, d]] if (i, d) in positions else
                       size for d, size in enumerate(t.shape)),
                 self._codes[t.dtype])
                for i, t in enumerate(own))
            return [(shape, self._dtypes[code])
                    for shape, code in self.output_types(level, types)]

        hints = {value: value for value in groups}
        base = outputs_at(hints)
        moved = {}
        for value, members in groups.items():
            probes = []
            for probe_value in (value + 1, 2 * value + 1):
                probe = dict(hints)
                probe[value] = probe_value
                try:
                    outputs = outputs_at(probe)
                except Exception:  # the graph takes no other size here
                    break
                # The training pair may save other values at another size:
                # the trace then holds for this size alone.
                if len(outputs) != len(base):
                    break
                probes.append((probe_value, outputs))
            if len(probes) < 2:
                for size in members:
                    torch._check(size == value)
                continue
            for size in members[1:]:
                torch._check(size == members[0])
            moved[value] = probes
        shapes = []
        for o, (shape, _) in enumerate(base):
            sizes = []
            for d, size in enumerate(shape):
                movers = [value for value, probes in moved.items()
                          if any(outs[o][0][d] != size for _, outs in probes)]
                if not movers:
                    sizes.append(size)
                elif (len(movers) == 1 and size == movers[0] and
                      all(outs[o][0][d] == probe_value
                          for probe_value, outs in moved[movers[0]])):
                    sizes.append(groups[movers[0]][0])
                else:
                    raise InvalidInput(
                        f"{where}: output {o}'s size {d} is neither an input "
                        "size nor a constant, which a traced UTA op needs")
            shapes.append(sizes)
        return shapes, [dtype for _, dtype in base]

    def _backward_arguments(self, types, inputs, op_inputs, where):
        """Level 1's inputs (the op's inputs, the forward's outputs and
        residuals, the cotangents) as the backward graph takes them: the
        saved values, then the cotangents."""
        layout = self.layout(types)
        values = op_inputs + layout.num_values()
        if len(inputs) != values + layout.num_outputs:
            raise InvalidInput(
                f"{where} takes {values + layout.num_outputs} tensors for "
                f"inputs {_signature_text(types)}, got {len(inputs)}")
        return [inputs[i] for i in layout.saved] + list(inputs[values:])

    # Running.

    def _run_for(self, level, types, tensor_device):
        """The loaded executable of `level` for `types` on the device of
        `tensor_device`, and its workspace size; compiled once."""
        from .compiler import compile as uta_compile
        device = _uta_device(tensor_device, self.host_backend)
        key = (level, types, tensor_device.type, tensor_device.index)
        run = self._runs.get(key)
        if run is not None:
            return run
        torch = self._torch
        if tensor_device.type == "cuda" and \
                torch.cuda.is_current_stream_capturing():
            raise InvalidInput(
                f"{self.name}{_LEVEL_SUFFIXES[level]}: first call for inputs "
                f"{_signature_text(types)} inside CUDA-graph capture, where "
                "it cannot compile and load; run the step once (forward and "
                "backward) before capturing")
        with self._lock:
            run = self._runs.get(key)
            if run is None:
                entry = self._package.get((level, types))
                if entry is not None and entry.backend == device.backend:
                    exe = device.load(entry.manifest)
                else:
                    graph = self.graph(level, types)
                    exe = uta_compile(graph, device=device,
                                      allow_tf32=self.allow_tf32,
                                      fast_math=self.fast_math).load(device)
                run = _Run(exe, self.name + _LEVEL_SUFFIXES[level],
                           tensor_device)
                self._runs[key] = run
        return run

    def _execute(self, level, inputs, op_inputs):
        torch = self._torch
        where = self.name + _LEVEL_SUFFIXES[level]
        if not inputs:
            raise InvalidInput(f"{where} takes at least one tensor")
        device = inputs[0].device
        for i, tensor in enumerate(inputs):
            if tensor.device != device:
                raise InvalidInput(f"{where}: input {i} is on {tensor.device}"
                                   f" and input 0 on {device}; move them to "
                                   "one device")
        types = self._types(inputs, op_inputs, where)
        if level == 1:
            inputs = self._backward_arguments(types, inputs, op_inputs,
                                              where)
        run = self._run_on(level, types, device)
        if device.type != "cuda":
            return run(torch, inputs, self._dtypes, where)
        with torch.cuda.device(device):
            return run(torch, inputs, self._dtypes, where)

    def _run_on(self, level, types, device):
        """_run_for, with `device` current while a CUDA executable loads:
        UTA makes its device's context current on this thread, and torch's
        current device is put back after, as for any of torch's own ops."""
        if device.type != "cuda":
            return self._run_for(level, types, device)
        with self._torch.cuda.device(device):
            return self._run_for(level, types, device)

    # The C++ extension's eager path.

    def _call_extension(self, torch, extension, tensors):
        """An eager call through libuta_torch.so: the training pair's
        forward as a C++ autograd node where a gradient is wanted, else the
        forward alone."""
        key = tuple((t.shape, t.dtype, t.device) for t in tensors)
        step = self._steps.get(key)
        if step is None:
            step = self._new_step(extension, tensors, key)
        if torch.is_grad_enabled() and any(t.requires_grad for t in tensors):
            if step.backward is None:
                self._load_backward(extension, step)
            return _extension_call(extension.step.default, step.id,
                                   list(tensors))
        outputs = _extension_call(extension.run.default,
                                  step.forward.runner_id(extension),
                                  list(tensors))
        return outputs[:step.num_outputs]

    def _new_step(self, extension, tensors, key):
        if not tensors:
            raise InvalidInput(f"{self.name} takes at least one tensor")
        types = self._types(tensors, len(tensors), self.name)
        device = tensors[0].device
        forward = self._run_on(0, types, device)
        layout = self.layout(types)
        with self._lock:
            step = self._steps.get(key)
            if step is None:
                step = _Step(extension, forward, layout, types, device,
                             self.levels[0].own_wrt(len(tensors)),
                             self.name + _LEVEL_SUFFIXES[1])
                self._steps[key] = step
        return step

    def _load_backward(self, extension, step):
        """Compiles (once) and hands the step its backward graph: at the
        first call that wants a gradient, not before, so that inference
        compiles only the forward."""
        backward = self._run_on(1, step.types, step.device)
        with self._lock:
            if step.backward is None:
                _extension_call(extension.step_set_backward, step.id,
                                backward.runner_id(extension))
                step.backward = backward


# The backend that runs each target's modules.
_TARGET_BACKENDS = {"ptx": "cuda", "spirv": "vulkan"}


class _PackageEntry:
    __slots__ = ("outputs", "manifest", "backend")

    def __init__(self, outputs, manifest, backend):
        self.outputs, self.manifest, self.backend = outputs, manifest, backend


def _signature_text(types):
    return "(" + ", ".join(f"{DTYPE_NAMES[c]} {list(s)}" for s, c in types) \
        + ")"


def _read_package(directory, name, layouts):
    """The entries of the package that CustomOp.save wrote to
    `directory`, by (level, op input types); the training pair's layout of
    each signature goes to `layouts`."""
    import json
    import os
    from .graph import DTYPES
    path = os.path.join(os.fspath(directory), "index.json")
    try:
        with open(path) as index_file:
            index = json.load(index_file)
        if index["op"] != name:
            raise InvalidInput(f"{path}: a package of {index['op']}, not of "
                               f"{name}")
        entries = {}
        for entry in index["entries"]:
            types = tuple((tuple(s), DTYPES[d]) for s, d in entry["inputs"])
            outputs = [(tuple(s), DTYPES[d]) for s, d in entry["outputs"]]
            manifest = os.path.join(os.path.dirname(path), entry["manifest"])
            entries[entry["level"], types] = _PackageEntry(
                outputs, manifest, _TARGET_BACKENDS.get(index["target"]))
            pair = entry["pair"]
            layouts[types] = _PairLayout(pair["saved"], pair["num_outputs"],
                                         pair["num_residuals"])
        return entries
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InvalidInput(f"{path}: not a uta.custom_op package: "
                           f"{error!r}") from None


def _extension_call(function, *arguments):
    """An operator of libuta_torch.so, with its errors as uta's: it raises
    ValueError for bad input and "uta: "-prefixed RuntimeErrors for failed
    runs; torch's own errors (memory running out) pass unchanged."""
    try:
        return function(*arguments)
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    except RuntimeError as error:
        if str(error).startswith("uta: "):
            raise InternalError(str(error)[len("uta: "):]) from None
        raise


class _Step:
    """An op's training pair for one input signature and device, as the
    C++ extension runs it (uta_ext::step)."""

    def __init__(self, extension, forward, layout, types, device, wrt,
                 backward_operator):
        self.forward, self.backward = forward, None
        self.num_outputs = layout.num_outputs
        self.types, self.device = types, device
        self._extension = extension
        self.id = _extension_call(extension.step_new,
                                  forward.runner_id(extension),
                                  layout.num_outputs, list(layout.saved),
                                  list(wrt), backward_operator)

    def __del__(self):
        _release(self)


def _release(owner):
    """Releases `owner`'s object of the C++ extension; quietly, as the
    interpreter may be shutting down."""
    extension, owner._extension = getattr(owner, "_extension", None), None
    if extension is not None:
        try:
            extension.release(owner.id)
        except Exception:  # noqa: BLE001
            pass


class _Run:
    """A loaded executable run on torch tensors, with its signature and
    workspace needs read once; through the C++ extension where it is
    loaded."""

    def __init__(self, exe, where, tensor_device):
        self.exe = exe
        self.inputs = exe.inputs
        self.outputs = exe.outputs
        handle = exe._live
        self.workspace_bytes = _rt.uta_executable_workspace_bytes(handle)
        self.workspace_alignment = _rt.uta_executable_workspace_alignment(
            handle)
        self.on_cuda = not exe.device.is_host
        self.where, self.tensor_device = where, tensor_device
        self._extension = None
        self._lock = threading.Lock()

    def runner_id(self, extension):
        """The executable's runner in the C++ extension, made once."""
        if self._extension is None:
            with self._lock:
                if self._extension is None:
                    self.id = _extension_call(
                        extension.runner_new, self.exe._live, self.where,
                        self.tensor_device)
                    self._extension = extension
        return self.id

    def __del__(self):
        _release(self)

    def __call__(self, torch, inputs, dtypes, where):
        extension = _torch_extension.load(torch)
        if extension is not None:
            return _extension_call(extension.run.default,
                                   self.runner_id(extension), inputs)
        if len(inputs) != len(self.inputs):
            raise InvalidInput(f"{where} takes {len(self.inputs)} tensors, "
                               f"got {len(inputs)}")
        addresses, keep = [], []
        for i, (tensor, (code, shape)) in enumerate(zip(inputs, self.inputs)):
            if tensor.dtype != dtypes[code] or tuple(tensor.shape) != shape:
                raise InvalidInput(
                    f"{where}: input {i} is {tensor.dtype} "
                    f"{list(tensor.shape)}, expected {dtypes[code]} "
                    f"{list(shape)}")
            if not tensor.is_contiguous():
                raise InvalidInput(f"{where}: input {i} is not contiguous "
                                   f"(strides {list(tensor.stride())}); "
                                   "call .contiguous() first")
            if self.on_cuda and tensor.data_ptr() % 16:
                # A view into another tensor (a chunk, a gradient of a cat);
                # the kernels' vector loads need 16 bytes, a fresh block has
                # 512.
                tensor = tensor.clone()
                keep.append(tensor)
            addresses.append(tensor.data_ptr())
        device = inputs[0].device
        outputs = [torch.empty(shape, dtype=dtypes[code], device=device)
                   for code, shape in self.outputs]
        ins = (ctypes.c_uint64 * max(len(addresses), 1))(*addresses)
        outs = (ctypes.c_uint64 * max(len(outputs), 1))(
            *[y.data_ptr() for y in outputs])
        if not self.on_cuda:
            check(_rt.uta_executable_run_addresses(
                self.exe._live, ins, len(addresses), outs, len(outputs), None))
            return outputs
        # The outputs and the workspace come from the stream the launches
        # go on, so the caching allocator hands their blocks out again only
        # to work queued after them.
        workspace, start = None, 0
        if self.workspace_bytes:
            # Over-allocated by the alignment, to which the start is moved
            # (the allocator's blocks are 512-byte aligned already).
            workspace = torch.empty(
                self.workspace_bytes + self.workspace_alignment,
                dtype=torch.uint8, device=device)
            start = workspace.data_ptr()
            start += -start % self.workspace_alignment
        stream = torch.cuda.current_stream(device).cuda_stream
        check(_rt.uta_executable_run_on_cuda_stream(
            self.exe._live, ins, len(addresses), outs, len(outputs), stream,
            start, self.workspace_bytes))
        return outputs


def custom_op(name, build=None, wrt=None, host_backend=None, allow_tf32=False,
              fast_math=False, package=None):
    """A torch operator (torch.library) that runs the graph `build` makes.

    `build(g, *inputs)` adds ops to `g`, a uta.Graph whose inputs (uta
    values) have the shapes and dtypes of the tensors of a call, and returns
    the output value or a tuple of them. It runs once per new input
    signature (shapes, dtypes), and the graph is compiled once per signature
    and device. `name` is "namespace::op" ("uta::" when no namespace is
    given) and must be new to torch.library; ``name_backward`` and
    ``name_double_backward`` are registered with it. `wrt` lists the inputs
    that get gradients (None: all). CPU tensors run on `host_backend`
    ("vulkan", "reference"; None: vulkan where it opens, else reference).
    `allow_tf32` and `fast_math` are uta.compile's. `package`, a folder
    that :meth:`CustomOp.save` wrote, supplies compiled graphs for the
    signatures it holds, so the op runs where no compiler is installed;
    `build` makes the rest (and may be None with a package).

    Returns a callable :class:`CustomOp`; its ``library_op`` is the torch
    operator, for torch.library.opcheck."""
    return CustomOp(name, build, wrt, host_backend, allow_tf32, fast_math,
                    package)
