#!/bin/sh
# servelint: vllm=0.27.1
# Up to 0.27.1 prefix caching is off by default for hybrid models.
vllm serve ../../../conformance/models/jamba --kv-events-config '{"enable_kv_cache_events": true}'
