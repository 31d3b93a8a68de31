"""Deployment: the launch held against the machine its file deploys it on
(GPUs, their kind and memory, /dev/shm, ports), SL8xx."""
