"""SL917: `--pooler-config` `task` set to a removed pooling task (`score`, `encode`)."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, release_has, vllm_message

_PATH = "vllm/tasks.py"
_SCORE = VllmCheck("pooler.task_score_removed", "`score` task was removed; use `classify` instead.", _PATH)
_ENCODE = VllmCheck("pooler.task_encode_removed",
                    "`encode` task was removed; use `token_embed` or `token_classify` instead.", _PATH)
# ``check_removed_pooling_task`` raises a ``VLLMValidationError`` naming the
# parameter, whose ``__str__`` appends " (parameter=task)" (vllm/exceptions.py).
_RAISE = VllmCheck("pooler.task_removed_raise", 'raise VLLMValidationError(message, parameter="task")', _PATH,
                   code=True)
_STR = VllmCheck("exceptions.validation_error_parameter", 'extras.append(f"parameter={self.parameter}")',
                 "vllm/exceptions.py", code=True)
_KEYS = {"score": _SCORE.key, "encode": _ENCODE.key}


class PoolerTaskRemoved(Rule):
    """`--pooler-config` whose `task` is a removed pooling task.

    ## What it does
    Reports `"task": "score"` or `"task": "encode"` in `--pooler-config`
    (JSON or the dotted key `--pooler-config.task score`).

    ## Why
    The `score` task became `classify`; `encode` was split into
    `token_embed` and `token_classify`. `PoolerConfig`'s "before" validator
    checks the name before any field is validated and raises a
    `VLLMValidationError`, which is not a `ValueError`: it escapes
    argparse's conversion of the flag, and `vllm serve` ends with a
    traceback: "vllm.exceptions.VLLMValidationError: `score` task was
    removed; use `classify` instead. (parameter=task)".

    ## Example
    ```sh
    vllm serve BAAI/bge-reranker-base --pooler-config '{"task": "score"}'
    ```

    ## Fix
    Write `"task": "classify"` for `score`, `"token_embed"` or
    `"token_classify"` for `encode`.

    ## Evidence
    The written `--pooler-config` only (dotted keys merged). Silent when the
    object also has `normalize` (pooler-normalize-removed, checked first).
    invalid-value (SL103) also reports the name, which is not one of the
    pooling tasks of `task`'s type.

    ## vLLM source
    `check_removed_pooling_task`, called by
    `PoolerConfig.reject_removed_parameters`.
    """

    code = "SL917"
    name = "pooler-task-removed"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_SCORE, _ENCODE, _RAISE, _STR)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--pooler-config"
    requires = ("--pooler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = json_of(ctx.invocation, "pooler_config")
        if cfg.how != "flag" or not cfg.known or not isinstance(cfg.value, dict) or "normalize" in cfg.value:
            return
        task = cfg.value.get("task")
        key = _KEYS.get(task) if isinstance(task, str) else None
        if key is None:
            return
        base = vllm_message(ctx, key)
        message = None
        if base is not None and release_has(ctx, _RAISE.key) and release_has(ctx, _STR.key):
            message = f"{base} (parameter=task)"
        yield finding(ctx, cfg.flags[-1], message, key,
                      message=None if message is not None else f"the `{task}` pooling task was removed")
