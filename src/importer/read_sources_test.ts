import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { readZip } from "./read_sources.ts";

const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("a zip's single top folder is dropped from page paths", () => {
  const zip = zipSync({
    "export/Home.md": encode("# Home"),
    "export/Guides/Setup.md": encode("# Setup"),
    "export/image.png": new Uint8Array([1, 2, 3]),
  });
  assert.deepEqual(readZip(zip).map((p) => "path" in p ? p.path : p.error), [
    "Guides/Setup",
    "Home",
  ]);
  assert.throws(() => readZip(encode("not a zip at all")), /cannot be read as a zip/);
});
