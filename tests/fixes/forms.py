"""One launch written in every form and layout servelint reads.

A launch is a model and its flags as argv groups (``["--port", "8000"]``);
``render`` writes it as a shell line, a ``\\``-continued command, Kubernetes
args (pairs, ``--flag=value`` items, flow lists), compose commands (lists,
plain and folded strings), a ``--config`` YAML beside a shell launch, and
Dockerfile exec and shell forms.  The fix tests lint each rendering, so a
fix is exercised in the layout it has to preserve.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field

IMAGE = "vllm/vllm-openai"
_SHELL_SAFE = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$")
_YAML_PLAIN = re.compile(r"^[A-Za-z0-9_/.-][A-Za-z0-9_@%+=:,./-]*$")
_YAML_WORDS = {"true", "false", "yes", "no", "null", "on", "off", "~", "y", "n"}


@dataclass
class Spec:
    version: str
    model: str
    groups: list[list[str]]  # ["--flag", value...] per flag, in order
    env: dict[str, str] = field(default_factory=dict)

    @property
    def argv(self) -> list[str]:
        return [self.model] + [t for g in self.groups for t in g]


@dataclass
class Rendered:
    name: str  # file name: the form is known from it
    text: str
    files: dict[str, str] = field(default_factory=dict)  # other files beside it (--config YAML)


def sh(token: str) -> str:
    return token if _SHELL_SAFE.match(token) else shlex.quote(token)


def yq(token: str) -> str:
    """A YAML scalar holding ``token`` as a string."""
    if _YAML_PLAIN.match(token) and token.lower() not in _YAML_WORDS and not _numeric(token):
        return token
    if "'" not in token:
        return "'" + token + "'"
    return json.dumps(token)


def _numeric(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return bool(re.match(r"^0[xo]", token))
    return True


def _split_equals(group: list[str]) -> list[str]:
    if len(group) == 1 and group[0].startswith("--") and "=" in group[0]:
        return group[0].split("=", 1)
    return group


def _joined(group: list[str]) -> list[str]:
    """``--flag=value`` for a flag with one value, else the group as it is."""
    group = _split_equals(group)
    if len(group) == 2 and group[0].startswith("--"):
        return [f"{group[0]}={group[1]}"]
    return group


def _directive(spec: Spec) -> str:
    return f"# servelint: vllm={spec.version}\n"


def _env_lines(spec: Spec) -> str:
    return "".join(f"export {k}={sh(v)}\n" for k, v in spec.env.items())


def shell_single(spec: Spec) -> Rendered:
    line = " ".join(["vllm", "serve"] + [sh(t) for t in spec.argv])
    return Rendered("single.sh", "#!/bin/sh\n" + _directive(spec) + _env_lines(spec) + line + "\n")


def _continued(first: str, lines: list[str], indent: str = "  ", eol: str = "\n") -> str:
    out = first
    for ln in lines:
        out += " \\" + eol + indent + ln
    return out + eol


def shell_unicode(spec: Spec) -> Rendered:
    """One line that starts with non-ASCII text: LSP columns count UTF-16 units."""
    line = " ".join(["vllm", "serve", sh(spec.model), "--served-model-name", "'модель-🚀'"]
                    + [sh(t) for g in spec.groups for t in g])
    return Rendered("unicode.sh", "#!/bin/sh\n" + _directive(spec) + _env_lines(spec) + line + "  # 🚀\n")


def shell_multiline(spec: Spec) -> Rendered:
    lines = [" ".join(sh(t) for t in g) for g in spec.groups]
    text = _continued("vllm serve " + sh(spec.model), lines)
    return Rendered("multiline.sh", "#!/bin/sh\n" + _directive(spec) + _env_lines(spec) + text)


def shell_first_on_serve_line(spec: Spec) -> Rendered:
    """The first flag shares the ``vllm serve`` line; the rest are continued."""
    if not spec.groups:
        return shell_single(spec)
    first = " ".join(["vllm serve", sh(spec.model)] + [sh(t) for t in spec.groups[0]])
    lines = [" ".join(sh(t) for t in g) for g in spec.groups[1:]]
    return Rendered("firstline.sh", "#!/bin/sh\n" + _directive(spec) + _env_lines(spec) + _continued(first, lines))


def shell_values_on_own_lines(spec: Spec) -> Rendered:
    lines = [sh(t) for g in spec.groups for t in g]
    text = _continued("vllm serve " + sh(spec.model), lines, indent="    ")
    return Rendered("split.sh", "#!/bin/sh\n" + _directive(spec) + _env_lines(spec) + text)


def _dq(token: str) -> str:
    if _SHELL_SAFE.match(token):
        return token
    return '"' + re.sub(r'(["\\$`])', r"\\\1", token) + '"'


def shell_double_quoted(spec: Spec) -> Rendered:
    """Values quoted with ``"`` (JSON with ``\\"`` escapes)."""
    lines = [" ".join(_dq(t) for t in g) for g in spec.groups]
    text = _continued("vllm serve " + _dq(spec.model), lines)
    return Rendered("dquoted.sh", "#!/bin/bash\n" + _directive(spec) + _env_lines(spec) + text)


def shell_crlf(spec: Spec) -> Rendered:
    lines = [" ".join(sh(t) for t in g) for g in spec.groups]
    text = _continued("vllm serve " + sh(spec.model), lines, eol="\r\n")
    head = "#!/bin/sh\r\n" + _directive(spec).replace("\n", "\r\n") + _env_lines(spec).replace("\n", "\r\n")
    return Rendered("crlf.sh", head + text)


def shell_followed(spec: Spec) -> Rendered:
    """A launch with a trailing comment, a redirect and a command after it."""
    lines = [" ".join(sh(t) for t in g) for g in spec.groups]
    body = _continued("vllm serve " + sh(spec.model), lines).rstrip("\n")
    text = body + " > serve.log 2>&1 &\necho started  # done\nwait\n"
    return Rendered("followed.sh", "#!/bin/bash\n" + _directive(spec) + _env_lines(spec) + text)


def _k8s(spec: Spec, args_block: str, command: str | None) -> str:
    env = ""
    if spec.env:
        env = "        env:\n" + "".join(
            f"        - name: {k}\n          value: {yq(v)}\n" for k, v in spec.env.items()
        )
    cmd = f"        command: {command}\n" if command else ""
    return (
        _directive(spec)
        + "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n    spec:\n"
        + "      containers:\n      - name: server\n"
        + f"        image: {IMAGE}\n"
        + cmd
        + args_block
        + env
        + "        ports:\n        - containerPort: 8000\n"
    )


def k8s_pairs(spec: Spec) -> Rendered:
    items = [spec.model] + [t for g in spec.groups for t in _split_equals(g)]
    block = "        args:\n" + "".join(f"        - {yq(t)}\n" for t in items)
    return Rendered("k8s-pairs.yaml", _k8s(spec, block, '["vllm", "serve"]'))


def k8s_equals(spec: Spec) -> Rendered:
    items = [spec.model] + [t for g in spec.groups for t in _joined(g)]
    block = "        args:\n" + "".join(f"          - {yq(t)}\n" for t in items)
    return Rendered("k8s-equals.yaml", _k8s(spec, block, None))


def k8s_flow(spec: Spec) -> Rendered:
    items = ["vllm", "serve"] + spec.argv
    block = "        command: [" + ", ".join(json.dumps(t) for t in items) + "]\n"
    return Rendered("k8s-flow.yaml", _k8s(spec, block, None))


def k8s_flow_multiline(spec: Spec) -> Rendered:
    rows = [json.dumps(spec.model)] + [", ".join(json.dumps(t) for t in g) for g in spec.groups]
    block = "        args: [" + ",\n               ".join(rows) + "]\n"
    return Rendered("k8s-flow-lines.yaml", _k8s(spec, block, None))


def k8s_sh_c(spec: Spec) -> Rendered:
    lines = [" ".join(sh(t) for t in g) for g in spec.groups]
    script = _continued("vllm serve " + sh(spec.model), lines, indent="  ")
    body = "".join("            " + ln + "\n" for ln in script.rstrip("\n").split("\n"))
    block = "        args:\n          - |\n" + body
    return Rendered("k8s-sh-c.yaml", _k8s(spec, block, '["/bin/sh", "-c"]'))


def _compose(spec: Spec, command: str) -> str:
    env = ""
    if spec.env:
        env = "    environment:\n" + "".join(f"      {k}: {yq(v)}\n" for k, v in spec.env.items())
    return (
        _directive(spec)
        + f"services:\n  vllm:\n    image: {IMAGE}\n"
        + command
        + env
        + '    ports:\n      - "8000:8000"\n'
    )


def compose_list(spec: Spec) -> Rendered:
    items = [spec.model] + [t for g in spec.groups for t in _split_equals(g)]
    block = "    command:\n" + "".join(f"      - {yq(t)}\n" for t in items)
    return Rendered("compose-list.yaml", _compose(spec, block))


def compose_string(spec: Spec) -> Rendered:
    line = " ".join(sh(t) for t in spec.argv)
    if not _YAML_PLAIN.match(line.split(" ", 1)[0]) or ": " in line or " #" in line:
        line = json.dumps(line)
    return Rendered("compose-string.yaml", _compose(spec, f"    command: {line}\n"))


def compose_folded(spec: Spec) -> Rendered:
    rows = [sh(spec.model)] + [" ".join(sh(t) for t in g) for g in spec.groups]
    block = "    command: >\n" + "".join(f"      {r}\n" for r in rows)
    return Rendered("compose-folded.yaml", _compose(spec, block))


def _config_value(group: list[str], flow: bool = False) -> str:
    values = group[1:]
    if not values:
        return "true"
    if len(values) > 1:
        return "\n" + "".join(f"  - {yq(v)}\n" for v in values).rstrip("\n")
    v = values[0]
    try:
        obj = json.loads(v)
    except ValueError:
        return yq(v)
    if isinstance(obj, dict):
        if flow:
            return json.dumps(obj)
        return "\n" + "".join(f"  {k}: {json.dumps(x)}\n" for k, x in obj.items()).rstrip("\n")
    return yq(v)


def _config_text(spec: Spec, with_model: bool, flow: bool = False) -> str:
    lines = [f"model: {yq(spec.model)}"] if with_model else []
    for g in spec.groups:
        g = _split_equals(g)
        lines.append(f"{g[0][2:]}: {_config_value(g, flow)}".replace(": \n", ":\n"))
    return _directive(spec) + "\n".join(lines) + "\n"


def config_yaml(spec: Spec) -> Rendered:
    """``vllm serve MODEL --config serve.yaml`` and the file holding the flags."""
    launch = "#!/bin/sh\n" + _directive(spec) + _env_lines(spec) + f"vllm serve {sh(spec.model)} --config serve.yaml\n"
    return Rendered("with-config.sh", launch, {"serve.yaml": _config_text(spec, False)})


def config_yaml_alone(spec: Spec) -> Rendered:
    """A --config file naming the model, linted on its own."""
    return Rendered("serve.yaml", _config_text(spec, True))


def config_yaml_flow(spec: Spec) -> Rendered:
    """A --config file with JSON-valued flags written as inline JSON, no trailing newline."""
    return Rendered("flow.yaml", _config_text(spec, True, flow=True).rstrip("\n"))


def dockerfile_exec(spec: Spec) -> Rendered:
    items = ["vllm", "serve"] + spec.argv
    head = ", ".join(json.dumps(t) for t in items[:3])
    rows = [", ".join(json.dumps(t) for t in g) for g in spec.groups]
    body = head + "".join(f", \\\n     {r}" for r in rows)
    env = "".join(f"ENV {k}={sh(v)}\n" for k, v in spec.env.items())
    text = _directive(spec) + "FROM python:3.12\n" + env + f"ENTRYPOINT [{body}]\n"
    return Rendered("Dockerfile.exec", text)


def dockerfile_shell(spec: Spec) -> Rendered:
    lines = [" ".join(sh(t) for t in g) for g in spec.groups]
    env = "".join(f"ENV {k}={sh(v)}\n" for k, v in spec.env.items())
    text = _directive(spec) + "FROM python:3.12\n" + env + "CMD " + _continued("vllm serve " + sh(spec.model), lines)
    return Rendered("Dockerfile.shell", text)


RENDERERS = (
    shell_single, shell_unicode, shell_multiline, shell_first_on_serve_line, shell_values_on_own_lines, shell_double_quoted,
    shell_crlf, shell_followed, k8s_pairs, k8s_equals, k8s_flow, k8s_flow_multiline, k8s_sh_c, compose_list,
    compose_string, compose_folded, config_yaml, config_yaml_alone, config_yaml_flow, dockerfile_exec, dockerfile_shell,
)


def render_all(spec: Spec) -> list[Rendered]:
    return [r(spec) for r in RENDERERS]


def spec_of(launch, version: str) -> Spec | None:
    """The spec of a shell ``vllm serve`` launch whose words are all known,
    to write it again in the other forms."""
    from servelint.model import Entry

    if launch.entry is not Entry.SERVE or launch.opaque or not launch.args:
        return None
    if not all(w.exact for w in launch.args):
        return None
    tokens = [w.text for w in launch.args]
    if tokens[0].startswith("-"):
        return None
    groups: list[list[str]] = []
    for t in tokens[1:]:
        if t.startswith("-") and not re.match(r"^-\d", t) or not groups:
            groups.append([t])
        else:
            groups[-1].append(t)
    env = {name: var.value for name, var in launch.env.items()
           if var.value is not None and var.span is not None and name.isupper()}
    return Spec(version, tokens[0], groups, env)
