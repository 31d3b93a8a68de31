# SYNTAX TEST "source.shell" "vLLM launches in shell scripts"
#!/bin/sh
# servelint: vllm=0.28.0
vllm serve state-spaces/mamba-2.7b \
# <---------- keyword.other.vllm.entry
#          ^^^^^^^^^^^^^^^^^^^^^^^ meta.launch.vllm - keyword.other.vllm.entry variable.parameter.vllm.flag
#                                  ^ constant.character.escape.line-continuation.shell
  --use-replayssm \
# ^^^^^^^^^^^^^^^ meta.launch.vllm variable.parameter.vllm.flag
  --port 8000
# ^^^^^^ variable.parameter.vllm.flag
#        ^^^^ meta.launch.vllm - variable.parameter.vllm.flag

# After the launch, flags belong to other commands.
python bench.py --max-model-len 4096
#               ^^^^^^^^^^^^^^^ - variable.parameter.vllm.flag meta.launch.vllm
curl --data '{"model": "m"}' http://localhost:8000/v1/completions
#    ^^^^^^ - variable.parameter.vllm.flag
#            ^^^^^^^ - source.json
pip install --upgrade vllm
#           ^^^^^^^^^ - variable.parameter.vllm.flag
echo "vllm serve m --port 1"
#     ^^^^^^^^^^ - keyword.other.vllm.entry
#                  ^^^^^^ - variable.parameter.vllm.flag

# Environment prefix, path prefix, `=` values, underscores, short flags.
CUDA_VISIBLE_DEVICES=0,1 /opt/venv/bin/vllm serve "$MODEL" --max_model_len=8192 -tp 2 -O3
#                                      ^^^^^^^^^^ keyword.other.vllm.entry
#                                                 ^^^^^^^^ string.quoted.double.shell
#                                                  ^^^^^^ variable.other.normal.shell
#                                                          ^^^^^^^^^^^^^^^ variable.parameter.vllm.flag
#                                                                         ^ keyword.operator.assignment.vllm
#                                                                          ^^^^ - variable.parameter.vllm.flag
#                                                                               ^^^ variable.parameter.vllm.flag
#                                                                                     ^^^ variable.parameter.vllm.flag

# JSON-valued flags, single- and double-quoted.
vllm serve m --speculative-config '{"method": "ngram", "num_speculative_tokens": 3}' \
#            ^^^^^^^^^^^^^^^^^^^^ variable.parameter.vllm.flag
#                                 ^ meta.embedded.inline.json.vllm string.quoted.single.shell
#                                  ^ source.json punctuation.definition.dictionary.begin.json
#                                   ^^^^^^^^ source.json support.type.property-name.json
#                                           ^ punctuation.separator.dictionary.key-value.json
#                                             ^^^^^^^ source.json string.quoted.double.json
#                                                                                ^ constant.numeric.json
#                                                                                  ^ string.quoted.single.shell - source.json
  --compilation-config="{\"level\": $LEVEL, \"cudagraph_mode\": null}" --no-enable-prefix-caching
# ^^^^^^^^^^^^^^^^^^^^ variable.parameter.vllm.flag
#                      ^ meta.embedded.inline.json.vllm
#                        ^^^^^^^^^ support.type.property-name.json
#                                   ^^^^^^ variable.other.normal.shell
#                                                               ^^^^ constant.language.json
#                                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^ variable.parameter.vllm.flag

# Half-typed JSON must not swallow the rest of the file.
vllm serve m --speculative-config '{"method": ' --port 1
#                                               ^^^^^^ variable.parameter.vllm.flag
echo --not-a-flag
#    ^^^^^^^^^^^^ - variable.parameter.vllm.flag

# Separators end the launch; redirections do not.
vllm serve m --port 1 > vllm.log 2>&1 --seed 0 & curl --retry 5 localhost
#                     ^ keyword.operator.redirect.shell
#                                ^^^^ keyword.operator.redirect.shell
#                                     ^^^^^^ variable.parameter.vllm.flag
#                                                     ^^^^^^^ - variable.parameter.vllm.flag
nohup python3 -m vllm.entrypoints.openai.api_server --model m --dtype=half && echo --ok
#     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.other.vllm.entry
#                                                   ^^^^^^^ variable.parameter.vllm.flag
#                                                             ^^^^^^^ variable.parameter.vllm.flag
#                                                                                  ^^^^ - variable.parameter.vllm.flag
vllm serve m --port "$(( 8000 + ID ))" # --not-a-flag in a comment
#                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ comment.line.number-sign.shell - variable.parameter.vllm.flag

# docker run: docker's own flags come before the image, vLLM's after it.
docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.0 \
#          ^^^^^^ - variable.parameter.vllm.flag
#                                  ^^^^^^^^^^^^^^^^^^^^^^^ keyword.other.vllm.entry
  --model m --gpu-memory-utilization 0.9
# ^^^^^^^ variable.parameter.vllm.flag
#           ^^^^^^^^^^^^^^^^^^^^^^^^ variable.parameter.vllm.flag
