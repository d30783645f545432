/**
 * The size check (`npm run size`, in CI): an import is measured as an
 * application bundles it, through the package's `exports` (not this
 * repository's tsconfig `paths`, which point the package's name at src/),
 * with the peer dependencies left out and the package's own dependencies
 * counted, and what an `import()` loads on demand counted apart from what
 * loads at once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleSize, peersOf } from '../../scripts/size/bundle-size.ts';

/** A package `fixture` that imports its peer `peer-lib` and its dependency `dep-lib`, installed next to it. */
function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'ai-interventions-size-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'package.json',
    JSON.stringify({
      name: 'fixture',
      type: 'module',
      exports: { '.': { source: './src/index.js', import: './dist/index.js' } },
      peerDependencies: { 'peer-lib': '*' },
      dependencies: { 'dep-lib': '*' },
    }),
  );
  write('tsconfig.json', JSON.stringify({ compilerOptions: { paths: { fixture: ['./src/index.js'] } } }));
  write('src/index.js', `export const fromSource = '${'s'.repeat(5_000)}';`);
  write(
    'dist/index.js',
    [
      "import { peer } from 'peer-lib';",
      "import { dep } from 'dep-lib';",
      'export function used() { return [peer(), dep()]; }',
      `export function unused() { return '${'u'.repeat(5_000)}'; }`,
      "export function later() { return import('./later.js'); }",
      "export { shared } from './shared.js';",
      "export function eventually() { return import('./eventually.js'); }",
      "export { allOfBig } from './big.js';",
      "export function alsoLater() { return import('./uses-big.js'); }",
    ].join('\n'),
  );
  // big.js loads at once whole (allOfBig() uses all of it), and what loads on demand imports it too
  const bigNames = Array.from({ length: 60 }, (_, index) => `big${index}`);
  write(
    'dist/big.js',
    [
      ...bigNames.map((name, index) => `export class ${name} { value() { return ${index}; } }`),
      `export function allOfBig() { return [${bigNames.join(', ')}]; }`,
    ].join('\n'),
  );
  write('dist/uses-big.js', "import { big0 } from './big.js';\nexport const usesBig = () => new big0().value();");
  write('dist/later.js', `export const later = '${'l'.repeat(4_000)}';`);
  // shared.js loads at once for shared(); onlyLater() in it is used only by what loads on demand
  write('dist/shared.js', `export function shared() { return 'shared'; }\nexport function onlyLater() { return '${'o'.repeat(3_000)}'; }`);
  write('dist/eventually.js', "import { onlyLater } from './shared.js';\nexport const eventually = () => onlyLater();");
  for (const name of ['peer-lib', 'dep-lib']) {
    const key = name.split('-')[0];
    write(`node_modules/${name}/package.json`, JSON.stringify({ name, type: 'module', exports: './index.js', sideEffects: false }));
    write(`node_modules/${name}/index.js`, `export function ${key}() { return '${key}-${'x'.repeat(2_000)}'; }`);
  }
  return root;
}

describe('bundleSize', () => {
  const root = fixture();
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('should leave the peers to the application and count the dependencies, through the exports, tree-shaken', async () => {
    expect(peersOf(root)).toEqual(['peer-lib', 'peer-lib/*']);
    const size = await bundleSize(root, "export { used } from 'fixture';");
    const sources = size.bySource.map(([source]) => source);
    expect(sources).toContain('dist/index.js');
    expect(sources).toContain('dep-lib');
    expect(sources).not.toContain('peer-lib');
    expect(sources).not.toContain('src/index.js');
    // the dependency's 2,000 characters are in, the unused export's 5,000 are not
    expect(size.minifiedBytes).toBeGreaterThan(2_000);
    expect(size.minifiedBytes).toBeLessThan(3_000);
    expect(size.gzipBytes).toBeLessThan(size.minifiedBytes);
    expect(size.loadedWhole).toEqual([]);
  });

  it('should count what an import() loads on demand apart from what loads at once, and with it in the whole', async () => {
    const size = await bundleSize(root, "export { used, later } from 'fixture';");
    // the dependency's 2,000 characters load at once, the lazy module's 4,000 when later() is called
    expect(size.minifiedBytes).toBeGreaterThan(2_000);
    expect(size.minifiedBytes).toBeLessThan(3_000);
    expect(size.withOnDemand.minifiedBytes - size.minifiedBytes).toBeGreaterThan(4_000);
    expect(size.withOnDemand.minifiedBytes - size.minifiedBytes).toBeLessThan(4_400);
    expect(size.withOnDemand.gzipBytes).toBeGreaterThan(size.gzipBytes);
    expect(size.bySource.map(([source]) => source)).not.toContain('dist/later.js');
    expect(size.loadedWhole).toEqual([]);
  });

  it('should not count whole a module that loads at once whole, which what loads on demand imports too', async () => {
    // a bundler wraps what an import() reaches in lazy initializers: renaming, not code only it uses
    const size = await bundleSize(root, "export { allOfBig, alsoLater } from 'fixture';");
    expect(size.loadedWhole).toEqual([]);
  });

  it('should count whole a module that loads at once with code only what loads on demand uses', async () => {
    const size = await bundleSize(root, "export { shared, eventually } from 'fixture';");
    // a bundler puts shared.js, onlyLater() included, with what loads at once
    expect(size.loadedWhole).toEqual(['dist/shared.js']);
    expect(size.minifiedBytes).toBeGreaterThan(3_000);
    expect(size.withOnDemand.minifiedBytes).toBeGreaterThan(3_000);
  });
});
