// The connect page's endpoint choice (`[data-endpoint-choice]`, radio buttons): each client's
// tab then shows the snippets of the chosen endpoint alone (`[data-endpoint]`). Without script
// the choice stays hidden and every endpoint's snippet shows, each under its heading.
const choice = document.querySelector("[data-endpoint-choice]");
if (choice) {
  const show = (key) => {
    for (const block of document.querySelectorAll("[data-endpoint]")) {
      block.hidden = block.dataset.endpoint !== key;
    }
  };
  choice.hidden = false;
  choice.addEventListener("change", (event) => show(event.target.value));
  show(choice.querySelector("input:checked")?.value);
}
