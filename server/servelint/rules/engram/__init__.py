"""``EngramConfig`` (``vllm/config/engram.py``): `--engram-config`, the
storage of n-gram embedding tables, refused for models without them or in
combinations ``EngramConfig`` rejects."""
