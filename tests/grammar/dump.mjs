// Prints the tokens and scopes of a file, for writing grammar test fixtures:
//   node tests/grammar/dump.mjs FILE [source.shell|source.yaml|source.dockerfile] [tm-grammars|vscode]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { baseSets, injection, repo } from "./grammars.mjs";

const require = createRequire(path.join(repo, "client/package.json"));
const tm = require("vscode-textmate");
const onig = require("vscode-oniguruma");

const [file, scope = "source.shell", set = "tm-grammars"] = process.argv.slice(2);
const grammars = [...baseSets[set], injection];
await onig.loadWASM(readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer);
const registry = new tm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (p) => new onig.OnigScanner(p),
    createOnigString: (s) => new onig.OnigString(s),
  }),
  loadGrammar: async (name) => {
    const g = grammars.find((x) => x.scopeName === name);
    return g ? tm.parseRawGrammar(readFileSync(g.path, "utf8"), g.path) : null;
  },
  getInjections: (name) =>
    grammars.filter((g) => g.injectTo?.some((t) => name === t || name.startsWith(t + "."))).map((g) => g.scopeName),
});
const grammar = await registry.loadGrammar(scope);
let stack = tm.INITIAL;
for (const line of readFileSync(file, "utf8").split("\n")) {
  const r = grammar.tokenizeLine(line, stack);
  stack = r.ruleStack;
  console.log(line);
  for (const t of r.tokens) {
    const text = line.slice(t.startIndex, t.endIndex);
    if (text.trim()) console.log(`  ${JSON.stringify(text).padEnd(28)} ${t.scopes.slice(1).join(" ")}`);
  }
}
