import type { MiddlewareHandler } from "hono";

/**
 * Headers of every page: never cached (they carry CSRF tokens and personal data), never
 * framed (clickjacking), and a CSP that allows only our inline style, our own scripts (from
 * `/assets/`, never inline) and, by default, only our own forms. The authorization pages drop `form-action` (browsers apply it to the redirect
 * after the consent post, which goes to the client) and send no referrer (the URL carries the
 * request). `nosniff` comes from the app-wide security headers.
 */
export function pageHeaders(
  options: { formAction: boolean; referrer: "same-origin" | "no-referrer" } = {
    formAction: true,
    referrer: "same-origin",
  },
): MiddlewareHandler {
  const csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; " +
    "connect-src 'self'; img-src 'self' data:; " +
    (options.formAction ? "form-action 'self'; " : "") + "frame-ancestors 'none'; base-uri 'none'";
  return async (c, next) => {
    await next();
    // A wiki's files (`src/attachments/`) set their own caching (ETag) and stricter CSP.
    if (!c.res.headers.has("ETag")) {
      c.res.headers.set("Cache-Control", "no-store");
      c.res.headers.set("Content-Security-Policy", csp);
    }
    c.res.headers.set("X-Frame-Options", "DENY");
    c.res.headers.set("Referrer-Policy", options.referrer);
  };
}
