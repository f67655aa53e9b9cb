// Turnier's own script, loaded as an ES module on every page. Pages work without it; it only
// adds what must react without a reload.

// A search box focuses itself on a search page with no results yet, so typing starts at once.
const search = document.querySelector("form.search input[type=search]");
if (search && search.value === "") {
  search.focus();
}

// What a page's content needs wired, again after the deck builder swaps its content in.
function wire(root) {
  // Copy buttons: each names the field it copies (`data-copy="deck-list"`). They stay hidden
  // without this script (the field can still be selected and copied by hand); the button says
  // when it worked, and a clipboard that refuses falls back to selecting the text.
  for (const button of root.querySelectorAll("button[data-copy]")) {
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
  for (const select of root.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.requestSubmit());
  }

  // A round's timer counts down on the page (from the server's figure when it was drawn).
  for (const timer of root.querySelectorAll("[data-time-left-ms][data-running=yes]")) {
    const end = Date.now() + Number(timer.dataset.timeLeftMs);
    const tick = () => {
      const seconds = Math.max(0, Math.floor((end - Date.now()) / 1000));
      timer.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
      if (timer.isConnected && seconds > 0) {
        setTimeout(tick, 1000);
      }
    };
    setTimeout(tick, 1000);
  }
}
wire(document);

// The deck builder: a change (a card added or taken out, an import, a search, the rules) fetches
// the next page and swaps its content in, so the counts and the validation messages update in
// place and focus stays on the control that was used. The address still follows the deck
// (history), and without this script every change is an ordinary page load.
const main = document.querySelector("main");
if (main && main.querySelector(".builder")) {
  const builderAddress = (url) => url.origin === location.origin && url.pathname.endsWith("/deck-builder") && url.hash === "";
  const swap = async (url, label) => {
    main.setAttribute("aria-busy", "true");
    try {
      const answer = await fetch(url, { headers: { accept: "text/html" } });
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const next = page.querySelector("main");
      if (!next || !next.querySelector(".builder")) {
        location.assign(answer.url);
        return;
      }
      main.replaceChildren(...next.childNodes);
      document.title = page.title;
      history.pushState(null, "", answer.url);
      wire(main);
      const again = label && [...main.querySelectorAll("[aria-label]")].find((element) => element.getAttribute("aria-label") === label);
      if (again) {
        again.focus();
      }
    } catch {
      location.assign(url);
    } finally {
      main.removeAttribute("aria-busy");
    }
  };
  main.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || !link.closest(".builder") || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      return;
    }
    const url = new URL(link.href);
    if (builderAddress(url)) {
      event.preventDefault();
      swap(url, link.getAttribute("aria-label"));
    }
  });
  main.addEventListener("submit", (event) => {
    const form = event.target;
    const url = new URL(form.action);
    if (form.method !== "get" || !builderAddress(url)) {
      return;
    }
    event.preventDefault();
    url.search = new URLSearchParams(new FormData(form)).toString();
    swap(url, null);
  });
  window.addEventListener("popstate", () => location.reload());
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

// A tournament's pages follow its events stream: when something happens (pairings, a result,
// standings, registrations, the timer), the page fetches itself again and swaps its content in,
// so players and organizers see it without a reload.
const followed = document.querySelector("[data-live-events]");
if (followed && "EventSource" in window) {
  const kinds = ["pairings_published", "result_reported", "result_confirmed", "standings_changed",
    "round_timer", "stage_advanced", "registration_changed", "tournament_started",
    "tournament_changed", "tournament_finished"];
  let pending = null;
  const redraw = async () => {
    const answer = await fetch(location.href, { headers: { accept: "text/html" } });
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = page.querySelector("[data-live-events]");
    const shown = document.querySelector("[data-live-events]");
    if (fresh && shown) {
      shown.replaceChildren(...fresh.childNodes);
      wire(shown);
    }
  };
  // A lineup being checked: look again until its verdict is in.
  const poll = async () => {
    if (document.querySelector("[data-poll]")) {
      await redraw();
      setTimeout(poll, 1500);
    }
  };
  setTimeout(poll, 1500);
  const stream = new EventSource(followed.dataset.liveEvents);
  for (const kind of kinds) {
    stream.addEventListener(kind, () => {
      clearTimeout(pending);
      pending = setTimeout(redraw, 150);
    });
  }
}
