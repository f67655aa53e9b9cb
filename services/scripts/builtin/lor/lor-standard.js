// Built-in card rule: Legends of Runeterra, Standard.
// Follows: Riot Games, Legends of Runeterra formats (Standard), as the Data Dragon set bundles
// record it in each card's formatRefs ("client_Formats_Standard_name"; Data Dragon 5_12_0).
// The message is the deck builder's own, quoted by the Turny.gg rulesets guide.
const STANDARD = "client_Formats_Standard_name";

export default function validateCard(card) {
  const formats = (card && card.game && card.game.formatRefs) || [];

  if (formats.includes(STANDARD)) {
    return true;
  }

  return {
    valid: false,
    issues: [
      {
        code: "not_standard_legal",
        message: "Only Standard-legal cards can be submitted",
      },
    ],
  };
}
