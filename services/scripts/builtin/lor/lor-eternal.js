// Built-in card rule: Legends of Runeterra, Eternal.
// Follows: Riot Games, Legends of Runeterra formats (Eternal), as the Data Dragon set bundles
// record it in each card's formatRefs ("client_Formats_Eternal_name"; Data Dragon 5_12_0).
// The message follows the Standard rule's, quoted by the Turny.gg rulesets guide.
const ETERNAL = "client_Formats_Eternal_name";

export default function validateCard(card) {
  const formats = (card && card.game && card.game.formatRefs) || [];

  if (formats.includes(ETERNAL)) {
    return true;
  }

  return {
    valid: false,
    issues: [
      {
        code: "not_eternal_legal",
        message: "Only Eternal-legal cards can be submitted",
      },
    ],
  };
}
