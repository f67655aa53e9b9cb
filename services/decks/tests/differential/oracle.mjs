// The reference deck-code libraries behind one line-oriented JSON protocol, for
// services/decks/tests/differential.rs (issue 5).
//
// - Riftbound: @piltoverarchive/riftbound-deck-codes (the Piltover Archive reference; writes
//   version 3 only, reads versions 1 to 3, sets OGN OGS ARC SFD, variants "" a s/* b).
// - Legends of Runeterra: runeterra (a JavaScript port of Riot's LoRDeckCodes; versions 1 to 5).
//
// `node oracle.mjs` reads one request per line on stdin and writes one answer per line, in order:
//
//   {"op":"decode","game":"lor"|"riftbound","code":"…"}
//     → {"deck":{"main":[{"cardCode","count"}…],"sideboard":[…],"chosenChampion":…,"version":N}}
//   {"op":"encode","game":"lor"|"riftbound","deck":{"main":[…],"sideboard":[…],"chosenChampion":…}}
//     → {"code":"…"}
//   any failure → {"error":"…"}
//
// The deck shape is the one `turnier deck decode` prints; `chosenChampion` is present for
// Riftbound only, and `version` is the low four bits of the code's first byte (neither library
// returns it).
//
// `node oracle.mjs bench` times the two libraries on the decks of benches/codes.rs and prints
// one JSON object.

import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const require = createRequire(import.meta.url);
const { getCodeFromDeck, getDeckFromCode } = require("@piltoverarchive/riftbound-deck-codes");
const { DeckEncoder, Card } = require("runeterra");

/** The version nibble of a base32 code's first byte (both codes share the alphabet). */
function versionOf(code) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const hi = alphabet.indexOf(code[0]?.toUpperCase());
  const lo = alphabet.indexOf(code[1]?.toUpperCase());
  if (hi < 0 || lo < 0) throw new Error(`code too short or not base32: '${code}'`);
  return ((hi << 3) | (lo >> 2)) & 0x0f;
}

function decode(game, code) {
  if (game === "riftbound") {
    const { mainDeck, sideboard, chosenChampion } = getDeckFromCode(code);
    return {
      main: mainDeck,
      sideboard,
      chosenChampion: chosenChampion ?? null,
      version: versionOf(code),
    };
  }
  if (game === "lor") {
    const cards = DeckEncoder.decode(code);
    return {
      main: cards.map((c) => ({ cardCode: c.code, count: c.count })),
      sideboard: [],
      version: versionOf(code),
    };
  }
  throw new Error(`unknown game '${game}'`);
}

function encode(game, deck) {
  const main = deck.main ?? [];
  const sideboard = deck.sideboard ?? [];
  if (game === "riftbound") {
    return getCodeFromDeck(main, sideboard, deck.chosenChampion ?? undefined);
  }
  if (game === "lor") {
    // Legends of Runeterra has no sideboard and runeterra takes none.
    if (sideboard.length > 0) throw new Error("runeterra has no sideboard");
    return DeckEncoder.encode(main.map((c) => new Card(c.cardCode, c.count)));
  }
  throw new Error(`unknown game '${game}'`);
}

function answer(line) {
  try {
    const request = JSON.parse(line);
    switch (request.op) {
      case "decode":
        return { deck: decode(request.game, request.code) };
      case "encode":
        return { code: encode(request.game, request.deck) };
      default:
        return { error: `unknown op '${request.op}'` };
    }
  } catch (e) {
    return { error: String(e?.message ?? e) };
  }
}

// The decks of services/decks/benches/codes.rs.
const LOR_40_CARDS = "CEAQ2AIAAEDASCYMCQKRUJZNFY2TOAABAEAQABY";
const KAISA =
  "CIAAAAAAAAAQCAAAA4AACAIAABMQAAILAAAAICIMDMOVOX3AM5UHIAIDAAACO6XYAEAQKAAABX3QDGACUABKIAQAAEBQAAAWDBOQCAQAABMHE";

/** Median nanoseconds per call of `f` over 21 rounds of about 50 ms each, after a warm-up. */
function time(f, rounds = 21) {
  let sink = 0;
  // Warm-up, and the number of calls that fill a round.
  let n = 0;
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < 500_000_000n) {
    sink += f() ? 1 : 0;
    n++;
  }
  n = Math.max(1, Math.round(n / 10));
  const perCall = [];
  for (let r = 0; r < rounds; r++) {
    const begin = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += f() ? 1 : 0;
    perCall.push(Number(process.hrtime.bigint() - begin) / n);
  }
  perCall.sort((a, b) => a - b);
  if (sink < 0) console.error(sink); // keeps the calls observable
  return Math.round(perCall[Math.floor(rounds / 2)] * 10) / 10;
}

function bench() {
  const lorCards = DeckEncoder.decode(LOR_40_CARDS);
  const kaisa = getDeckFromCode(KAISA);
  // The reference writes version 3 (one more byte than our version 2 KAISA code).
  const kaisaV3 = getCodeFromDeck(kaisa.mainDeck, kaisa.sideboard);
  // runeterra's encoder reads card getters that parse the code each time; give it fresh
  // Card objects as a caller would.
  const lorDeck = lorCards.map((c) => ({ cardCode: c.code, count: c.count }));
  return {
    node: process.version,
    unit: "ns per call, median of 21 rounds of ~50 ms",
    "lor decode 40 cards (runeterra 4.0.0)": time(() => DeckEncoder.decode(LOR_40_CARDS)),
    "lor encode 40 cards (runeterra 4.0.0)": time(() =>
      DeckEncoder.encode(lorDeck.map((c) => new Card(c.cardCode, c.count))),
    ),
    "riftbound decode kai'sa (riftbound-deck-codes 1.1.0)": time(() => getDeckFromCode(KAISA)),
    "riftbound encode kai'sa (riftbound-deck-codes 1.1.0)": time(() =>
      getCodeFromDeck(kaisa.mainDeck, kaisa.sideboard),
    ),
    kaisaV3,
  };
}

if (process.argv[2] === "bench") {
  console.log(JSON.stringify(bench(), null, 2));
} else {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  // Answers are written in batches: a write per answer costs more than the answer itself.
  const out = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (out.length > 0) process.stdout.write(out.splice(0).join(""));
  };
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    out.push(JSON.stringify(answer(line)) + "\n");
    if (out.length >= 256) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  lines.on("close", flush);
}
