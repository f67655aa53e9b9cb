// The sandbox's prelude: the first line of every program, before the user's module.
//
// program() joins this file into ONE line (it drops blank lines and lines starting with `//`),
// so the user's line numbers move by exactly one. Hence: no comment after code on a line, and
// every statement ends with a semicolon.
//
// The plugin already hardened the runtime when it was pre-initialized (plugin/src/harden.js:
// no eval, no Function constructors, every built-in frozen); the prelude checks that, takes
// the plugin's two I/O functions out of the global object and freezes the global object.
//
// It also hands the driver every built-in the driver calls, read from the global object here:
// the user's module shares the module scope with the driver and may declare its own `JSON`,
// `Object` or `undefined`, and a hoisted user function named like a built-in is visible even
// to this line. Reading properties of `globalThis` is safe: if the module shadows
// `globalThis` itself, the lookups below fail and the run ends without a result.
const __turnier_io = (() => {
  const global = globalThis;
  const object = global.Object;
  const json = global.JSON;
  if (!object.isFrozen(object.prototype) || typeof global.eval !== "undefined") {
    throw new global.TypeError("the sandbox runtime is not hardened");
  }
  const request = global.__turnier_read_request;
  const write = global.__turnier_write_stdout;
  delete global.__turnier_read_request;
  delete global.__turnier_write_stdout;
  object.freeze(global);
  return object.freeze({
    request: request,
    write: write,
    stringify: json.stringify,
    text: global.String,
  });
})();
