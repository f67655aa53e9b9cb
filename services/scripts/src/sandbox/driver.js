// The sandbox's driver: the last part of every program, after the user's module.
//
// Javy only evaluates a module and never calls its default export, so this code does: it reads
// the request `{"kind": …, "args": […]}` from standard input (the plugin's reader builds it
// deep-frozen: plugin/src/frozen.rs), finds the entry point, calls it and writes ONE JSON line to standard output (parsed on the Rust side
// by `DriverOutput::parse`). It catches what the script throws: an exception that escaped the
// module would end the instance without a result line.
//
// It starts with `;` so that a user module ending without a semicolon cannot turn the next
// parenthesis into a call, and it must never contain the two characters that close a block
// comment. It names no global: the user's module may shadow any of them (`JSON`, `Object`,
// even `undefined`), so every built-in it calls comes from `__turnier_io` (see the prelude) and
// `void 0` stands for undefined. Methods of arrays and strings are safe: their prototypes are
// frozen.
;(() => {
  const io = __turnier_io;
  const request = io.request();
  const kind = request.kind;
  const args = request.args;

  const defaultExport = () =>
    typeof __turnier_default === "function" ? __turnier_default : void 0;
  const entryPoint = () => {
    switch (kind) {
      case "card":
      case "card_pool":
        return defaultExport() ?? (typeof validateCard === "function" ? validateCard : void 0);
      case "deck":
        return defaultExport() ?? (typeof validateDeck === "function" ? validateDeck : void 0);
      case "deckset":
        return defaultExport() ?? (typeof validateDeckset === "function" ? validateDeckset : void 0);
      case "pool_filters":
        return typeof resolvePoolFilters === "function" ? resolvePoolFilters : void 0;
      case "calculator":
        return defaultExport() ?? (typeof compute === "function" ? compute : void 0);
      default:
        throw "unknown script kind " + io.stringify(kind);
    }
  };

  const describe = (error) => {
    try {
      return io.text(error);
    } catch (_) {
      return "an exception that cannot be shown as text";
    }
  };
  // A calculator's numbers that are not finite are written as 0, not as JSON.stringify's
  // null: the reference's normalizer keeps a `stat` value that is a number as a number (a
  // non-finite one as 0), where null would become empty text and "No data". `value - value`
  // is 0 only for a finite number (the driver names no global such as Number).
  const finiteOrZero = (key, value) =>
    typeof value === "number" && value - value !== 0 ? 0 : value;
  const outcome = (call) => {
    let value;
    try {
      value = call();
    } catch (error) {
      return io.stringify({ thrown: describe(error) });
    }
    if (value === void 0) {
      return '{"undefined":true}';
    }
    try {
      const text = kind === "calculator" ? io.stringify(value, finiteOrZero) : io.stringify(value);
      if (text === void 0) {
        return io.stringify({ unserializable: "the entry point returned a " + typeof value });
      }
      return '{"result":' + text + "}";
    } catch (error) {
      return io.stringify({ unserializable: describe(error) });
    }
  };

  const entry = entryPoint();
  if (entry === void 0) {
    io.write('{"noEntry":true}\n');
  } else if (kind === "card_pool") {
    const cards = args[0];
    const rest = args.slice(1);
    const results = [];
    for (const card of cards) {
      results.push(outcome(() => entry(card, ...rest)));
    }
    io.write('{"results":[' + results.join(",") + "]}\n");
  } else {
    io.write(outcome(() => entry(...args)) + "\n");
  }
})();
