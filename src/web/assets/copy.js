// Copy buttons, two kinds, one behaviour:
// - <button class="copy" data-copy="ID" hidden> copies the text of the element with id ID (the
//   buttons show only with JavaScript, which unhides them);
// - each code block of a page (`article.prose pre > code`) gets a Copy button that copies the code
//   as written (the highlighting is only markup around it).
// Without script the text stays selectable. What happened is said in the button and, for screen
// readers, in a status region.
(() => {
  const status = document.createElement("p");
  status.className = "sr-only";
  status.setAttribute("role", "status");
  document.body.append(status);

  /** Copies `source`'s text on a click of `button`, or selects it where there is no clipboard. */
  const copyOnClick = (button, source) => {
    const label = button.innerHTML;
    let timer;
    button.addEventListener("click", async () => {
      const element = source();
      if (!element) return;
      let message;
      try {
        await navigator.clipboard.writeText(element.textContent);
        message = "Copied";
      } catch {
        // No clipboard here (a page over http, or permission refused): select the text instead.
        const range = document.createRange();
        range.selectNodeContents(element);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        message = "Selected: press Ctrl+C";
      }
      button.textContent = message;
      status.textContent = message;
      clearTimeout(timer);
      timer = setTimeout(() => {
        button.innerHTML = label;
        status.textContent = "";
      }, 2000);
    });
  };

  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.hidden = false;
    copyOnClick(button, () => document.getElementById(button.dataset.copy));
  }

  for (const code of document.querySelectorAll("article.prose pre > code")) {
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
    copyOnClick(button, () => code);
    frame.append(button);
  }
})();
