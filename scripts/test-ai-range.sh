#!/usr/bin/env bash
# Typechecks the package and runs its tests (npm test) against the
# lowest `ai` it supports: the floor of peerDependencies.ai, with the
# @ai-sdk/provider and @ai-sdk/provider-utils releases that `ai` pins (the
# floors of this package's own ranges for them) and the @ai-sdk/openai, @ai-sdk/mcp and @ai-sdk/anthropic releases
# built on the same two. `npm test` covers the latest `ai` (devDependencies).
#
# It works in a scratch copy of the working tree, so this checkout's
# node_modules and package-lock.json are left as they are.
#
# Usage: scripts/test-ai-range.sh [ai-version]   (default: the declared floor)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# ai/internal carries no compatibility promise across 7.x releases
if grep -rnE "[\"']ai/internal[\"'/]" src; then
  echo "src imports ai/internal; use the public entry points of ai and @ai-sdk/provider(-utils)" >&2
  exit 1
fi

range="$(node -p 'require("./package.json").peerDependencies.ai')"
version="${1:-$(node -p 'process.argv[1].replace(/^\^/, "")' "$range")}"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "peerDependencies.ai is \"$range\"; expected ^X.Y.Z (or pass a version)" >&2
  exit 1
fi

# ai pins exact provider releases; @ai-sdk/openai: the newest of its major
# (the devDependency's) that pins the same two
ai_deps="$(npm view "ai@$version" dependencies --json)"
openai_major="$(node -p 'require("./package.json").devDependencies["@ai-sdk/openai"].replace(/^\^/, "").split(".")[0]')"
openai_deps="$(npm view "@ai-sdk/openai@$openai_major" version dependencies --json)"
mcp_major="$(node -p 'require("./package.json").devDependencies["@ai-sdk/mcp"].replace(/^\^/, "").split(".")[0]')"
mcp_deps="$(npm view "@ai-sdk/mcp@$mcp_major" version dependencies --json)"
anthropic_major="$(node -p 'require("./package.json").devDependencies["@ai-sdk/anthropic"].replace(/^\^/, "").split(".")[0]')"
anthropic_deps="$(npm view "@ai-sdk/anthropic@$anthropic_major" version dependencies --json)"
read -r provider utils openai mcp anthropic < <(node -e '
  const ai = JSON.parse(process.argv[1]);
  const provider = ai["@ai-sdk/provider"], utils = ai["@ai-sdk/provider-utils"];
  const releases = [JSON.parse(process.argv[2])].flat();
  const patch = (v) => v.split(".").map(Number);
  const newer = (a, b) => { const [x, y] = [patch(a), patch(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; };
  const pinning = (list) => [list].flat()
    .filter((r) => r.dependencies["@ai-sdk/provider"] === provider && r.dependencies["@ai-sdk/provider-utils"] === utils)
    .map((r) => r.version).sort(newer).at(-1);
  const openai = pinning(releases), mcp = pinning(JSON.parse(process.argv[3])), anthropic = pinning(JSON.parse(process.argv[4]));
  if (!provider || !utils || !openai || !mcp || !anthropic) {
    console.error("no @ai-sdk/openai, @ai-sdk/mcp or @ai-sdk/anthropic release pins", provider, utils);
    process.exit(1);
  }
  console.log(provider, utils, openai, mcp, anthropic);
' "$ai_deps" "$openai_deps" "$mcp_deps" "$anthropic_deps")

scratch="$(mktemp -d "${TMPDIR:-/tmp}/ai-range.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
tar -C "$root" --exclude=node_modules --exclude=./dist --exclude=./.git --exclude=.next --exclude=test-results \
  --exclude=coverage -cf - . | tar -C "$scratch" -xf -
cd "$scratch"

echo "ai-range: ai@$version with @ai-sdk/provider@$provider @ai-sdk/provider-utils@$utils @ai-sdk/openai@$openai @ai-sdk/mcp@$mcp @ai-sdk/anthropic@$anthropic in $scratch"
npm ci --no-audit --no-fund --loglevel=error
npm install --no-save --no-audit --no-fund --loglevel=error \
  "ai@$version" "@ai-sdk/provider@$provider" "@ai-sdk/provider-utils@$utils" "@ai-sdk/openai@$openai" "@ai-sdk/mcp@$mcp" \
  "@ai-sdk/anthropic@$anthropic"
# one copy of each, as a consumer's dedupe gives: ai and this package read the same provider types
node -e '
  const fs = require("node:fs");
  const want = { ai: process.argv[1], "@ai-sdk/provider": process.argv[2], "@ai-sdk/provider-utils": process.argv[3], "@ai-sdk/openai": process.argv[4], "@ai-sdk/mcp": process.argv[5], "@ai-sdk/anthropic": process.argv[6] };
  for (const [name, version] of Object.entries(want)) {
    const got = require(`./node_modules/${name}/package.json`).version;
    if (got !== version) throw new Error(`${name}@${got} installed, not ${version}`);
  }
  for (const dir of ["ai", "@ai-sdk/openai", "@ai-sdk/gateway", "@ai-sdk/mcp", "@ai-sdk/anthropic"])
    for (const nested of ["@ai-sdk/provider", "@ai-sdk/provider-utils"])
      if (fs.existsSync(`./node_modules/${dir}/node_modules/${nested}`)) throw new Error(`${dir} has its own ${nested}`);
' "$version" "$provider" "$utils" "$openai" "$mcp" "$anthropic"

npm run typecheck
npx vitest run
echo "ai-range: ai@$version passed"
