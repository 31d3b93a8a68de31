// Drives code-server in headless Chromium and checks what a user would see.
// Started by run.sh, which provides E2E_URL (workbench with the workspace
// open), E2E_FILE (launch.sh on disk) and E2E_ARTIFACTS.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const url = process.env.E2E_URL;
const file = process.env.E2E_FILE;
const artifacts = process.env.E2E_ARTIFACTS;
const timeout = Number(process.env.SERVELINT_E2E_TIMEOUT_MS ?? 60_000);

const FLAG = "--use-replayssm";
const MESSAGE = "--use-replayssm is only supported for Nemotron-H models (got architecture 'Mamba2ForCausalLM')";
const CODE = "SL201";
const HOVER_TEXT = "ReplaySSM (cached mamba kernel path";
const FIX = `Remove ${FLAG}`;

const t0 = Date.now();
const log = (msg) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${msg}`);
let shot = 0;
const screenshot = (page, name) => page.screenshot({ path: path.join(artifacts, `${++shot}-${name}.png`) });

class Failure extends Error {}
let passed = 0;
function check(ok, what) {
  if (!ok) throw new Failure(what);
  passed++;
  log(`ok: ${what}`);
}

// Waits for fn() to return a truthy value; returns it, or throws `what`.
async function until(what, fn, ms = timeout) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Failure(`timed out after ${ms} ms waiting for ${what}${last instanceof Error ? ` (${last.message})` : ""}`);
}

// The screen rectangle of `text` inside the editor line that contains it.
function textRect(page, text) {
  return page.evaluate((text) => {
    for (const line of document.querySelectorAll(".editor-instance .view-line")) {
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let node;
      while ((node = walker.nextNode())) {
        // The editor renders spaces as U+00A0.
        const i = node.data.replace(/\u00a0/g, " ").indexOf(text);
        if (i < 0) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + text.length);
        const r = range.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }
    }
    return null;
  }, text);
}

function squiggles(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".editor-instance .squiggly-error")].map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
}

async function problemRows(page) {
  return page.locator(".markers-panel .monaco-list-row").allInnerTexts();
}

async function main() {
  const profile = mkdtempSync(path.join(tmpdir(), "servelint-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(timeout);
  const consoleLines = [];
  page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  try {
    await run(page);
  } catch (e) {
    await screenshot(page, "failure").catch(() => undefined);
    const notes = await page.locator(".notifications-toasts .notification-toast").allInnerTexts().catch(() => []);
    if (notes.length) console.error(`notifications on screen:\n  ${notes.join("\n  ")}`);
    // What the editor did show, so a wrong message or severity is obvious.
    const counts = await page
      .evaluate(() => ["error", "warning", "info", "hint"].map((k) => `${document.querySelectorAll(`.squiggly-${k}`).length} ${k}`))
      .catch(() => []);
    console.error(`squiggles in the editor: ${counts.join(", ")}`);
    await page.keyboard.press("Escape").catch(() => undefined);
    if (!(await page.locator(".markers-panel").isVisible().catch(() => false))) {
      await page.keyboard.press("Control+Shift+M").catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const rows = await problemRows(page).catch(() => []);
    console.error(`Problems panel:\n  ${rows.map((r) => r.replace(/\n/g, " | ")).join("\n  ") || "(empty)"}`);
    await screenshot(page, "failure-problems").catch(() => undefined);
    throw e;
  } finally {
    writeFileSync(path.join(artifacts, "browser-console.log"), consoleLines.join("\n") + "\n");
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function run(page) {
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor();
  log("workbench loaded");

  await page.locator('.explorer-folders-view .monaco-list-row[aria-label^="launch.sh"]').click();
  await until("launch.sh to open in the editor", async () => (await textRect(page, FLAG)) !== null);
  log("launch.sh open");

  // 1. An error squiggle under --use-replayssm, and nowhere else.
  const flag = await textRect(page, FLAG);
  const marks = await until("an error squiggle", async () => {
    const s = await squiggles(page);
    return s.length ? s : null;
  });
  await screenshot(page, "squiggle");
  check(marks.length === 1, `exactly one error squiggle (found ${marks.length})`);
  const [mark] = marks;
  const sameLine = mark.y >= flag.y - 1 && mark.y <= flag.y + flag.height + 1;
  const sameSpan = Math.abs(mark.x - flag.x) < 3 && Math.abs(mark.x + mark.width - (flag.x + flag.width)) < 3;
  check(sameLine && sameSpan, `the squiggle covers ${FLAG} (squiggle ${JSON.stringify(mark)}, text ${JSON.stringify(flag)})`);

  // 2. The Problems panel row: message and code.
  await page.keyboard.press("Control+Shift+M");
  const rows = await until("a row in the Problems panel", async () => {
    const r = await problemRows(page);
    return r.some((x) => x.includes(FLAG)) ? r : null;
  });
  await screenshot(page, "problems");
  log(`problems: ${JSON.stringify(rows)}`);
  const row = rows.find((r) => r.includes(MESSAGE));
  check(row !== undefined, `a Problems row with the message "${MESSAGE}"`);
  check(row.includes(CODE), `the Problems row shows the code ${CODE}`);
  const errorIcon = await page.locator(".markers-panel .monaco-list-row", { hasText: MESSAGE }).locator(".codicon-error").count();
  check(errorIcon > 0, "the Problems row has error severity");

  // 3. The hover on the flag shows the error record's documentation.
  await page.mouse.move(flag.x + flag.width / 2, flag.y + flag.height / 2);
  const hover = await until("a hover with the record's documentation", async () => {
    const texts = await page.locator(".monaco-hover-content").allInnerTexts();
    return texts.find((t) => t.includes(HOVER_TEXT));
  });
  await screenshot(page, "hover");
  log(`hover: ${hover.replace(/\s+/g, " ").slice(0, 200)}`);
  check(hover.includes(HOVER_TEXT), `the hover contains "${HOVER_TEXT}"`);

  // 4. The status bar names the release the server chose for this file.
  const status = await until("the vLLM release in the status bar", async () => {
    const items = await page.locator(".statusbar-item").allInnerTexts();
    return items.find((t) => /vLLM \d+\.\d+/.test(t));
  });
  log(`status bar: ${status.trim()}`);

  // 5. The command palette's "Show the vLLM Release" names the same release.
  await page.keyboard.press("Escape");
  await page.keyboard.press("F1");
  await page.keyboard.type("servelint: Show the vLLM Release");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "Show the vLLM Release" }).first().waitFor();
  await page.keyboard.press("Enter");
  const version = status.match(/vLLM (\S+)/)[1];
  const note = await until("the release notification", async () => {
    const texts = await page.locator(".notifications-toasts .notification-toast").allInnerTexts();
    return texts.find((t) => t.includes("servelint checks launch.sh against vLLM"));
  });
  check(note.includes(`vLLM ${version}`), `servelint.showRelease reports vLLM ${version} like the status bar`);
  await page.keyboard.press("Escape");

  // 6. The quick fix removes the flag and its line continuation.
  await page.keyboard.press("Escape");
  await page.mouse.click(flag.x + flag.width / 2, flag.y + flag.height / 2);
  await page.keyboard.press("Control+.");
  const item = page.locator(".action-widget .monaco-list-row", { hasText: FIX });
  await item.first().waitFor();
  await screenshot(page, "quickfix-menu");
  check(true, `the quick fix menu offers "${FIX}"`);
  // A pointer-block overlay swallows clicks on the menu; the menu follows the
  // mouse for focus, and Enter applies the focused action.
  await item.first().hover({ force: true });
  await page.locator(".action-widget .monaco-list-row.focused", { hasText: FIX }).waitFor();
  await page.keyboard.press("Enter");
  await until("the squiggle to go away after the fix", async () => (await squiggles(page)).length === 0);
  await until("the Problems row to go away", async () => !(await problemRows(page)).some((r) => r.includes(FLAG)));
  check(true, "the diagnostic is gone after the quick fix");

  await page.keyboard.press("Control+S");
  const text = await until("launch.sh to be saved without the flag", async () => {
    const t = readFileSync(file, "utf8");
    return t.includes(FLAG) ? null : t;
  });
  await screenshot(page, "fixed");
  log(`launch.sh after the fix:\n${text.replace(/^/gm, "    | ")}`);
  check(!text.includes(FLAG), `launch.sh no longer contains ${FLAG}`);
  const lines = text.replace(/\n+$/, "").split("\n");
  const dangling = lines.findIndex((l, i) => /\\\s*$/.test(l) && (i === lines.length - 1 || lines[i + 1].trim() === ""));
  check(dangling < 0, `no dangling backslash (line ${dangling + 1})`);
  check(
    lines.some((l) => l.startsWith("vllm serve mistralai/Mamba-Codestral-7B-v0.1")) && lines.some((l) => l.includes("--port 8000")),
    "the rest of the launch is intact",
  );
}

// The closing line CI reads: "N passed, N failed".
main().then(
  () => console.log(`e2e: ${passed} passed, 0 failed`),
  (e) => {
    console.error(`[e2e] FAILED: ${e instanceof Failure ? e.message : e.stack ?? e}`);
    console.log(`e2e: ${passed} passed, 1 failed`);
    process.exit(1);
  },
);
