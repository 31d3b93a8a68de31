// Asks an interpreter whether it can run the server, without starting it.
import { execFile } from "node:child_process";

export const MIN_PYTHON: readonly [number, number] = [3, 10];

export type Probe =
  | { kind: "ok"; python: string; servelint: string }
  | { kind: "no-python"; detail: string }
  | { kind: "old-python"; python: string }
  | { kind: "no-servelint"; python: string }
  | { kind: "broken-servelint"; python: string; detail: string };

// One process answers everything; the server module import catches a servelint
// whose dependencies (pygls, tree-sitter) are missing, which would otherwise
// only show as a crash after start.
const SCRIPT = `
import json, sys
out = {"python": "%d.%d.%d" % sys.version_info[:3]}
try:
    import servelint
    out["servelint"] = getattr(servelint, "__version__", "?")
    import servelint.lsp.server
except ImportError as e:
    out["error"] = "%s: %s" % (type(e).__name__, e)
    out["missing"] = getattr(e, "name", None)
except Exception as e:
    out["error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(out))
`;

export function atLeast(version: string, [wantMajor, wantMinor]: readonly [number, number]): boolean {
  const [major = NaN, minor = NaN] = version.split(".").map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

export function parseProbe(stdout: string): Probe {
  const line = stdout.trim().split("\n").pop() ?? "";
  let data: { python?: string; servelint?: string; error?: string; missing?: string | null };
  try {
    data = JSON.parse(line) as typeof data;
  } catch {
    return { kind: "no-python", detail: `unexpected output: ${line.slice(0, 200)}` };
  }
  const python = data.python ?? "?";
  if (!atLeast(python, MIN_PYTHON)) return { kind: "old-python", python };
  if (data.servelint === undefined) return { kind: "no-servelint", python };
  if (data.error !== undefined) return { kind: "broken-servelint", python, detail: data.error };
  return { kind: "ok", python, servelint: data.servelint };
}

export function probe(interpreter: string, timeoutMs = 20_000): Promise<Probe> {
  return new Promise((resolve) => {
    execFile(interpreter, ["-c", SCRIPT], { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
      if (err && !stdout.trim()) {
        const detail = (err as NodeJS.ErrnoException).code === "ENOENT" ? `${interpreter}: not found` : `${err.message}\n${stderr}`;
        resolve({ kind: "no-python", detail: detail.trim() });
        return;
      }
      resolve(parseProbe(stdout));
    });
  });
}
