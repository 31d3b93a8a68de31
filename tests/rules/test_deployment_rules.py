"""The deployment rules (SL801-SL808) on whole files, as a user lints them.

Each check has a failing file and its clean twin that differs only in the
fact the check is about (enough GPUs, a capable GPU, a model that fits,
host IPC, the right port), cases where the file does not show the fact
(no finding), the conditions under which a check must stay silent, and
its fixes applied to the text.  The golden cases (tests/rules/golden/
<rule>/) show the messages in full.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from servelint.edits import apply
from servelint.engine import Engine
from servelint.settings import Settings

MODELS = Path(__file__).resolve().parents[1] / "deployment" / "models"
LLAMA8 = str(MODELS / "llama-3.1-8b")
LLAMA70 = str(MODELS / "llama-3.1-70b")
QWEN_AWQ = str(MODELS / "qwen2.5-7b-awq")
QWEN3 = str(MODELS / "qwen3-8b")


def lint(tmp_path: Path, name: str, text: str, engine: Engine | None = None):
    path = tmp_path / name
    path.write_text(text)
    engine = engine or Engine(Settings(use_installed_vllm=False))
    return engine.lint(str(path), text)


def codes(result) -> list[str]:
    return sorted(d.code for d in result.diagnostics if d.code.startswith("SL8"))


def of(result, code: str):
    got = [d for d in result.diagnostics if d.code == code]
    assert got, f"no {code} in {[(d.code, d.message) for d in result.diagnostics]}"
    return got[0]


def pod(args: str, limits: str = "nvidia.com/gpu: 2", selector: str = "", shm: bool = True, extra: str = "") -> str:
    volumes = """
      volumes:
        - name: shm
          emptyDir: {medium: Memory}""" if shm else ""
    mounts = """
          volumeMounts:
            - {name: shm, mountPath: /dev/shm}""" if shm else ""
    sel = f"""
      nodeSelector:
        {selector}""" if selector else ""
    return f"""# servelint: vllm=0.33.0
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  selector:
    matchLabels: {{app: vllm}}
  template:
    metadata:
      labels: {{app: vllm}}
    spec:{sel}{volumes}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          args: [{args}]
          resources:
            limits:
              {limits}{mounts}{extra}
