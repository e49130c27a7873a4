// The Ask page, streamed: the form's question goes to GET <data-stream>?q=… (server-sent
// events: `status`, `delta` sentences as they are verified, then `answer` or `error`) and the
// answer grows in place, then is shown whole with its citations (each linked to its page's
// section), the coverage verdict and the frontier notes, as the server renders them. Without
// this script the form is a plain GET that returns the whole answer.
(() => {
  const form = document.querySelector("form.ask-form[data-stream]");
  const result = document.getElementById("ask-result");
  const status = document.getElementById("ask-status");
  if (!form || !result || !status || !globalThis.EventSource) return;
  const input = form.querySelector("input[name=q]");
  let source = null;

  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    Object.assign(node, props);
    node.append(...children);
    return node;
  };
  // A citation's URL is absolute (the service's base URL): link it on this site.
  const local = (url) => {
    const u = new URL(url, location.href);
    return u.pathname + u.search + u.hash;
  };
  const newPage = (title) => {
    const u = new URL(form.dataset.new, location.href);
    u.searchParams.set("path", title);
    return u.pathname + u.search;
  };

  // The answer's text with each `[n]` linked to its citation.
  function marked(text) {
    return text.split(/(\[\d+\])/).map((part) => {
      const n = /^\[(\d+)\]$/.exec(part)?.[1];
      return n ? el("a", { href: `#cite-${n}`, textContent: part }) : part;
    });
  }

  function render(answer) {
    const section = el("section", { className: "answer" });
    section.setAttribute("aria-labelledby", "answer-heading");
    const coverage = el(
      "p",
      { className: `coverage ${answer.coverage}` },
      el("strong", { textContent: form.dataset[`coverage${cap(answer.coverage)}`] }),
      answer.mode === "extractive" ? " · quoted from the pages" : "",
    );
    section.append(
      el("h2", { id: "answer-heading", textContent: answer.question }),
      coverage,
      el("p", { className: "answer-text" }, ...marked(answer.answer)),
    );
    if (answer.citations.length > 0) {
      section.append(
        el("h3", { textContent: "Sources" }),
        el(
          "ol",
          { className: "citations" },
          ...answer.citations.map((c) =>
            el(
              "li",
              { id: `cite-${c.n}`, value: c.n },
              el("a", { href: local(c.url), textContent: c.section ?? c.title }),
              el("blockquote", { textContent: c.quote }),
            )
          ),
        ),
      );
    }
    if (answer.frontier.length > 0) {
      section.append(
        el("h3", { textContent: "Where the wiki is thin" }),
        el("ul", { className: "frontier" }, ...answer.frontier.map((f) => note(f, answer))),
      );
    }
    result.replaceChildren(section);
  }

  // A frontier note, with "write this page" for members (the form carries `data-new`).
  function note(f, answer) {
    const item = el("li", {}, f.note);
    if (!form.dataset.new) return item;
    const target = f.kind === "missing_page" ? /^"(.+)" is linked from "/.exec(f.note)?.[1] : null;
    if (target) {
      item.append(
        " ",
        el("a", { className: "missing", href: newPage(target), textContent: `Write “${target}”` }),
      );
    } else if (f.kind === "uncovered") {
      item.append(
        " ",
        el("a", { href: newPage(answer.page_title), textContent: "Write this page" }),
      );
    }
    return item;
  }

  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  function ask(question) {
    source?.close();
    const text = el("p", { className: "answer-text" });
    const section = el(
      "section",
      { className: "answer" },
      el("h2", { id: "answer-heading", textContent: question }),
      text,
    );
    result.replaceChildren(section);
    status.textContent = "Looking through the pages…";
    form.setAttribute("aria-busy", "true");
    const stream = new URL(form.dataset.stream, location.href);
    stream.searchParams.set("q", question);
    source = new EventSource(stream);
    const done = (message) => {
      source?.close();
      source = null;
      form.removeAttribute("aria-busy");
      status.textContent = message;
    };
    source.addEventListener("status", (e) => {
      const { stage } = JSON.parse(e.data);
      if (stage === "answering") status.textContent = "Writing the answer…";
    });
    source.addEventListener("delta", (e) => {
      text.append(JSON.parse(e.data).text);
    });
    source.addEventListener("answer", (e) => {
      render(JSON.parse(e.data));
      done("Answered.");
    });
    source.addEventListener("error", (e) => {
      if (e.data) {
        const problem = JSON.parse(e.data);
        const alert = el("p", { className: "alert", textContent: problem.detail });
        alert.setAttribute("role", "alert");
        result.replaceChildren(alert);
        done("");
      } else {
        // The stream broke before an answer: ask again the plain way, for the whole page.
        done("");
        location.assign(`${form.action}?${new URLSearchParams({ q: question })}`);
      }
    });
  }

  // Back and forward move between asked questions: the page at that address answers again.
  addEventListener("popstate", () => location.reload());

  // Asked from the wiki bar (`…/-/ask?q=…&stream=1`): answer now, at the question's own address.
  if (form.dataset.autostart !== undefined && input.value.trim()) {
    const question = input.value.trim();
    history.replaceState(
      { q: question },
      "",
      `${form.action}?${new URLSearchParams({ q: question })}`,
    );
    ask(question);
  }

  form.addEventListener("submit", (event) => {
    const question = input.value.trim();
    if (!question) return;
    event.preventDefault();
    const url = `${form.action}?${new URLSearchParams({ q: question })}`;
    history.pushState({ q: question }, "", url);
    ask(question);
  });
})();
