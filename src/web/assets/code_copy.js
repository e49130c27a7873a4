// A Copy button on each code block of a page (`article pre > code`): copies the code as
// written (the highlighting is only markup around it). Said in the button and, for screen
// readers, in a status region. Without script the code stays selectable.
(() => {
  const blocks = document.querySelectorAll("article.prose pre > code");
  if (blocks.length === 0) return;
  const status = document.createElement("p");
  status.className = "sr-only";
  status.setAttribute("role", "status");
  document.body.append(status);
  blocks.forEach((code) => {
    const pre = code.parentElement;
    const frame = document.createElement("div");
    frame.className = "code-block";
    pre.before(frame);
    frame.append(pre);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy-code";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code");
    let timer;
    button.addEventListener("click", async () => {
      let message;
      try {
        await navigator.clipboard.writeText(code.textContent);
        message = "Copied";
      } catch {
        // No clipboard here (a page over http, or permission refused): select the code instead.
        const range = document.createRange();
        range.selectNodeContents(code);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        message = "Selected: press Ctrl+C";
      }
      button.textContent = message;
      status.textContent = message;
      clearTimeout(timer);
      timer = setTimeout(() => {
        button.textContent = "Copy";
        status.textContent = "";
      }, 2000);
    });
    frame.append(button);
  });
})();
