import * as vscode from "vscode";
import { onPythonEnvironmentChange } from "./python";
import { ReleaseStatus, showRelease } from "./release";
import { ServerManager } from "./server";
import { needsRestart, SECTION } from "./settings";

let server: ServerManager | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const out = vscode.window.createOutputChannel("servelint", { log: true });
  server = new ServerManager(context, out);
  const manager = server;
  context.subscriptions.push(
    out,
    manager,
    new ReleaseStatus(manager),
    vscode.commands.registerCommand("servelint.restart", () => manager.restart()),
    vscode.commands.registerCommand("servelint.showOutput", () => out.show()),
    vscode.commands.registerCommand("servelint.showRelease", () => showRelease(manager)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (needsRestart((s) => e.affectsConfiguration(s))) {
        out.info("The interpreter setting changed; restarting the server.");
        void manager.restart();
      }
    }),
  );
  // Activating the Python extension can take seconds; do not wait for it here.
  void onPythonEnvironmentChange(() => {
    // Only matters when the interpreter comes from the Python extension.
    if (!vscode.workspace.getConfiguration(SECTION).get<string>("interpreter")) {
      out.info("The Python extension switched environments; restarting the server.");
      void manager.restart();
    }
  }).then((d) => context.subscriptions.push(d));
  // Not awaited: a missing interpreter must not hold up the editor's activation.
  void manager.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
}
