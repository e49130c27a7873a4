// The version switcher of a reading view: choosing a version opens it at once (the form's
// Go button does the same without JavaScript).
for (const select of document.querySelectorAll("form.version-switcher select")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}
