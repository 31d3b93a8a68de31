#!/bin/sh
# servelint: vllm=0.28.0
# PIECEWISE is what a pooling model runs: nothing to report. Up to 0.29.0,
# FULL_AND_PIECEWISE becomes NONE when the compilation mode is not VLLM_COMPILE;
# with -O written servelint does not tell: silent. FULL_DECODE_ONLY stays full: reported.
vllm serve ../../../conformance/rules/models/bert-embed -cc.cudagraph_mode=PIECEWISE
vllm serve ../../../conformance/rules/models/bert-embed -O1 -cc.cudagraph_mode=FULL_AND_PIECEWISE
vllm serve ../../../conformance/rules/models/bert-embed -cc.cudagraph_mode=FULL_DECODE_ONLY
