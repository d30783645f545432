/**
 * The API reference (`docs/api`, generated from the TSDoc by `npm run docs:api`; CI checks it is
 * what TypeDoc generates): a page per export, none a wall of text, no error class page listing what
 * it inherits from `Error`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const api = join(root, 'docs/api');
const ENTRY_POINTS = (JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as { entryPoints: string[] }).entryPoints;

/** Every page of the reference, relative to docs/api. */
function pages(dir = api): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? pages(join(dir, entry.name)) : [relative(api, join(dir, entry.name))],
  );
}

/** The names each entry point of the package exports. */
function exportedNames(): string[] {
  const program = ts.createProgram(
    ENTRY_POINTS.map((entry) => join(root, entry)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  return ENTRY_POINTS.flatMap((entry) => {
    const source = program.getSourceFile(join(root, entry));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${entry}: no exports`);
    return checker.getExportsOfModule(module).map((symbol) => symbol.getName());
  });
}

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

describe('the API reference', () => {
  const all = pages();

  it('should give every export of every entry point a page of its own', () => {
    const names = new Set(all.map((page) => page.split('/').at(-1)?.replace(/\.md$/, '')));
    const missing = exportedNames().filter((name) => !names.has(name));
    expect(missing).toEqual([]);
    expect(all.length).toBeGreaterThanOrEqual(200);
  });

  it('should keep each page short enough to read (no page over 1,500 words)', () => {
    const long = all.filter((page) => words(readFileSync(join(api, page), 'utf8')) > 1_500);
    expect(long).toEqual([]);
  });

  it("should not list what the error classes inherit from Error (Node's stack trace API)", () => {
    const inherited = all.filter((page) =>
      /captureStackTrace|prepareStackTrace|stackTraceLimit/.test(readFileSync(join(api, page), 'utf8')),
    );
    expect(inherited).toEqual([]);
  });
});
