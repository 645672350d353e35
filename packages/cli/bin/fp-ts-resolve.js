// Module resolve hook for the built CLI: fp-ts 2 has no "exports" map, so plain Node cannot
// resolve a directory specifier such as `fp-ts/Either` (TypeScript and tsx can). It maps each one
// to its file, `fp-ts/lib/Either.js`. Only used when some built package still imports the
// directory form; a dist built entirely from `fp-ts/lib/*.js` imports loads without it.
export async function resolve(specifier, context, next) {
  const m = /^fp-ts\/([A-Za-z]+)$/.exec(specifier);
  return next(m === null ? specifier : `fp-ts/lib/${m[1]}.js`, context);
}
