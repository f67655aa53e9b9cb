// Built-in card rule: Pokémon TCG, Expanded.
// Follows: Play! Pokémon Tournament Rules Handbook, Expanded format legality, as the Pokémon TCG
// data (pokemon-tcg-data, commit 04cd5d99, 2026-01-30) records it in each card's
// legalities.expanded ("Legal", "Banned"; compared case-insensitively). The message is the Pokémon
// card data reference's "Expanded legal" example.
export default function validateCard(card) {
  const legalities = (card && card.game && card.game.legalities) || {};
  const status = String(legalities.expanded || "").toLowerCase();

  if (status === "legal") {
    return true;
  }

  const name = (card && card.name) || "This card";
  const message =
    status === "banned"
      ? name + " is banned in Expanded."
      : name + " is not legal in Expanded.";

  return { valid: false, issues: [{ code: "not_expanded_legal", message }] };
}
