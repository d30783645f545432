/**
 * The package people install: what `npm pack` puts in the tarball (the
 * built `dist/`, no sources, no source maps), that a pack without a build
 * still gets `dist/` (`prepack`), and where npm sends people (repository,
 * homepage, issues).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  scripts: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
};

/** The files `npm pack` would put in the tarball (without running `prepack`: this checks the current dist/). */
function packedFiles(): string[] {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const output = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  const [pack] = JSON.parse(output) as { files: { path: string }[] }[];
  return (pack?.files ?? []).map((file) => file.path).sort();
}

describe('the published package', () => {
  it('should say where its repository, home page and issues are', () => {
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/ai-interventions/ai-interventions.git' });
    expect(manifest.homepage).toBe('https://github.com/ai-interventions/ai-interventions#readme');
    expect(manifest.bugs.url).toBe('https://github.com/ai-interventions/ai-interventions/issues');
  });

  it('should build before it is packed, so a pack without a build still ships dist/', () => {
    expect(manifest.scripts.prepack).toBe('npm run build');
  });

  it.skipIf(!existsSync(join(root, 'dist/index.js')))(
    'should ship dist/ (JavaScript and declarations), the README, the LICENSE and package.json, and no sources or source maps',
    () => {
      const files = packedFiles();
      const outside = files.filter((path) => !path.startsWith('dist/'));
      expect(outside).toEqual(['LICENSE', 'README.md', 'package.json']);
      expect(files.filter((path) => path.startsWith('dist/') && !/\.(js|d\.ts)$/.test(path))).toEqual([]);
      // every file an export resolves to for a consumer (the source condition is this repository's own)
      const targets = Object.values(manifest.exports).flatMap((entry) =>
        typeof entry === 'string'
          ? [entry]
          : Object.entries(entry).flatMap(([condition, path]) => (condition === 'ai-interventions-source' ? [] : [path])),
      );
      for (const target of targets) expect(files).toContain(target.replace(/^\.\//, ''));
      // no shipped file points at a source map or a source file that is not shipped
      for (const path of files.filter((file) => file.endsWith('.js'))) {
        expect(readFileSync(join(root, path), 'utf8'), path).not.toMatch(/sourceMappingURL|from "\.\.?\/.*src\//);
      }
    },
  );
});
