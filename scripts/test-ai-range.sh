#!/usr/bin/env bash
# Typechecks the package and runs its tests (vitest) against `ai` releases of
# its peer range other than the lockfile's (which `npm test` runs):
#
#   lowest   the floor of peerDependencies.ai
#   newest   the newest release of the range the registry serves today (what
#            `npm install ai` gives a new user); skipped when it is the lockfile's
#   X.Y.Z    that release
#
# Each with the @ai-sdk/provider and @ai-sdk/provider-utils releases that `ai`
# pins, and the newest @ai-sdk/openai, anthropic, mcp and react of this
# package's majors built on the same ones (scripts/ai-range/plan.ts); when the
# registry has none yet, the newest built on older ones, with the tested ones
# in their place, and the run says so. One copy of each package, as a
# consumer's dedupe gives (scripts/ai-range/pin.ts).
#
# It works in a scratch copy of the working tree, so this checkout's
# node_modules and package-lock.json are left as they are.
#
# Usage: scripts/test-ai-range.sh [lowest|newest|X.Y.Z]...   (default: lowest newest)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# ai/internal carries no compatibility promise across 7.x releases
if grep -rnE "[\"']ai/internal[\"'/]" src; then
  echo "src imports ai/internal; use the public entry points of ai and @ai-sdk/provider(-utils)" >&2
  exit 1
fi

ts() { node --experimental-strip-types --disable-warning=ExperimentalWarning "$@"; }
field() { node -e 'const value = JSON.parse(process.argv[1])[process.argv[2]]; console.log(Array.isArray(value) ? value.join("\n") : typeof value === "object" ? Object.entries(value).map(([n, v]) => `${n}@${v}`).join(" ") : value)' "$1" "$2"; }

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(lowest newest); fi
locked="$(node -p 'require("./package-lock.json").packages["node_modules/ai"].version')"

scratches=()
trap 'rm -rf "${scratches[@]}"' EXIT
summary=()
tested=" "

for target in "${targets[@]}"; do
  plan="$(ts scripts/ai-range/plan.ts "$target")"
  version="$(field "$plan" ai)"
  if [[ "$tested" == *" $version "* ]]; then
    echo "ai-range: $target is ai@$version, run above"
    continue
  fi
  if [ "$target" = newest ] && [ "$version" = "$locked" ]; then
    echo "ai-range: newest is ai@$version, the lockfile's: npm test runs it"
    summary+=("ai@$version ($target): the lockfile's, run by npm test")
    continue
  fi
  tested+="$version "
  echo "ai-range: $target: $(field "$plan" packages)"
  while IFS= read -r line; do
    if [ -n "$line" ]; then echo "ai-range: fallback: $line"; fi
  done < <(field "$plan" fallbacks)

  scratch="$(mktemp -d "${TMPDIR:-/tmp}/ai-range.XXXXXX")"
  scratches+=("$scratch")
  tar -C "$root" --exclude=node_modules --exclude=./dist --exclude=./.git --exclude=.next --exclude=test-results \
    --exclude=coverage -cf - . | tar -C "$scratch" -xf -
  (
    cd "$scratch"
    start=$SECONDS
    ts scripts/ai-range/pin.ts manifest "$plan"
    npm install --no-audit --no-fund --loglevel=error
    # one copy of each, at the planned version: ai and this package read the same provider types
    ts scripts/ai-range/pin.ts check "$plan"
    installed=$((SECONDS - start))
    npm run typecheck
    typechecked=$((SECONDS - start - installed))
    npx vitest run
    echo "$installed $typechecked $((SECONDS - start - installed - typechecked))" >"$scratch/.ai-range-times"
  )
  read -r installed typechecked tests <"$scratch/.ai-range-times"
  rm -rf "$scratch"
  echo "ai-range: ai@$version passed (install ${installed}s, typecheck ${typechecked}s, tests ${tests}s)"
  summary+=("ai@$version ($target): passed in $((installed + typechecked + tests))s with $(field "$plan" packages)")
done

echo "ai-range: summary"
for line in "${summary[@]}"; do echo "  $line"; done
