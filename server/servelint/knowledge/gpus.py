"""The GPUs servelint recognises: compute capability, memory, vendor.

A launch's file names its GPUs in the words of the tool that schedules it:
a Kubernetes node label (``nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB``,
``cloud.google.com/gke-accelerator: nvidia-l4``), a cloud instance type
(``g5.12xlarge``), a SkyPilot accelerator (``A100-80GB:4``), a Slurm gres
type (``gpu:a100:4``).  ``lookup`` maps such a name to the rows of
``data/gpus.json`` it may mean: one row when the name says enough, several
when it does not (Karpenter's ``a100`` is an A100 of 40 or 80 GB), none
when servelint does not know it.  A rule holds a launch against a fact only
when every row the name may mean agrees.

Each row cites where its capability and memory come from (NVIDIA's CUDA
GPU list, the vendors' datasheets).  Memory is the datasheet's figure in GB
read as GiB: every device reports a little less (ECC, the driver), so a
check that something does not fit in it never overstates the device.
Nothing here touches the network.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from ..structs import dataclass

_DATA = os.path.join(os.path.dirname(__file__), "data", "gpus.json")

# The label and tool vocabularies ``lookup`` knows by name.
VOCABULARIES = ("gke", "skypilot", "karpenter", "instance-type")

_VENDOR_WORDS = ("nvidia", "tesla", "geforce", "amd", "instinct", "intel", "habana", "radeon")
_MIG = re.compile(r"-?mig-(\d+)g\.(\d+)gb$", re.I)


@dataclass(frozen=True, slots=True)
class Gpu:
    """One GPU model as servelint knows it."""

    id: str  # "A100-80GB"
    vendor: str  # "nvidia" | "amd" | "habana" | "intel"
    family: str  # "a100": the models a bare family name may mean
    capability: tuple[int, int] | None  # NVIDIA's compute capability; None for other vendors
    memory_gib: float  # per device, the datasheet's GB (an upper bound of what the device reports)
    sources: tuple[tuple[str, str], ...]  # (fact, URL)

    @property
    def capability_int(self) -> int | None:
        """The capability as vLLM compares it (``DeviceCapability.to_int``: 8.9 → 89)."""
        if self.capability is None:
            return None
        return self.capability[0] * 10 + self.capability[1]

    @property
    def capability_text(self) -> str | None:
        return None if self.capability is None else f"{self.capability[0]}.{self.capability[1]}"

    def source(self, fact: str) -> str | None:
        return dict(self.sources).get(fact)


@dataclass(frozen=True, slots=True)
class Match:
    """What a GPU name may mean: the candidate rows, and how they were found."""

    name: str
    gpus: tuple[Gpu, ...]  # empty: not a GPU servelint knows
    how: str  # "vocabulary" | "alias" | "family" | "mig" | "none"
    # A MIG profile (``…-MIG-3g.40gb``): the device is a slice of that much memory.
    mig_memory_gib: float | None = None

    @property
    def known(self) -> bool:
        return bool(self.gpus)

    def capability(self) -> tuple[int, int] | None:
        """The capability every candidate has, or None when they differ or have none."""
        caps = {g.capability for g in self.gpus}
        return caps.pop() if len(caps) == 1 else None

    def capability_text(self) -> str | None:
        cap = self.capability()
        return None if cap is None else f"{cap[0]}.{cap[1]}"

    def vendor(self) -> str | None:
        vendors = {g.vendor for g in self.gpus}
        return vendors.pop() if len(vendors) == 1 else None

    def memory_gib(self) -> float | None:
        """The most memory any candidate has (a MIG slice's own when it is one)."""
        if self.mig_memory_gib is not None:
            return self.mig_memory_gib
        return max((g.memory_gib for g in self.gpus), default=None)

    def label(self) -> str:
        """The candidates, for messages: "A100-80GB", "A100-40GB or A100-80GB"."""
        ids = [g.id for g in self.gpus]
        if len(ids) <= 1:
            text = ids[0] if ids else self.name
        else:
            text = ", ".join(ids[:-1]) + " or " + ids[-1]
        if self.mig_memory_gib is not None:
            text += f" (MIG slice of {self.mig_memory_gib:g} GB)"
        return text


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Gpu], dict[str, list[Gpu]], dict[str, list[Gpu]], dict, list]:
    with open(_DATA, encoding="utf-8") as f:
        data = json.load(f)
    by_id: dict[str, Gpu] = {}
    aliases: dict[str, list[Gpu]] = {}
    families: dict[str, list[Gpu]] = {}
    for row in data["gpus"]:
        cap = row.get("capability")
        gpu = Gpu(
            row["id"], row["vendor"], row["family"],
            None if cap is None else tuple(int(p) for p in cap.split(".")),  # type: ignore[arg-type]
            float(row["memory_gib"]),
            tuple(sorted(row["sources"].items())),
        )
        by_id[gpu.id] = gpu
        for k in {key(name) for name in [gpu.id, *row.get("aliases", ())]}:
            aliases.setdefault(k, []).append(gpu)
        families.setdefault(gpu.family, []).append(gpu)
    vocab: dict[str, dict[str, tuple[Gpu, ...]]] = {}
    patterns: list[tuple[re.Pattern, tuple[Gpu, ...]]] = []
    for name, entry in data["vocabularies"].items():
        if "names" in entry:
            vocab[name] = {n.lower(): tuple(by_id[i] for i in ids) for n, ids in entry["names"].items()}
        for pattern, ids, _source in entry.get("patterns", ()):
            patterns.append((re.compile(pattern, re.I), tuple(by_id[i] for i in ids)))
    return by_id, aliases, families, vocab, patterns


