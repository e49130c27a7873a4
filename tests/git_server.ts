/**
 * A real Git server on loopback for the sync tests: Debian's `git http-backend` (smart HTTP)
 * behind a small CGI proxy on 127.0.0.1 and a random port, serving the bare repositories of
 * a temporary directory; `Repo` makes commits in a working clone and pushes them.
 */
export type GitServer = {
  /** `127.0.0.1:<port>`, for SYNC_ALLOW_HOSTS. */
  host: string;
  /** The clone URL of a repository of the server. */
  url(name: string): string;
  /** Creates a bare repository and a working clone to commit in. */
  createRepo(name: string): Promise<Repo>;
  /** Holds every answer this long (a slow server, to catch a sync in progress). */
  delayMs: number;
  /** `METHOD /path` of every request served, in order. */
  requests: string[];
  /** Repositories named `private…` answer 401 without HTTP Basic with this password. */
  token: string;
  [Symbol.asyncDispose](): Promise<void>;
};

/** A working clone that pushes to the server's bare repository. */
export type Repo = {
  dir: string;
  write(path: string, text: string): Promise<void>;
  git(...args: string[]): Promise<string>;
  /** Stages everything, commits and pushes; returns the commit id. */
  commit(message: string): Promise<string>;
};

/** Runs `git` in `cwd`, failing with its stderr. */
export async function runGit(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: {
      GIT_AUTHOR_NAME: "Ada Writer",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada Writer",
      GIT_COMMITTER_EMAIL: "ada@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: cwd,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

/** Starts the server; `await using` stops it and removes its repositories. */
export async function startGitServer(): Promise<GitServer> {
  const root = await Deno.makeTempDir({ prefix: "git_server_" });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    git.requests.push(`${request.method} ${path}`);
    const auth = request.headers.get("authorization") ?? "";
    const password = auth.startsWith("Basic ") ? atob(auth.slice(6)).split(":")[1] : null;
    if (path.startsWith("/private") && password !== git.token) {
      return new Response("authentication required", {
        status: 401,
        headers: { "WWW-Authenticate": 'Basic realm="git"' },
      });
    }
    // Held while `delayMs` lasts, and let go at once when it is set back to 0.
    for (const started = Date.now(); Date.now() - started < git.delayMs;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return await cgi(root, request);
  });
  const host = `127.0.0.1:${server.addr.port}`;
  const git: GitServer = {
    delayMs: 0,
    requests: [],
    token: `tok_${crypto.randomUUID()}`,
    host,
    url: (name) => `http://${host}/${name}.git`,
    async createRepo(name) {
      await runGit(root, "init", "--bare", "-q", "-b", "main", `${name}.git`);
      await runGit(`${root}/${name}.git`, "config", "http.receivepack", "true");
      const dir = await Deno.makeTempDir({ dir: root, prefix: `${name}_work_` });
      await runGit(dir, "init", "-q", "-b", "main");
      await runGit(dir, "remote", "add", "origin", `${root}/${name}.git`);
      const repo: Repo = {
        dir,
        async write(path, text) {
          const full = `${dir}/${path}`;
          await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
          await Deno.writeTextFile(full, text);
        },
        git: (...args) => runGit(dir, ...args),
        async commit(message) {
          await runGit(dir, "add", "-A");
          await runGit(dir, "commit", "-q", "-m", message);
          await runGit(dir, "push", "-q", "origin", "main");
          return await runGit(dir, "rev-parse", "HEAD");
        },
      };
      return repo;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    },
  };
  return git;
}

/** One CGI request to `git http-backend` (RFC 3875): environment in, headers and body out. */
async function cgi(root: string, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const child = new Deno.Command("git", {
    args: ["http-backend"],
    env: {
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: request.method,
      CONTENT_TYPE: request.headers.get("content-type") ?? "",
      REMOTE_ADDR: "127.0.0.1",
      HTTP_GIT_PROTOCOL: request.headers.get("git-protocol") ?? "",
      GIT_CONFIG_NOSYSTEM: "1",
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const body = new Uint8Array(await request.arrayBuffer());
  const writer = child.stdin.getWriter();
  await writer.write(body);
  await writer.close();
  const out = await child.output();
  const bytes = out.stdout;
  let end = -1;
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      end = i;
      break;
    }
  }
  if (end < 0) return new Response("bad gateway", { status: 502 });
  const headers = new Headers();
  let status = 200;
  for (const line of new TextDecoder().decode(bytes.subarray(0, end)).split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
    else headers.append(name, value);
  }
  return new Response(bytes.slice(end + 4), { status, headers });
}
