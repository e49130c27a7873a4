/** Bytes as a size for a message: "12.5 MB", or "7 KB" under a tenth of a megabyte. */
export function megabytes(bytes: number): string {
  if (bytes > 0 && bytes < 0.05 * 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
