// Deck breakdown (Pokémon TCG): the default calculator, on for everyone until they switch it
// off. It shows Pokémon / Trainer / Energy, the deck's size, its energy types, the mulligan
// chance, the Opening Hand Starters table, retreat costs and regulation marks, as the
// calculators guide's table lists them, widget for widget what the reference's default
// dashboard draws.

const TYPES = ["Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting", "Darkness", "Metal", "Fairy", "Dragon", "Colorless"];

// The one-letter energy symbols of card names and ids ("Basic {L} Energy"): {R} is Fire and
// {N} Dragon.
const SYMBOLS = { G: "Grass", R: "Fire", W: "Water", L: "Lightning", P: "Psychic", F: "Fighting", D: "Darkness", M: "Metal", Y: "Fairy", N: "Dragon", C: "Colorless" };

const RETREAT_LABELS = ["0", "1", "2", "3", "4+"];
const HAND = 7;

export default function compute(pile, cardsById) {
  const known = isObject(cardsById) ? cardsById : {};
  const kinds = { pokemon: 0, trainer: 0, energy: 0 };
  const energyTypes = new Map();
  const marks = new Map();
  const retreat = RETREAT_LABELS.map(() => 0);
  let total = 0;
  let basics = 0;

  Object.entries(isObject(pile) ? pile : {}).forEach(([ref, copies]) => {
    const count = Number.isFinite(copies) ? Math.max(0, Math.floor(copies)) : 0;
    if (count === 0) {
      return;
    }
    const card = known[ref];
    const game = isObject(card) && isObject(card.game) ? card.game : {};
    const supertype = typeof game.supertype === "string" ? game.supertype : "";
    const subtypes = Array.isArray(game.subtypes) ? game.subtypes : [];
    total += count;

    if (isPokemon(supertype)) {
      kinds.pokemon += count;
      if (subtypes.includes("Basic")) {
        basics += count;
      }
      const cost = Number.isFinite(game.convertedRetreatCost) ? Math.max(0, Math.floor(game.convertedRetreatCost)) : 0;
      retreat[Math.min(cost, 4)] += count;
    } else if (supertype === "Trainer") {
      kinds.trainer += count;
    } else if (supertype === "Energy") {
      kinds.energy += count;
      // Only Energy cards make the energy types; one that provides none is "Special".
      const provided = energyOf(card, game).filter((type) => typeof type === "string" && type !== "");
      for (const type of provided.length > 0 ? provided : ["Special"]) {
        energyTypes.set(type, (energyTypes.get(type) ?? 0) + count);
      }
    }

    // Basic Energy never rotates, so it stays out of the regulation marks.
    const mark = typeof game.regulationMark === "string" ? game.regulationMark : "";
    if (mark !== "" && !(supertype === "Energy" && subtypes.includes("Basic"))) {
      marks.set(mark, (marks.get(mark) ?? 0) + count);
    }
  });

  const segment = (key, label, value) => ({ key: key, label: label, value: value, color: "" });
  const counted = (map) => [...map.entries()].filter(([, value]) => value > 0);

  const widgets = [];
  widgets.push({
    kind: "donut",
    label: "Deck breakdown",
    labelKey: "pokemon.deckBreakdown",
    vocabulary: "pokemon.supertype",
    segments: [
      segment("pokemon", "Pokémon", kinds.pokemon),
      segment("trainer", "Trainer", kinds.trainer),
      segment("energy", "Energy", kinds.energy),
    ].filter((slice) => slice.value > 0),
  });
  widgets.push({ kind: "stat", label: "Total cards", labelKey: "pokemon.totalCards", value: total });
  widgets.push({
    kind: "donut",
    label: "Energy types",
    labelKey: "pokemon.energyTypes",
    vocabulary: "pokemon.energyType",
    // Most copies first; a tie keeps the order they were met in.
    segments: counted(energyTypes)
      .sort((a, b) => b[1] - a[1])
      .map(([key, value]) => segment(key, key, value)),
  });
  // The chance of no Basic Pokémon in the opening hand; 0 when one cannot be avoided.
  const hand = Math.min(HAND, total);
  widgets.push({
    kind: "stat",
    label: "Mulligan chance",
    labelKey: "pokemon.mulliganChance",
    value: percent(total > 0 ? noneDrawn(total, basics, hand) : 0),
  });
  widgets.push(startersTable(pile, cardsById));
  widgets.push({ kind: "histogram", label: "Retreat cost", labelKey: "pokemon.retreatCost", buckets: retreat, labels: RETREAT_LABELS });
  widgets.push({
    kind: "gauge",
    label: "Regulation marks",
    labelKey: "pokemon.regulationMarks",
    segments: counted(marks)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([key, value]) => segment(key, key, value)),
  });
  return { widgets: widgets };
}

