#!/usr/bin/env bash
# Bundles the visual editor (entry.js: Milkdown Crepe, MIT) into one ES module and one style
# sheet under src/web/assets/vendor/, which the app serves as it does its other assets: a
# person running `deno task start` needs no build step, since the bundle is committed. Run
# this only to change the editor or its versions (pinned in package.json beside it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../src/web/assets/vendor"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/entry.js" "$here/styles.css" "$here/package.json" "$work/"
(cd "$work" && npm install --no-audit --no-fund --silent && node node_modules/esbuild/install.js)
mkdir -p "$out"
(cd "$work" && node_modules/.bin/esbuild styles.css --bundle --minify --outfile=styles.built.css \
  --log-level=warning)
(cd "$work" && node_modules/.bin/esbuild entry.js --bundle --format=esm --minify \
  --target=es2022 --legal-comments=external --outfile="$out/visual_editor.js" \
  --loader:.css=text --metafile=meta.json --log-level=warning)
# Every package in the bundle, with its version and licence (all MIT-compatible).
(cd "$work" && node -e '
const inputs = Object.keys(require("./meta.json").inputs);
const names = new Set(inputs.filter((p) => p.includes("node_modules/"))
  .map((p) => p.split("node_modules/").pop().split("/"))
  .map((s) => (s[0].startsWith("@") ? s[0] + "/" + s[1] : s[0])));
const rows = [...names].sort().map((n) => {
  const pkg = require("./node_modules/" + n + "/package.json");
  return `${n}@${pkg.version}  ${pkg.license}`;
});
console.log("Packages bundled into visual_editor.js (scripts/editor/build.sh):\n\n" + rows.join("\n"));
' >"$out/visual_editor.LICENSES.txt"
cat "$out/visual_editor.js.LEGAL.txt" >>"$out/visual_editor.LICENSES.txt")
rm "$out/visual_editor.js.LEGAL.txt"
ls -l "$out"
