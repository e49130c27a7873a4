// The wiki view of the MCP App (io.modelcontextprotocol/ui): shows an `ask` answer with its
// sources, `search` results, or a `get_page` page, inside the assistant's window. It talks only
// to its host, by JSON-RPC over postMessage: it never holds a credential and loads nothing.
(() => {
  "use strict";
  const root = document.getElementById("view");
  const pending = new Map();
  let nextId = 1;

  function send(message) {
    globalThis.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  function request(method, params) {
    const id = nextId++;
    send({ id, method, params });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }

  function notify(method, params) {
    send({ method, params });
  }

  globalThis.addEventListener("message", (event) => {
    if (event.source !== globalThis.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.id !== undefined && !message.method) {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.method === "ui/notifications/tool-result") show(message.params);
    else if (message.method === "ui/notifications/host-context-changed") {
      applyContext(message.params);
    } else if (message.method === "ui/resource-teardown") {
      send({ id: message.id, result: {} });
    } else if (message.id !== undefined) {
      send({ id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  });

  // ---- host context: theme, the host's style variables, size hints ----

  function applyContext(context) {
    if (!context) return;
    if (context.theme) document.documentElement.dataset.theme = context.theme;
    const variables = context.styles && context.styles.variables;
    if (variables) {
      for (const [name, value] of Object.entries(variables)) {
        if (value && /^--[a-z0-9-]+$/.test(name)) {
          document.documentElement.style.setProperty(name, value);
        }
      }
    }
    const box = context.containerDimensions;
    if (box) {
      const set = (property, value) =>
        document.documentElement.style.setProperty(property, value ? `${value}px` : "");
      set("--view-height", box.height);
      set("--view-max-height", box.maxHeight);
      set("--view-max-width", box.maxWidth || box.width);
    }
    reportSize();
  }

  let lastHeight = 0;
  function reportSize() {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    notify("ui/notifications/size-changed", {
      width: Math.ceil(document.documentElement.scrollWidth),
      height,
    });
  }
  new ResizeObserver(reportSize).observe(document.documentElement);

  // ---- host requests the view makes ----

  function openLink(url) {
    return request("ui/open-link", { url }).catch(() => {});
  }

  async function callTool(name, args) {
    const result = await request("tools/call", { name, arguments: args });
    if (!result || result.isError) {
      const text = result && result.content && result.content[0] && result.content[0].text;
      throw new Error(text || `${name} failed`);
    }
    return result.structuredContent || {};
  }

  // ---- rendering ----

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "onclick") node.addEventListener("click", value);
      else if (value !== undefined && value !== null) node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function link(text, url) {
    return el("a", {
      href: url,
      onclick: (event) => {
        event.preventDefault();
        openLink(url);
      },
    }, text);
  }

  function show(result) {
    const data = result && result.structuredContent;
    root.replaceChildren();
    if (!data || result.isError) {
      const text = result && result.content && result.content[0] && result.content[0].text;
      root.append(el("p", { class: "notice" }, text || "Nothing to show."));
    } else if (typeof data.answer === "string") showAnswer(data);
    else if (Array.isArray(data.results)) showResults(data);
    else if (typeof data.markdown === "string" || data.unchanged) showPage(data);
    else root.append(el("p", { class: "notice" }, "Nothing to show."));
    reportSize();
  }

  const COVERAGE = {
    supported: "Covered by the wiki",
    partial: "Partly covered",
    unsupported: "Not covered by the wiki",
  };

  function showAnswer(answer) {
    root.append(
      el("p", { class: "question" }, answer.question),
      el("div", { class: "answer" }, markdown(answer.answer, answer.citations)),
      el(
        "p",
        { class: `coverage ${answer.coverage}` },
        COVERAGE[answer.coverage] || answer.coverage,
      ),
    );
    if (answer.frontier.length > 0) {
      root.append(el(
        "ul",
        { class: "frontier", "aria-label": "Coverage notes" },
        answer.frontier.map((f) => el("li", { "data-kind": f.kind }, f.note)),
      ));
    }
    if (answer.citations.length > 0) {
      root.append(
        el("h2", {}, "Sources"),
        el("ol", { class: "sources" }, answer.citations.map(sourceItem)),
      );
      root.append(reportBox(answer));
    }
  }

  function sourceItem(citation) {
    const excerpt = el("blockquote", { class: "excerpt" }, el("mark", {}, plain(citation.quote)));
    const item = el(
      "li",
      { id: `source-${citation.n}`, value: citation.n },
      el("div", { class: "source-head" }, link(citation.title, citation.url)),
      el(
        "div",
        { class: "source-meta" },
        `${citation.page}${
          citation.section ? ` · ${citation.section}` : ""
        } · revision ${citation.revision}`,
      ),
      excerpt,
    );
    loadExcerpt(citation, excerpt);
    return item;
  }

  /** The quote in its paragraph: the page's text around it, read through the host. */
  async function loadExcerpt(citation, box) {
    const before = 500;
    const offset = Math.max(0, citation.start - before);
    try {
      const page = await callTool("get_page", {
        page: citation.url.split("#")[0],
        revision: citation.revision,
        offset,
        max_chars: Math.min(20000, Math.max(200, citation.end - offset + before)),
      });
      const text = page.markdown || "";
      let at = citation.start - page.offset;
      if (text.slice(at, at + citation.quote.length) !== citation.quote) {
        at = text.indexOf(citation.quote);
      }
      if (at < 0) return;
      const end = at + citation.quote.length;
      const from = Math.max(text.lastIndexOf("\n\n", at) + 2, 0, at - 300);
      let to = text.indexOf("\n\n", end);
      if (to < 0 || to > end + 300) to = Math.min(text.length, end + 300);
      box.replaceChildren(
        from > 0 ? "… " : "",
        plain(text.slice(from, at)),
        el("mark", {}, plain(citation.quote)),
        plain(text.slice(end, to)),
        to < text.length ? " …" : "",
      );
      reportSize();
    } catch {
      // The quote alone stays shown.
    }
  }

  /**
   * Markdown source as reading text: markup characters that only format dropped, and a callout's
   * marker line (`!!! warning`, `??? tip`, `:::note`, a version note's `+++ 1.2.0`).
   */
  function plain(text) {
    return text.replace(
      /^[ \t]*(?:(?:!!!|\?\?\?\+?)[ \t]*[\w-]+.*|:::[\w-]*|(?:\+\+\+|\+\/-|---)[ \t]+v?\d[\w.-]*)[ \t]*\n?/gm,
      "",
    )
      .replace(/^#{1,6}\s+/gm, "").replace(/\*\*|__|`/g, "").replace(
        /\[([^\]]+)\]\([^)]*\)/g,
        "$1",
      );
  }

  function reportBox(answer) {
    const status = el("p", { class: "report-status", role: "status" });
    const kind = el(
      "select",
      { name: "kind", "aria-label": "What is wrong" },
      el("option", { value: "wrong" }, "wrong"),
      el("option", { value: "outdated" }, "outdated"),
    );
    const note = el("textarea", { name: "note", rows: "3", "aria-label": "What is wrong" });
    note.value = `The answer to "${answer.question}" is wrong or outdated: `;
    // No <form>: a sandboxed frame without allow-forms never submits one. A button it is.
    const send = el("button", { type: "button" }, "Send to the wiki's owners");
    const form = el(
      "div",
      { class: "report", hidden: "" },
      el("label", {}, "This answer is ", kind),
      note,
      send,
    );
    send.addEventListener("click", async () => {
      send.disabled = true;
      status.textContent = "Sending…";
      try {
        const sent = await callTool("report_problem", {
          page: answer.citations[0].url.split("#")[0],
          kind: kind.value,
          note: note.value.slice(0, 2000),
        });
        form.hidden = true;
        status.textContent = `Reported: the owners of "${sent.page}" will see it.`;
      } catch (error) {
        status.textContent = `Not sent: ${error.message}`;
      }
      send.disabled = false;
      reportSize();
    });
    const open = el("button", {
      type: "button",
      class: "wrong",
      onclick: () => {
        form.hidden = !form.hidden;
        reportSize();
      },
    }, "This answer is wrong / outdated");
    return el("section", { class: "feedback" }, open, form, status);
  }

  function showResults(out) {
    if (out.results.length === 0) {
      root.append(el("p", { class: "notice" }, "No page matches."));
      return;
    }
    root.append(el(
      "ol",
      { class: "results" },
      out.results.map((r) =>
        el(
          "li",
          {},
          el("button", {
            type: "button",
            class: "result",
            onclick: () => openPage(r.url),
          }, r.title),
          el(
            "div",
            { class: "source-meta" },
            `${r.wiki} · ${r.page}${r.section ? ` · ${r.section}` : ""}`,
          ),
          el("p", { class: "snippet" }, r.snippet),
        )
      ),
    ));
  }

  async function openPage(url) {
    root.setAttribute("aria-busy", "true");
    try {
      const page = await callTool("get_page", { page: url.split("#")[0] });
      root.replaceChildren();
      showPage(page);
    } catch (error) {
      root.append(el("p", { class: "notice" }, error.message));
    }
    root.removeAttribute("aria-busy");
    reportSize();
  }

  function showPage(page) {
    if (page.unchanged) {
      root.append(
        el("p", { class: "notice" }, `"${page.page}" is unchanged (revision ${page.revision}).`),
      );
      return;
    }
    const body = markdown(page.markdown, []);
    const headings = [...body.querySelectorAll("h1, h2, h3")];
    root.append(
      el(
        "p",
        { class: "source-meta" },
        `${page.wiki} · revision ${page.revision} · `,
        link("Open in the wiki", page.url),
      ),
    );
    if (headings.length > 1) {
      root.append(el(
        "nav",
        { class: "headings", "aria-label": "Headings" },
        el(
          "ul",
          {},
          headings.map((h, i) => {
            h.id = `h-${i}`;
            return el(
              "li",
              { "data-level": h.tagName.slice(1) },
              el("a", {
                href: `#h-${i}`,
                onclick: (event) => {
                  event.preventDefault();
                  h.scrollIntoView();
                },
              }, h.textContent),
            );
          }),
        ),
      ));
    }
    root.append(el("article", { class: "page" }, body));
    if (page.truncated) {
      root.append(
        el("p", { class: "notice" }, "The page goes on: ", link("read it in the wiki", page.url)),
      );
    }
  }

  // ---- a small markdown renderer: text nodes only, never HTML from the page ----

  function markdown(source, citations) {
    const wrap = el("div", { class: "markdown" });
    const lines = source.replace(/\r\n/g, "\n").split("\n");
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      const fence = /^(```|~~~)/.exec(line);
      if (fence) {
        const code = [];
        i++;
        while (i < lines.length && !lines[i].startsWith(fence[1])) code.push(lines[i++]);
        i++;
        wrap.append(el("pre", {}, el("code", {}, code.join("\n"))));
        continue;
      }
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      if (heading) {
        wrap.append(
          el(`h${Math.min(6, heading[1].length + 1)}`, {}, inline(heading[2], citations)),
        );
        i++;
        continue;
      }
      if (ITEM.test(line)) {
        const ordered = /^\s*\d/.test(line);
        const items = [];
        while (i < lines.length) {
          if (ITEM.test(lines[i])) items.push(lines[i++].replace(ITEM, ""));
          else if (/^\s{2,}\S/.test(lines[i])) items[items.length - 1] += ` ${lines[i++].trim()}`;
          else break;
        }
        wrap.append(
          el(ordered ? "ol" : "ul", {}, items.map((t) => el("li", {}, inline(t, citations)))),
        );
        continue;
      }
      if (line.startsWith("|") && /^\|?\s*:?-{3,}/.test(lines[i + 1] || "")) {
        const cells = (row) => row.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
        const head = cells(line);
        i += 2;
        const rows = [];
        while (i < lines.length && lines[i].startsWith("|")) rows.push(cells(lines[i++]));
        wrap.append(el(
          "table",
          {},
          el("thead", {}, el("tr", {}, head.map((c) => el("th", {}, inline(c, citations))))),
          el(
            "tbody",
            {},
            rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, inline(c, citations))))),
          ),
        ));
        continue;
      }
      if (line.startsWith(">")) {
        const quote = [];
        while (i < lines.length && lines[i].startsWith(">")) {
          quote.push(lines[i++].replace(/^>\s?/, ""));
        }
        wrap.append(el("blockquote", {}, inline(quote.join(" "), citations)));
        continue;
      }
      if (line.trim() === "") {
        i++;
        continue;
      }
      const paragraph = [];
      while (
        i < lines.length && lines[i].trim() !== "" &&
        !/^(#{1,6}\s|```|~~~|>|\||\s*([-*+]|\d+[.)])\s)/.test(lines[i])
      ) {
        paragraph.push(lines[i++]);
      }
      if (paragraph.length === 0) paragraph.push(lines[i++]);
      wrap.append(el("p", {}, inline(paragraph.join(" "), citations)));
    }
    return wrap;
  }

  const ITEM = /^\s*([-*+]|\d+[.)])\s+/;

  const INLINE =
    /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[\[[^\]]+\]\])|(\[[^\]]+\]\([^)\s]+\))|(\[\d+\])/;

  function inline(text, citations) {
    const nodes = [];
    let rest = text;
    while (rest.length > 0) {
      const match = INLINE.exec(rest);
      if (!match) {
        nodes.push(rest);
        break;
      }
      if (match.index > 0) nodes.push(rest.slice(0, match.index));
      const token = match[0];
      if (match[1]) nodes.push(el("code", {}, token.slice(1, -1)));
      else if (match[2]) nodes.push(el("strong", {}, inline(token.slice(2, -2), citations)));
      else if (match[3]) nodes.push(el("em", {}, inline(token.slice(1, -1), citations)));
      else if (match[4]) nodes.push(token.slice(2, -2));
      else if (match[5]) {
        const [, label, url] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token);
        nodes.push(/^https?:\/\//.test(url) ? link(label, url) : label);
      } else {
        const n = Number(token.slice(1, -1));
        const cited = citations.find((c) => c.n === n);
        nodes.push(
          cited
            ? el(
              "sup",
              {},
              el("a", {
                href: `#source-${n}`,
                class: "cite",
                onclick: (event) => {
                  event.preventDefault();
                  document.getElementById(`source-${n}`).scrollIntoView({ block: "nearest" });
                },
              }, `[${n}]`),
            )
            : token,
        );
      }
      rest = rest.slice(match.index + token.length);
    }
    return nodes;
  }

  // ---- start: introduce the view to its host ----

  request("ui/initialize", {
    appInfo: { name: "knowledge-wiki-view", version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: "2026-01-26",
  }).then((init) => {
    applyContext(init && init.hostContext);
    notify("ui/notifications/initialized", {});
  }).catch(() => {});
})();
