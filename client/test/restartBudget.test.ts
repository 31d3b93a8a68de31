import assert from "node:assert/strict";
import { test } from "node:test";
import { RestartBudget } from "../src/restartBudget";

test("allows max restarts inside the window, then refuses", () => {
  const b = new RestartBudget(3, 1000, () => 0);
  assert.deepEqual([b.crashed(), b.crashed(), b.crashed(), b.crashed()], [true, true, true, false]);
});

test("crashes older than the window are forgotten", () => {
  let now = 0;
  const b = new RestartBudget(2, 1000, () => now);
  b.crashed();
  b.crashed();
  now = 1500;
  assert.equal(b.crashed(), true);
});

test("reset starts over", () => {
  const b = new RestartBudget(1, 1000, () => 0);
  b.crashed();
  assert.equal(b.crashed(), false);
  b.reset();
  assert.equal(b.crashed(), true);
});
