// Built-in card rule: Pokémon TCG, Standard.
// Follows: Play! Pokémon Tournament Rules Handbook, Standard format legality, as the Pokémon TCG
// data (pokemon-tcg-data, commit 04cd5d99, 2026-01-30) records it in each card's
// legalities.standard ("Legal", "Banned"; compared case-insensitively). The message is the Pokémon
// card data reference's "Standard legal" example.
export default function validateCard(card) {
  const legalities = (card && card.game && card.game.legalities) || {};
  const status = String(legalities.standard || "").toLowerCase();

  if (status === "legal") {
    return true;
  }

  const name = (card && card.name) || "This card";
  const message =
    status === "banned"
      ? name + " is banned in Standard."
      : name + " is not legal in Standard.";

  return { valid: false, issues: [{ code: "not_standard_legal", message }] };
}
