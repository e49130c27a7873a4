// Copy buttons: <button class="copy" data-copy="ID" hidden> copies the text of the element with
// id ID. The buttons show only with JavaScript (it unhides them); without it the text stays
// selectable. What happened is said in the button and, for screen readers, in a status region.
const status = document.createElement("p");
status.className = "sr-only";
status.setAttribute("role", "status");
document.body.append(status);

for (const button of document.querySelectorAll("button[data-copy]")) {
  const label = button.innerHTML;
  let timer;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    let message;
    try {
      await navigator.clipboard.writeText(source.textContent);
      message = "Copied";
    } catch {
      // No clipboard here (a page over http, or permission refused): select the text instead.
      const range = document.createRange();
      range.selectNodeContents(source);
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
}