def key(name: str) -> str:
    """A name reduced to what tells GPUs apart: lower case, letters and
    digits only, the vendor's words in front dropped."""
    text = name.strip().lower()
    changed = True
    while changed:
        changed = False
        for word in _VENDOR_WORDS:
            for sep in ("-", "_", " ", ""):
                if text.startswith(word + sep) and len(text) > len(word + sep):
                    text = text[len(word + sep):]
                    changed = True
    return re.sub(r"[^a-z0-9]", "", text)


def by_id(gpu_id: str) -> Gpu | None:
    return _table()[0].get(gpu_id)


def all_gpus() -> tuple[Gpu, ...]:
    return tuple(_table()[0].values())


def lookup(name: str, vocabulary: str | None = None) -> Match:
    """The GPUs ``name`` may mean.

    ``vocabulary`` names whose words it is (``VOCABULARIES``): a GKE
    accelerator, a SkyPilot accelerator, a Karpenter GPU name or a cloud
    instance type are looked up exactly (SkyPilot's ``A100`` is the 40 GB
    one).  Otherwise (``nvidia.com/gpu.product`` labels, Slurm gres types,
    free text) by alias, then by family: ``a100`` is every A100, ``a100 80gb``
    the 80 GB one.
    """
    _, aliases, families, vocab, patterns = _table()
    raw = name.strip()
    if not raw:
        return Match(name, (), "none")
    if vocabulary == "instance-type":
        for pattern, gpus in patterns:
            if pattern.search(raw):
                return Match(name, gpus, "vocabulary")
        return Match(name, (), "none")
    if vocabulary is not None:
        got = vocab.get(vocabulary, {}).get(raw.lower())
        if got is not None:
            return Match(name, got, "vocabulary")
        if vocabulary != "skypilot":
            return Match(name, (), "none")
    mig = _MIG.search(raw)
    if mig:
        inner = lookup(raw[: mig.start()])
        if not inner.known:
            return Match(name, (), "none")
        return Match(name, inner.gpus, "mig", float(mig.group(2)))
    k = key(raw)
    if k in aliases:
        return Match(name, tuple(aliases[k]), "alias")
    # The longest family the name starts with, not followed by a digit
    # (``a10`` is not ``a100``); the rest may say the memory (``80gb``).
    for fam in sorted(families, key=len, reverse=True):
        if k.startswith(fam) and not k[len(fam):len(fam) + 1].isdigit():
            rest = k[len(fam):]
            gpus = families[fam]
            memory = re.search(r"(\d+)gb", rest)
            if memory:
                gpus = [g for g in gpus if g.memory_gib == float(memory.group(1))]
                if not gpus:
                    return Match(name, (), "none")
            elif rest and not re.fullmatch(r"(sxm\d?|pcie|hbm\d?e?|nvl|mega)*", rest):
                return Match(name, (), "none")  # a variant servelint does not know
            return Match(name, tuple(gpus), "family")
    return Match(name, (), "none")


def mig_memory_gib(resource: str) -> float | None:
    """The memory of a MIG device resource (``nvidia.com/mig-3g.40gb`` → 40)."""
    m = re.fullmatch(r"nvidia\.com/mig-(\d+)g\.(\d+)gb", resource.strip(), re.I)
    return float(m.group(2)) if m else None
