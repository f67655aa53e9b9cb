// Built-in deck rule: Legends of Runeterra, Riot constructed.
// Follows: Riot Games, Legends of Runeterra constructed deck building rules (client patch 5.x,
// Data Dragon 5_12_0): exactly 40 cards, at most 3 copies of a card, at most 6 champions, at
// most 2 regions. A card of several regions fits when one of its regions is one of the deck's;
// the Runeterra champion refs in regionRefs (card codes such as "06RU001") are not regions.
const DECK_SIZE = 40;
const MAX_COPIES = 3;
const MAX_CHAMPIONS = 6;
const MAX_REGIONS = 2;
const CARD_CODE = /^[0-9]{2}[A-Z]{2,3}[0-9]{3}$/;

function mainDeck(deck) {
  if (deck.main && typeof deck.main === "object") {
    return deck.main;
  }

  const main = {};

  for (const [ref, copies] of Object.entries(deck)) {
    if (typeof copies === "number") {
      main[ref] = copies;
    }
  }

  return main;
}

function regionsOf(card) {
  const refs = (card && card.game && card.game.regionRefs) || [];
  return refs.filter((ref) => !CARD_CODE.test(ref));
}

// The region's display name from the catalog globals (`globals.regions[ref].label`), else its ref.
function regionName(ref, context) {
  const regions = context && context.globals && context.globals.regions;
  const region = regions && regions[ref];
  return (region && region.label) || ref;
}

// The fewest regions that give every card one of its own, as a sorted list (empty when no card
// has a region). Subsets are tried by size, so the answer is a smallest cover.
function regionCover(cardRegions) {
  const all = [...new Set(cardRegions.flat())].sort();

  for (let size = 1; size <= all.length; size += 1) {
    const picked = [];
    const found = pick(all, size, 0, picked, cardRegions);

    if (found) {
      return found;
    }
  }

  return all;
}

function pick(all, size, from, picked, cardRegions) {
  if (picked.length === size) {
    const chosen = new Set(picked);
    const covers = cardRegions.every(
      (regions) => regions.length === 0 || regions.some((r) => chosen.has(r)),
    );
    return covers ? [...picked] : null;
  }

  for (let at = from; at < all.length; at += 1) {
    picked.push(all[at]);
    const found = pick(all, size, at + 1, picked, cardRegions);
    picked.pop();

    if (found) {
      return found;
    }
  }

  return null;
}

export default function validateDeck(deck, cardsById, context) {
  const main = mainDeck(deck);
  const issues = [];
  let total = 0;
  let champions = 0;
  const cardRegions = [];

  for (const [ref, copies] of Object.entries(main)) {
    const card = cardsById[ref];
    const name = (card && card.name) || ref;
    total += copies;

    if (copies > MAX_COPIES) {
      issues.push({
        code: "too_many_copies",
        message: `${name}: at most ${MAX_COPIES} copies (found ${copies}).`,
      });
    }

    if (card && card.game && card.game.rarityRef === "Champion") {
      champions += copies;
    }

    cardRegions.push(regionsOf(card));
  }

  if (total !== DECK_SIZE) {
    issues.push({
      code: "deck_size",
      message: `A deck needs exactly ${DECK_SIZE} cards (found ${total}).`,
    });
  }

  if (champions > MAX_CHAMPIONS) {
    issues.push({
      code: "too_many_champions",
      message: `A deck may have at most ${MAX_CHAMPIONS} champions (found ${champions}).`,
    });
  }

  const cover = regionCover(cardRegions);

  if (cover.length > MAX_REGIONS) {
    const names = cover.map((ref) => regionName(ref, context)).join(", ");
    issues.push({
      code: "too_many_regions",
      message: `A deck may use at most ${MAX_REGIONS} regions (this one needs ${cover.length}: ${names}).`,
    });
  }

  return { valid: issues.length === 0, issues };
}
