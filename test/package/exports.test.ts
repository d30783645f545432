/**
 * The package's entry points, as package.json declares them: ESM, types
 * first, the source condition for this repository, and a `default` so that
 * `require('ai-interventions')` works on Node >= 22 (require of ES modules).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  license: string;
};
const entries = Object.entries(manifest.exports).filter((entry): entry is [string, Record<string, string>] => typeof entry[1] !== 'string');

describe('package.json exports', () => {
  it.each(entries)('%s: types first, the source, then import and default on the same ES module', (_path, conditions) => {
    expect(Object.keys(conditions)).toEqual(['types', 'ai-interventions-source', 'import', 'default']);
    expect(conditions.default).toBe(conditions.import);
    expect(existsSync(join(root, conditions['ai-interventions-source'] ?? ''))).toBe(true);
  });

  it('should ship an MIT LICENSE, and keep @opentelemetry/api an optional peer', () => {
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(manifest.peerDependencies['@opentelemetry/api']).toBeDefined();
    expect(manifest.peerDependenciesMeta['@opentelemetry/api']?.optional).toBe(true);
  });

  it.skipIf(!existsSync(join(root, 'dist/client/index.js')))(
    'should build ai-interventions/client to a few KB that import no package (a browser bundle pulls in no runtime)',
    () => {
      // the entry and the shared chunks it imports, followed through their relative imports
      const seen = new Map<string, string>();
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        const code = readFileSync(file, 'utf8');
        seen.set(file, code);
        for (const [, specifier] of code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\s*"([^"]+)"/g)) {
          expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
          visit(join(dirname(file), specifier ?? ''));
        }
        expect(code).not.toMatch(/\bimport\(|\brequire\(/);
      };
      visit(join(root, 'dist/client/index.js'));
      const size = [...seen.values()].reduce((total, code) => total + code.length, 0);
      expect(size).toBeLessThan(12_000);
      expect([...seen.values()].join('\n')).toContain('approvalAnswer');
    },
  );

  // needs `npm run build` (CI builds first), and a Node that can require ES modules (22.12 and later)
  const canRequireEsm = (process.features as { require_module?: boolean }).require_module === true;
  it.skipIf(!existsSync(join(root, 'dist/index.js')) || !canRequireEsm)(
    'should load with require() from CommonJS, every entry point',
    () => {
      const app = mkdtempSync(join(tmpdir(), 'ai-interventions-require-'));
      try {
        mkdirSync(join(app, 'node_modules'));
        symlinkSync(root, join(app, 'node_modules/ai-interventions'), 'dir');
        writeFileSync(
          join(app, 'main.cjs'),
          [
            "const { createInterventions } = require('ai-interventions');",
            "const { runHandler } = require('ai-interventions/testing');",
            "const { telemetry } = require('ai-interventions/telemetry');",
            "const { approvalAnswer } = require('ai-interventions/client');",
            'console.log([createInterventions, runHandler, telemetry, approvalAnswer].map((value) => typeof value).join());',
          ].join('\n'),
        );
        const child = spawnSync(process.execPath, ['main.cjs'], { cwd: app, encoding: 'utf8' });
        expect(child.stderr).toBe('');
        expect(child.stdout.trim()).toBe('function,function,function,function');
      } finally {
        rmSync(app, { recursive: true, force: true });
      }
    },
  );
});
