/** Bytes as megabytes for a message, e.g. "12.5 MB". */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