"""


# -- failing files and their clean twins ---------------------------------------------

PAIRS = [
    # (code, file name, failing text, clean twin)
    ("SL801", "k8s.yaml", pod('"Qwen/Qwen3-32B", "-tp", "4"'), pod('"Qwen/Qwen3-32B", "-tp", "4"', "nvidia.com/gpu: 4")),
    ("SL801", "run.sh", "# servelint: vllm=0.33.0\ndocker run --gpus 2 --ipc=host vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 4\n",
     "# servelint: vllm=0.33.0\ndocker run --gpus 4 --ipc=host vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 4\n"),
    ("SL801", "job.sbatch", "#!/bin/bash\n#SBATCH --gres=gpu:h100:2\n# servelint: vllm=0.33.0\nvllm serve Qwen/Qwen3-32B -tp 4\n",
     "#!/bin/bash\n#SBATCH --gres=gpu:h100:4\n# servelint: vllm=0.33.0\nvllm serve Qwen/Qwen3-32B -tp 4\n"),
    ("SL801", "sky.yaml", "# servelint: vllm=0.33.0\nresources:\n  accelerators: H100:2\nrun: vllm serve Qwen/Qwen3-32B -tp 4\n",
     "# servelint: vllm=0.33.0\nresources:\n  accelerators: H100:8\nrun: vllm serve Qwen/Qwen3-32B -tp 4\n"),
    ("SL802", "k8s.yaml", pod('"Qwen/Qwen3-8B", "--dtype", "bfloat16"', "nvidia.com/gpu: 1",
                              "cloud.google.com/gke-accelerator: nvidia-tesla-t4"),
     pod('"Qwen/Qwen3-8B", "--dtype", "bfloat16"', "nvidia.com/gpu: 1", "cloud.google.com/gke-accelerator: nvidia-l4")),
    ("SL803", "sky.yaml", f"# servelint: vllm=0.33.0\nresources:\n  accelerators: T4:1\nrun: vllm serve {QWEN3} --max-model-len 2048 --quantization fp8\n",
     f"# servelint: vllm=0.33.0\nresources:\n  accelerators: L4:1\nrun: vllm serve {QWEN3} --max-model-len 2048 --quantization fp8\n"),
    ("SL804", "job.sbatch", f"#!/bin/bash\n#SBATCH --gres=gpu:v100:1\n# servelint: vllm=0.33.0\nvllm serve {QWEN_AWQ} --max-model-len 4096\n",
     f"#!/bin/bash\n#SBATCH --gres=gpu:t4:1\n# servelint: vllm=0.33.0\nvllm serve {QWEN_AWQ} --max-model-len 4096\n"),
    ("SL805", "sky.yaml", f"# servelint: vllm=0.33.0\nresources:\n  accelerators: A100-80GB:1\nrun: vllm serve {LLAMA70} --max-model-len 8192\n",
     f"# servelint: vllm=0.33.0\nresources:\n  accelerators: A100-80GB:2\nrun: vllm serve {LLAMA70} --max-model-len 8192 -tp 2\n"),
    ("SL806", "k8s.yaml", pod(f'"{LLAMA8}"', "nvidia.com/gpu: 1", "cloud.google.com/gke-accelerator: nvidia-l4"),
     pod(f'"{LLAMA8}", "--max-model-len", "32768"', "nvidia.com/gpu: 1", "cloud.google.com/gke-accelerator: nvidia-l4")),
    ("SL807", "run.sh", "# servelint: vllm=0.33.0\ndocker run --gpus all vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 2\n",
     "# servelint: vllm=0.33.0\ndocker run --gpus all --ipc=host vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 2\n"),
    ("SL807", "compose.yaml",
     "# servelint: vllm=0.33.0\nservices:\n  llm:\n    image: vllm/vllm-openai:v0.33.0\n    shm_size: 64m\n    command: Qwen/Qwen3-32B -tp 2\n",
     "# servelint: vllm=0.33.0\nservices:\n  llm:\n    image: vllm/vllm-openai:v0.33.0\n    shm_size: 16gb\n    command: Qwen/Qwen3-32B -tp 2\n"),
    ("SL807", "k8s.yaml", pod('"Qwen/Qwen3-32B", "-tp", "2"', shm=False), pod('"Qwen/Qwen3-32B", "-tp", "2"')),
    ("SL808", "k8s.yaml", pod('"Qwen/Qwen3-8B", "--port", "9000"', extra="""
          readinessProbe:
            httpGet: {path: /health, port: 8000}"""),
     pod('"Qwen/Qwen3-8B", "--port", "8000"', extra="""
          readinessProbe:
            httpGet: {path: /health, port: 8000}""")),
    ("SL808", "compose.yaml",
     "# servelint: vllm=0.33.0\nservices:\n  llm:\n    image: vllm/vllm-openai:v0.33.0\n    ports: ['8080:8080']\n    command: Qwen/Qwen3-8B\n",
     "# servelint: vllm=0.33.0\nservices:\n  llm:\n    image: vllm/vllm-openai:v0.33.0\n    ports: ['8080:8000']\n    command: Qwen/Qwen3-8B\n"),
]


@pytest.mark.parametrize("code,name,bad,good", PAIRS, ids=[f"{p[0]}-{p[1]}-{i}" for i, p in enumerate(PAIRS)])
def test_the_failing_file_is_reported_and_its_clean_twin_is_not(tmp_path, code, name, bad, good):
    assert code in codes(lint(tmp_path, name, bad))
    assert code not in codes(lint(tmp_path, name, good))


# -- the fact is not in the file: no finding -----------------------------------------

MISSING = [
    # No GPU limit: the container may see every GPU of the node.
    ("k8s.yaml", pod('"Qwen/Qwen3-32B", "-tp", "8"', "cpu: 4")),
    # `--gpus all`, a count from a variable, compose's `count: all`.
    ("run.sh", "# servelint: vllm=0.33.0\ndocker run --gpus all --ipc=host vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 8\n"),
    ("run.sh", "# servelint: vllm=0.33.0\ndocker run --gpus \"$N\" --ipc=host vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 8\n"),
    ("compose.yaml", "# servelint: vllm=0.33.0\nservices:\n  llm:\n    image: vllm/vllm-openai:v0.33.0\n    ipc: host\n"
                     "    command: Qwen/Qwen3-32B -tp 8\n    deploy:\n      resources:\n        reservations:\n"
                     "          devices:\n            - {driver: nvidia, count: all, capabilities: [gpu]}\n"),
    # No GPU type: no dtype, quantization or memory check.
    ("job.sbatch", f"#!/bin/bash\n#SBATCH --gres=gpu:1\n# servelint: vllm=0.33.0\nvllm serve {QWEN_AWQ} --dtype bfloat16\n"),
    # A GPU name servelint does not know.
    ("sky.yaml", f"# servelint: vllm=0.33.0\nresources:\n  accelerators: TPU-v5e:1\nrun: vllm serve {LLAMA70} --dtype bfloat16\n"),
    # No config.json for the model (none on this machine, no bundled copy): no estimate.
    ("sky.yaml", "# servelint: vllm=0.33.0\nresources:\n  accelerators: L4:1\nrun: vllm serve meta-llama/Meta-Llama-3-70B-Instruct\n"),
    # Not in a container: /dev/shm is the host's.
    ("run.sh", "# servelint: vllm=0.33.0\nvllm serve Qwen/Qwen3-32B -tp 4\n"),
    # A port from a variable.
    ("k8s.yaml", pod('"Qwen/Qwen3-8B", "--port", "$(PORT)"', extra="""
          env:
            - name: PORT
              valueFrom: {configMapKeyRef: {name: cfg, key: port}}
          ports:
            - containerPort: 8000""")),
    # A patch of a Deployment defined elsewhere (no image): its pod's volumes are elsewhere.
    ("k8s.yaml", "# servelint: vllm=0.33.0\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n"
                 "  template:\n    spec:\n      containers:\n        - name: vllm\n          command: [vllm, serve]\n"
                 "          args: [Qwen/Qwen3-32B, -tp, '4']\n"),
]


@pytest.mark.parametrize("name,text", MISSING, ids=[f"{m[0]}-{i}" for i, m in enumerate(MISSING)])
def test_no_finding_without_the_fact(tmp_path, name, text):
    assert codes(lint(tmp_path, name, text)) == []


# -- when vLLM would not fail, or not that way -----------------------------------------

def test_world_size_is_silent_across_nodes_and_with_ray(tmp_path):
    base = "#!/bin/bash\n#SBATCH --gres=gpu:h100:4\n# servelint: vllm=0.33.0\nvllm serve Qwen/Qwen3-32B -tp 8 {}\n"
    assert "SL801" in codes(lint(tmp_path, "job.sbatch", base.format("")))
    assert "SL801" not in codes(lint(tmp_path, "job.sbatch", base.format("--nnodes 2")))
    assert "SL801" not in codes(lint(tmp_path, "job.sbatch", base.format("--distributed-executor-backend ray")))


def test_world_size_on_nvidia_with_the_default_backend_is_an_error_else_a_warning(tmp_path):
    text = "# servelint: vllm=0.33.0\ndocker run --gpus 2 --ipc=host vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 4 {}\n"
    assert of(lint(tmp_path, "run.sh", text.format("")), "SL801").severity.label == "error"
    mp = of(lint(tmp_path, "run.sh", text.format("--distributed-executor-backend mp")), "SL801")
    assert mp.severity.label == "warning" and "when it starts the workers" in mp.message
    amd = pod('"Qwen/Qwen3-32B", "-tp", "4"', "amd.com/gpu: 2")
    assert of(lint(tmp_path, "k8s.yaml", amd), "SL801").severity.label == "warning"


def test_cuda_visible_devices_narrows_the_gpus(tmp_path):
    text = pod('"Qwen/Qwen3-32B", "-tp", "4"', "nvidia.com/gpu: 8", extra="""
          env:
            - {name: CUDA_VISIBLE_DEVICES, value: "0,1"}""")
    d = of(lint(tmp_path, "k8s.yaml", text), "SL801")
    assert "`CUDA_VISIBLE_DEVICES` gives it 2" in d.message


def test_a_check_holds_only_when_every_machine_fails_it(tmp_path):
    # SkyPilot may pick the L4 or the T4: only the T4 lacks bfloat16.
    text = ("# servelint: vllm=0.33.0\nresources:\n  any_of:\n    - accelerators: T4:1\n    - accelerators: L4:1\n"
            "run: vllm serve Qwen/Qwen3-8B --dtype bfloat16\n")
    assert "SL802" not in codes(lint(tmp_path, "sky.yaml", text))
    both = text.replace("L4:1", "V100:1")
    assert "SL802" in codes(lint(tmp_path, "sky.yaml", both))
    # Two nodes of different sizes: the fewer GPUs decide.
    fewer = ("# servelint: vllm=0.33.0\nresources:\n  accelerators: [H100:8, A100-80GB:4]\n"
             "run: vllm serve Qwen/Qwen3-32B -tp 8\n")
    assert "gives it 4" in of(lint(tmp_path, "sky.yaml", fewer), "SL801").message


def test_auto_dtype_with_a_bfloat16_checkpoint_is_information_not_error(tmp_path):
    text = f"#!/bin/bash\n#SBATCH --gres=gpu:t4:1\n# servelint: vllm=0.33.0\nvllm serve {QWEN3} --max-model-len 2048 --quantization fp8\n"
    got = lint(tmp_path, "job.sbatch", text)
    assert of(got, "SL803").severity.label == "information"
    assert "SL802" not in codes(got)


def test_fp8_runs_on_turing_but_not_on_volta(tmp_path):
    # get_min_capability of Fp8Config is 75 in 0.33.0, not 80.
    text = "#!/bin/bash\n#SBATCH --gres=gpu:{}:1\n# servelint: vllm=0.33.0\nvllm serve " + QWEN3 + " --quantization fp8 --dtype half --max-model-len 2048\n"
    assert "SL804" not in codes(lint(tmp_path, "job.sbatch", text.format("t4")))
    d = of(lint(tmp_path, "job.sbatch", text.format("v100")), "SL804")
    assert d.message.startswith("quantization fp8 needs compute capability 7.5 (vLLM 0.33.0), "
                                "V100-16GB or V100-32GB has 7.0")


def test_fp8_kv_cache_has_no_capability_rule(tmp_path):
    text = f"#!/bin/bash\n#SBATCH --gres=gpu:v100:1\n# servelint: vllm=0.33.0\nvllm serve {QWEN3} --kv-cache-dtype fp8 --dtype half --max-model-len 2048\n"
    assert codes(lint(tmp_path, "job.sbatch", text)) == []


def test_memory_estimates_say_so_and_show_their_numbers(tmp_path):
    text = f"# servelint: vllm=0.33.0\nresources:\n  accelerators: A100-80GB:1\nrun: vllm serve {LLAMA70} --max-model-len 8192\n"
    d = of(lint(tmp_path, "sky.yaml", text), "SL805")
    assert d.severity.label == "warning"
    assert d.message.startswith("estimated: about 131.4 GiB of weights per GPU (70.6B parameters in bfloat16)")
    assert "0.92 × 80 GiB (A100-80GB) = 73.6 GiB" in d.message


def test_kv_cache_fits_with_an_fp8_cache_or_a_shorter_length(tmp_path):
    base = pod(f'"{LLAMA8}"MORE', "nvidia.com/gpu: 1", "cloud.google.com/gke-accelerator: nvidia-l4")
    assert "SL806" in codes(lint(tmp_path, "k8s.yaml", base.replace("MORE", "")))
    fp8 = ', "--kv-cache-dtype", "fp8", "--max-model-len", "65536"'
    assert "SL806" not in codes(lint(tmp_path, "k8s.yaml", base.replace("MORE", fp8)))
    # 16 GiB for 131072 tokens, 8 GiB for 65536: still more than the 7.1 GiB left.
    assert "SL806" in codes(lint(tmp_path, "k8s.yaml", base.replace("MORE", ', "--max-model-len", "65536"')))


def test_shm_default_is_a_warning_and_a_written_size_an_error(tmp_path):
    default = "# servelint: vllm=0.33.0\ndocker run --gpus all vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 2\n"
    assert of(lint(tmp_path, "run.sh", default), "SL807").severity.label == "warning"
    small = default.replace("--gpus all", "--gpus all --shm-size 100m")
    assert of(lint(tmp_path, "run.sh", small), "SL807").severity.label == "error"
    # Before 0.27.0 vLLM does not check the free space.
    assert "SL807" not in codes(lint(tmp_path, "run.sh", default.replace("0.33.0", "0.26.0")))


def test_port_rule_leaves_a_sidecar_alone(tmp_path):
    # The Service sends traffic to a proxy container on 8080, which forwards to vLLM.
    text = pod('"Qwen/Qwen3-8B"', extra="""
        - name: proxy
          image: envoyproxy/envoy:v1.30
          ports:
            - containerPort: 8080""") + """---
