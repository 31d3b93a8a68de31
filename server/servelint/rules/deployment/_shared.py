"""What the deployment rules share: where a finding goes, the places that
take part in it, the parallel sizes, numbers as messages show them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ...derive.base import is_int
from ...derive.deployment import machines
from ...derive.flags import last_flag, value_of, written
from ...derive.memory import param_count, weight_bytes
from ...derive.model import DTYPE_NAMES
from ...derive.platform import checkpoint_dtype
from ...derive.quantization import checkpoint_quant, resolved_method
from ...diagnostics import Related
from ...knowledge import validators

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag
    from ...model import Fact
    from ..base import Context

GIB = float(1 << 30)
MIB = float(1 << 20)


def gib(n_bytes: float) -> str:
    return f"{n_bytes / GIB:.1f} GiB"


def where(ctx: "Context", flag: "Flag | None"):
    """(span, path, canonical flag) of a finding on ``flag``, or on the
    launch's entry point when the flag is not written (its default decides)."""
    if flag is not None:
        path = (flag.word.path if flag.word is not None else None)
        return flag.name_span, path, flag.canonical
    return ctx.invocation.launch.entry_span, None, None


def related(ctx: "Context", facts: Iterable["Fact | None"], message: str) -> list[Related]:
    """A related location at each fact's line, ``message`` formatted with
    ``{said}`` (how the fact is written)."""
    out = []
    seen = set()
    for fact in facts:
        if fact is None or fact.span in seen:
            continue
        seen.add(fact.span)
        out.append(Related(ctx.path, fact.span, message.format(said=fact.said)))
    return out


def written_int(ctx: "Context", dest: str) -> tuple[int | None, "Flag | None"]:
    """An int option's value and the flag that wrote it (None: the default);
    (None, flag) when written but not known."""
    v = value_of(ctx.invocation, dest)
    flag = last_flag(ctx.invocation, dest) if v.how == "flag" else None
    if v.how == "unknown":
        return None, last_flag(ctx.invocation, dest)
    if v.value is None:
        return None, flag
    return (v.value if is_int(v.value) else None), flag


class Parallel:
    """The launch's parallel sizes: ``world`` = TP × PP × PCP (vLLM's
    ``ParallelConfig.world_size``), with the flags that wrote them."""

    __slots__ = ("tp", "pp", "pcp", "world", "flags")

    def __init__(self, tp: int, pp: int, pcp: int, flags: tuple) -> None:
        self.tp, self.pp, self.pcp = tp, pp, pcp
        self.world = tp * pp * pcp
        self.flags = flags

    def text(self) -> str:
        parts = [f"tensor parallel size {self.tp}"] if self.tp != 1 or self.world == 1 else []
        if self.pp != 1:
            parts.append(f"pipeline parallel size {self.pp}")
        if self.pcp != 1:
            parts.append(f"prefill context parallel size {self.pcp}")
        return " × ".join(parts)


def parallel(ctx: "Context") -> Parallel | None:
    """TP, PP and PCP as vLLM gets them; None when one is not known."""
    sizes, flags = [], []
    for dest in ("tensor_parallel_size", "pipeline_parallel_size", "prefill_context_parallel_size"):
        if ctx.knowledge.by_dest.get(dest) is None:
            sizes.append(1)
            continue
        n, flag = written_int(ctx, dest)
        if n is None or n < 1:
            return None
        sizes.append(n)
        if flag is not None:
            flags.append(flag)
    return Parallel(sizes[0], sizes[1], sizes[2], tuple(flags))


def vllm_text(ctx: "Context", key: str, *values) -> str | None:
    """vLLM's message of check ``key`` in this release, its ``{}`` filled in."""
    site = validators.site(key, ctx.version)
    if site is None or site.template.count("{}") != len(values):
        return None
    pieces = site.template.split("{}")
    return "".join(p + (str(values[i]) if i < len(values) else "") for i, p in enumerate(pieces))


def on_model(ctx: "Context"):
    """(span, path) of the model word, for a finding about the model itself;
    the entry point when the model is vLLM's default."""
    word = ctx.invocation.model
    if word is not None:
        return word.span, word.path
    return ctx.invocation.launch.entry_span, None


