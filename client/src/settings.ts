// The servelint settings as the server sees them. Kept free of the vscode API so
// the resolution rules can be unit-tested with node's test runner.
import * as os from "node:os";
import * as path from "node:path";

export const SECTION = "servelint";
export const LANGUAGES = ["shellscript", "yaml", "dockercompose", "dockerfile"] as const;

/** Settings whose change needs a new server process; the rest reach the running
 * server through workspace/didChangeConfiguration. */
export const RESTART_SETTINGS = ["servelint.interpreter"] as const;

export function needsRestart(affects: (section: string) => boolean): boolean {
  return RESTART_SETTINGS.some((s) => affects(s));
}

/** `${workspaceFolder}`, `${userHome}` and a leading `~` in path settings, so a
 * user can write the same paths as in other VS Code settings. The server
 * resolves what is still relative against the workspace root. */
export function expandPath(p: string, workspaceFolder: string | undefined, home = os.homedir()): string {
  let out = p.replace(/\$\{userHome\}/g, home);
  if (workspaceFolder !== undefined) out = out.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (out === "~" || out.startsWith("~/") || out.startsWith("~\\")) out = path.join(home, out.slice(1));
  return out;
}

/** The `servelint` section with paths expanded; sent as initializationOptions
 * and as the answer to workspace/configuration. */
export function forServer(section: Record<string, unknown>, workspaceFolder: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...section };
  if (Array.isArray(out.records)) {
    out.records = out.records.filter((r): r is string => typeof r === "string").map((r) => expandPath(r, workspaceFolder));
  }
  if (typeof out.interpreter === "string" && out.interpreter) {
    out.interpreter = expandPath(out.interpreter, workspaceFolder);
  }
  return out;
}
