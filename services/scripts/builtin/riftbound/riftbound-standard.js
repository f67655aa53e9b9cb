// Built-in card rule: Riftbound, Standard (constructed play).
// Follows: Riftbound Core Rules v1.3 (Riot Games), 103 Deck Construction, and the ban list as
// the card data records it: a card is legal when it can go in a deck (tokens cannot:
// collectible is false) and its legalities.standard is not "banned" (a missing format counts
// as legal).
export default function validateCard(card) {
  const name = (card && card.name) || "This card";

  if (!card || card.collectible === false) {
    return {
      valid: false,
      issues: [
        {
          code: "not_collectible",
          message: `${name} is not legal in constructed play: it cannot go in a deck.`,
        },
      ],
    };
  }

  const legalities = (card.game && card.game.legalities) || {};

  if (String(legalities.standard || "legal").toLowerCase() === "banned") {
    return {
      valid: false,
      issues: [
        {
          code: "banned",
          message: `${name} is not legal in constructed play: it is banned.`,
        },
      ],
    };
  }

  return true;
}
