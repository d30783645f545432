import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/** Every export of the package, with whether its declaration's TSDoc has an @example. */
function publicExports() {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (source === undefined) throw new Error('src/index.ts not found');
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error('src/index.ts has no exports');
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declarations = target.getDeclarations() ?? [];
    const hasExample = declarations.some((declaration) => {
      const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
      return ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'example');
    });
    const documented = declarations.some((declaration) => {
      const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
      return ts.getJSDocCommentsAndTags(node).length > 0;
    });
    return { name: symbol.getName(), hasExample, documented };
  });
}

describe('the public API', () => {
  const exports = publicExports();

  it('should document every export', () => {
    expect(exports.filter((entry) => !entry.documented).map((entry) => entry.name)).toEqual([]);
  });

  it('should give every export a TSDoc example', () => {
    expect(exports.filter((entry) => !entry.hasExample).map((entry) => entry.name)).toEqual([]);
  });
});
