/**
 * Questions that ask what happens when nothing is set, and passages that say so. Reference
 * documentation states a setting's value when it is not set in the setting's own section
 * ("Defaults to 10 minutes", `default = 100000`, a table's Default column), while prose elsewhere
 * tells the story without it: "How often does paperless look for new mail out of the box?" met
 * the administration page's "Fetching e-mail" before the `PAPERLESS_EMAIL_TASK_CRON` section.
 */

/**
 * The ways a question asks for a default: the word itself ("by default", "what's the default
 * limit") but not when the question asks for something else than the default ("instead of the
 * default", "a namespace other than the default one"), and the conditions that mean it ("out of
 * the box", "unless told otherwise", "if we don't set one", "if no timeout is set", "if we leave
 * the schedule alone").
 */
const ASKS_DEFAULT = new RegExp(
  [
    String.raw`(?<!\b(?:instead of|other than|rather than|not) (?:the|a|its) )\bdefaults?\b`,
    String.raw`\bout of the box\b`,
    String.raw`\bunless (?:(?:told|configured|set|specified|changed) )?otherwise\b`,
    String.raw`\bunless (?:we|you|i) (?:change|set|configure|say|give|specify)\b`,
    String.raw`\b(?:if|when|unless) (?:we|you|i) (?:do not|don['’]t|never|did not|didn['’]t) ` +
    String.raw`(?:set|configure|change|say|give|specify|pass)\b`,
    String.raw`\bif (?:none|nothing|no \w+) (?:is|was|are) (?:set|configured|given|specified)\b`,
    String.raw`\bconfigure nothing\b`,
    String.raw`\bleave (?:it|them|that|this|the \w+) alone\b`,
  ].join("|"),
  "i",
);

/** Whether a question asks for a default: what a setting is when nobody sets it. */
export function asksForDefault(question: string): boolean {
  return ASKS_DEFAULT.test(question);
}

/** Whether a passage states a default: it says "default" ("Defaults to", "default:"). */
export function statesDefault(text: string): boolean {
  return /\bdefault(?:s|ed)?\b/i.test(text);
}
