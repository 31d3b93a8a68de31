# SYNTAX TEST "source.dockerfile" "vLLM launches in Dockerfiles"
FROM vllm/vllm-openai:v0.8.0
#    ^^^^^^^^^^^^^^^^^^^^^^^ - keyword.other.vllm.entry
RUN pip install --upgrade --no-cache-dir foo
#               ^^^^^^^^^ - variable.parameter.vllm.flag
CMD ["vllm", "serve", "m", "--max-model-len=4096", "--speculative-config", "{\"method\": \"ngram\"}"]
#     ^^^^ keyword.other.vllm.entry
#             ^^^^^ keyword.other.vllm.entry
#                           ^^^^^^^^^^^^^^^ variable.parameter.vllm.flag
#                                          ^ keyword.operator.assignment.vllm
#                                                   ^^^^^^^^^^^^^^^^^^^^ variable.parameter.vllm.flag
#                                                                            ^^^^^^^^^^ support.type.property-name.json
ENTRYPOINT python3 -m vllm.entrypoints.openai.api_server \
#          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.other.vllm.entry
    --port 8000 --served-model-name my-model
#   ^^^^^^ variable.parameter.vllm.flag
#               ^^^^^^^^^^^^^^^^^^^ variable.parameter.vllm.flag
HEALTHCHECK CMD curl --fail http://localhost:8000/health
#                    ^^^^^^ - variable.parameter.vllm.flag
