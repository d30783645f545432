import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A ```ts / ```tsx code block of the docs, and where it is. */
export interface Snippet {
  /** `README.md:42`: the file (relative to the repository) and the line of the code's first line. */
  readonly id: string;
  readonly file: string;
  /** 1-based line of the code's first line in `file`. */
  readonly line: number;
  readonly lang: 'ts' | 'tsx';
  readonly code: string;
  /**
   * A file name for the block, from a first line like `// app/api/chat/route.ts`:
   * blocks of one document with names can import each other (`@/lib/tools`).
   */
  readonly path: string | undefined;
  /**
   * A fragment (a fence of ```ts fragment): it may use what an app has (the prelude's `model`,
   * `tools`, `interventions`…) and the package's exports without importing them. Every other block of
   * a page is a program that compiles as it is shown. A TSDoc example is always a fragment.
   */
  readonly fragment: boolean;
}

/** A fenced block of a markdown text, whatever its language (`''` without one). */
export interface Fence {
  readonly id: string;
  readonly lang: string;
}

const FENCE = /^(\s*)```(\w+)?([^\n]*)$/;
const NAMED = /^\/\/ ((?:[\w.@-]+\/)*[\w.-]+\.tsx?)\s*$/;

/** The ```ts and ```tsx blocks of a markdown text (other fences are skipped). */
export function markdownSnippets(text: string, file: string): Snippet[] {
  return fencedBlocks(text.split('\n'), 1, file, false);
}

/** Every fenced block of a markdown text, with its language. */
export function markdownFences(text: string, file: string): Fence[] {
  const fences: Fence[] = [];
  fencedBlocks(text.split('\n'), 1, file, false, (fence) => fences.push(fence));
  return fences;
}

/**
 * The ```ts and ```tsx blocks inside the `@example` tags of a source file's
 * TSDoc comments (`/** … *\/`), with the ` * ` margins removed.
 */
export function exampleSnippets(text: string, file: string): Snippet[] {
  const snippets: Snippet[] = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const firstLine = lineAt(text, comment.index);
    const lines = comment[0].split('\n').map((line) => line.replace(/^\s*\/?\*\*?\/?\s?/, '').replace(/\s*\*\/$/, ''));
    let inExample = false;
    let start = -1;
    const flush = (end: number) => {
      if (inExample && start >= 0) snippets.push(...fencedBlocks(lines.slice(start, end), firstLine + start, file, true));
    };
    lines.forEach((line, index) => {
      // a tag at the start of a line (outside a fence) ends the previous tag's text
      const tag = /^@(\w+)/.exec(line)?.[1];
      if (tag === undefined) return;
      flush(index);
      inExample = tag === 'example';
      start = index + 1;
    });
    flush(lines.length);
  }
  return snippets;
}

/**
 * The markdown documents of the package, relative to `root`: `README.md`,
 * then every `.md` file below `docs/` (sorted, so ids are stable), but the
 * API reference that TypeDoc generates into `docs/api/` from the TSDoc
 * (whose examples {@link sourceSnippets} reads at the source).
 */
export function documentFiles(root: string): string[] {
  const docs = join(root, 'docs');
  const below = existsSync(docs)
    ? files(docs, (name) => name.endsWith('.md'))
        .map((path) => relative(root, path))
        .filter((path) => !path.startsWith(`docs${sep}api${sep}`))
    : [];
  return ['README.md', ...below];
}

/** The ```ts / ```tsx blocks of every document (see {@link documentFiles}). */
export function documentSnippets(root: string): Snippet[] {
  return documentFiles(root).flatMap((file) => markdownSnippets(readFileSync(join(root, file), 'utf8'), file));
}

/** Every fenced block of every document, whatever its language. */
export function documentFences(root: string): Fence[] {
  return documentFiles(root).flatMap((file) => markdownFences(readFileSync(join(root, file), 'utf8'), file));
}

/** Every `@example` snippet of the `.ts` files below `dir`. */
export function sourceSnippets(root: string, dir: string): Snippet[] {
  return files(join(root, dir), (name) => name.endsWith('.ts') && !name.endsWith('.d.ts')).flatMap((path) =>
    exampleSnippets(readFileSync(path, 'utf8'), relative(root, path)),
  );
}

/** The files below `dir` whose name `wanted` accepts, sorted by path. */
function files(dir: string, wanted: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return files(path, wanted);
      return wanted(entry.name) ? [path] : [];
    })
    .sort();
}

/**
 * The ```ts / ```tsx blocks of `lines` (`fragment`: whether they all are, as a TSDoc example is; else
 * a block is one when its fence says so), telling `onFence` of every block whatever its language.
 */
function fencedBlocks(
  lines: readonly string[],
  firstLine: number,
  file: string,
  fragment: boolean,
  onFence: (fence: Fence) => void = () => {},
): Snippet[] {
  const snippets: Snippet[] = [];
  let open: { lang: string; meta: string; indent: number; start: number } | undefined;
  lines.forEach((text, index) => {
    const fence = FENCE.exec(text);
    if (fence === null) return;
    if (open === undefined) {
      open = { lang: fence[2] ?? '', meta: fence[3] ?? '', indent: fence[1]?.length ?? 0, start: index + 1 };
      return;
    }
    if (fence[2] !== undefined) return; // a fence with a language inside a block is text
    const { lang, meta, indent, start } = open;
    open = undefined;
    const line = firstLine + start;
    onFence({ id: `${file}:${line}`, lang });
    if (lang !== 'ts' && lang !== 'tsx') return;
    const body = lines.slice(start, index).map((body) => body.slice(Math.min(indent, leadingSpaces(body))));
    const code = body.join('\n');
    const path = NAMED.exec(body[0] ?? '')?.[1];
    snippets.push({ id: `${file}:${line}`, file, line, lang, code, path, fragment: fragment || /(^|\s)fragment(\s|$)/.test(meta) });
  });
  return snippets;
}

function leadingSpaces(text: string): number {
  return text.length - text.trimStart().length;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
