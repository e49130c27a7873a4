/** An image or PDF found beside the pages of an archive, by its path in the archive. */
export type SourceFile = { path: string; bytes: Uint8Array; name?: string };

/**
 * A page's markdown with its links to imported files (`![](images/a.png)`, relative to the
 * page's folder or to the archive's root) pointed at where the wiki serves them.
 */
export function pointAtAttachments(
  markdown: string,
  pagePath: string,
  hrefOf: Map<string, string>,
): string {
  const folder = pagePath.includes("/") ? pagePath.slice(0, pagePath.lastIndexOf("/")) : "";
  return markdown.replace(/(\]\()(<?)([^)\s>]+)(>?)/g, (whole, open, lt, target, gt) => {
    if (/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(target)) return whole;
    let decoded = target;
    try {
      decoded = decodeURIComponent(target);
    } catch {
      // keep it as written
    }
    const href = hrefOf.get(resolve(folder, decoded)) ?? hrefOf.get(resolve("", decoded));
    return href ? `${open}${lt}${href}${gt}` : whole;
  });
}

function resolve(folder: string, relative: string): string {
  const parts = folder ? folder.split("/") : [];
  for (const segment of relative.split("/")) {
    if (segment === "." || segment === "") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return parts.join("/");
}
