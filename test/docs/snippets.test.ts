import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSnippets } from './check-snippets.ts';
import { documentSnippets, exampleSnippets, markdownSnippets, sourceSnippets } from './snippets.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// README.md, every page below docs/, and the TSDoc examples of src/
const documented = [...documentSnippets(root), ...sourceSnippets(root, 'src')];
const isMarkdown = (snippet: { file: string }) => snippet.file.endsWith('.md');

// Broken on purpose: the checker must reject each of them (one program for all, so they cost nothing extra).
const broken = [
  ...markdownSnippets(
    [
      '# Broken',
      '',
      '```ts',
      "const interventions = createInterventions({ handlers: [new ToolGaurd(['delete_file'])] });",
      '```',
      '',
      '```ts',
      '// a program: its imports are all it has, no prelude',
      "import { createInterventions } from 'ai-interventions';",
      '',
      'await createInterventions().generateText({ model, prompt: "hi" });',
      '```',
      '',
      '```ts',
      "interventions.addHook('preToolcall', () => {});",
      '```',
      '',
      '```tsx',
      '// app/broken.tsx',
      'export default function Page() {',
      '  return <button onClick="not a function">Go</button>;',
      '}',
      '```',
    ].join('\n'),
    'broken.md',
  ),
  ...markdownSnippets(['```ts', '// lib/only-here.ts', 'export const onlyHere = 1;', '```'].join('\n'), 'app-a.md'),
  ...markdownSnippets(
    ['```ts', "import { onlyHere } from '@/lib/only-here';", 'export const copy = onlyHere;', '```'].join('\n'),
    'app-b.md',
  ),
  ...exampleSnippets(
    ['/**', ' * @example', ' * ```ts', ' * const guard = new ToolGuard();', ' * ```', ' */', 'export const x = 1;'].join('\n'),
    'broken.ts',
  ),
];

const reports = checkSnippets(root, [...documented, ...broken]);
const byId = new Map(reports.map((report) => [report.snippet.id, report]));

describe('the documentation snippets', () => {
  it('should find the blocks of the README and the docs pages, and the TSDoc examples', () => {
    const pages = documented.filter(isMarkdown);
    expect(pages.filter((snippet) => snippet.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeGreaterThanOrEqual(16);
    expect(documented.length - pages.length).toBeGreaterThanOrEqual(150);
  });

  it.each(documented.map((snippet) => [snippet.id, snippet] as const))('%s should compile', (id) => {
    expect(byId.get(id)?.errors).toEqual([]);
  });

  // without a stopWhen a run ends at its first tool result: after a deny, the model would never answer
  it('should give every documented route that runs the model a stopWhen', () => {
    const routes = documented.filter((snippet) => /export async function POST/.test(snippet.code) && /\.streamText\(/.test(snippet.code));
    expect(routes.length).toBeGreaterThanOrEqual(3);
    for (const route of routes) expect(route.code, route.id).toMatch(/stopWhen:/);
  });

  describe('when a document presents a program (a block with imports)', () => {
    const programs = documented.filter((snippet) => isMarkdown(snippet) && /^import /m.test(snippet.code));

    it('should compile it with its own imports only', () => {
      expect(programs.length).toBeGreaterThanOrEqual(9);
      for (const program of programs) expect(byId.get(program.id)?.autoImports, program.id).toEqual([]);
    });
  });
});

describe('checkSnippets', () => {
  describe('when a snippet is broken', () => {
    it('should report an undefined class where it is used', () => {
      const [undefinedClass] = reports.filter((report) => report.snippet.file === 'broken.md');
      expect(undefinedClass?.errors).toEqual([expect.stringMatching(/^broken\.md:4:60 TS2304 Cannot find name 'ToolGaurd'\./)]);
    });

    it('should not give a program the prelude', () => {
      const program = reports.filter((report) => report.snippet.file === 'broken.md')[1];
      expect(program?.errors).toEqual([
        expect.stringMatching(/^broken\.md:11:44 TS18004 No value exists in scope for the shorthand property 'model'/),
      ]);
    });

    it('should type-check calls against the package', () => {
      const hook = reports.filter((report) => report.snippet.file === 'broken.md')[2];
      expect(hook?.errors).toEqual([expect.stringMatching(/^broken\.md:15:23 TS2345 Argument of type '"preToolcall"' is not assignable/)]);
    });

    it('should type-check JSX against React', () => {
      const page = reports.filter((report) => report.snippet.file === 'broken.md')[3];
      expect(page?.snippet.path).toBe('app/broken.tsx');
      expect(page?.errors).toEqual([expect.stringMatching(/^broken\.md:21:18 TS2322 Type 'string' is not assignable to type/)]);
    });

    it("should not resolve `@/` to another document's named block (each document is an app of its own)", () => {
      const importer = reports.find((report) => report.snippet.file === 'app-b.md');
      expect(importer?.errors).toEqual([expect.stringMatching(/^app-b\.md:2:26 TS2307 Cannot find module '@\/lib\/only-here'/)]);
      expect(reports.find((report) => report.snippet.file === 'app-a.md')?.errors).toEqual([]);
    });

    it('should report a wrong arity in a TSDoc example, at its line in the source', () => {
      const example = reports.find((report) => report.snippet.file === 'broken.ts');
      expect(example?.errors).toEqual([expect.stringMatching(/^broken\.ts:4:15 TS2554 Expected 1 arguments, but got 0\./)]);
    });
  });
});

describe('markdownSnippets', () => {
  it('should take ```ts and ```tsx blocks, with their first line, and skip the others', () => {
    const snippets = markdownSnippets(
      ['```sh', 'npm test', '```', '', '```tsx', '// app/page.tsx', 'export default 1;', '```', '  ```ts', '  const a = 1;', '  ```'].join(
        '\n',
      ),
      'doc.md',
    );
    expect(snippets).toEqual([
      { id: 'doc.md:6', file: 'doc.md', line: 6, lang: 'tsx', code: '// app/page.tsx\nexport default 1;', path: 'app/page.tsx' },
      { id: 'doc.md:10', file: 'doc.md', line: 10, lang: 'ts', code: 'const a = 1;', path: undefined },
    ]);
  });
});

describe('exampleSnippets', () => {
  it('should take the blocks of @example tags only, without the comment margins', () => {
    const source = [
      '/**',
      ' * Text.',
      ' * ```ts',
      ' * notAnExample();',
      ' * ```',
      ' *',
      ' * @example',
      ' * ```ts',
      ' * if (ok) {',
      ' *   run();',
      ' * }',
      ' * ```',
      ' * @returns something',
      ' */',
    ].join('\n');
    expect(exampleSnippets(source, 'a.ts')).toEqual([
      { id: 'a.ts:9', file: 'a.ts', line: 9, lang: 'ts', code: 'if (ok) {\n  run();\n}', path: undefined },
    ]);
  });
});
