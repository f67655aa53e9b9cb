// Hardens the QuickJS runtime once, during pre-initialization (Wizer snapshots the result, so
// no run pays for it): removes every way to compile a string into code, and freezes every
// built-in reachable from the global object, including the intrinsics no global names
// (%GeneratorFunction.prototype%, the iterator prototypes, %ThrowTypeError%, ...).
//
// The global object itself stays open here: the sandbox's per-run prelude takes the two I/O
// functions out of it and then freezes it.
(function () {
  "use strict";
  delete globalThis.Javy;
  delete globalThis.eval;
  delete globalThis.Function;

  const blocked = () => {
    throw new TypeError("code generation from strings is disabled in the sandbox");
  };
  const hidden = [blocked];
  const samples = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const sample of samples) {
    const kind = Object.getPrototypeOf(sample);
    Object.defineProperty(kind, "constructor", {
      value: blocked,
      writable: false,
      enumerable: false,
      configurable: false,
    });
    hidden.push(sample, kind);
  }
  hidden.push((function* () {})(), (async function* () {})());
  hidden.push([][Symbol.iterator](), new Map()[Symbol.iterator](), new Set()[Symbol.iterator]());
  hidden.push(""[Symbol.iterator](), /x/[Symbol.matchAll](""));

  const seen = new Set([globalThis]);
  const pending = [Object.getPrototypeOf(globalThis), ...hidden];
  for (const key of Reflect.ownKeys(globalThis)) {
    const property = Object.getOwnPropertyDescriptor(globalThis, key);
    pending.push(property.value, property.get, property.set);
  }
  while (pending.length > 0) {
    const value = pending.pop();
    const isObject = (typeof value === "object" && value !== null) || typeof value === "function";
    if (!isObject || seen.has(value)) {
      continue;
    }
    seen.add(value);
    Object.freeze(value);
    pending.push(Object.getPrototypeOf(value));
    for (const key of Reflect.ownKeys(value)) {
      const property = Object.getOwnPropertyDescriptor(value, key);
      pending.push(property.value, property.get, property.set);
    }
  }
})();
