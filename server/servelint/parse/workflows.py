"""YAML files whose launches sit in a shell script: SkyPilot tasks and GitHub
Actions workflows / composite actions.

Both hand a ``run:`` block to bash, so the shell parser does the work; this
module finds the blocks, the environment each one sees, and the offsets of
the block's text in the document.

* SkyPilot: ``envs:`` (a null value must be given at launch time: unknown)
  and ``secrets:`` are exported to ``setup`` and ``run``;
  ``resources.image_id: docker:IMAGE`` is the container the script runs in.
* GitHub Actions: ``env:`` at workflow, job and step level (inner wins);
  ``${{ ... }}`` is substituted textually before bash runs
  (``expand="github"``).  Steps whose shell is not a POSIX shell (``python``,
  ``pwsh``, ``cmd``...) are skipped.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import EnvVar, Form, Launch, ParseProblem, ReleaseHint
from ..text import Span
from . import deployment, hints
from . import yamlnodes as yn

_SKY_KEYS = frozenset(
    {"resources", "envs", "setup", "num_nodes", "file_mounts", "workdir", "service", "secrets"}
)
_POSIX_SHELLS = ("bash", "sh", "zsh", "dash", "ksh")


def is_skypilot(root: Node | None) -> bool:
    if not isinstance(root, MappingNode):
        return False
    run = yn.get(root, "run")
    return isinstance(run, ScalarNode) and bool(_SKY_KEYS.intersection(yn.keys(root)))


def is_github_actions(root: Node | None) -> bool:
    if not isinstance(root, MappingNode):
        return False
    jobs = yn.get(root, "jobs")
    if isinstance(jobs, MappingNode):
        return any(
            isinstance(j, MappingNode)
            and ({"steps", "runs-on", "uses"} & set(yn.keys(j)))
            for _, j in yn.items(jobs)
        )
    runs = yn.get(root, "runs")
    return isinstance(runs, MappingNode) and (
        yn.get(runs, "steps") is not None or yn.get(runs, "using") is not None
    )


# -- SkyPilot -----------------------------------------------------------------------


def parse_skypilot(doc: yn.YamlDoc, text: str, stop_after: int = 0) -> tuple[list[Launch], list[ParseProblem]]:
    src, root = doc.src, doc.root
    env = _mapping_env(src, yn.get(root, "envs"))
    for name, var in _mapping_env(src, yn.get(root, "secrets")).items():
        env[name] = EnvVar(name, None, var.span, False)
    image, image_hints = _sky_image(src, yn.get(yn.get(root, "resources"), "image_id"))
    launches, found = _script(src, yn.get(root, "run"), Form.SKYPILOT, env, "shell")
    resources = deployment.of_skypilot(src, root) if launches else None
    for launch in launches:
        if launch.image is None and image is not None:
            launch.image = image
            launch.release_hints.extend(image_hints)
        if resources is not None:
            # The task's resources, under what its script says (``docker run --gpus``).
            launch.deployment = resources if launch.deployment is None else launch.deployment.over(resources)
    return launches, found


def _sky_image(src: yn.Src, node: Node | None) -> tuple[str | None, list[ReleaseHint]]:
    if not isinstance(node, ScalarNode) or not node.value.startswith("docker:"):
        return None, []
    m = src.scalar(node)
    image = m.text[len("docker:") :]
    found, _ = hints.scan(m.text)
    out = [
        ReleaseHint(h.version, Span(m.offsets[h.span.start], m.offsets[h.span.end]), "image", h.text)
        for h in found
    ]
    return image, out


# -- GitHub Actions -------------------------------------------------------------------


def parse_github_actions(doc: yn.YamlDoc, text: str, stop_after: int = 0) -> tuple[list[Launch], list[ParseProblem]]:
    src, root = doc.src, doc.root
    launches: list[Launch] = []
    found: list[ParseProblem] = []
    if "vllm" not in text.lower():
        return launches, found
    top_env = _mapping_env(src, yn.get(root, "env"), github=True)
    top_shell = _default_shell(root)
    jobs = yn.get(root, "jobs")
    if isinstance(jobs, MappingNode):
        for _, job in yn.items(jobs):
            if not isinstance(job, MappingNode):
                continue
            env = {**top_env, **_mapping_env(src, yn.get(job, "env"), github=True)}
            shell = _default_shell(job) or top_shell
            _steps(src, yn.get(job, "steps"), env, shell, launches, found)
    runs = yn.get(root, "runs")
    if isinstance(runs, MappingNode):  # a composite action
        _steps(src, yn.get(runs, "steps"), top_env, top_shell, launches, found)
    return launches, found


def _default_shell(node: Node | None) -> str | None:
    return yn.scalar_text(yn.get(yn.get(yn.get(node, "defaults"), "run"), "shell"))


def _steps(
    src: yn.Src,
    steps: Node | None,
    env: dict[str, EnvVar],
    shell: str | None,
    launches: list[Launch],
    found: list[ParseProblem],
) -> None:
    if not isinstance(steps, SequenceNode):
        return
    for step in steps.value:
        run = yn.get(step, "run")
        if not isinstance(run, ScalarNode):
            continue
        step_shell = yn.scalar_text(yn.get(step, "shell")) or shell or "bash"
        if step_shell.split()[0].rsplit("/", 1)[-1] not in _POSIX_SHELLS:
            continue
        step_env = {**env, **_mapping_env(src, yn.get(step, "env"), github=True)}
        got, problems_ = _script(src, run, Form.GITHUB_ACTIONS, step_env, "github")
        launches.extend(got)
        found.extend(problems_)


# -- shared ---------------------------------------------------------------------------


def _mapping_env(src: yn.Src, node: Node | None, github: bool = False) -> dict[str, EnvVar]:
    """``NAME: value`` pairs; a null value is set at run time (unknown), and
    under GitHub Actions so is any value holding a ``${{ }}`` expression."""
    env: dict[str, EnvVar] = {}
    if not isinstance(node, MappingNode):
        return env
    for k, v in yn.items(node):
        if not isinstance(k, ScalarNode):
            continue
        if not isinstance(v, ScalarNode) or v.tag == "tag:yaml.org,2002:null":
            env[k.value] = EnvVar(k.value, None, src.span(k), False)
            continue
        exact = not (github and "${{" in v.value)
        env[k.value] = EnvVar(k.value, v.value, src.span(v), exact)
    return env


def _script(
    src: yn.Src, node: Node | None, form: Form, env: dict[str, EnvVar], expand: str
) -> tuple[list[Launch], list[ParseProblem]]:
    if not isinstance(node, ScalarNode) or "vllm" not in node.value:
        return [], []
    from .shell import parse_shell  # tree-sitter-bash, only for a step that mentions vllm

    m = src.scalar(node)
    result = parse_shell(m.text, offsets=m.offsets, form=form, env=env, expand=expand)
    return list(result.launches), list(result.problems)
