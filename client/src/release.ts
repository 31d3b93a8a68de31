// The vLLM release the server checks a file against: shown in the status bar
// for the active editor and on demand by the servelint.showRelease command.
import * as path from "node:path";
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import type { ServerManager } from "./server";
import { LANGUAGES } from "./settings";

export const RELEASE_COMMAND = "servelint.releaseFor";
const DEBOUNCE_MS = 400;

export interface Release {
  version: string;
  reason?: string;
  others?: string[];
}

function isRelease(x: unknown): x is Release {
  return typeof x === "object" && x !== null && typeof (x as Release).version === "string";
}

function supported(doc: vscode.TextDocument | undefined): doc is vscode.TextDocument {
  return doc !== undefined && (LANGUAGES as readonly string[]).includes(doc.languageId);
}

export async function releaseFor(server: ServerManager, doc: vscode.TextDocument): Promise<Release | undefined> {
  const client = server.running;
  if (!client) return undefined;
  const answer: unknown = await client.sendRequest(ExecuteCommandRequest.type, {
    command: RELEASE_COMMAND,
    arguments: [doc.uri.toString()],
  });
  return isRelease(answer) ? answer : undefined;
}

export class ReleaseStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("servelint.release", vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: { dispose(): unknown }[] = [];
  private timer: NodeJS.Timeout | undefined;
  // Answers can arrive out of order; only the latest request may paint.
  private generation = 0;

  constructor(private readonly server: ServerManager) {
    this.item.name = "servelint: vLLM release";
    this.item.command = "servelint.showRelease";
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.refreshSoon();
      }),
      vscode.workspace.onDidOpenTextDocument(() => this.refreshSoon()),
      server.onDidChangeClient(() => this.refresh()),
    );
    this.refresh();
  }

  refreshSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), DEBOUNCE_MS);
  }

  refresh(): void {
    clearTimeout(this.timer);
    const doc = vscode.window.activeTextEditor?.document;
    const gen = ++this.generation;
    if (!supported(doc) || !this.server.running) {
      this.item.hide();
      return;
    }
    releaseFor(this.server, doc).then(
      (release) => {
        if (gen !== this.generation) return;
        if (!release) {
          this.item.hide();
          return;
        }
        this.item.text = `$(versions) vLLM ${release.version}`;
        this.item.tooltip = tooltip(doc, release);
        this.item.show();
      },
      () => {
        if (gen === this.generation) this.item.hide();
      },
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

function tooltip(doc: vscode.TextDocument, r: Release): string {
  const others = r.others?.length ? `\nOther launches in this file: vLLM ${r.others.join(", ")}` : "";
  return `servelint checks ${path.basename(doc.fileName)} against vLLM ${r.version}${r.reason ? `: ${r.reason}` : ""}${others}`;
}

export async function showRelease(server: ServerManager): Promise<void> {
  const doc = vscode.window.activeTextEditor?.document;
  if (!supported(doc)) {
    void vscode.window.showInformationMessage("servelint: open a shell script, YAML, compose file or Dockerfile to see its vLLM release.");
    return;
  }
  if (!server.running) {
    void vscode.window.showWarningMessage("servelint: the language server is not running.", "Restart").then((c) => {
      if (c) void server.restart();
    });
    return;
  }
  const release = await releaseFor(server, doc);
  const name = path.basename(doc.fileName);
  void vscode.window.showInformationMessage(
    release
      ? `servelint checks ${name} against vLLM ${release.version}${release.reason ? ` (${release.reason})` : ""}.`
      : `servelint found no vLLM launch in ${name}.`,
  );
}
