// vsce packages only what is inside client/, so the grammar kept at the repo's
// top level (where the grammar tests use it) is copied in before bundling.
import { copyFileSync, mkdirSync } from "node:fs";

const name = "servelint.injection.tmLanguage.json";
mkdirSync(new URL("../syntaxes/", import.meta.url), { recursive: true });
copyFileSync(new URL(`../../syntaxes/${name}`, import.meta.url), new URL(`../syntaxes/${name}`, import.meta.url));
