"""SL011: `--served-model-name` with no positional model first."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import served_name_first


class ServedNameWithoutModel(Rule):
    """`--served-model-name` with no positional model first.

    ## What it does
    Reports a `vllm serve` launch whose first argument is a flag, that uses
    `--served-model-name` and no `--config`.

    ## Why
    vLLM refuses it before parsing: "`model` should be provided as the first
    positional argument when using `vllm serve`"
    (vllm/utils/argparse_utils.py, `parse_args`, 0.33.0). The nargs=`+` of
    `--served-model-name` would otherwise swallow the model.

    ## Example
    ```sh
    vllm serve --served-model-name qwen Qwen/Qwen3-8B
    ```

    ## Fix
    `vllm serve MODEL --served-model-name NAME ...`

    ## Evidence
    The launch's words as written, before argparse (as vLLM looks at them):
    a `vllm serve` launch (or an image that runs it) whose first word is a
    flag, the full spelling `--served-model-name`, and no `--model` or
    `--config` word. Arguments the file passes on opaquely (`"$@"`) are
    not judged.
    """

    code = "SL011"
    name = "served-name-without-model"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR

    def check(self, ctx: Context):
        flag = served_name_first(ctx.invocation)
        if flag is None:
            return
        yield Finding(
            flag.name_span,
            "`vllm serve` needs the model as its first argument when --served-model-name is used",
            flag="--served-model-name",
            vllm_message="`model` should be provided as the first positional argument when using `vllm serve`. "
            "i.e. `vllm serve <model> --<arg> <value>`.",
        )
