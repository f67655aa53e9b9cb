// Built-in zone rule: Riftbound, the Legend pile.
// Follows: Riftbound Core Rules v1.3 (Riot Games), 103 Deck Construction, and the
// Turny.gg deck builder guide's Constructed template: exactly one Legend; the pool shows Legends.
// The deck builder prefixes each message with the pile's name.
const LEGENDS = 1;

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

    if (type === "legend") {
      total += copies;
    } else {
      issues.push({ code: "not_a_legend", message: `${name} is not a Legend.` });
    }
  }

  if (total !== LEGENDS) {
    issues.push({
      code: "legend_count",
      message: `The Legend pile must contain exactly ${LEGENDS} Legend (found ${total}).`,
    });
  }

  return { valid: issues.length === 0, issues };
}

export function resolvePoolFilters() {
  return { cardTypes: ["legend"] };
}
