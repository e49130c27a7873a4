import { unzipSync } from "fflate";
import { isAttachmentName, MAX_ATTACHMENT_BYTES } from "../attachments/attachments.ts";

/** Most files an archive may bring besides its pages. */
const MAX_FILES = 500;

/** An image or PDF found beside the pages of an archive, by its path in the archive. */
export type SourceFile = { path: string; bytes: Uint8Array };

/**
 * The images and PDFs of a zip (as `readZip` reads its pages, with the same single top folder
 * dropped), so the pages that show them keep them. Entries over the attachment limit are
 * skipped before they are inflated (by their declared size), and at most `MAX_FILES` are read.
 */
export function readZipAttachments(bytes: Uint8Array): SourceFile[] {
  let taken = 0;
  const tops = new Set<string>();
  const files = unzipSync(bytes, {
    filter: (f) => {
      if (f.name.startsWith("__MACOSX/") || f.name.endsWith("/")) return false;
      const keep = isAttachmentName(f.name);
      if (keep || /\.(md|markdown)$/i.test(f.name)) {
        tops.add(f.name.includes("/") ? f.name.slice(0, f.name.indexOf("/")) : "");
      }
      return keep && f.originalSize <= MAX_ATTACHMENT_BYTES && taken++ < MAX_FILES;
    },
  });
  const strip = tops.size === 1 && !tops.has("") ? [...tops][0]! : null;
  return Object.entries(files).map(([name, data]) => ({
    path: strip ? name.slice(strip.length + 1) : name,
    bytes: data,
  }));
}

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
