// Built-in zone rule: Riftbound, the Rune Deck pile.
// Follows: Riftbound Core Rules v1.3 (Riot Games), 103 Deck Construction, and the
// Turny.gg deck builder guide's Constructed template: 12 runes; the pool shows the runes of the Legend's domains.
// The deck builder prefixes each message with the pile's name.
const RUNES = 12;

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

    if (type === "rune") {
      total += copies;
    } else {
      issues.push({ code: "not_a_rune", message: `${name} is not a rune.` });
    }
  }

  if (total !== RUNES) {
    issues.push({
      code: "rune_count",
      message: `The rune deck must contain exactly ${RUNES} runes (found ${total}).`,
    });
  }

  return { valid: issues.length === 0, issues };
}

// The lineup's Legend: the first legend card in any pile.
function legendOf(input) {
  for (const pile of input.lineup || []) {
    for (const ref of Object.keys(pile.cards || {})) {
      const card = input.cardsById && input.cardsById[ref];

      if (card && card.game && card.game.type === "legend") {
        return card;
      }
    }
  }

  return null;
}

export function resolvePoolFilters(input) {
  const legend = legendOf(input);

  if (legend && Array.isArray(legend.game.domains)) {
    return { cardTypes: ["rune"], domains: legend.game.domains };
  }

  return { cardTypes: ["rune"] };
}
