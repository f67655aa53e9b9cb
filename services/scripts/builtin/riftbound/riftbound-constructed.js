// Built-in whole-deck rule: Riftbound, constructed.
// Follows: Riftbound Core Rules v1.3 (Riot Games), 103 Deck Construction: one Champion
// Legend; a Chosen Champion, a Champion unit sharing a tag with the Legend (103.2.a.2); a main
// deck of 40 cards, the Chosen Champion among them (103.2 says "at least 40"; the Turny.gg
// Constructed template takes exactly 40); a rune deck of 12 runes; 3 battlefields; at most 3
// copies of a card (main deck and sideboard together); every card in the Legend's domains (a
// card of several domains needs all of them, 103.1.b.4); and the Turny.gg deck builder guide's
// sideboard of at most 10 cards.
// The deck is every zone merged into one flat map (card ref → copies), with the sideboard
// nested under `sideboard`; zones are told apart by card type. Copies count by card identity.
const MAIN_DECK = 40;
const RUNES = 12;
const BATTLEFIELDS = 3;
const MAX_COPIES = 3;
const MAX_SIDEBOARD = 10;

function counts(record) {
  const out = {};

  if (!record || typeof record !== "object") {
    return out;
  }

  for (const [ref, copies] of Object.entries(record)) {
    if (typeof copies === "number") {
      out[ref] = copies;
    }
  }

  return out;
}

function domainName(domain) {
  return domain.charAt(0).toUpperCase() + domain.slice(1);
}

function domainsOf(card) {
  return (card && card.game && Array.isArray(card.game.domains) && card.game.domains) || [];
}

export default function validateDeck(deck, cardsById) {
  const main = deck.main && typeof deck.main === "object" ? counts(deck.main) : counts(deck);
  const sideboard = counts(deck.sideboard);
  const issues = [];
  const legends = [];
  const champions = [];
  const inDomains = [];
  const copiesById = new Map();
  let mainCount = 0;
  let runeCount = 0;
  let battlefieldCount = 0;
  let sideboardCount = 0;

  const count = (ref, copies, card) => {
    const key = (card && card.id) || ref;
    const seen = copiesById.get(key) || { name: (card && card.name) || ref, copies: 0 };
    seen.copies += copies;
    copiesById.set(key, seen);
  };

  for (const [ref, copies] of Object.entries(main)) {
    const card = cardsById[ref];
    const type = card && card.game && card.game.type;

    if (type === "legend") {
      legends.push({ card, copies });
    } else if (type === "rune") {
      runeCount += copies;
      inDomains.push(card);
    } else if (type === "battlefield") {
      battlefieldCount += copies;
    } else {
      mainCount += copies;
      count(ref, copies, card);
      inDomains.push(card);

      if (type === "unit" && card.game.supertype === "Champion") {
        champions.push(card);
      }
    }
  }

  for (const [ref, copies] of Object.entries(sideboard)) {
    const card = cardsById[ref];
    sideboardCount += copies;
    count(ref, copies, card);
    inDomains.push(card);
  }

  const legendCopies = legends.reduce((sum, entry) => sum + entry.copies, 0);

  if (legendCopies !== 1) {
    const names = legends.map((entry) => entry.card.name).join(", ");
    issues.push({
      code: "legend_count",
      message:
        legendCopies === 0
          ? "A deck needs exactly 1 Legend (found 0)."
          : `A deck needs exactly 1 Legend (found ${legendCopies}: ${names}).`,
    });
  }

  const legend = legendCopies === 1 ? legends[0].card : null;

  if (legend) {
    const tags = (legend.game && legend.game.tags) || [];
    const chosen = champions.some((card) =>
      ((card.game && card.game.tags) || []).some((tag) => tags.includes(tag)),
    );

    if (!chosen) {
      issues.push({
        code: "no_chosen_champion",
        message: `The Chosen Champion must match the Legend ${legend.name}: the deck has no ${tags.join(" or ")} Champion unit.`,
      });
    }

    const allowed = domainsOf(legend);
    const names = allowed.map(domainName).join(" and ");
    const reported = new Set();

    for (const card of inDomains) {
      if (!card || reported.has(card.id)) {
        continue;
      }

      const outside = domainsOf(card).filter(
        (domain) => domain !== "colorless" && !allowed.includes(domain),
      );

      if (outside.length > 0) {
        reported.add(card.id);
        issues.push({
          code: "outside_domains",
          message: `${card.name} (${outside.map(domainName).join(", ")}) is outside the Legend's domains (${names}).`,
        });
      }
    }
  }

  if (mainCount !== MAIN_DECK) {
    issues.push({
      code: "main_deck_size",
      message: `The main deck must contain exactly ${MAIN_DECK} cards (found ${mainCount}).`,
    });
  }

  if (runeCount !== RUNES) {
    issues.push({
      code: "rune_count",
      message: `The rune deck must contain exactly ${RUNES} runes (found ${runeCount}).`,
    });
  }

  if (battlefieldCount !== BATTLEFIELDS) {
    issues.push({
      code: "battlefield_count",
      message: `A deck needs exactly ${BATTLEFIELDS} battlefields (found ${battlefieldCount}).`,
    });
  }

  for (const { name, copies } of copiesById.values()) {
    if (copies > MAX_COPIES) {
      issues.push({
        code: "too_many_copies",
        message: `${name}: at most ${MAX_COPIES} copies (found ${copies}).`,
      });
    }
  }

  if (sideboardCount > MAX_SIDEBOARD) {
    issues.push({
      code: "sideboard_size",
      message: `The sideboard may hold at most ${MAX_SIDEBOARD} cards (found ${sideboardCount}).`,
    });
  }

  return { valid: issues.length === 0, issues };
}
