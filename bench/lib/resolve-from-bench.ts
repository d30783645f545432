/**
 * Loaded with `--import` in every benchmark child process.
 *
 * `ai-interventions` is installed in bench/ as `file:..`, a symlink to the
 * repository root, so Node would resolve the library's own imports (`ai`,
 * `@ai-sdk/*`) from the root's node_modules (its dev install) while the
 * benchmark's raw AI SDK baseline comes from bench/node_modules: two copies
 * of `ai` in one process, possibly of different versions.
 *
 * This hook resolves every bare import made by a library file as a consumer's
 * install would: `ai` (the peer dependency) from bench/, and `@ai-sdk/*` from
 * the `ai` package bench/ installed (the copies `ai` itself uses, which is
 * what a deduplicated install gives). One `ai` per process, the same one the
 * baseline measures. The redirects are recorded for the report.
 */
import { registerHooks } from 'node:module';

const root = new URL('../../', import.meta.url).href; // the repository root
const benchAnchor = new URL('../package.json', import.meta.url).href;
const libraryDirs = [`${root}src/`, `${root}dist/`];

let aiAnchor: string | undefined;
const redirects = new Map<string, string>();
(globalThis as { __benchRedirects?: Map<string, string> }).__benchRedirects = redirects;

function isBare(specifier: string): boolean {
  return !/^(\.|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier);
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (parent === undefined || !isBare(specifier) || !libraryDirs.some((dir) => parent.startsWith(dir))) {
      return nextResolve(specifier, context);
    }
    let anchor = benchAnchor;
    if (specifier.startsWith('@ai-sdk/')) {
      aiAnchor ??= nextResolve('ai/package.json', { ...context, parentURL: benchAnchor }).url;
      anchor = aiAnchor;
    }
    const resolved = nextResolve(specifier, { ...context, parentURL: anchor });
    redirects.set(specifier, resolved.url);
    return resolved;
  },
});
