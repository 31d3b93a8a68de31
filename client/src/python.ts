// Where the server's Python comes from, in order: the servelint.interpreter
// setting, the Python extension's active environment (only if that extension is
// installed: no hard dependency), then python3 on PATH.
import * as path from "node:path";
import * as vscode from "vscode";
import { expandPath, SECTION } from "./settings";

export type Source = "setting" | "python-extension" | "path" | "private-venv";

export interface Interpreter {
  path: string;
  source: Source;
}

// The slice of ms-python.python's public API we use (its `environments` API).
interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string };
  resolveEnvironment(env: { id: string; path: string } | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
  readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
}
interface PythonExtensionApi {
  environments?: PythonEnvironmentsApi;
}

const PYTHON_EXTENSION = "ms-python.python";

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

async function pythonExtensionApi(): Promise<PythonEnvironmentsApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION);
  if (!ext) return undefined;
  try {
    // Typed as always present, but an extension may export nothing.
    const api = (ext.isActive ? ext.exports : await ext.activate()) as PythonExtensionApi | undefined;
    return api?.environments;
  } catch {
    return undefined;
  }
}

export async function findInterpreter(log: (msg: string) => void): Promise<Interpreter> {
  const setting = vscode.workspace.getConfiguration(SECTION).get<string>("interpreter", "").trim();
  if (setting) return { path: expandPath(setting, workspaceFolder()), source: "setting" };

  const envs = await pythonExtensionApi();
  if (envs) {
    try {
      const active = envs.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri);
      const resolved = await envs.resolveEnvironment(active);
      const exe = resolved?.executable.uri?.fsPath ?? active.path;
      if (exe) return { path: exe, source: "python-extension" };
    } catch (e) {
      log(`The Python extension did not name an interpreter: ${String(e)}`);
    }
  }
  return { path: process.platform === "win32" ? "python" : "python3", source: "path" };
}

/** Fires when the Python extension switches environments (no-op without it). */
export async function onPythonEnvironmentChange(listener: () => void): Promise<vscode.Disposable> {
  const envs = await pythonExtensionApi();
  return envs ? envs.onDidChangeActiveEnvironmentPath(listener) : new vscode.Disposable(() => undefined);
}

export function venvPython(venv: string): string {
  return process.platform === "win32" ? path.join(venv, "Scripts", "python.exe") : path.join(venv, "bin", "python");
}

export function describe(i: Interpreter): string {
  const from = {
    setting: "the servelint.interpreter setting",
    "python-extension": "the Python extension's active environment",
    path: "PATH",
    "private-venv": "servelint's private environment",
  }[i.source];
  return `${i.path} (from ${from})`;
}
