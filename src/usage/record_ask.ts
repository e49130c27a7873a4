import type { Deps } from "../deps.ts";
import { gapOf } from "./question_gaps.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { pruneKeptQueries, usageClient } from "./record_usage.ts";
import { insertAskQuestion, type UsageSource } from "./store.ts";

/**
 * Counts a question on the usage page and keeps it, once per asking (the same asker asking the
 * same question again within `SAME_ASKING_MINUTES`, as a reload of an ask page does, is not
 * counted again), with its verdict and its coverage-gap
 * group (`gapOf`), for the wiki's members, `RETENTION_DAYS`: one statement, then now and then the
 * prune (`pruneKeptQueries`). Like every statistic it never fails the answer: a failure is
 * logged and swallowed.
 */
export async function recordAsk(
  deps: Pick<Deps, "db" | "log">,
  asked: {
    wikiId: string;
    /** What is kept of the answer: the question and its one-word verdict. */
    answer: { question: string; coverage: "supported" | "partial" | "unsupported" };
    absent: string[];
    unwritten: string[];
  },
  asker: UsageSource,
): Promise<void> {
  const { wikiId, answer } = asked;
  const client = usageClient(asker.client);
  const gap = gapOf(answer.question, asked.absent, asked.unwritten);
  try {
    // Who asked, hashed: a session id or an address is never kept, only recognised again.
    const who = asker.asker ? await sha256Hex(`asker:${asker.asker}`) : null;
    await insertAskQuestion(deps.db, {
      wikiId,
      question: answer.question,
      coverage: answer.coverage,
      gap_key: gap.key,
      gap_title: gap.title,
      missing: asked.absent.slice(0, 20),
      via: asker.via,
      client,
      asker: who,
    });
    await pruneKeptQueries(deps.db);
  } catch (error) {
    deps.log.warn("question not recorded", {
      wiki_id: wikiId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
