/**
 * What an import of this package costs an application's bundle: a one-line
 * module importing from the built package (through its `exports`, as an
 * application resolves it), bundled by esbuild as an application bundler
 * would, minified, then gzipped. The peer dependencies are external (the
 * application has them anyway); the package's own dependencies are bundled
 * (they are part of its cost). Sizes in bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface BundleSize {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  /** Minified bytes by where they come from (`dist/…` of the package, or a dependency's name), largest first. */
  readonly bySource: readonly (readonly [string, number])[];
}

/** The peer dependencies of the package at `root`, and their subpaths (`ai/test`, `zod/v4`): left to the application. */
export function peersOf(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string> };
  return Object.keys(manifest.peerDependencies ?? {}).flatMap((name) => [name, `${name}/*`]);
}

/**
 * The size of `source` (e.g. `export { createInterventions } from
 * 'ai-interventions';`) bundled against the package at `root`: its built
 * files, or with `fromSource` its sources (through the repository's tsconfig
 * `paths`), which tells which source files the bytes come from.
 */
export async function bundleSize(root: string, source: string, { fromSource = false } = {}): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, sourcefile: 'app.js', loader: 'js' },
    absWorkingDir: root,
    // the built package, not the repository's tsconfig.json, whose `paths` point the package's name at src/
    ...(fromSource ? {} : { tsconfigRaw: {} }),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minify: true,
    external: peersOf(root),
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild wrote no bundle');
  const bySource = new Map<string, number>();
  for (const meta of Object.values(result.metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(meta.inputs)) {
      const source = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path;
      bySource.set(source, (bySource.get(source) ?? 0) + bytesInOutput);
    }
  }
  return {
    minifiedBytes: output.contents.byteLength,
    gzipBytes: gzipSync(output.contents).byteLength,
    bySource: [...bySource.entries()].sort((a, b) => b[1] - a[1]),
  };
}
