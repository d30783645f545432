import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { Snippet } from './snippets.ts';

/** What the compiler said about one snippet, as `README.md:45:7 TS2304 Cannot find name 'x'.` lines. */
export interface SnippetReport {
  readonly snippet: Snippet;
  readonly errors: readonly string[];
  /** The names imported for it (a fragment gets what it uses, see {@link checkSnippets}). */
  readonly autoImports: readonly string[];
  /** A fragment of a page: what the compiler says about it as it is shown, without those imports. */
  readonly asShown: readonly string[] | undefined;
}

/**
 * The modules a fragment may use without importing them, first match wins:
 * the shared prelude (what a fragment assumes you have: a `model`, your
 * `tools`, `messages`…), then the package and its peers. Any other block is
 * a program: it gets nothing.
 */
const AMBIENT: ReadonlyArray<{ readonly module: string; readonly exports: string | readonly string[] }> = [
  { module: './prelude.ts', exports: 'test/docs/prelude.ts' },
  { module: 'ai-interventions', exports: 'src/index.ts' },
  { module: 'ai-interventions/testing', exports: 'src/testing/index.ts' },
  { module: 'ai-interventions/client', exports: 'src/client/index.ts' },
  { module: 'ai-interventions/telemetry', exports: 'src/builtins/telemetry.ts' },
  { module: 'ai', exports: 'node_modules/ai/dist/index.d.ts' },
  { module: 'zod', exports: 'node_modules/zod/index.d.ts' },
  { module: '@ai-sdk/openai', exports: 'node_modules/@ai-sdk/openai/dist/index.d.ts' },
  { module: '@opentelemetry/api', exports: 'node_modules/@opentelemetry/api/build/src/index.d.ts' },
  // the test runner of the testing kit's examples (its entry file does not mark types, so: these values only)
  { module: 'vitest', exports: ['describe', 'it', 'expect', 'beforeEach', 'afterEach', 'vi'] },
];

/** The package's own entry points, by specifier: their source files (the `ai-interventions-source` condition's targets). */
const OWN_SOURCES: ReadonlyMap<string, string> = new Map(
  AMBIENT.flatMap(({ module, exports }) =>
    module.startsWith('ai-interventions') && typeof exports === 'string' ? [[module, exports]] : [],
  ),
);

/** Where the snippets live, as virtual files: inside the package, so they resolve it as a user's code would. */
const VIRTUAL_DIR = 'test/docs/__snippets__';

/**
 * Type-checks every snippet as its own module, in one TypeScript program:
 * strict, NodeNext, against `src/` through the package's
 * `ai-interventions-source` export condition.
 *
 * A program must compile as it is shown. A fragment (a TSDoc example, or a
 * block of a page whose fence says `fragment`) without `import` lines gets an
 * import line for each name it uses and does not declare, from the modules
 * in {@link AMBIENT}, so `interventions.addHook('onMessage', …)` needs no
 * boilerplate but a typo or an undefined class still fails; a fragment of a
 * page is also compiled as shown, so a test can tell one that needs none of
 * it. Named blocks (first line `// lib/tools.ts`) of one document can import
 * each other as a Next.js app does (`@/lib/tools`).
 */
