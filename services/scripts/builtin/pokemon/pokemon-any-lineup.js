// Built-in deck set rule: Pokémon TCG, any lineup.
// Follows: no official lineup restriction (Pokémon TCG tournament rules put none on how a player's
// decks relate to each other); every lineup passes, so a tournament that brings several decks
// still has a deck set rule to run.
export default function validateDeckset(decks) {
  return true;
}
