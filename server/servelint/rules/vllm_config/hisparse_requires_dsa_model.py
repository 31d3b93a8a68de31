"""SL656: HiSparse on a model that is not a DSA (DeepSeek sparse attention) model."""

from __future__ import annotations

from ...derive.flags import written
from ...derive.model import model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ._late import HiSparseCheck, hisparse_passes

_CHECK = VllmCheck("vllm.hisparse_dsa", "HiSparse is only supported for DSA models with index_topk.",
                   "vllm/config/vllm.py")
# Model types whose Transformers config class may give ``index_topk`` a
# default the config.json does not write: servelint stays silent for them.
_MAY_DEFAULT_INDEX_TOPK = ("deepseek_v32", "deepseek_v4", "glm_moe_dsa", "glm5")


class HisparseRequiresDsaModel(HiSparseCheck):
    """HiSparse on a model whose config.json has no `index_topk`.

    ## What it does
    For target `cuda`, reports the flag that turns HiSparse on (a
    `hisparse_config` in `--attention-config`, or HiSparseConnector in
    `--kv-transfer-config`) when the model's config.json has no
    `index_topk` (it is not a DeepSeek-V3.2-style sparse attention model)
    and the HiSparse checks vLLM runs before this one pass.

    ## Why
    HiSparse offloads the KV the DSA indexer does not select; a model
    without an indexer has nothing to select with. vLLM stops while
    building its config: "HiSparse is only supported for DSA models with
    index_topk."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --attention-config '{"hisparse_config": {}}'
    ```

    ## Fix
    Turn HiSparse off, or serve a DSA model (DeepSeek-V3.2 and the like).

    ## Evidence
    The flags as written, the declared target and the model's
    config.json; silent under `--hf-overrides` and for model types whose
    config class may supply `index_topk` itself.

    ## vLLM source
    `VllmConfig.__post_init__`, the HiSparse block (`hasattr(hf_config,
    "index_topk")`). Verified from vLLM's source only: on the vllm-oracle's
    CPU platform the CUDA check fires first.
    """

    code = "SL656"
    name = "hisparse-requires-dsa-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.30.0", "0.33.0")
    anchor = "--attention-config"
    partners = ("--kv-transfer-config",)
    requires = ("--attention-config", "--kv-transfer-config")

    def blocker(self, ctx):
        if written(ctx.invocation, "hf_overrides") or not hisparse_passes(ctx, "dsa"):
            return None
        cfg = model_config(ctx)
        if cfg is None or "index_topk" in cfg:
            return None
        mtype = cfg.get("model_type")
        if not isinstance(mtype, str) or mtype.startswith(_MAY_DEFAULT_INDEX_TOPK):
            return None
        return None, "the model's config.json has no index_topk"
