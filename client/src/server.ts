// Owns the language server process: finds an interpreter that can run it,
// starts `python -m servelint lsp` over stdio, restarts it on demand, and turns
// every way of failing into one actionable message instead of a crash loop.
import * as fs from "node:fs";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  type LanguageClientOptions,
  ResponseError,
  RevealOutputChannelOn,
  type ServerOptions,
  State,
} from "vscode-languageclient/node";
import { installPrivate, installSource, privateVenv } from "./install";
import { type Probe, probe, MIN_PYTHON } from "./probe";
import { describe, findInterpreter, type Interpreter, venvPython } from "./python";
import { RestartBudget } from "./restartBudget";
import { forServer, LANGUAGES, SECTION } from "./settings";

// languageclient pops up its own notifications for start failures; we show
// exactly one message with actions instead, so keep its reports in the log.
class QuietClient extends LanguageClient {
  override error(message: string, data?: unknown): void {
    super.error(message, data, false);
  }
}

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function currentSettings(): Record<string, unknown> {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const keys = ["vllmVersion", "target", "records", "severity", "lint", "maxLaunches", "interpreter", "installSource"];
  const raw: Record<string, unknown> = {};
  for (const k of keys) raw[k] = cfg.get(k);
  return forServer(raw, workspaceFolder());
}

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly budget = new RestartBudget();
  // Start/stop/restart run one at a time, in the order they were asked for.
  private queue: Promise<unknown> = Promise.resolve();
  private readonly changed = new vscode.EventEmitter<LanguageClient | undefined>();
  readonly onDidChangeClient = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly out: vscode.LogOutputChannel,
  ) {}

  get running(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      this.budget.reset();
      await this.doStop();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    const next = this.queue.then(op, op);
    this.queue = next.catch((e: unknown) => this.out.error(`servelint: ${String(e)}`));
    return next;
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.changed.fire(undefined);
    if (client?.needsStop()) {
      try {
        await client.stop(5_000);
      } catch (e) {
        this.out.warn(`Stopping the server: ${String(e)}`);
      }
    }
    await client?.dispose().catch(() => undefined);
  }

  private async doStart(): Promise<void> {
    const interpreter = await this.resolve();
    if (!interpreter) return;
    const client = this.createClient(interpreter);
    this.client = client;
    try {
      await client.start();
      this.out.info(`servelint server running with ${describe(interpreter)}`);
      this.changed.fire(client);
    } catch (e) {
      this.client = undefined;
      await client.dispose().catch(() => undefined);
      this.fail(`The servelint server did not start with ${interpreter.path}: ${messageOf(e)}`, ["Show Output", "Restart"]);
    }
  }

  /** An interpreter that can import servelint, or undefined after telling the user why not. */
  private async resolve(): Promise<Interpreter | undefined> {
    const base = await findInterpreter((m) => this.out.info(m));
    const found = await probe(base.path);
    this.out.info(`Interpreter ${describe(base)}: ${summary(found)}`);
    if (found.kind === "ok") return base;

    if (found.kind === "no-python" || found.kind === "old-python") {
      const why = found.kind === "no-python" ? `could not be run (${found.detail})` : `is Python ${found.python}`;
      this.fail(
        `servelint needs Python ${MIN_PYTHON.join(".")} or newer for its language server, but ${describe(base)} ${why}. ` +
          `Set "servelint.interpreter" to a suitable Python.`,
        ["Open Settings", "Show Output"],
      );
      return undefined;
    }

    const venvPy = venvPython(privateVenv(this.context));
    if (fs.existsSync(venvPy)) {
      const own = await probe(venvPy);
      this.out.info(`Private environment ${venvPy}: ${summary(own)}`);
      if (own.kind === "ok") return { path: venvPy, source: "private-venv" };
    }
    this.offerInstall(base, found);
    return undefined;
  }

  private offerInstall(base: Interpreter, found: Probe): void {
    const source = installSource(this.context);
    const venv = privateVenv(this.context);
    const problem =
      found.kind === "broken-servelint"
        ? `servelint is installed for ${describe(base)} but cannot start (${found.detail}).`
        : `servelint is not installed for ${describe(base)}.`;
    const message =
      `${problem} Install it into a private environment? This runs "${base.path} -m venv ${venv}" ` +
      `and "pip install ${source}" there; your own environments are not changed.`;
    void vscode.window.showWarningMessage(message, "Install", "Open Settings", "Show Output").then(async (choice) => {
      if (choice === "Install") await this.install(base);
      else this.act(choice);
    });
  }

  private async install(base: Interpreter): Promise<void> {
    try {
      const python = await installPrivate(this.context, base.path, this.out);
      const after = await probe(python);
      this.out.info(`Private environment ${python}: ${summary(after)}`);
      if (after.kind !== "ok") throw new Error(summary(after));
      await this.restart();
    } catch (e) {
      this.fail(`Installing servelint failed: ${messageOf(e)}. The output has pip's messages.`, ["Show Output", "Restart"]);
    }
  }

  private fail(message: string, actions: string[]): void {
    this.out.error(message);
    void vscode.window.showErrorMessage(message, ...actions).then((choice) => this.act(choice));
  }

  private act(choice: string | undefined): void {
    if (choice === "Show Output") this.out.show();
    else if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "servelint.interpreter");
    else if (choice === "Restart") void this.restart();
  }

  private createClient(interpreter: Interpreter): LanguageClient {
    const serverOptions: ServerOptions = {
      command: interpreter.path,
      args: ["-m", "servelint", "lsp"],
      options: { cwd: workspaceFolder(), env: { ...process.env, PYTHONUNBUFFERED: "1" } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: LANGUAGES.flatMap((language) => [
        { scheme: "file", language },
        { scheme: "untitled", language },
      ]),
      // Deprecated in favour of pulling, but it is what sends didChangeConfiguration,
      // the server's cue to pull the section again.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      synchronize: { configurationSection: SECTION },
      initializationOptions: currentSettings(),
      outputChannel: this.out,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
      middleware: {
        workspace: {
          // Expand ${workspaceFolder} and ~ in path settings for the server.
          configuration: async (params, token, next) => {
            const result: unknown = await next(params, token);
            if (!Array.isArray(result)) return result as ResponseError;
            return result.map((item: unknown, i) =>
              params.items[i]?.section === SECTION && item && typeof item === "object"
                ? forServer(item as Record<string, unknown>, workspaceFolder())
                : item,
            );
          },
        },
      },
      errorHandler: {
        error: (_error, _message, count) => ({
          action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
          handled: true,
        }),
        closed: () => {
          if (this.budget.crashed()) {
            this.out.warn("The servelint server stopped unexpectedly; restarting it.");
            return { action: CloseAction.Restart, handled: true };
          }
          this.fail("The servelint server keeps stopping, so it was not restarted again. The output shows why.", [
            "Show Output",
            "Restart",
          ]);
          this.changed.fire(undefined);
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
    };
    return new QuietClient("servelint", "servelint", serverOptions, clientOptions);
  }
}

function summary(p: Probe): string {
  switch (p.kind) {
    case "ok":
      return `Python ${p.python}, servelint ${p.servelint}`;
    case "no-python":
      return `not usable: ${p.detail}`;
    case "old-python":
      return `Python ${p.python} is too old`;
    case "no-servelint":
      return `Python ${p.python}, servelint not importable`;
    case "broken-servelint":
      return `Python ${p.python}, servelint fails to import: ${p.detail}`;
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
