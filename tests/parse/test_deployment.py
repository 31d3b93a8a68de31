"""What each form's parser reads of a launch's deployment (parse/deployment.py):
the facts, and that each one's span is the text it was read from."""

from __future__ import annotations

from servelint.parse import parse_document


def launches(path: str, text: str):
    return parse_document(path, text).launches


def at(text: str, fact) -> str:
    return text[fact.span.start:fact.span.end]


K8S = """apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm, namespace: llm}
spec:
  template:
    metadata:
      labels: {app: vllm}
    spec:
      hostIPC: false
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - {key: nvidia.com/gpu.product, operator: In, values: [NVIDIA-H100-80GB-HBM3, NVIDIA-H200]}
      volumes:
        - name: dshm
          emptyDir: {medium: Memory, sizeLimit: 16Gi}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          args: ["Qwen/Qwen3-32B", "-tp", "4"]
          ports: [{containerPort: 8000, name: http}]
          readinessProbe: {httpGet: {path: /health, port: http}}
          startupProbe: {tcpSocket: {port: 8000}}
          resources:
            requests: {nvidia.com/gpu: 2}
            limits: {nvidia.com/gpu: "4"}
          volumeMounts: [{name: dshm, mountPath: /dev/shm}]
        - name: metrics
          image: prom/exporter
          ports: [{containerPort: 9100}]
---
apiVersion: v1
kind: Service
metadata: {name: vllm, namespace: llm}
spec:
  selector: {app: vllm}
  ports: [{port: 80, targetPort: http}]
"""


def test_kubernetes_container_and_pod():
    (launch,) = launches("k8s.yaml", K8S)
    dep = launch.deployment
    assert dep.runtime == "container" and dep.said == "container `vllm`"
    kinds = [(at(K8S, g.kind), g.kind.said, g.vendor) for g in dep.gpus]
    assert kinds == [("NVIDIA-H100-80GB-HBM3", "the `nvidia.com/gpu.product` node affinity", "nvidia"),
                     ("NVIDIA-H200", "the `nvidia.com/gpu.product` node affinity", "nvidia")]
    # limits win over requests, quoted or not
    assert {g.count.value for g in dep.gpus} == {4} and at(K8S, dep.gpus[0].count) == '"4"'
    assert dep.shm.value == 16 << 30 and at(K8S, dep.shm) == "16Gi"
    ports = [(p.role, p.number, p.name, at(K8S, p)) for p in dep.ports]
    assert ports == [("listen", 8000, "http", "8000"), ("probe", None, "http", "http"),
                     ("probe", 8000, None, "8000"), ("sidecar", 9100, None, "9100")]
    (svc,) = launch.linked.ports
    assert (svc.role, svc.name, at(K8S, svc)) == ("service", "http", "http")


def test_kubernetes_pod_variants():
    text = K8S.replace("hostIPC: false", "hostIPC: true").replace("nvidia.com/gpu: \"4\"", "nvidia.com/mig-3g.40gb: 1")
    (launch,) = launches("k8s.yaml", text)
    assert launch.deployment.shm.value == "host"
    g = launch.deployment.gpus[0]
    assert g.count.value == 1 and g.memory_gib.value == 40.0
    # A term that does not pin the GPU lets the pod land anywhere: no kind.
    loose = K8S.replace("              - matchExpressions:",
                        "              - matchExpressions: [{key: zone, operator: In, values: [a]}]\n"
                        "              - matchExpressions:")
    (launch,) = launches("k8s.yaml", loose)
    assert [g.kind for g in launch.deployment.gpus] == [None]
    # Another namespace's Service is not the pod's.
    (launch,) = launches("k8s.yaml", K8S.replace("metadata: {name: vllm, namespace: llm}\nspec:\n  selector",
                                                 "metadata: {name: vllm}\nspec:\n  selector"))
    assert launch.linked is None


def test_kubernetes_node_selector_and_memory_label():
    text = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelector:
    karpenter.k8s.aws/instance-gpu-name: a100
    nvidia.com/gpu.memory: "81920"
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      args: [Qwen/Qwen3-8B]
      resources: {limits: {nvidia.com/gpu: 1}}
"""
    (launch,) = launches("pod.yaml", text)
    (g,) = launch.deployment.gpus
    assert (g.kind.value, g.vocabulary, g.memory_gib.value) == ("a100", "karpenter", 80.0)
    assert at(text, g.memory_gib) == '"81920"'


COMPOSE = """services:
  llm:
    image: vllm/vllm-openai:v0.33.0
    command: ["Qwen/Qwen3-8B", "-tp", "2"]
    shm_size: 2gb
    ports: ["127.0.0.1:8080:8000/tcp", {target: 8001, published: 9000}]
    expose: ["8002"]
    healthcheck:
      test: ["CMD", "curl", "-f", "http://localhost:8000/health"]
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              device_ids: ["0", "3"]
              capabilities: [gpu]
