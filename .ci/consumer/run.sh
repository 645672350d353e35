#!/usr/bin/env bash
# Consumer test: packs every publishable package, installs the tarballs with npm into a fresh
# project outside the workspace, type-checks a consumer (nodenext, strict, no skipLibCheck) and
# runs it under plain node. Also: @cc/importance installed on its own, the CommonJS story, and
# cc-compact without the optional better-sqlite3.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/.ci/consumer"
PNPM="npx -y pnpm@12.4.2"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
packages=(validate messages search importance tokens lcm session hierarchical context mcp cli ai-sdk langchain openai-agents mastra)
# The framework adapters are installed in their own project, next to their frameworks (see below).

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
step() { printf '\n== %s\n' "$1"; }

step "pack (each package's prepack rebuilds its dist from scratch)"
filters=()
for p in "${packages[@]}"; do filters+=(--filter "./packages/$p"); done
(cd "$root" && $PNPM -r "${filters[@]}" pack --pack-destination "$tmp/tarballs" >"$tmp/pack.log" 2>&1) || { cat "$tmp/pack.log" >&2; exit 1; }
ls "$tmp/tarballs"
[ "$(ls "$tmp/tarballs" | wc -l)" -eq "${#packages[@]}" ] || { echo "consumer check: expected ${#packages[@]} tarballs" >&2; exit 1; }
node "$here/check.mjs" tarballs "$tmp/tarballs"
node "$here/check.mjs" readme "$root"

step "npm install of every tarball in a fresh project"
app="$tmp/app"
mkdir -p "$app"
printf '{ "name": "cc-consumer", "private": true, "type": "module" }\n' >"$app/package.json"
cp "$here/main.ts" "$here/tsconfig.json" "$app/"
core=()
for f in "$tmp"/tarballs/*.tgz; do
  case "$(basename "$f")" in cc-ai-sdk-*|cc-langchain-*|cc-openai-agents-*|cc-mastra-*) ;; *) core+=("$f") ;; esac
done
(cd "$app" && npm install --silent --no-package-lock "${core[@]}" "@types/node@20.19.43")
if [ -e "$app/node_modules/better-sqlite3" ] || [ -e "$app/node_modules/pg" ]; then
  echo "consumer check: an optional driver was installed" >&2; exit 1
fi

step "type-check (nodenext, strict, no skipLibCheck) and run under node"
node "$here/check.mjs" entries "$app/node_modules/@cc" "$app/every-entry.ts"
"$root/node_modules/.bin/tsc" -p "$app/tsconfig.json"
out="$(cd "$app" && node dist/main.js)"
echo "$out"
expected="81 messages in, 32 out, budget met: true
Step 7: run the test suite and report."
[ "$out" = "$expected" ] || { echo "consumer check: expected \"$expected\"" >&2; exit 1; }

step "cc-compact without better-sqlite3: the SQLite index names the missing package"
set +e
: > "$tmp/index.db" # an existing (empty) index file: opening it needs the driver
err="$(cd "$app" && npx --no-install cc-compact search --index "$tmp/index.db" anything 2>&1)"
code=$?
set -e
echo "$err"
[ "$code" -ne 0 ] && grep -q "npm install better-sqlite3" <<<"$err" || { echo "consumer check: expected a failure that says how to install better-sqlite3" >&2; exit 1; }

step "framework adapters next to the frameworks a user already has (ai, langchain, @openai/agents, @mastra/core)"
fw="$tmp/frameworks"
mkdir -p "$fw"
printf '{ "name": "cc-frameworks", "private": true, "type": "module" }\n' >"$fw/package.json"
(cd "$fw" && npm install --silent --no-package-lock "$tmp"/tarballs/*.tgz \
  ai@7.0.173 langchain@1.5.14 @langchain/core@1.4.0 @langchain/langgraph@1.7.3 @openai/agents@0.20.0 @mastra/core@1.71.0 zod@4.6.7)
cp "$here/adapters.mjs" "$fw/"
(cd "$fw" && node adapters.mjs)

step "@cc/importance alone (with its one @cc dependency, @cc/validate)"
solo="$tmp/solo"
mkdir -p "$solo"
printf '{ "name": "cc-solo", "private": true }\n' >"$solo/package.json"
(cd "$solo" && npm install --silent --no-package-lock "$tmp"/tarballs/cc-importance-*.tgz "$tmp"/tarballs/cc-validate-*.tgz)
ls "$solo/node_modules/@cc"
(cd "$solo" && node --input-type=module -e '
import { compact } from "@cc/importance";
const segments = [{ id: "a", content: "x".repeat(400) }, { id: "b", content: "short", pinned: true }];
const r = compact(segments, { maxTokens: 20 }, { now: () => 0 });
console.log(`kept ${r.keep.map((s) => s.id).join(",")}`);
' | tee "$tmp/solo.out")
grep -qx "kept b" "$tmp/solo.out" || { echo "consumer check: @cc/importance alone did not keep the pinned segment only" >&2; exit 1; }

step "CommonJS: require() of each package either works (Node's require(esm)) or fails with Node's ESM-only error"
(cd "$app" && node -e '
for (const p of ["validate", "messages", "search", "importance", "tokens", "lcm", "session", "hierarchical", "context", "mcp", "cli"]) { // adapters: see the frameworks step
  try {
    const m = require(`@cc/${p}`);
    if (Object.keys(m).length === 0) throw new Error(`require("@cc/${p}") returned no exports`);
    console.log(`@cc/${p}: require() works on Node ${process.versions.node} (${Object.keys(m).length} exports)`);
  } catch (e) {
    if (e.code !== "ERR_REQUIRE_ESM" && e.code !== "ERR_REQUIRE_ASYNC_MODULE") throw e;
    console.log(`@cc/${p}: ESM only on Node ${process.versions.node}: ${e.code}: ${e.message.split("\n")[0]}`);
  }
}')
# Node 20.11-20.18 have no require(esm); the flag turns it off on later versions to show that case.
if node --no-experimental-require-module -e "" 2>/dev/null; then
  (cd "$app" && node --no-experimental-require-module -e '
try {
  require("@cc/context");
  throw new Error("require() worked with require(esm) turned off");
} catch (e) {
  if (e.code !== "ERR_REQUIRE_ESM") throw e;
  console.log(`without require(esm): ${e.code}: ${e.message.split("\n")[0]}`);
}')
fi
step "consumer test passed"
