/**
 * What an import of this package costs an application's bundle: a one-line
 * module importing from the built package (through its `exports`, as an
 * application resolves it), bundled by esbuild as an application bundler
 * would, minified, then gzipped. The peer dependencies are external (the
 * application has them anyway); the package's own dependencies are bundled
 * (they are part of its cost). Sizes in bytes.
 *
 * Two figures: what loads when the application imports, and everything the
 * import can load. They differ by what the package loads with `import()`
 * only when a feature first acts, which an application's bundler puts in a
 * chunk of its own (webpack, Rollup, Vite, esbuild with splitting): the
 * first figure is the bundle with those chunks left out, the second with
 * them in, each one file, as the whole import was measured before anything
 * loaded on demand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

/** Minified and gzipped bytes of a bundle. */
export interface Bytes {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
}

export interface BundleSize extends Bytes {
  /** Everything the import can load: what loads at once, and what its `import()`s load on demand. */
  readonly withOnDemand: Bytes;
  /** Modules that load at once but hold code only what loads on demand uses: counted whole (move that code into a module of its own). */
  readonly loadedWhole: readonly string[];
  /** Minified bytes loaded on import by where they come from (`dist/…` of the package, or a dependency's name), largest first. */
  readonly bySource: readonly (readonly [string, number])[];
}

/** The peer dependencies of the package at `root`, and their subpaths (`ai/test`, `zod/v4`): left to the application. */
export function peersOf(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string> };
  return Object.keys(manifest.peerDependencies ?? {}).flatMap((name) => [name, `${name}/*`]);
}

/** Differences in a module's bytes between two bundles that are only renaming and wrapping, not code. */
const SLACK_BYTES = 100;

/** Leaves what an `import()` loads out of the bundle, as a chunk loaded when it is called. */
const onDemandLeftOut: Plugin = {
  name: 'on-demand-left-out',
  setup(build) {
    build.onResolve({ filter: /.*/ }, ({ kind, path }) => (kind === 'dynamic-import' ? { path, external: true } : undefined));
  },
};

/**
 * Everything an import can load, loaded at once: each `import()` in the
 * built package (`dist/`) becomes a static import of the same module. A
 * bundler wraps what an `import()` reaches, and what that reaches in turn,
 * in lazy initializers that re-declare each module's top level: tens of
 * bytes per module, more for a large one, which is not code; compared with
 * the bundle of what loads at once, it made a large module look partly
 * loaded on demand (counted whole).
 */
function onDemandAtOnce(root: string): Plugin {
  const built = join(root, 'dist');
  return {
    name: 'on-demand-at-once',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, ({ path }) => {
        if (!path.startsWith(built)) return undefined;
        const targets: string[] = [];
        const code = readFileSync(path, 'utf8').replace(/\bimport\((["'])(\.{1,2}\/[^"']+\.js)\1\)/g, (_call, _quote, target: string) => {
          targets.push(target);
          return `Promise.resolve(onDemand${targets.length - 1})`;
        });
        const imports = targets.map((target, index) => `import * as onDemand${index} from ${JSON.stringify(target)};\n`).join('');
        return { contents: `${imports}${code}`, loader: 'js' };
      });
    },
  };
}

/**
 * The size of `source` (e.g. `export { createInterventions } from
 * 'ai-interventions';`) bundled against the package at `root`: its built
 * files, or with `fromSource` its sources (through the repository's tsconfig
 * `paths`), which tells which source files the bytes come from.
 */
export async function bundleSize(root: string, source: string, { fromSource = false } = {}): Promise<BundleSize> {
  const bundle = async (contents: string, plugins: Plugin[]) => {
    const result = await build({
      stdin: { contents, resolveDir: root, sourcefile: 'app.js', loader: 'js' },
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
      plugins,
    });
    const output = result.outputFiles[0];
    if (output === undefined) throw new Error('esbuild wrote no bundle');
    return { contents: output.contents, inputs: Object.values(result.metafile.outputs)[0]?.inputs ?? {} };
  };
  const bytesOf = (contents: Uint8Array): Bytes => ({ minifiedBytes: contents.byteLength, gzipBytes: gzipSync(contents).byteLength });
  const [leftOut, everything] = await Promise.all([bundle(source, [onDemandLeftOut]), bundle(source, [onDemandAtOnce(root)])]);
  // a module that loads at once loads with what the code loaded on demand uses of it (bundlers split by module): it counts whole
  const partial = Object.entries(leftOut.inputs)
    .filter(
      ([input, { bytesInOutput }]) => bytesInOutput > 0 && (everything.inputs[input]?.bytesInOutput ?? 0) > bytesInOutput + SLACK_BYTES,
    )
    .map(([input]) => input);
  const atOnce =
    partial.length === 0
      ? leftOut
      : await bundle(
          `${source}\n${partial.map((input, index) => `export * as loadedWhole${index} from ${JSON.stringify(join(root, input))};`).join('\n')}`,
          [onDemandLeftOut],
        );
  const bySource = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(atOnce.inputs)) {
    const from = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input;
    bySource.set(from, (bySource.get(from) ?? 0) + bytesInOutput);
  }
  return {
    ...bytesOf(atOnce.contents),
    withOnDemand: bytesOf(everything.contents),
    loadedWhole: partial,
    bySource: [...bySource.entries()].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1]),
  };
}
