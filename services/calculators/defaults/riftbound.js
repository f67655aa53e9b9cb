// Deck breakdown (Riftbound): the default calculator, on for everyone until they switch it
// off. It shows the main deck's domains, the rune deck's domains, the energy curve, Might,
// card types, the average energy and the unit / spell / gear split, as the calculators guide's
// table lists them, widget for widget what the reference's default dashboard draws.
//
// The Legend, the runes and the battlefields are zones of their own: only the runes show, as
// the rune deck's domains; the rest of the dashboard is the main deck.

const CURVE_LABELS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+"];
const DOMAINS = ["body", "calm", "chaos", "fury", "mind", "order", "colorless", "neutral"];
const TYPE_ORDER = ["champion", "unit", "spell", "gear"];
const OTHER_ZONES = ["legend", "battlefield"];

export default function compute(pile, cardsById) {
  const known = isObject(cardsById) ? cardsById : {};
  const curve = CURVE_LABELS.map(() => 0);
  const might = CURVE_LABELS.map(() => 0);
  const domains = new Map();
  const runeDomains = new Map();
  const types = new Map();
  let cards = 0;
  let energy = 0;

  Object.entries(isObject(pile) ? pile : {}).forEach(([ref, copies]) => {
    const count = Number.isFinite(copies) ? Math.max(0, Math.floor(copies)) : 0;
    const card = known[ref];
    if (count === 0 || !isObject(card)) {
      return;
    }
    const game = isObject(card.game) ? card.game : {};
    const type = typeof game.type === "string" && game.type !== "" ? game.type : "unknown";
    if (type === "rune") {
      countDomains(runeDomains, game.domains, count);
      return;
    }
    if (OTHER_ZONES.includes(type)) {
      return;
    }
    const cost = Number.isFinite(game.energy) ? Math.max(0, Math.floor(game.energy)) : 0;
    curve[Math.min(cost, 10)] += count;
    energy += cost * count;
    cards += count;
    types.set(type, (types.get(type) ?? 0) + count);
    // Might of the units (a champion is a unit); a unit without a number is not charted.
    if ((type === "unit" || type === "champion") && Number.isFinite(game.might)) {
      might[Math.min(Math.max(0, Math.floor(game.might)), 10)] += count;
    }
    countDomains(domains, game.domains, count);
  });

  const split = ["unit", "spell", "gear"].map((key) => ({
    key: key,
    label: capitalized(key),
    value: types.get(key) ?? 0,
    color: "",
  }));
  const runes = ordered(runeDomains, DOMAINS);

  const widgets = [
    { kind: "bars", label: "Domains", labelKey: "riftbound.domains", vocabulary: "riftbound.domain", segments: ordered(domains, DOMAINS) },
  ];
  // The rune split and Might appear only when they have something to show.
  if (runes.length > 0) {
    widgets.push({ kind: "bars", label: "Rune domains", labelKey: "riftbound.runeDomains", vocabulary: "riftbound.domain", segments: runes });
  }
  widgets.push({ kind: "histogram", label: "Energy curve", labelKey: "riftbound.energyCurve", buckets: curve, labels: CURVE_LABELS });
  if (might.some((count) => count > 0)) {
    widgets.push({ kind: "histogram", label: "Might", labelKey: "riftbound.might", buckets: might, labels: CURVE_LABELS });
  }
  widgets.push({ kind: "donut", label: "Card types", labelKey: "riftbound.cardTypes", vocabulary: "riftbound.cardType", segments: ordered(types, TYPE_ORDER) });
  widgets.push({
    kind: "stat",
    label: "Average energy",
    labelKey: "riftbound.averageEnergy",
    value: cards > 0 ? Math.round((energy / cards) * 10) / 10 : 0,
  });
  widgets.push({ kind: "donut", label: "Unit / Spell / Gear", labelKey: "riftbound.typeBalance", vocabulary: "riftbound.cardType", segments: split });
  return { widgets: widgets };
}

// Adds a card's copies to each of its known domains.
function countDomains(counts, domains, count) {
  for (const domain of Array.isArray(domains) ? domains : []) {
    if (DOMAINS.includes(domain)) {
      counts.set(domain, (counts.get(domain) ?? 0) + count);
    }
  }
}

// The counted keys in `order`, any other after them by count (most first).
function ordered(counts, order) {
  const rank = (key) => (order.includes(key) ? order.indexOf(key) : order.length);
  return [...counts.entries()]
    .filter(([, value]) => value > 0)
    .sort((a, b) => rank(a[0]) - rank(b[0]) || b[1] - a[1])
    .map(([key, value]) => ({ key: key, label: capitalized(key), value: value, color: "" }));
}

function capitalized(word) {
  return word.length > 0 ? word.slice(0, 1).toUpperCase() + word.slice(1) : word;
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
