import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSnippets } from './check-snippets.ts';
import { documentFences, documentSnippets, exampleSnippets, markdownFences, markdownSnippets, sourceSnippets } from './snippets.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// README.md, every page below docs/, and the TSDoc examples of src/
const documented = [...documentSnippets(root), ...sourceSnippets(root, 'src')];
const isMarkdown = (snippet: { file: string }) => snippet.file.endsWith('.md');

/** The languages of a page's other blocks: commands, plain text, diagrams (nothing to compile). */
const NOT_CODE = new Set(['sh', 'text', 'mermaid']);

// Broken on purpose: the checker must reject each of them (one program for all, so they cost nothing extra).
const broken = [
  ...markdownSnippets(
    [
      '# Broken',
      '',
      '```ts fragment',
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
      '```ts fragment',
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
  // a program that needs the prelude, and a fragment that needs nothing
  ...markdownSnippets(['```ts', 'interventions.use(toolPolicy({ default: "deny" }));', '```'].join('\n'), 'unmarked.md'),
  ...markdownSnippets(['```ts fragment', 'const answer = 42;', '```'].join('\n'), 'needless.md'),
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

  it('should know every block of every page: a program it compiles as shown, a declared fragment, or no code', () => {
    const fences = documentFences(root);
    expect(fences.filter((fence) => fence.lang === 'ts' || fence.lang === 'tsx').map((fence) => fence.id)).toEqual(
      documented.filter(isMarkdown).map((snippet) => snippet.id),
    );
    const unknown = fences.filter((fence) => fence.lang !== 'ts' && fence.lang !== 'tsx' && !NOT_CODE.has(fence.lang));
    expect(unknown, 'a block neither ts / tsx (compiled) nor sh, text or mermaid').toEqual([]);
  });

  describe('when a page presents a program (any block not marked as a fragment)', () => {
    const programs = documented.filter((snippet) => isMarkdown(snippet) && !snippet.fragment);

    it('should compile it as shown: with its own imports only, nothing from the prelude', () => {
      expect(programs.length).toBeGreaterThanOrEqual(20);
      for (const program of programs) expect(byId.get(program.id)?.autoImports, program.id).toEqual([]);
    });
  });

  describe('when a page presents a fragment (```ts fragment)', () => {
    const fragments = documented.filter((snippet) => isMarkdown(snippet) && snippet.fragment);

    it('should be one: it uses what an app has, imports nothing, and is no file of an app', () => {
      for (const fragment of fragments) {
        expect(byId.get(fragment.id)?.asShown, `${fragment.id} compiles as shown: drop "fragment" from its fence`).not.toEqual([]);
        expect(fragment.code, `${fragment.id} imports: it is a program, drop "fragment"`).not.toMatch(/^import /m);
        expect(fragment.path, `${fragment.id} is named as a file: make it a program`).toBeUndefined();
      }
    });
  });

  it("should run only the package's own scripts in its commands (npm run <script>)", () => {
    const { scripts } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> };
    const commands = ['README.md', ...documentFences(root).map((fence) => fence.id.split(':')[0] as string)]
      .filter((file, index, all) => all.indexOf(file) === index)
      .flatMap((file) => [...readFileSync(`${root}/${file}`, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((block) => block[1] ?? ''));
    const run = commands.flatMap((block) => [...block.matchAll(/npm run (\S+)/g)].map((match) => match[1] ?? ''));
    expect(run.length).toBeGreaterThanOrEqual(1);
    for (const name of run) expect(Object.keys(scripts), `npm run ${name}`).toContain(name);
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

    it('should not give a block not marked as a fragment the prelude', () => {
      expect(reports.find((report) => report.snippet.file === 'unmarked.md')?.errors).toEqual([
        expect.stringMatching(/^unmarked\.md:2:1 TS2304 Cannot find name 'interventions'\./),
        expect.stringMatching(/^unmarked\.md:2:19 TS2304 Cannot find name 'toolPolicy'\./),
      ]);
    });

    it('should tell a fragment that compiles as shown', () => {
      expect(reports.find((report) => report.snippet.file === 'needless.md')).toMatchObject({ errors: [], asShown: [] });
      expect(reports.filter((report) => report.snippet.file === 'broken.md')[0]?.asShown).toEqual([
        expect.stringMatching(/TS2304 Cannot find name 'createInterventions'/),
        expect.stringMatching(/TS2304 Cannot find name 'ToolGaurd'/),
      ]);
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
      {
        id: 'doc.md:6',
        file: 'doc.md',
        line: 6,
        lang: 'tsx',
        code: '// app/page.tsx\nexport default 1;',
        path: 'app/page.tsx',
        fragment: false,
      },
      { id: 'doc.md:10', file: 'doc.md', line: 10, lang: 'ts', code: 'const a = 1;', path: undefined, fragment: false },
    ]);
  });

  it('should take a fence that says fragment as one, and list every block with its language', () => {
    const text = ['```ts fragment', 'interventions.use(h);', '```', '```', 'plain', '```', '```json', '{}', '```'].join('\n');
    expect(markdownSnippets(text, 'doc.md').map((snippet) => snippet.fragment)).toEqual([true]);
    expect(markdownFences(text, 'doc.md')).toEqual([
      { id: 'doc.md:2', lang: 'ts' },
      { id: 'doc.md:5', lang: '' },
      { id: 'doc.md:8', lang: 'json' },
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
      { id: 'a.ts:9', file: 'a.ts', line: 9, lang: 'ts', code: 'if (ok) {\n  run();\n}', path: undefined, fragment: true },
    ]);
  });
});
