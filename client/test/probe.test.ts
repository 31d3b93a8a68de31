import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { atLeast, parseProbe, probe } from "../src/probe";

test("parseProbe classifies the probe's answers", () => {
  assert.deepEqual(parseProbe('{"python": "3.11.7", "servelint": "0.1.0"}\n'), { kind: "ok", python: "3.11.7", servelint: "0.1.0" });
  assert.equal(parseProbe('{"python": "3.9.1", "servelint": "0.1.0"}').kind, "old-python");
  assert.equal(parseProbe('{"python": "3.12.0", "error": "ModuleNotFoundError: x", "missing": "servelint"}').kind, "no-servelint");
  assert.deepEqual(parseProbe('{"python": "3.12.0", "servelint": "0.1.0", "error": "ModuleNotFoundError: pygls"}'), {
    kind: "broken-servelint",
    python: "3.12.0",
    detail: "ModuleNotFoundError: pygls",
  });
  assert.equal(parseProbe("Traceback ...").kind, "no-python");
});

test("atLeast compares major.minor", () => {
  assert.ok(atLeast("3.10.0", [3, 10]));
  assert.ok(atLeast("4.0.0", [3, 10]));
  assert.ok(!atLeast("3.9.18", [3, 10]));
  assert.ok(!atLeast("?", [3, 10]));
});

test("probe reports a missing interpreter", async () => {
  assert.equal((await probe("/nonexistent/python3")).kind, "no-python");
});

function havePython(): boolean {
  try {
    execFileSync("python3", ["-c", "import sys; assert sys.version_info >= (3, 10)"]);
    return true;
  } catch {
    return false;
  }
}

test("probe runs a real interpreter", { skip: !havePython() && "no python3 >= 3.10 on PATH" }, async () => {
  // A stand-in servelint package, found through PYTHONPATH (the probe inherits the environment).
  const dir = mkdtempSync(path.join(tmpdir(), "servelint-probe-"));
  mkdirSync(path.join(dir, "servelint", "lsp"), { recursive: true });
  writeFileSync(path.join(dir, "servelint", "__init__.py"), '__version__ = "9.9.9"\n');
  writeFileSync(path.join(dir, "servelint", "lsp", "__init__.py"), "");
  writeFileSync(path.join(dir, "servelint", "lsp", "server.py"), "import no_such_module_here\n");
  process.env.PYTHONPATH = dir;
  try {
    const found = await probe("python3");
    assert.equal(found.kind, "broken-servelint");
    writeFileSync(path.join(dir, "servelint", "lsp", "server.py"), "");
    assert.deepEqual((await probe("python3")).kind, "ok");
  } finally {
    delete process.env.PYTHONPATH;
  }
});
