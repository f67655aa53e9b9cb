// Built-in deck set rule: Legends of Runeterra, Riot lock.
// Follows: Riot Games, Legends of Runeterra official tournament lineup rules ("Riot lock",
// client patch 5.x): no champion in two decks of a lineup, and no two decks with the same pair
// of regions. A deck's regions are the fewest that give every card one of its own (the
// Runeterra champion refs in regionRefs are not regions); champions are cards whose rarityRef
// is "Champion", compared by card. The shared-champion message is the rulesets guide's.
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

function regionCover(cardRegions) {
  const all = [...new Set(cardRegions.flat())].sort();

  for (let size = 1; size <= all.length; size += 1) {
    const found = pick(all, size, 0, [], cardRegions);

    if (found) {
      return found;
    }
  }

  return [];
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

export default function validateDeckset(decks, cardsById, context) {
  const issues = [];
  const firstDeckByChampion = new Map();
  const firstDeckByRegions = new Map();

  decks.forEach((deck, index) => {
    const deckNumber = index + 1;
    const main = mainDeck(deck);
    const cardRegions = [];
    const seenHere = new Set();

    for (const ref of Object.keys(main)) {
      const card = cardsById[ref];
      cardRegions.push(regionsOf(card));

      if (!card || !card.game || card.game.rarityRef !== "Champion") {
        continue;
      }

      const key = card.id || ref;

      if (seenHere.has(key)) {
        continue;
      }

      seenHere.add(key);
      const firstDeck = firstDeckByChampion.get(key);

      if (firstDeck === undefined) {
        firstDeckByChampion.set(key, deckNumber);
      } else {
        issues.push({
          code: "shared_champion",
          message: `${card.name} is in deck ${firstDeck} and deck ${deckNumber}.`,
        });
      }
    }

    const regions = regionCover(cardRegions);

    if (regions.length === 0) {
      return;
    }

    const key = regions.join("+");
    const firstDeck = firstDeckByRegions.get(key);

    if (firstDeck === undefined) {
      firstDeckByRegions.set(key, deckNumber);
    } else {
      const names = regions.map((ref) => regionName(ref, context)).join(" and ");
      issues.push({
        code: "shared_regions",
        message: `Deck ${firstDeck} and deck ${deckNumber} both use ${names}.`,
      });
    }
  });

  return { valid: issues.length === 0, issues };
}
