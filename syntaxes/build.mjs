// Writes servelint.injection.tmLanguage.json from grammar.mjs.
// `--check` fails instead when the committed JSON is stale (used by test:grammar).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import grammar from "./grammar.mjs";

const out = fileURLToPath(new URL("./servelint.injection.tmLanguage.json", import.meta.url));
const text = JSON.stringify(grammar, null, 2) + "\n";
if (process.argv.includes("--check")) {
  if (readFileSync(out, "utf8") !== text) {
    console.error(`${out} is stale: run \`node syntaxes/build.mjs\``);
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
}
