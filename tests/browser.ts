import type { Hono } from "hono";

/**
 * A browser in miniature for the web pages: keeps cookies, reads a page's CSRF token, posts
 * forms. `ip` is the client address the app sees (for the sign-in limits).
 */
export function browser(app: Hono, ip = "192.0.2.1") {
  const jar = new Map<string, string>();
  const env = { remoteAddr: { hostname: ip, port: 40000, transport: "tcp" } };
  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (jar.size > 0) {
      headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const res = await app.request(path, { ...init, headers }, env);
    for (const line of res.headers.getSetCookie()) {
      const [name, value] = line.split(";")[0]!.split("=") as [string, string];
      if (value === "" || /Max-Age=0\b/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
  return {
    jar,
    get: (path: string, headers: HeadersInit = {}) => send(path, { headers }),
    /** The CSRF token of the forms on a page. */
    async token(path = "/signin"): Promise<string> {
      const html = await (await send(path)).text();
      return /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    },
    post: (
      path: string,
      fields: Record<string, string> | [string, string][],
      headers: HeadersInit = {},
    ) => send(path, { method: "POST", body: new URLSearchParams(fields), headers }),
  };
}

/** The browser's type. */
export type Browser = ReturnType<typeof browser>;
