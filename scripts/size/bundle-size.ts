/**
 * What an import of this package costs an application's bundle: a one-line
 * module importing from the built package (through its `exports`, as an
 * application resolves it), bundled by esbuild as an application bundler
 * would (code splitting on, as Next.js, Vite or webpack split an `import()`),
 * minified, then gzipped. The peer dependencies are external (the
 * application has them anyway); the package's own dependencies are bundled
 * (they are part of its cost). Sizes in bytes.
 *
 * Two figures: what loads when the application imports (its entry and every
 * chunk it imports statically), and what loads only when a feature first
 * acts (chunks reached by an `import()` alone): code the runtime loads on
 * demand is counted there, never dropped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** Minified and gzipped bytes of some output files (each gzipped alone, as each is loaded alone). */
export interface Bytes {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
}

export interface BundleSize extends Bytes {
  /** Loaded only when a feature first needs it (`import()`): 0 when the import loads everything at once. */
  readonly onDemand: Bytes;
  /** Minified bytes loaded on import by where they come from (`dist/…` of the package, or a dependency's name), largest first. */
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
  // never written (write: false): esbuild needs a folder to name the chunks of a split bundle
  const outdir = join(root, 'node_modules', '.bundle-size');
  const result = await build({
    stdin: { contents: source, resolveDir: root, sourcefile: 'app.js', loader: 'js' },
    absWorkingDir: root,
    // the built package, not the repository's tsconfig.json, whose `paths` point the package's name at src/
    ...(fromSource ? {} : { tsconfigRaw: {} }),
    bundle: true,
    splitting: true,
    outdir,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minify: true,
    external: peersOf(root),
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined);
  if (entry === undefined) throw new Error('esbuild wrote no bundle');
  const onImport = closure(outputs, entry, ['import-statement']);
  // esbuild writes a chunk for every import() of the package, also one whose caller the application does not keep
  const reachable = closure(outputs, entry, ['import-statement', 'dynamic-import']);
  const contents = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const bytesOf = (paths: readonly string[]): Bytes => {
    let minifiedBytes = 0;
    let gzipBytes = 0;
    for (const path of paths) {
      const file = contents.get(join(root, path));
      if (file === undefined) throw new Error(`esbuild wrote no ${path}`);
      minifiedBytes += file.byteLength;
      gzipBytes += gzipSync(file).byteLength;
    }
    return { minifiedBytes, gzipBytes };
  };
  const bySource = new Map<string, number>();
  for (const path of onImport) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path]?.inputs ?? {})) {
      const from = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input;
      bySource.set(from, (bySource.get(from) ?? 0) + bytesInOutput);
    }
  }
  return {
    ...bytesOf(onImport),
    onDemand: bytesOf(reachable.filter((path) => !onImport.includes(path))),
    bySource: [...bySource.entries()].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1]),
  };
}

/** `entry` and every output it imports with one of `kinds`, directly or through another. */
function closure(outputs: Metafile['outputs'], entry: string, kinds: readonly string[]): string[] {
  const loaded = [entry];
  for (let index = 0; index < loaded.length; index++) {
    for (const { path, kind, external } of outputs[loaded[index] as string]?.imports ?? []) {
      if (!external && kinds.includes(kind) && !loaded.includes(path)) loaded.push(path);
    }
  }
  return loaded;
}
