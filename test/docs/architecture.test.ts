import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(`${root}/docs/architecture.md`, 'utf8');

/** Every `src/…` path the page names (a file, or a folder ending in `/`), once each, in order. */
function namedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w/.-])src\/[\w./-]*[\w/]/g)].map((match) => match[0]))];
}

// the page explains the code by its files: a file that moved or was renamed must take the page with it
describe('docs/architecture.md', () => {
  const paths = namedPaths(page);

  it('should name the files of a tool call’s path', () => {
    expect(paths.length).toBeGreaterThanOrEqual(40);
    for (const step of [
      'decide-turn.ts',
      'decision-of.ts',
      'step.ts',
      'run-tool-approval.ts',
      'guard-execute.ts',
      'approval-session.ts',
      'history-patch.ts',
    ]) {
      expect(
        paths.some((path) => path.endsWith(`/${step}`)),
        step,
      ).toBe(true);
    }
  });

  it.each(paths)('%s should exist', (path) => {
    expect(existsSync(`${root}/${path}`)).toBe(true);
  });
});

describe('namedPaths', () => {
  it('should take src paths from text, code spans and tables, without trailing punctuation', () => {
    expect(
      namedPaths('In `src/run/run.ts`, then src/model/ and (src/ui/a.ts). Not test/src/x.ts, nor xsrc/y.ts; `src/run/run.ts` again.'),
    ).toEqual(['src/run/run.ts', 'src/model/', 'src/ui/a.ts']);
  });
});