def gpus_text(machines) -> str:
    """The GPUs of several machines, for messages: "T4" or "T4 or V100-16GB"."""
    labels = []
    for m in machines:
        label = m.label()
        if label not in labels:
            labels.append(label)
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


def gpu_related(ctx: "Context", machines, what) -> list[Related]:
    """A related location at each machine's GPU name: ``what(machine)`` says
    what servelint read there ("T4, compute capability 7.5")."""
    out, seen = [], set()
    for m in machines:
        fact = m.kind
        if fact is None or fact.span in seen:
            continue
        seen.add(fact.span)
        out.append(Related(ctx.path, fact.span, f"{fact.said}: {what(m)}"))
    return out


class Fit:
    """What one GPU of the launch holds, estimated (``derive.memory``):
    the weights on it and the memory vLLM may use, with the terms to show."""

    __slots__ = ("params", "bytes", "weights", "budget", "util", "util_flag", "memory_gib", "machine",
                 "sizes", "dtype", "offload")

    def __init__(self, **kw) -> None:
        for k, v in kw.items():
            setattr(self, k, v)

    def weights_text(self) -> str:
        p = self.params.total / 1e9
        split = "" if self.sizes.tp * self.sizes.pp == 1 else f" over {self.sizes.tp * self.sizes.pp} GPUs"
        off = f", less --cpu-offload-gb {self.offload:g}" if self.offload else ""
        return f"about {gib(self.weights)} of weights per GPU ({p:.1f}B parameters in {self.bytes.label}{split}{off})"

    def budget_text(self) -> str:
        return (f"--gpu-memory-utilization {self.util:g} × {self.memory_gib:g} GiB "
                f"({self.machine.label()}) = {gib(self.budget)}")


def fit(ctx: "Context") -> Fit | None:
    """The weights per GPU against the memory vLLM may use on the GPU with
    the most memory the file allows; None when a fact is not known."""
    ms = machines(ctx)
    if not ms or any(m.memory_gib is None for m in ms):
        return None
    machine = max(ms, key=lambda m: m.memory_gib)
    sizes = parallel(ctx)
    params = param_count(ctx)
    if sizes is None or params is None:
        return None
    d = value_of(ctx.invocation, "dtype")
    if not d.known or not isinstance(d.value, str):
        return None
    if d.value.lower() == "auto":
        ck = checkpoint_dtype(ctx)
        if ck is None:
            return None
        dtype = "bfloat16" if ck == "float32" else ck  # downcast to a 16-bit type: 2 bytes either way
    else:
        dtype = DTYPE_NAMES.get(d.value.lower())
        if dtype is None:
            return None
    ck = checkpoint_quant(ctx)
    if ck is None:
        return None
    method = resolved_method(ctx)
    if method is None and (ck.method is not None or written(ctx.invocation, "quantization")):
        return None
    wb = weight_bytes(ctx, dtype, method, ck.method is not None)
    if wb is None:
        return None
    share = -(-params.layers // sizes.pp) / params.layers
    if sizes.pp == 1:
        weights = (params.linear * wb.linear + params.embedding * wb.embedding) / sizes.tp
    else:
        # The rank with the most layers holds at least its layers' weights.
        weights = params.linear * wb.linear * share / sizes.tp
    offload = value_of(ctx.invocation, "cpu_offload_gb")
    if not offload.known or not isinstance(offload.value, (int, float)):
        return None
    weights -= float(offload.value) * GIB
    u = value_of(ctx.invocation, "gpu_memory_utilization")
    if not u.known or not isinstance(u.value, (int, float)) or not 0 < u.value <= 1:
        return None
    budget = float(u.value) * machine.memory_gib * GIB
    return Fit(params=params, bytes=wb, weights=weights, budget=budget, util=float(u.value),
               util_flag=u.flags[-1] if u.flags else None, memory_gib=machine.memory_gib, machine=machine,
               sizes=sizes, dtype=dtype, offload=float(offload.value))


def not_vllm_argv(ctx: "Context") -> bool:
    """Whether what runs the launch's words is not known from the file (an
    image in a variable, an operator's own server): its flags prove nothing."""
    return bool(getattr(ctx.invocation.launch, "entry_unknown", None))
