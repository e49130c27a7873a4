// "Try it" on the API reference (/api/v1/docs): shows the forms the page renders hidden, keeps
// the pasted account token in this tab only (sessionStorage, never a cookie or localStorage),
// and sends each form's request with fetch to this origin, showing the status and the body.
const KEY = "wiki-api-token";
const tokenForm = document.querySelector("form.token");
const state = document.querySelector("[data-token-state]");
let token = sessionStorage.getItem(KEY) ?? "";

function showState() {
  if (state) state.textContent = token ? "A token is set for this tab." : "No token set.";
}

if (tokenForm) {
  tokenForm.hidden = false;
  const input = tokenForm.elements.namedItem("token");
  showState();
  tokenForm.addEventListener("submit", (event) => {
    event.preventDefault();
    token = input.value.trim();
    input.value = "";
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
    showState();
  });
  tokenForm.querySelector("[data-forget]")?.addEventListener("click", () => {
    token = "";
    sessionStorage.removeItem(KEY);
    showState();
  });
}

// The API's base path, from this page's own address (…/api/v1/docs).
const base = location.pathname.replace(/\/docs\/?$/, "");

for (const form of document.querySelectorAll("form.try")) {
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = form.querySelector(".result");
    const query = new URLSearchParams();
    let path = form.dataset.path;
    for (const input of form.querySelectorAll("input[data-in]")) {
      if (input.dataset.in === "path") {
        path = path.replace(`{${input.name}}`, encodeURIComponent(input.value));
      } else if (input.value !== "") query.set(input.name, input.value);
    }
    const headers = { Accept: "application/json" };
    if (token && form.dataset.secured === "true") headers.Authorization = `Bearer ${token}`;
    const init = { method: form.dataset.method, headers };
    const body = form.elements.namedItem("body");
    if (body) {
      init.body = body.value;
      headers["Content-Type"] = "application/json";
    }
    const url = base + path + (query.size ? `?${query}` : "");
    result.replaceChildren(line("status", `${init.method} ${url} …`));
    try {
      const response = await fetch(url, init);
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (markdown, an event stream): shown as it came.
      }
      const status = line("status", `${response.status} ${response.statusText}`);
      if (!response.ok) status.classList.add("bad");
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      code.textContent = shown || "(no body)";
      pre.append(code);
      result.replaceChildren(status, pre);
    } catch (error) {
      const status = line("status", `Request failed: ${error.message}`);
      status.classList.add("bad");
      result.replaceChildren(status);
    }
  });
}

function line(className, text) {
  const p = document.createElement("p");
  p.className = className;
  p.textContent = text;
  return p;
}