apiVersion: v1
kind: Service
metadata: {name: llm}
spec:
  selector: {app: vllm}
  ports: [{port: 80, targetPort: 8080}]
"""
    assert "SL808" not in codes(lint(tmp_path, "k8s.yaml", text))
    # Without the proxy, nothing listens on 8080.
    alone = pod('"Qwen/Qwen3-8B"') + text.split("---\n", 1)[1].join(["---\n", ""])
    assert "SL808" in codes(lint(tmp_path, "k8s.yaml", alone))


def test_a_service_of_another_namespace_or_selector_is_not_the_pods(tmp_path):
    svc = "---\napiVersion: v1\nkind: Service\nmetadata: {{name: llm{ns}}}\nspec:\n  selector: {{app: {app}}}\n  ports: [{{port: 80, targetPort: 9000}}]\n"
    text = pod('"Qwen/Qwen3-8B"')
    assert "SL808" in codes(lint(tmp_path, "k8s.yaml", text + svc.format(ns="", app="vllm")))
    assert "SL808" not in codes(lint(tmp_path, "k8s.yaml", text + svc.format(ns=", namespace: other", app="vllm")))
    assert "SL808" not in codes(lint(tmp_path, "k8s.yaml", text + svc.format(ns="", app="web")))


def test_rules_are_silent_when_the_entry_point_is_not_known(tmp_path):
    text = "# servelint: vllm=0.33.0\ndocker run --gpus 1 \"$IMAGE\" Qwen/Qwen3-32B -tp 4\n"
    assert codes(lint(tmp_path, "run.sh", text)) == []


# -- fixes ------------------------------------------------------------------------------

def _fixed(result, code: str, text: str) -> str:
    d = of(result, code)
    assert d.fixes, d
    return apply(text, d.fixes[0].edits)


def test_world_size_fix_requests_the_gpus(tmp_path):
    text = pod('"Qwen/Qwen3-32B", "-tp", "4"')
    fixed = _fixed(lint(tmp_path, "k8s.yaml", text), "SL801", text)
    assert "nvidia.com/gpu: 4" in fixed
    assert codes(lint(tmp_path, "k8s.yaml", fixed)) == []


def test_shm_fixes_share_the_host_ipc(tmp_path):
    run = "# servelint: vllm=0.33.0\ndocker run --gpus all vllm/vllm-openai:v0.33.0 Qwen/Qwen3-32B -tp 2\n"
    fixed = _fixed(lint(tmp_path, "run.sh", run), "SL807", run)
    assert "docker run --ipc=host --gpus all" in fixed
    assert codes(lint(tmp_path, "run.sh", fixed)) == []
    compose = ("# servelint: vllm=0.33.0\nservices:\n  llm:\n    image: vllm/vllm-openai:v0.33.0\n"
               "    command: Qwen/Qwen3-32B -tp 2\n")
    fixed = _fixed(lint(tmp_path, "compose.yaml", compose), "SL807", compose)
    assert "  llm:\n    ipc: host\n    image: vllm/vllm-openai:v0.33.0\n" in fixed
    assert codes(lint(tmp_path, "compose.yaml", fixed)) == []


def test_port_fix_listens_where_the_deployment_sends_traffic(tmp_path):
    text = pod('"Qwen/Qwen3-8B", "--port", "9000"', extra="""
          ports:
            - containerPort: 8000
          readinessProbe:
            httpGet: {path: /health, port: 8000}""")
    fixed = _fixed(lint(tmp_path, "k8s.yaml", text), "SL808", text)
    assert '"--port", "8000"' in fixed
    assert codes(lint(tmp_path, "k8s.yaml", fixed)) == []


# -- edits elsewhere in the document -----------------------------------------------------

def test_editing_a_service_in_another_document_rechecks_the_pod(tmp_path):
    engine = Engine(Settings(use_installed_vllm=False))
    svc = "---\napiVersion: v1\nkind: Service\nmetadata: {name: llm}\nspec:\n  selector: {app: vllm}\n  ports: [{port: 80, targetPort: PORT}]\n"
    text = pod('"Qwen/Qwen3-8B"')
    assert "SL808" not in codes(lint(tmp_path, "k8s.yaml", text + svc.replace("PORT", "8000"), engine))
    assert "SL808" in codes(lint(tmp_path, "k8s.yaml", text + svc.replace("PORT", "8001"), engine))
    assert "SL808" not in codes(lint(tmp_path, "k8s.yaml", text + svc.replace("PORT", "8000"), engine))


def test_editing_the_sbatch_header_rechecks_the_launches(tmp_path):
    engine = Engine(Settings(use_installed_vllm=False))
    text = "#!/bin/bash\n#SBATCH --gres=gpu:h100:{}\n# servelint: vllm=0.33.0\nexport X=1\nvllm serve Qwen/Qwen3-32B -tp 4\n"
    assert "SL801" not in codes(lint(tmp_path, "job.sbatch", text.format(4), engine))
    assert "SL801" in codes(lint(tmp_path, "job.sbatch", text.format(2), engine))
    assert "SL801" not in codes(lint(tmp_path, "job.sbatch", text.format(8), engine))


def test_editing_the_gpu_limit_rechecks_the_container(tmp_path):
    engine = Engine(Settings(use_installed_vllm=False))
    assert "SL801" in codes(lint(tmp_path, "k8s.yaml", pod('"Qwen/Qwen3-32B", "-tp", "4"'), engine))
    assert "SL801" not in codes(lint(tmp_path, "k8s.yaml", pod('"Qwen/Qwen3-32B", "-tp", "4"', "nvidia.com/gpu: 4"), engine))
