// Built-in zone rule: Riftbound, the Battlefields pile.
// Follows: Riftbound Core Rules v1.3 (Riot Games), 103 Deck Construction, and the
// Turny.gg deck builder guide's Constructed template: 3 battlefields; the pool shows battlefields.
// The deck builder prefixes each message with the pile's name.
const BATTLEFIELDS = 3;

function counts(deck) {
  const out = {};

  for (const [ref, copies] of Object.entries(deck)) {
    if (typeof copies === "number") {
      out[ref] = copies;
    }
  }

  return out;
}

export default function validateDeck(deck, cardsById) {
  const issues = [];
  let total = 0;

  for (const [ref, copies] of Object.entries(counts(deck))) {
    const card = cardsById[ref];
    const type = card && card.game && card.game.type;
    const name = (card && card.name) || ref;

    if (type === "battlefield") {
      total += copies;
    } else {
      issues.push({ code: "not_a_battlefield", message: `${name} is not a battlefield.` });
    }
  }

  if (total !== BATTLEFIELDS) {
    issues.push({
      code: "battlefield_count",
      message: `The Battlefields pile must contain exactly ${BATTLEFIELDS} battlefields (found ${total}).`,
    });
  }

  return { valid: issues.length === 0, issues };
}

export function resolvePoolFilters() {
  return { cardTypes: ["battlefield"] };
}
