// The Ask page, streamed: the form's question goes to GET <data-stream>?q=… (server-sent
// events: `status`, `delta` sentences as they are verified, then `answer` or `error`) and the
// answer grows in place, then is replaced by the whole answer as the server renders it (its
// `html`: citations linked to their sections, the coverage verdict, the frontier notes).
// Without this script the form is a plain GET that returns the whole answer.
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
      // The server sends the answer rendered as the page renders it (`AnswerView`).
      result.innerHTML = JSON.parse(e.data).html;
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
