// Built-in zone rule: Riftbound, the Main Deck pile.
// Follows: Riftbound Core Rules v1.3 (Riot Games), 103 Deck Construction, and the
// Turny.gg deck builder guide's Constructed template: exactly 40 cards, units, spells and gear; the
// pool shows the cards of the Legend's domains. The size message is the guide's, verbatim.
// The deck builder prefixes each message with the pile's name.
const MAIN_DECK = 40;
const MAIN_TYPES = ["unit", "spell", "gear"];

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

    total += copies;

    if (card && !MAIN_TYPES.includes(type)) {
      issues.push({
        code: "not_a_main_deck_card",
        message: `${name} cannot go in the main deck (it is a ${type}).`,
      });
    }
  }

  if (total !== MAIN_DECK) {
    issues.push({
      code: "main_deck_size",
      message: `The main deck must contain exactly ${MAIN_DECK} cards.`,
      metadata: { found: total },
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
    return { cardTypes: MAIN_TYPES, domains: legend.game.domains };
  }

  return { cardTypes: MAIN_TYPES };
}
