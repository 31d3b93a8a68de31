// Where the base grammars come from. The injection grammar only makes sense on
// top of the grammars VS Code really uses, so tests can run against two sets:
// "tm-grammars" (an npm dev-dependency of client/, always there) and "vscode"
// (the exact files code-server 4.100.3 / VS Code 1.100.3 ships, present once
// tests/e2e/install-tools.sh has run). They differ most for YAML: tm-grammars
// still has the 2017 TextMate YAML grammar, VS Code ships RedCMD's rewrite.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, "../..");
export const injection = {
  scopeName: "source.servelint.injection",
  path: path.join(repo, "syntaxes/servelint.injection.tmLanguage.json"),
  injectTo: ["source.shell", "source.yaml", "source.dockerfile"],
};

const tm = path.join(repo, "client/node_modules/tm-grammars/grammars");
const tools = process.env.SERVELINT_E2E_TOOLS ?? path.join(repo, "tests/e2e/.tools");
const vscodeExt = path.join(tools, "node_modules/code-server/lib/vscode/extensions");

export const baseSets = {
  "tm-grammars": [
    { language: "shellscript", scopeName: "source.shell", path: `${tm}/shellscript.json` },
    { language: "yaml", scopeName: "source.yaml", path: `${tm}/yaml.json` },
    { language: "dockerfile", scopeName: "source.dockerfile", path: `${tm}/docker.json` },
    { language: "json", scopeName: "source.json", path: `${tm}/json.json` },
  ],
  vscode: [
    { language: "shellscript", scopeName: "source.shell", path: `${vscodeExt}/shellscript/syntaxes/shell-unix-bash.tmLanguage.json` },
    { language: "yaml", scopeName: "source.yaml", path: `${vscodeExt}/yaml/syntaxes/yaml.tmLanguage.json` },
    ...["1.0", "1.1", "1.2", "1.3"].map((v) => ({
      scopeName: `source.yaml.${v}`,
      path: `${vscodeExt}/yaml/syntaxes/yaml-${v}.tmLanguage.json`,
    })),
    { scopeName: "source.yaml.embedded", path: `${vscodeExt}/yaml/syntaxes/yaml-embedded.tmLanguage.json` },
    { language: "dockerfile", scopeName: "source.dockerfile", path: `${vscodeExt}/docker/syntaxes/docker.tmLanguage.json` },
    { language: "json", scopeName: "source.json", path: `${vscodeExt}/json/syntaxes/JSON.tmLanguage.json` },
  ],
};

export function available(set) {
  return baseSets[set].every((g) => existsSync(g.path));
}
