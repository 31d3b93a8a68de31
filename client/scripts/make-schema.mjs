// Writes the --config JSON Schema the extension contributes through
// `yamlValidation` (package.json) for *.vllm.yaml and vllm-config.yaml files:
// the newest vLLM release servelint knows, made by `servelint schema` from
// this checkout (it needs only Python: the schema reads servelint's own
// knowledge tables).  Other releases: the `$schema=` modeline (docs/schema.md).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const python = process.env.PYTHON ?? "python3";
const server = fileURLToPath(new URL("../../server", import.meta.url));
const out = new URL("../schemas/", import.meta.url);
const env = { ...process.env, PYTHONPATH: server };
const schema = execFileSync(python, ["-m", "servelint", "schema"], { env, maxBuffer: 64 * 1024 * 1024 });
mkdirSync(out, { recursive: true });
writeFileSync(new URL("vllm-config.schema.json", out), schema);
