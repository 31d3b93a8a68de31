// Installs servelint into a private virtual environment under the extension's
// global storage, for users whose Python does not have it.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { SECTION } from "./settings";
import { venvPython } from "./python";

export function privateVenv(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, "venv");
}

/** What pip installs: the installSource setting, else a wheel shipped inside the
 * extension (bundled/servelint-*.whl), else servelint from the package index. */
export function installSource(context: vscode.ExtensionContext): string {
  const configured = vscode.workspace.getConfiguration(SECTION).get<string>("installSource", "").trim();
  if (configured) return configured;
  const bundled = path.join(context.extensionPath, "bundled");
  const wheel = fs.existsSync(bundled) ? fs.readdirSync(bundled).find((f) => /^servelint-.*\.whl$/.test(f)) : undefined;
  return wheel ? path.join(bundled, wheel) : "servelint";
}

function run(cmd: string, args: string[], out: vscode.LogOutputChannel): Promise<void> {
  out.info(`$ ${cmd} ${args.join(" ")}`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { windowsHide: true });
    const pipe = (b: Buffer) => b.toString().split(/\r?\n/).filter(Boolean).forEach((l) => out.info(l));
    child.stdout.on("data", pipe);
    child.stderr.on("data", pipe);
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} ${args[0] ?? ""} exited with ${code}`))));
  });
}

/** Creates the venv from `basePython` and pip-installs servelint into it;
 * returns the venv's interpreter. Throws with a short reason on failure. */
export async function installPrivate(
  context: vscode.ExtensionContext,
  basePython: string,
  out: vscode.LogOutputChannel,
): Promise<string> {
  const venv = privateVenv(context);
  const source = installSource(context);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "servelint", cancellable: false },
    async (progress) => {
      out.show(true);
      progress.report({ message: `creating a virtual environment in ${venv}…` });
      await fs.promises.mkdir(path.dirname(venv), { recursive: true });
      await run(basePython, ["-m", "venv", "--clear", venv], out);
      const python = venvPython(venv);
      progress.report({ message: `pip install ${source}…` });
      await run(python, ["-m", "pip", "install", "--disable-pip-version-check", "--upgrade", source], out);
      out.info(`Installed servelint into ${venv}`);
      return python;
    },
  );
}
