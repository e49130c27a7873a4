import type { McpServer } from "@modelcontextprotocol/server";
import { type CardEndpoint, SERVER_CARD_TYPE, serverCard } from "./server_cards.ts";

/** A skill (SEP-2640): `skill://<name>/SKILL.md`, markdown with `name` and `description`. */
type Skill = { name: string; description: string; body: string };

const SKILLS: Skill[] = [
  {
    name: "find-and-cite",
    description:
      "Answer a question from the wiki with page links and revisions: search, read, then cite",
    body: `# Find and cite

1. Call \`search\` with the question's key terms (add \`max_tokens\` to keep the answer small).
2. Read the best one to three results with \`get_page\` (the \`page\` field, or its url). Long pages
   come in slices: follow \`next_offset\` only while the slice is still on topic.
3. Answer only from what you read. Cite each claim as a markdown link to the page's \`url\`, with the
   revision you read: \`[Setup](https://…/w/docs/Setup) (rev 4)\`.
4. If the pages do not answer it, say so; \`ask\` tells you the wiki's coverage (\`unsupported\`
   means: do not guess). When a page is wrong, outdated or unclear, call \`report_problem\`.
5. On the private endpoint, call \`confirm_use\` for the pages you used.
`,
  },
  {
    name: "capture-conversation",
    description:
      "Turn what a conversation settled into a wiki page: draft it, show it, then propose_edit",
    body: `# Capture a conversation as a page

1. Find where it belongs: \`search\` for the topic and \`list_pages\` for the folders. If a page
   already covers it, read it with \`get_page\` and note its \`revision\`.
2. Draft the page in markdown: a \`# Title\`, a one-paragraph summary, then the decisions, steps or
   facts the conversation settled, each once. Link related pages with \`[[Page name]]\`. Leave out
   chatter, names of people unless needed, and anything secret.
3. Show the draft to the user and ask before sending it.
4. Send it with \`propose_edit\` on the private endpoint (\`/mcp/\`, with a token that may read and
   propose): \`page\`, the whole \`markdown\`, and \`base_revision\` (the revision you read, or 0 for a
   new page), with a one-line \`summary\`.
5. Tell the user the proposal waits for an owner's review at \`review_url\`. A \`revision_conflict\`
   or an error saying the token may only read needs the user, not a retry.
`,
  },
];

/**
 * Registers the skills and this endpoint's Server Card as resources, so `resources/list`
 * shows them and `resources/read` returns them.
 */
export function registerSkillResources(
  server: McpServer,
  base: string,
  endpoint: CardEndpoint,
): void {
  for (const skill of SKILLS) {
    const uri = `skill://${skill.name}/SKILL.md`;
    const text =
      `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\n${skill.body}`;
    server.registerResource(skill.name, uri, {
      title: skill.body.split("\n")[0]!.replace(/^# /, ""),
      description: skill.description,
      mimeType: "text/markdown",
    }, () => ({ contents: [{ uri, mimeType: "text/markdown", text }] }));
  }
  const index = "skill://index.json";
  server.registerResource("skills-index", index, {
    title: "Skills index",
    description: "The skills this server offers",
    mimeType: "application/json",
  }, () => ({
    contents: [{
      uri: index,
      mimeType: "application/json",
      text: JSON.stringify({
        skills: SKILLS.map((s) => ({
          name: s.name,
          description: s.description,
          url: `skill://${s.name}/SKILL.md`,
        })),
      }),
    }],
  }));
  const cardUri = `${base}${
    endpoint.kind === "hub"
      ? "/mcp/hub"
      : endpoint.kind === "wiki"
      ? `/mcp/w/${endpoint.id}`
      : "/mcp"
  }/server-card`;
  server.registerResource("server-card", cardUri, {
    title: "Server Card",
    description: "This endpoint's MCP Server Card (SEP-2127)",
    mimeType: SERVER_CARD_TYPE,
  }, () => ({
    contents: [{
      uri: cardUri,
      mimeType: SERVER_CARD_TYPE,
      text: JSON.stringify(serverCard(base, endpoint)),
    }],
  }));
}
