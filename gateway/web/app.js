// Turnier's own script, loaded as an ES module on every page. Pages work without it; it only
// adds what must react without a reload.

// A search box focuses itself on a search page with no results yet, so typing starts at once.
const search = document.querySelector("form.search input[type=search]");
if (search && search.value === "") {
  search.focus();
}

// Copy buttons: each names the field it copies (`data-copy="deck-list"`). They stay hidden
// without this script (the field can still be selected and copied by hand); the button says
// when it worked, and a clipboard that refuses falls back to selecting the text.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  if (!field) {
    continue;
  }
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
    } catch {
      field.focus();
      field.select();
      button.textContent = "Selected: press Ctrl+C";
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}

// A picker marked `data-autosubmit` (the calculators dialog's) shows its choice at once.
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}

// The calculator editor's live preview: a changed field posts the form as "Update preview" and
// swaps in the preview the page comes back with, so typing keeps its place and focus.
const live = document.querySelector("form[data-live-preview]");
if (live) {
  let pending = null;
  const rerun = async () => {
    const body = new FormData(live);
    body.set("op", "preview");
    const answer = await fetch(live.action, { method: "POST", body: new URLSearchParams(body) });
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = page.getElementById("preview");
    const shown = document.getElementById("preview");
    if (fresh && shown) {
      shown.replaceWith(fresh);
    }
  };
  live.addEventListener("input", () => {
    clearTimeout(pending);
    pending = setTimeout(rerun, 400);
  });
}
