// Turnier's own script, loaded as an ES module on every page. Pages work without it; it only
// adds what must react without a reload.

// A search box focuses itself on a search page with no results yet, so typing starts at once.
const search = document.querySelector("form.search input[type=search]");
if (search && search.value === "") {
  search.focus();
}
