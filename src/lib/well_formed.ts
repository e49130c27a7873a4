import { AppError } from "../errors.ts";

/**
 * Refuses text holding an unpaired UTF-16 surrogate (JSON can carry `"\ud800"`): it has no
 * UTF-8 form, so the database would refuse the write with an encoding error, a 500 to the
 * caller. `what` names the text in the message, e.g. `Page "Notes" markdown`.
 */
export function requireWellFormed(what: string, text: string): void {
  if (text.isWellFormed()) return;
  const at = [...text].findIndex((ch) => /^[\ud800-\udfff]$/.test(ch));
  throw new AppError(
    "bad_request",
    `${what} is not valid Unicode: an unpaired surrogate at character ${at + 1}`,
  );
}
