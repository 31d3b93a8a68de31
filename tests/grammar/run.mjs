// Runs the grammar fixtures (*.test.*) with vscode-tmgrammar-test against every
// available set of base grammars (see grammars.mjs), after checking that the
// committed JSON grammar matches its source.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { available, baseSets, injection, repo } from "./grammars.mjs";

const here = path.join(repo, "tests/grammar");
const bin = path.join(repo, "client/node_modules/.bin/vscode-tmgrammar-test");
const fixtures = readdirSync(here).filter((f) => f.includes(".test."));

const check = spawnSync(process.execPath, [path.join(repo, "syntaxes/build.mjs"), "--check"], { stdio: "inherit" });
if (check.status !== 0) process.exit(1);

let passed = 0;
let failed = 0;
for (const set of Object.keys(baseSets)) {
  if (!available(set)) {
    console.log(`grammar[${set}]: skipped (base grammars not installed; run tests/e2e/install-tools.sh)`);
    continue;
  }
  // vscode-tmgrammar-test joins grammar paths onto the config's directory.
  const dir = mkdtempSync(path.join(tmpdir(), "servelint-grammar-"));
  const rel = (g) => ({ ...g, path: path.relative(dir, g.path) });
  const config = path.join(dir, "package.json");
  writeFileSync(config, JSON.stringify({ contributes: { grammars: [...baseSets[set], injection].map(rel) } }));
  for (const f of fixtures) {
    // The timeout guards against vscode-tmgrammar-test 0.1.3, which can hang after a fixture parse error.
    const r = spawnSync(bin, ["--compact", "--config", config, path.join(here, f)], { encoding: "utf8", timeout: 60_000 });
    const ok = r.status === 0;
    ok ? passed++ : failed++;
    console.log(`grammar[${set}] ${ok ? "ok  " : "FAIL"} ${f}`);
    if (!ok) process.stdout.write(r.stdout + r.stderr);
  }
  rmSync(dir, { recursive: true, force: true });
}
console.log(`grammar: ${passed} passed, ${failed} failed`);
process.exit(failed || !passed ? 1 : 0);
