// Deck breakdown (Legends of Runeterra): the default calculator, on for everyone until they
// switch it off. It shows the deck's regions, mana curve, card types, rarity, average cost and
// units to spells, as the calculators guide's table lists them, widget for widget what the
// reference's default dashboard draws.
//
// Cards the catalog does not know count nowhere; copies that are not a positive whole number
// count as none.

const CURVE_LABELS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+"];

// The card-type slices, in the order they are drawn.
const TYPES = [
  ["champions", "Champion"],
  ["followers", "Follower"],
  ["spells", "Spell"],
  ["landmarks", "Landmark"],
  ["equipment", "Equipment"],
];

export default function compute(pile, cardsById) {
  const known = isObject(cardsById) ? cardsById : {};
  const lines = [];

  Object.entries(isObject(pile) ? pile : {}).forEach(([ref, copies]) => {
    const count = Number.isFinite(copies) ? Math.max(0, Math.floor(copies)) : 0;
    const card = known[ref];
    if (count === 0 || !isObject(card)) {
      return;
    }
    const game = isObject(card.game) ? card.game : {};
    lines.push({
      name: typeof card.name === "string" ? card.name : "",
      game: game,
      copies: count,
      cost: Number.isFinite(game.cost) ? Math.max(0, Math.floor(game.cost)) : 0,
      regions: Array.isArray(game.regionRefs)
        ? game.regionRefs.filter((region) => typeof region === "string" && region !== "")
        : [],
    });
  });
  // The deck page's order: by cost, then by name.
  lines.sort((a, b) => a.cost - b.cost || a.name.localeCompare(b.name));

  const regions = deckRegions(lines);
  const curve = CURVE_LABELS.map(() => 0);
  const types = { champions: 0, followers: 0, spells: 0, landmarks: 0, equipment: 0 };
  const rarities = new Map();
  const byRegion = new Map();
  let cards = 0;
  let mana = 0;

  for (const line of lines) {
    cards += line.copies;
    mana += line.cost * line.copies;
    curve[Math.min(line.cost, 10)] += line.copies;

    // The English refs first; older catalogs only had the translated words.
    const type = line.game.typeRef ?? line.game.type;
    const supertype = line.game.supertypeRef ?? line.game.supertype;
    if (type === "Unit") {
      types[supertype === "Champion" ? "champions" : "followers"] += line.copies;
    } else if (type === "Spell") {
      types.spells += line.copies;
    } else if (type === "Landmark") {
      types.landmarks += line.copies;
    } else if (type === "Equipment") {
      types.equipment += line.copies;
    }

    const rarity = typeof line.game.rarityRef === "string" ? line.game.rarityRef : "Unknown";
    rarities.set(rarity, (rarities.get(rarity) ?? 0) + line.copies);

    // One region per card, the first of the deck's it carries, so the bars add up to the
    // deck; a card of none of them is left out.
    const region = regions.find((candidate) => line.regions.includes(candidate));
    if (region !== undefined) {
      byRegion.set(region, (byRegion.get(region) ?? 0) + line.copies);
    }
  }

  const segment = (key, label, value) => ({ key: key, label: label, value: value, color: "" });
  const regionBars = regions
    .filter((region) => (byRegion.get(region) ?? 0) > 0)
    .map((region) => segment(region, region, byRegion.get(region)));
  const typeSlices = TYPES.filter(([key]) => types[key] > 0).map(([key, label]) =>
    segment(key, label, types[key]),
  );
  // Most copies first; a tie keeps the deck's order (the sort is stable).
  const raritySlices = [...rarities.entries()]
    .filter(([, value]) => value > 0)
    .map(([key, value]) => segment(key, key, value))
    .sort((a, b) => b.value - a.value);

  const widgets = [];
  if (regionBars.length > 0) {
    widgets.push({ kind: "bars", label: "Regions", labelKey: "lor.regions", vocabulary: "lor.region", segments: regionBars });
  }
  widgets.push({ kind: "histogram", label: "Mana Curve", labelKey: "lor.manaCurve", buckets: curve, labels: CURVE_LABELS });
  if (typeSlices.length > 0) {
    widgets.push({ kind: "donut", label: "Card Types", labelKey: "lor.cardTypes", vocabulary: "lor.cardType", segments: typeSlices });
  }
  if (raritySlices.length > 0) {
    widgets.push({ kind: "donut", label: "Rarity", labelKey: "lor.rarity", vocabulary: "lor.rarity", segments: raritySlices });
  }
  widgets.push({
    kind: "stat",
    label: "Average Cost",
    labelKey: "lor.averageCost",
    value: cards > 0 ? Math.round((mana / cards) * 10) / 10 : 0,
  });
  widgets.push({
    kind: "ratio",
    label: "Units : Spells",
    labelKey: "lor.unitsToSpells",
    numerator: types.champions + types.followers,
    denominator: types.spells,
    format: "ratio",
  });
  return { widgets: widgets };
}

// The deck's regions as the deck page finds them: the region of each single-region card, in
// card order; then, for the cards that still fit none, their other regions (never a
// Runeterra champion's card-code ref, which starts with a digit).
function deckRegions(lines) {
  const regions = [];
  for (const line of lines) {
    if (line.regions.length === 1 && !regions.includes(line.regions[0])) {
      regions.push(line.regions[0]);
    }
  }
  const unplaced = lines.filter((line) => !line.regions.some((region) => regions.includes(region)));
  for (const line of unplaced) {
    for (const region of line.regions) {
      if (!/^\d/.test(region) && !regions.includes(region)) {
        regions.push(region);
      }
    }
  }
  return regions;
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
