// The .vsix as the Marketplace and Open VSX receive it.  `npm run package`
// (vsce package, which refuses what the Marketplace would: a missing
// repository, SVG images, relative image links it cannot resolve...) must
// have run first; this checks the file it wrote, offline:
//
// * with ovsx's own checks (its exported validateManifest, isLicenseOk, and
//   the manifest as ovsx reads it from the .vsix), and the metadata rules the
//   Open VSX server applies to every upload (ExtensionValidator: semantic
//   version, name characters, field lengths, absolute URLs, gallery theme);
// * the icon (a PNG of at least 128x128), the README's images (https URLs
//   into this repository, whose files exist), the license, the bundled wheel
//   the extension installs by default, and the --config schema yamlValidation
//   names.
//
//   npm run package && npm run test:vsix
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const ovsx = require("ovsx");
const { readVSIXPackage } = require("ovsx/lib/zip");
const yauzl = require("yauzl");

const client = fileURLToPath(new URL("../", import.meta.url));
const manifestOnDisk = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const vsix = `${client}servelint-${manifestOnDisk.version}.vsix`;
const REPO_RAW = "https://github.com/servelint/servelint/raw/HEAD/client/";

function entries(path) {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const out = new Map();
      zip.on("entry", (entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on("data", (c) => chunks.push(c));
          stream.on("end", () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(out));
      zip.readEntry();
    });
  });
}

const files = existsSync(vsix) ? await entries(vsix) : null;
const skip = files ? false : `no ${vsix}: run npm run package first`;

test("ovsx reads the manifest and accepts it", { skip }, async () => {
  const manifest = await readVSIXPackage(vsix);
  ovsx.validateManifest(manifest); // throws on a missing publisher, name or version
  assert.equal(`${manifest.publisher}.${manifest.name}`, "servelint.servelint");
  // isLicenseOk: a license field (or a LICENSE file next to package.json).
  assert.equal(await ovsx.isLicenseOk(client, manifest), true);
  assert.equal(manifest.license, "Apache-2.0");
  assert.ok(files.has("extension/LICENSE.txt") || files.has("extension/LICENSE"), [...files.keys()].join(" "));
});

test("the metadata passes the Open VSX server's checks", { skip }, async () => {
  const m = await readVSIXPackage(vsix);
  const name = /^[\w\-+$~]+$/;
  assert.match(m.name, name);
  assert.match(m.publisher, name);
  assert.match(m.version, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/);
  // Java's CONTROL, FORMAT, LINE/PARAGRAPH_SEPARATOR characters (the server's test).
  const invalid = (text) => [...text].some((ch) => {
    const c = ch.codePointAt(0);
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x200b && c <= 0x200f) || c === 0x2028 || c === 0x2029;
  });
  for (const [field, value, limit] of [["displayName", m.displayName, 255], ["description", m.description, 2048]]) {
    assert.ok(value && value.length <= limit, `${field} must be set and at most ${limit} characters`);
    assert.equal(invalid(value), false, field);
  }
  for (const value of [...m.categories, ...m.keywords]) {
    assert.ok(value.length <= 255);
    assert.equal(invalid(value), false, value);
  }
  const urls = { repository: m.repository.url, homepage: m.homepage, bugs: m.bugs.url };
  for (const [field, url] of Object.entries(urls)) {
    assert.match(url, /^https:\/\/[^/]+\//, `${field} must be an absolute URL`);
    assert.ok(url.length <= 255, field);
  }
  assert.ok(["dark", "light"].includes(m.galleryBanner.theme));
  assert.ok(m.galleryBanner.color.length <= 16);
});

test("the icon is a PNG of at least 128x128", { skip }, async () => {
  const m = await readVSIXPackage(vsix);
  assert.match(m.icon, /\.png$/);
  const png = files.get(`extension/${m.icon}`);
  assert.ok(png, `${m.icon} is not in the .vsix`);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const width = png.readUInt32BE(16), height = png.readUInt32BE(20);
  assert.ok(width >= 128 && height >= 128 && width === height, `${width}x${height}`);
});

test("README images are https links into this repository", { skip }, () => {
  const readme = files.get("extension/readme.md").toString("utf8");
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)|<img[^>]+src="([^"]+)"/g)].map((x) => x[1] ?? x[2]);
  assert.ok(images.length >= 1, "the README shows the extension at work");
  for (const url of images) {
    assert.ok(url.startsWith(REPO_RAW), url);
    assert.doesNotMatch(url, /\.svg$/i);
    assert.ok(existsSync(client + url.slice(REPO_RAW.length)), `${url}: no such file in client/`);
  }
  assert.match(readme, /code --install-extension servelint-/);
});

test("the bundled wheel and the --config schema ship", { skip }, async () => {
  const wheels = [...files.keys()].filter((f) => /^extension\/bundled\/servelint-.*\.whl$/.test(f));
  assert.equal(wheels.length, 1, [...files.keys()].join(" "));
  assert.ok(wheels[0].includes(`servelint-${manifestOnDisk.version}-`), wheels[0]);
  const m = await readVSIXPackage(vsix);
  for (const v of m.contributes.yamlValidation) {
    const schema = JSON.parse(files.get(`extension/${v.url.replace(/^\.\//, "")}`).toString("utf8"));
    assert.match(schema.title, /^vLLM \d+\.\d+\.\d+ --config file$/);
    assert.equal(schema.$schema, "http://json-schema.org/draft-07/schema#");
  }
  // Sources, tests and node_modules stay out.
  assert.deepEqual([...files.keys()].filter((f) => /^extension\/(src|test|node_modules|scripts)\//.test(f)), []);
});
