import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import type { AppError } from "../src/errors.ts";
import { connectGitSource } from "../src/sync/connect_source.ts";
import { SYNC_LIMITS } from "../src/sync/fetch_tree.ts";
import { syncSpace } from "../src/sync/run_sync.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startGitServer } from "./git_server.ts";
import { freshDb, testDeps } from "./helpers.ts";

// Issue 26.2: what a fetched pack inflates to is checked from its object headers as the pack
// arrives, before the Git library holds or inflates it; a refused file is named.

async function connected(repoName: string, files: Record<string, string>) {
  const git = await startGitServer();
  const db = await freshDb();
  const deps = testDeps(db, { SYNC_ALLOW_HOSTS: git.host, SYNC_SCHEDULER: "false" });
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "handbook", visibility: "private", ownerAccountId: ana.id });
  const repo = await git.createRepo(repoName);
  for (const [path, text] of Object.entries(files)) await repo.write(path, text);
  await repo.commit("files");
  await connectGitSource(deps, "handbook", { url: git.url(repoName), branch: "main", folder: "" });
  return {
    deps,
    db,
    async [Symbol.asyncDispose]() {
      await db[Symbol.asyncDispose]();
      await git[Symbol.asyncDispose]();
    },
  };
}

Deno.test("a file that inflates past the per-file limit is refused as the pack arrives, named", async () => {
  await using w = await connected("big", {
    "Home.md": "# Home\n",
    "assets/video.bin": "0".repeat(300_000),
  });
  await assert.rejects(
    syncSpace(w.deps, "handbook", { limits: { ...SYNC_LIMITS, objectBytes: 100_000 } }),
    (error: AppError) => {
      assert.equal(error.code, "sync_failed");
      assert.equal(
        error.detail,
        'The file "assets/video.bin" of the repository is 300000 bytes inflated: ' +
          "a sync takes files of at most 100000 bytes each",
      );
      return true;
    },
  );
  assert.equal((await w.db`SELECT 1 FROM pages WHERE wiki_id = 'handbook'`).length, 0);
});

Deno.test("objects that together inflate past the total limit are refused", async () => {
  const files: Record<string, string> = { "Home.md": "# Home\n" };
  for (let i = 0; i < 5; i++) files[`data/part${i}.csv`] = `${i},`.repeat(15_000);
  await using w = await connected("many", files);
  await assert.rejects(
    syncSpace(w.deps, "handbook", {
      limits: { ...SYNC_LIMITS, objectBytes: 100_000, inflatedBytes: 100_000 },
    }),
    (error: AppError) => {
      assert.equal(error.code, "sync_failed");
      assert.match(error.detail, /^The repository inflates to over 100000 bytes/);
      return true;
    },
  );
});

Deno.test("a pack within the limits syncs its markdown as before", async () => {
  await using w = await connected("fine", {
    "Home.md": "# Home\n\nSee [[Notes/Setup]].\n",
    "Notes/Setup.md": "# Setup\n\nInstall.\n",
    "assets/logo.bin": "x".repeat(50_000),
  });
  const summary = await syncSpace(w.deps, "handbook", {
    limits: { ...SYNC_LIMITS, objectBytes: 100_000, inflatedBytes: 200_000 },
  });
  assert.equal(summary.added, 2);
});
