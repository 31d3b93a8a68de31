#!/bin/bash
# The model name comes last here, after the served name.
vllm serve --served-model-name coder ibm-granite/granite-3.1-8b-instruct --port 8000