"""


def test_compose_service():
    (launch,) = launches("compose.yaml", COMPOSE)
    dep = launch.deployment
    assert dep.said == "service `llm`" and dep.runtime == "container"
    assert dep.gpus[0].count.value == 2 and at(COMPOSE, dep.gpus[0].count) == '["0", "3"]'
    assert dep.shm.value == 2 << 30
    assert [(p.role, p.number) for p in dep.ports] == [("publish", 8000), ("publish", 8001), ("listen", 8002),
                                                       ("probe", 8000)]
    ipc = launches("compose.yaml", COMPOSE.replace("shm_size: 2gb", "ipc: host"))[0].deployment
    assert ipc.shm.value == "host"
    runtime = COMPOSE.replace("    deploy:", "    runtime: nvidia\n    environment:\n      NVIDIA_VISIBLE_DEVICES: 0,1,2\n    x-deploy:")
    (g,) = launches("compose.yaml", runtime)[0].deployment.gpus
    assert g.count.value == 3 and g.count.said == "`NVIDIA_VISIBLE_DEVICES`"
    host = COMPOSE.replace("    shm_size: 2gb", "    network_mode: host")
    assert launches("compose.yaml", host)[0].deployment.ports == ()


def test_docker_run_options():
    text = ("docker run --rm --gpus '\"device=0,1\"' --shm-size=8g -p 8080:8000 --publish 9000:9000 "
            "vllm/vllm-openai:v0.33.0 Qwen/Qwen3-8B -tp 2\n")
    (launch,) = launches("run.sh", text)
    dep = launch.deployment
    assert dep.said == "`docker run`" and at(text, dep) == "run"
    assert dep.gpus[0].count.value == 2 and dep.gpus[0].vendor == "nvidia"
    assert dep.shm.value == 8 << 30 and at(text, dep.shm) == "8g"
    assert [(p.number, at(text, p)) for p in dep.ports] == [(8000, "8080:8000"), (9000, "9000:9000")]
    for gpus, count in (("all", None), ("3", 3), ("count=2", 2), ('"$N"', None)):
        dep = launches("run.sh", f"docker run --gpus {gpus} vllm/vllm-openai:v0.33.0 m\n")[0].deployment
        assert dep.gpus[0].count.value == count, gpus
    ipc = launches("run.sh", "podman run --ipc host --shm-size 1m vllm/vllm-openai:v0.33.0 m\n")[0].deployment
    assert ipc.shm.value == "host" and ipc.said == "`podman run`"
    assert launches("run.sh", "docker run --network host -p 1:2 vllm/vllm-openai:v0.33.0 m\n")[0].deployment.ports == ()


def test_slurm_batch_lines_and_srun():
    text = """#!/bin/bash
#SBATCH --job-name=x
#SBATCH -N 1
#SBATCH --gres=gpu:a100:8   # the whole node
module load cuda
#SBATCH --gres=gpu:1
srun --gres=gpu:h100:2 vllm serve m -tp 2
vllm serve m
"""
    srun, plain = launches("job.sbatch", text)
    header = plain.linked
    (g,) = header.gpus
    assert (g.count.value, g.kind.value, at(text, g.count)) == (8, "a100", "--gres=gpu:a100:8")
    assert header.nodes.value == 1 and header.runtime == "host"
    assert plain.deployment is None  # the job's facts only: after `module load`, #SBATCH is a comment
    (own,) = srun.deployment.gpus
    assert (own.count.value, own.kind.value) == (2, "h100")
    # --gpus counts the job's: one node's only when it runs on one.
    spread = "#!/bin/bash\n#SBATCH --gpus=8\n#SBATCH --nodes=2\nvllm serve m\n"
    assert launches("job.sbatch", spread)[0].linked.gpus[0].count.value is None


def test_skypilot_resources():
    text = """resources:
  ports: [8080]
  any_of:
    - accelerators: {A100-80GB: 2}
    - accelerators: [H100:4, L40S:4]
num_nodes: 1
run: |
  vllm serve m -tp 2
"""
    (launch,) = launches("sky.yaml", text)
    dep = launch.deployment
    assert [(g.kind.value, g.count.value, g.vocabulary) for g in dep.gpus] == [
        ("A100-80GB", 2, "skypilot"), ("H100", 4, "skypilot"), ("L40S", 4, "skypilot")]
    assert dep.nodes.value == 1 and dep.runtime == "host"
    assert [(p.role, p.number) for p in dep.ports] == [("publish", 8080)]
    # An alternative without accelerators: any machine.
    free = text.replace("    - accelerators: [H100:4, L40S:4]", "    - cpus: 8")
    assert launches("sky.yaml", free)[0].deployment.gpus == ()


def test_a_launch_moved_by_an_edit_keeps_its_facts_at_their_place():
    first = parse_document("k8s.yaml", K8S)
    text = "# a comment\n" + K8S
    again = parse_document("k8s.yaml", text, previous=first)
    (launch,) = again.launches
    assert at(text, launch.deployment.shm) == "16Gi"
    assert at(text, launch.linked.ports[0]) == "http"
    script = "#!/bin/bash\n#SBATCH --gres=gpu:2\nexport A=1\ndocker run --gpus 2 --shm-size 1g vllm/vllm-openai:v0.33.0 m\n"
    first = parse_document("job.sh", script)
    edited = script.replace("export A=1", "export A=1\nexport B=2")
    (launch,) = parse_document("job.sh", edited, previous=first).launches
    assert at(edited, launch.deployment.shm) == "1g" and at(edited, launch.deployment.gpus[0].count) == "2"
    assert at(edited, launch.linked.gpus[0].count) == "--gres=gpu:2"
