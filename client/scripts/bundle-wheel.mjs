// Builds the servelint wheel into bundled/, where `npm run package` picks it up
// and the extension installs it (instead of PyPI's servelint) into its private
// environment. Optional: without it the .vsix installs from the package index.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const python = process.env.PYTHON ?? "python3";
const out = fileURLToPath(new URL("../bundled/", import.meta.url));
const repo = fileURLToPath(new URL("../../", import.meta.url));
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
execFileSync(python, ["-m", "pip", "wheel", "--no-deps", "--wheel-dir", out, repo], { stdio: "inherit" });