// Opening Hand Starters: one row per Basic Pokémon (cards of one name together), the chance
// it is in the opening hand, and the chance it is the only Basic there, so it must start.
function startersTable(pile, cardsById) {
  const rows = new Map();
  let deck = 0;
  let allBasics = 0;
  Object.keys(pile).forEach((ref) => {
    const copies = Number(pile[ref]) || 0;
    if (copies <= 0) {
      return;
    }
    deck += copies;
    const card = cardsById[ref];
    if (!(isPokemon(card?.game?.supertype) && holds(card?.game?.subtypes, "Basic"))) {
      return;
    }
    allBasics += copies;
    const name = typeof card?.name === "string" && card.name !== "" ? card.name : ref;
    rows.set(name, (rows.get(name) ?? 0) + copies);
  });
  const hand = Math.min(HAND, deck);
  const entries = [...rows.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    kind: "table",
    label: "Opening Hand Starters",
    labelKey: "pokemon.openingHandStarters",
    columns: ["Pokémon", "Possible Starter", "Forced Starter"],
    columnKeys: ["pokemon.starterTable.pokemon", "pokemon.starterTable.possibleStarter", "pokemon.starterTable.forcedStarter"],
    rows: entries.map(([name, copies]) => [
      name,
      percent(1 - noneDrawn(deck, copies, hand)),
      percent(noneDrawn(deck, allBasics - copies, hand) - noneDrawn(deck, allBasics, hand)),
    ]),
  };
}

// The chance that none of `excluded` cards of a `deck` is among `drawn`: a running product of
// draw ratios (no factorials to overflow), 0 when the rest cannot fill the hand.
function noneDrawn(deck, excluded, drawn) {
  if (deck - excluded < drawn) {
    return 0;
  }
  let chance = 1;
  for (let i = 0; i < drawn; i = i + 1) {
    chance = (chance * (deck - excluded - i)) / (deck - i);
  }
  return chance;
}

// A chance in [0, 1] as a percentage with two decimals ("12.34%").
function percent(value) {
  const clamped = Math.min(1, Math.max(0, value));
  return (Math.round(clamped * 10000) / 100).toFixed(2) + "%";
}

// The catalog spells the supertype "Pokémon"; the plain "Pokemon" is read too.
function isPokemon(supertype) {
  return supertype === "Pokémon" || supertype === "Pokemon";
}

// The energy types a card provides: a card's own `types` when it has some; for an Energy card
// without, the type its identity id names ("basic-d-energy--…"), else its name names
// ("Basic {L} Energy", "Fire Energy").
function energyOf(card, game) {
  if (Array.isArray(game.types) && game.types.length > 0) {
    return game.types;
  }
  if (game.supertype !== "Energy") {
    return Array.isArray(game.types) ? game.types : [];
  }
  const byId = typesOfId(isObject(card) ? card.id : "");
  return byId.length > 0 ? byId : typesOfName(isObject(card) ? card.name : "");
}

function typesOfId(id) {
  const slug = String(id ?? "").split("--")[0].toLowerCase();
  const symbol = slug.match(/(?:^|-)([a-z])-energy$/);
  if (symbol) {
    const type = SYMBOLS[symbol[1].toUpperCase()];
    return type ? [type] : [];
  }
  const word = slug.replace(/^basic-/, "").replace(/-energy$/, "");
  return TYPES.filter((type) => type.toLowerCase() === word);
}

function typesOfName(name) {
  const text = String(name ?? "");
  const found = [];
  for (const token of text.match(/\{[A-Za-z]\}/g) ?? []) {
    const type = SYMBOLS[token.slice(1, 2).toUpperCase()];
    if (type && !found.includes(type)) {
      found.push(type);
    }
  }
  if (found.length > 0) {
    return found;
  }
  const word = text.replace(/^basic\s+/i, "").replace(/\s+energy$/i, "").trim().toLowerCase();
  return TYPES.filter((type) => type.toLowerCase() === word);
}

// Whether a list holds `needle`, or a text contains it; nothing holds anything.
function holds(haystack, needle) {
  if (Array.isArray(haystack)) {
    return haystack.includes(needle);
  }
  return haystack !== undefined && haystack !== null && String(haystack).includes(String(needle));
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
