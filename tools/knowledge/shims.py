"""Third-party shims applied before vLLM is imported (by dump_release.py and
provision.py's import check), documented in README.md.

The PyPI builds of torchvision/torchaudio are CUDA builds whose native
extensions cannot load against torch+cpu.  Model modules import them only
for image/audio preprocessing, never for the class attributes ``_ModelInfo``
reads, so their native-op registration is skipped.  A torch probe the base
venv's torch dropped is given back from the one that replaced it.  ``SERVELINT_DUMP_HIDE``
names modules to treat as not installed (release-env.txt).  No vLLM code is
replaced.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import types


class _AfterImport(importlib.abc.MetaPathFinder):
    """Run a callback on a module right after it has been executed."""

    def __init__(self, hooks: dict):
        self.hooks = hooks

    def find_spec(self, name, path=None, target=None):
        if name not in self.hooks:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        loader, hook = spec.loader, self.hooks[name]

        class _Loader(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                hook(module)

        spec.loader = _Loader()
        return spec


def install_shims() -> list[str]:
    applied = []
    # torchvision registers fake kernels for its native ops at import; with
    # the ops missing (CUDA build on torch+cpu) that raises.  Nothing in a
    # model class definition uses those ops.
    sys.modules.setdefault(
        "torchvision._meta_registrations", types.ModuleType("torchvision._meta_registrations")
    )
    applied.append("torchvision._meta_registrations: empty module")

    def _no_native_lib(mod):
        mod._load_lib = lambda *_a, **_k: False

    sys.meta_path.insert(0, _AfterImport({"torchaudio._extension.utils": _no_native_lib}))
    applied.append("torchaudio._extension.utils._load_lib: returns False")
    # Releases from 0.15 to 0.24 choose their CPU kernels with
    # torch._C._cpu._is_avx512_supported (vllm/platforms/cpu.py,
    # import_kernels), which the base venv's torch no longer has; its
    # _get_cpu_capability answers the same question.  Either answer leads
    # to an import of vllm._C that is allowed to fail.  Given on first use
    # only, and listed then, so the releases that never ask record nothing.
    avx512 = "torch._C._cpu._is_avx512_supported: from _get_cpu_capability where torch lacks it"

    def _avx512_probe(mod):
        cpu = mod.torch._C._cpu
        if hasattr(cpu, "_is_avx512_supported"):
            return

        def __getattr__(name):
            if name != "_is_avx512_supported":
                raise AttributeError(f"module 'torch._C._cpu' has no attribute {name!r}")
            if avx512 not in applied:
                applied.append(avx512)
            return lambda: "AVX512" in str(cpu._get_cpu_capability()).upper()

        cpu.__getattr__ = __getattr__

    sys.meta_path.insert(0, _AfterImport({"vllm.platforms.cpu": _avx512_probe}))
    # Packages to treat as not installed (release-env.txt, per release range):
    # old releases import triton APIs that the venv's triton no longer has,
    # and test for triton with find_spec, as a CPU install without triton.
    for name in filter(None, os.environ.get("SERVELINT_DUMP_HIDE", "").split(",")):
        sys.modules[name] = None
        applied.append(f"{name}: hidden (as if not installed)")
    return applied
