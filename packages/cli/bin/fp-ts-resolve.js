// Module resolve hook for the built CLI: fp-ts 2 has no "exports" map, so plain Node cannot
// resolve a directory specifier such as `fp-ts/Either` (TypeScript and tsx can). It maps each one
// to its file, `fp-ts/lib/Either.js`; every other specifier passes through. It can go once every
// workspace package imports `fp-ts/lib/*.js`.
export async function resolve(specifier, context, next) {
  const m = /^fp-ts\/([A-Za-z]+)$/.exec(specifier);
  return next(m === null ? specifier : `fp-ts/lib/${m[1]}.js`, context);
}
