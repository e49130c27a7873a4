/**
 * A file system in memory with the promise API isomorphic-git calls (`readFile`, `writeFile`,
 * `mkdir`, `rmdir`, `unlink`, `stat`, `lstat`, `readdir`, `readlink`, `symlink`), so a sync
 * never writes a repository to disk and nothing of it outlives the sync. Errors carry the
 * Node codes (`ENOENT`, `EEXIST`…) isomorphic-git branches on.
 */
export function createMemFs() {
  const files = new Map<string, Uint8Array>();
  const dirs = new Set<string>(["/"]);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  const norm = (path: string) => "/" + path.split("/").filter((s) => s && s !== ".").join("/");
  const parent = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";
  const fail = (code: string, path: string) =>
    Object.assign(new Error(`${code}: ${path}`), { code });
  const stats = (path: string, size: number, dir: boolean) => ({
    isFile: () => !dir,
    isDirectory: () => dir,
    isSymbolicLink: () => false,
    mode: dir ? 0o40755 : 0o100644,
    size,
    ino: 0,
    dev: 0,
    uid: 0,
    gid: 0,
    mtimeMs: 0,
    ctimeMs: 0,
    path,
  });
  const encodingOf = (options: unknown) =>
    typeof options === "string"
      ? options
      : (options as { encoding?: string } | undefined)?.encoding;

  const ops = {
    readFile(path: string, options?: unknown) {
      const data = files.get(norm(path));
      if (!data) throw fail("ENOENT", path);
      return encodingOf(options) === "utf8" ? decoder.decode(data) : data;
    },
    writeFile(path: string, data: Uint8Array | string) {
      const p = norm(path);
      if (!dirs.has(parent(p))) throw fail("ENOENT", path);
      files.set(p, typeof data === "string" ? encoder.encode(data) : new Uint8Array(data));
    },
    mkdir(path: string) {
      const p = norm(path);
      if (dirs.has(p) || files.has(p)) throw fail("EEXIST", path);
      if (!dirs.has(parent(p))) throw fail("ENOENT", path);
      dirs.add(p);
    },
    rmdir(path: string) {
      const p = norm(path);
      if (!dirs.has(p)) throw fail("ENOENT", path);
      const prefix = p === "/" ? "/" : p + "/";
      if ([...files.keys(), ...dirs].some((k) => k !== p && k.startsWith(prefix))) {
        throw fail("ENOTEMPTY", path);
      }
      dirs.delete(p);
    },
    unlink(path: string) {
      if (!files.delete(norm(path))) throw fail("ENOENT", path);
    },
    stat(path: string) {
      const p = norm(path);
      if (dirs.has(p)) return stats(p, 0, true);
      const data = files.get(p);
      if (!data) throw fail("ENOENT", path);
      return stats(p, data.length, false);
    },
    lstat(path: string) {
      return ops.stat(path);
    },
    readdir(path: string) {
      const p = norm(path);
      if (!dirs.has(p)) throw fail("ENOENT", path);
      const prefix = p === "/" ? "/" : p + "/";
      const names = new Set<string>();
      for (const key of [...files.keys(), ...dirs]) {
        if (key !== p && key.startsWith(prefix)) names.add(key.slice(prefix.length).split("/")[0]!);
      }
      return [...names].sort();
    },
    readlink(path: string) {
      throw fail("ENOENT", path);
    },
    symlink(_target: string, path: string) {
      throw fail("EPERM", path);
    },
    chmod() {
    },
  };
  // isomorphic-git tells a promise API by calling `readFile()` with no argument and looking
  // for a promise: every call answers with one, errors included.
  const promises = Object.fromEntries(
    Object.entries(ops).map(([name, op]) => [name, (...args: unknown[]) => {
      try {
        return Promise.resolve((op as (...a: unknown[]) => unknown)(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    }]),
  ) as { [K in keyof typeof ops]: (...args: Parameters<typeof ops[K]>) => Promise<unknown> };
  return { promises };
}
