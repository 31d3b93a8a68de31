"""SL005: `serve` given again to an image that already runs `vllm serve`."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Severity
from ...parse import problems
from ..base import ParseProblemRule


class ServeRepeated(ParseProblemRule):
    """The container already runs `vllm serve`, and the arguments say `serve` again.

    ## What it does
    Reports `serve` or `vllm serve` at the start of the arguments given to an
    image whose entrypoint is already `vllm serve` (`vllm/vllm-openai`):
    compose `command:`, Kubernetes `args:` without `command:`, Dockerfile `CMD`,
    and the arguments after the image in `docker run`.

    ## Why
    The image's `ENTRYPOINT ["vllm", "serve"]` comes first, so vLLM sees
    `vllm serve serve ...` and stops with `unrecognized arguments: serve`
    (or takes `serve` as the model name).

    ## Example
    ```yaml
    services:
      llm:
        image: vllm/vllm-openai:v0.33.0
        command: ["serve", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
    ```

    ## Fix
    Drop `serve` (and `vllm`) from the arguments, or override the entrypoint.

    ## Fix safety
    Safe: the image already runs `vllm serve`, so removing the repeated `serve`
    (and `vllm`) leaves the launch vLLM was meant to get.

    ## Evidence
    An image whose entry point servelint knows to be `vllm serve` (vLLM's
    own images) and no `entrypoint`/`command` override in the file. An
    image whose entry point is not known is not judged.
    """

    code = "SL005"
    fixes = frozenset({Applicability.SAFE})
    name = "serve-repeated"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR
    problem = problems.SERVE_REPEATED