export function checkSnippets(root: string, snippets: readonly Snippet[]): SnippetReport[] {
  const ambient = ambientExports(root);
  const files = new Map<string, { snippet: Snippet; text: string; offset: number; autoImports: string[] }>();
  // a fragment of a page, as shown: its file, by the fragment's
  const shown = new Map<Snippet, string>();
  for (const snippet of snippets) {
    const path = join(root, VIRTUAL_DIR, virtualName(snippet));
    if (files.has(path)) throw new Error(`${snippet.id}: two snippets are named ${virtualName(snippet)}`);
    const { header, names } = snippet.fragment ? importsFor(snippet, ambient, path, root) : { header: '', names: [] };
    files.set(path, {
      snippet,
      text: header === '' ? snippet.code : `${header}\n${snippet.code}`,
      offset: header === '' ? 0 : header.split('\n').length,
      autoImports: names,
    });
    if (snippet.fragment && snippet.file.endsWith('.md')) {
      const asShown = path.replace(/\.tsx?$/, (extension) => `.as-shown${extension}`);
      files.set(asShown, { snippet, text: snippet.code, offset: 0, autoImports: [] });
      shown.set(snippet, asShown);
    }
  }

  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.dom.asynciterable.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
    customConditions: ['ai-interventions-source'],
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noFallthroughCasesInSwitch: true,
    erasableSyntaxOnly: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    allowImportingTsExtensions: true,
    jsx: ts.JsxEmit.ReactJSX,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  // `@/lib/tools` is the block named `// lib/tools.ts` of the same document, as Next.js's `@/*`
  // alias resolves it (without an extension): each document is an app of its own
  const named = new Map(
    snippets.flatMap((snippet) =>
      snippet.path === undefined
        ? []
        : [[`${snippet.file}\0@/${snippet.path.replace(/\.tsx?$/, '')}`, join(root, VIRTUAL_DIR, virtualName(snippet))]],
    ),
  );
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => name, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSource) =>
    literals.map((literal) => {
      const block = named.get(`${files.get(containingFile)?.snippet.file}\0${literal.text}`);
      if (block !== undefined) {
        const extension = block.endsWith('.tsx') ? ts.Extension.Tsx : ts.Extension.Ts;
        return { resolvedModule: { resolvedFileName: block, extension, isExternalLibraryImport: false } };
      }
      // the package is its source, as the tests and the demo load it: a build in dist/, stale or not, is never read
      const own = OWN_SOURCES.get(literal.text);
      if (own !== undefined) {
        return { resolvedModule: { resolvedFileName: join(root, own), extension: ts.Extension.Ts, isExternalLibraryImport: false } };
      }
      const mode = ts.getModeForUsageLocation(containingSource, literal, compilerOptions);
      return ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, cache, redirected, mode);
    });
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const file = files.get(name);
    return file === undefined ? getSourceFile.call(host, name, language, ...rest) : ts.createSourceFile(name, file.text, language, true);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });

  const global = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file === undefined);
  if (global.length > 0) throw new Error(global.map((diagnostic) => flatten(diagnostic.messageText)).join('\n'));

  const errorsOf = (path: string): string[] => {
    const file = files.get(path);
    const source = program.getSourceFile(path);
    if (file === undefined || source === undefined) throw new Error(`${path}: not in the program`);
    const { snippet, offset } = file;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    return diagnostics.map((diagnostic) => {
      const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const where = line < offset ? `${snippet.id} (auto-import)` : `${snippet.file}:${snippet.line + line - offset}:${character + 1}`;
      return `${where} TS${diagnostic.code} ${flatten(diagnostic.messageText)}`;
    });
  };
  const asShownFiles = new Set(shown.values());
  return [...files]
    .filter(([path]) => !asShownFiles.has(path))
    .map(([path, { snippet, autoImports }]) => {
      const asShown = shown.get(snippet);
      return { snippet, errors: errorsOf(path), autoImports, asShown: asShown === undefined ? undefined : errorsOf(asShown) };
    });
}

function virtualName(snippet: Snippet): string {
  return `${snippet.file}/${snippet.path ?? `line-${snippet.line}.${snippet.lang}`}`;
}

function flatten(message: string | ts.DiagnosticMessageChain): string {
  return ts.flattenDiagnosticMessageText(message, ' ');
}

type Ambient = ReadonlyArray<{ readonly module: string; readonly names: ReadonlyMap<string, 'value' | 'type'> }>;

/** The import lines of a snippet that has none: the names it uses and does not declare itself. */
function importsFor(snippet: Snippet, ambient: Ambient, path: string, root: string) {
  const source = ts.createSourceFile('snippet.tsx', snippet.code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  if (source.statements.some((statement) => ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement))) {
    return { header: '', names: [] };
  }
  const declared = topLevelNames(source);
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);

  const lines: string[] = [];
  const names: string[] = [];
  const taken = new Set(declared);
  for (const { module, names: exported } of ambient) {
    const specifiers: string[] = [];
    for (const name of [...used].sort()) {
      const kind = exported.get(name);
      if (kind === undefined || taken.has(name) || name === 'default') continue;
      taken.add(name);
      names.push(name);
      specifiers.push(kind === 'type' ? `type ${name}` : name);
    }
    if (specifiers.length === 0) continue;
    const from = module.startsWith('.') ? relativeSpecifier(path, join(root, 'test/docs', module)) : module;
    lines.push(`import { ${specifiers.join(', ')} } from '${from}';`);
  }
  return { header: lines.join('\n'), names };
}

function relativeSpecifier(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromParts.length && fromParts[common] === toParts[common]) common++;
  const up = fromParts.length - common;
  return `${up === 0 ? './' : '../'.repeat(up)}${toParts.slice(common).join('/')}`;
}

function topLevelNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** Each ambient module's exports, read from its entry file's syntax (no type-checking needed). */
function ambientExports(root: string): Ambient {
  return AMBIENT.map(({ module, exports }) => {
    if (typeof exports !== 'string') return { module, names: new Map(exports.map((name) => [name, 'value'] as const)) };
    const path = join(root, exports);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const names = new Map<string, 'value' | 'type'>();
    for (const statement of source.statements) {
      if (ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) {
          names.set(element.name.text, statement.isTypeOnly || element.isTypeOnly ? 'type' : 'value');
        }
        continue;
      }
      const exported =
        ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) names.set(declaration.name.text, 'value');
        }
      } else if (
        (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
        statement.name
      ) {
        names.set(statement.name.text, 'value');
      } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.name) {
        names.set(statement.name.text, 'type');
      }
    }
    return { module, names };
  });
}
