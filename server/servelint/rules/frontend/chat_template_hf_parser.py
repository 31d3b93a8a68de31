"""SL714: `--chat-template` with the `hf` tool-call or reasoning parser."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related

_CHECK = VllmCheck("chat_template.hf_parser", "--chat-template is set; the hf parser still expects ")
_MESSAGE = "--chat-template is set; the hf parser still expects the checkpoint's output format."


class ChatTemplateHfParser(Rule):
    """`--chat-template` with the `hf` tool-call or reasoning parser.

    ## What it does
    Reports `--chat-template` on a launch whose `--tool-call-parser` or
    `--reasoning-parser` is `hf`.

    ## Why
    The `hf` parsers read the model's output in the format of the
    checkpoint's own chat template. A custom template that changes how tool
    calls or reasoning are written leaves them unparsed. vLLM goes on and
    logs "--chat-template is set; the hf parser still expects the
    checkpoint's output format."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --chat-template ./tool_chat.jinja --enable-auto-tool-choice --tool-call-parser hf
    ```

    ## Fix
    Keep the checkpoint's template with the `hf` parsers, or pick the parser
    that matches the output format of your template.

    ## Evidence
    The three flags as written; a value only known at run time is not judged.

    ## vLLM source
    `validate_parsed_serve_args`.
    """

    code = "SL714"
    name = "chat-template-hf-parser"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.32.0", "0.33.0")
    anchor = "--chat-template"
    partners = ("--tool-call-parser", "--reasoning-parser")
    requires = ("--chat-template",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        template = value_of(inv, "chat_template")
        if template.how != "flag" or template.value is None:
            return
        parsers = [value_of(inv, d) for d in ("tool_call_parser", "reasoning_parser") if d in inv.knowledge.by_dest]
        hf = [p for p in parsers if p.how == "flag" and p.value == "hf"]
        if not hf:
            return
        yield finding(ctx, template.flags[-1], None, _CHECK.key, message=_MESSAGE,
                      related_to=related(ctx, hf[0].flags, "hf parser chosen by {flag}"))
