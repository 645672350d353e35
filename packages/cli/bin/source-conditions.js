// Module resolution hook used by cc-compact.js when no build exists: adds the "development" export
// condition, so workspace packages resolve to their TypeScript sources (as
// `node --conditions=development` would), in the running process.
/** Resolves `specifier` with the "development" condition added. */
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes("development")
    ? context.conditions
    : [...context.conditions, "development"];
  return nextResolve(specifier, { ...context, conditions });
}
