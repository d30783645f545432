/**
 * `npm run size` (after `npm run build`; CI runs it): what importing the
 * package costs an application's bundle (bundle-size.ts: esbuild, the peers
 * external, minified, gzipped), checked against a budget (imports.ts). Exits 1
 * when an import with a budget grows past it, and then shows where its bytes
 * come from.
 *
 * The smallest import is `import { createInterventions } from
 * 'ai-interventions'`: one export, but the runtime behind it (every wrapper
 * is a method of what it returns, so a bundler keeps them all).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleSize } from './bundle-size.ts';
import { IMPORTS } from './imports.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

if (!existsSync(`${root}dist/index.js`)) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

let failed = false;
console.log(
  `${'import (the peers external, minified)'.padEnd(50)}  minified    gzipped   budget (gzipped)       with what loads on demand (gzipped)`,
);
for (const entry of IMPORTS) {
  const size = await bundleSize(root, entry.source);
  const over = entry.budgetGzipBytes !== undefined && size.gzipBytes > entry.budgetGzipBytes;
  const budget = entry.budgetGzipBytes === undefined ? '' : `${kB(entry.budgetGzipBytes)}${over ? '  OVER BUDGET' : '  ok'}`;
  const onDemand = size.withOnDemand.gzipBytes === size.gzipBytes ? '' : kB(size.withOnDemand.gzipBytes);
  console.log(
    `${entry.name.padEnd(50)} ${kB(size.minifiedBytes).padStart(9)} ${kB(size.gzipBytes).padStart(9)}   ${budget.padEnd(22)} ${onDemand}`,
  );
  for (const module of size.loadedWhole) {
    console.log(`  counted whole: ${module} loads at once, with code only what loads on demand uses (give that code a module of its own)`);
  }
  if (over) {
    failed = true;
    // the same import bundled from src/ says which files the bytes come from
    const { bySource } = await bundleSize(root, entry.source, { fromSource: true });
    console.log('  where its minified bytes come from (the same import bundled from src/):');
    for (const [source, bytes] of bySource.slice(0, 20)) console.log(`  ${kB(bytes).padStart(9)}  ${source}`);
  }
}
console.log(
  '\nminified / gzipped: what an import loads at once; with what loads on demand: also the chunks its import()s load when a feature first acts.',
);
if (failed) {
  console.error('\nAn import grew past its budget (scripts/size/run.ts). Find what it pulls in that it does not need.');
  process.exit(1);
}
