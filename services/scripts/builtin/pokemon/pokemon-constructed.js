// Built-in deck rule: Pokémon TCG, constructed.
// Follows: Pokémon TCG Rulebook (Scarlet & Violet series) and the Play! Pokémon Tournament
// Rules Handbook deck rules: exactly 60 cards; at most 4 copies of a card by name, basic Energy
// excepted; at least one Basic Pokémon; at most one ACE SPEC card; at most one Radiant Pokémon.
// Copies are counted by card name, so reprints under other refs count together.
const DECK_SIZE = 60;
const MAX_COPIES = 4;
const MAX_ACE_SPEC = 1;
const MAX_RADIANT = 1;

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

function isPokemon(game) {
  return game.supertype === "Pokemon" || game.supertype === "Pokémon";
}

function has(game, subtype) {
  return Array.isArray(game.subtypes) && game.subtypes.includes(subtype);
}

function listed(names) {
  return [...names.keys()].map((name) => `${names.get(name)} ${name}`).join(", ");
}

export default function validateDeck(deck, cardsById) {
  const main = mainDeck(deck);
  const issues = [];
  const copiesByName = new Map();
  const aceSpecs = new Map();
  const radiants = new Map();
  let total = 0;
  let basics = 0;

  for (const [ref, copies] of Object.entries(main)) {
    const card = cardsById[ref];
    const game = (card && card.game) || {};
    const name = (card && card.name) || ref;
    total += copies;

    const basicEnergy = game.supertype === "Energy" && has(game, "Basic");

    if (!basicEnergy) {
      copiesByName.set(name, (copiesByName.get(name) || 0) + copies);
    }

    if (isPokemon(game) && has(game, "Basic")) {
      basics += copies;
    }

    if (has(game, "ACE SPEC")) {
      aceSpecs.set(name, (aceSpecs.get(name) || 0) + copies);
    }

    if (isPokemon(game) && has(game, "Radiant")) {
      radiants.set(name, (radiants.get(name) || 0) + copies);
    }
  }

  if (total !== DECK_SIZE) {
    issues.push({
      code: "deck_size",
      message: `A deck needs exactly ${DECK_SIZE} cards (found ${total}).`,
    });
  }

  for (const [name, copies] of copiesByName) {
    if (copies > MAX_COPIES) {
      issues.push({
        code: "too_many_copies",
        message: `${name}: at most ${MAX_COPIES} copies (found ${copies}).`,
      });
    }
  }

  if (basics === 0) {
    issues.push({
      code: "no_basic_pokemon",
      message: "A deck needs at least 1 Basic Pokémon (found 0).",
    });
  }

  const aceSpecCount = [...aceSpecs.values()].reduce((sum, n) => sum + n, 0);

  if (aceSpecCount > MAX_ACE_SPEC) {
    issues.push({
      code: "too_many_ace_specs",
      message: `A deck may have at most ${MAX_ACE_SPEC} ACE SPEC card (found ${aceSpecCount}: ${listed(aceSpecs)}).`,
    });
  }

  const radiantCount = [...radiants.values()].reduce((sum, n) => sum + n, 0);

  if (radiantCount > MAX_RADIANT) {
    issues.push({
      code: "too_many_radiant",
      message: `A deck may have at most ${MAX_RADIANT} Radiant Pokémon (found ${radiantCount}: ${listed(radiants)}).`,
    });
  }

  return { valid: issues.length === 0, issues };
}
