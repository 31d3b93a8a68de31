import assert from "node:assert/strict";
import { test } from "node:test";
import { expandPath, forServer, needsRestart } from "../src/settings";

test("expandPath expands workspace folder, user home and ~", () => {
  assert.equal(expandPath("${workspaceFolder}/records", "/ws", "/home/u"), "/ws/records");
  assert.equal(expandPath("${userHome}/r.json", "/ws", "/home/u"), "/home/u/r.json");
  assert.equal(expandPath("~/r.json", undefined, "/home/u"), "/home/u/r.json");
  assert.equal(expandPath("records/", "/ws", "/home/u"), "records/", "relative paths are the server's to resolve");
  assert.equal(expandPath("${workspaceFolder}/x", undefined, "/h"), "${workspaceFolder}/x");
});

test("forServer expands record paths and drops non-strings", () => {
  const out = forServer({ records: ["${workspaceFolder}/a.json", 3, "b"], target: "rocm" }, "/ws");
  assert.deepEqual(out, { records: ["/ws/a.json", "b"], target: "rocm" });
});

test("only the interpreter setting needs a new server process", () => {
  assert.equal(needsRestart((s) => s === "servelint.interpreter"), true);
  assert.equal(needsRestart((s) => s === "servelint.severity"), false);
});
