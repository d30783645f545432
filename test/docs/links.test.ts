import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentFiles } from './snippets.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The text of a markdown document outside its fenced code blocks (links in code are code). */
function prose(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line.replace(/`[^`]*`/g, '``');
    })
    .join('\n');
}

/** GitHub's anchors for a document's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const slug = (heading[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * Where this repository's files are on the web. The README links there
 * (npm shows the README without the repository around it); the links are
 * checked against the files here.
 */
const REPOSITORY = /^https:\/\/github\.com\/ai-interventions\/ai-interventions\/(?:blob|tree)\/main\//;

/** Every link of a document: `[text](target)`. */
function linksOf(file: string): string[] {
  return [...prose(readFileSync(join(root, file), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/**
 * Every link of the documents to a file of this repository, with the
 * document it is in: relative (`path#anchor`), or the repository's URL of it
 * (then `path` is from the root).
 */
function repositoryLinks() {
  return documentFiles(root).flatMap((file) =>
    linksOf(file)
      .filter((target) => REPOSITORY.test(target) || !/^[a-z]+:/i.test(target))
      .map((target) => ({ file, target })),
  );
}

describe('the links between the documents', () => {
  const links = repositoryLinks();

  it('should find the links of the README and the docs pages', () => {
    expect(links.length).toBeGreaterThanOrEqual(10);
  });

  it("should link from the README to the repository's files by URL, so the links work on npm too", () => {
    const relative = linksOf('README.md').filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'));
    expect(relative).toEqual([]);
    expect(links.filter(({ file }) => file === 'README.md').length).toBeGreaterThanOrEqual(17);
  });

  it.each(links.map(({ file, target }) => [`${file} → ${target}`, file, target] as const))(
    '%s should point at a file and a heading that exist',
    (_, file, target) => {
      const fromRoot = REPOSITORY.test(target);
      const [path = '', anchor] = target.replace(REPOSITORY, '').split('#');
      const resolved = path === '' ? join(root, file) : normalize(fromRoot ? join(root, path) : join(root, dirname(file), path));
      expect(existsSync(resolved), `${resolved} does not exist`).toBe(true);
      if (anchor === undefined || anchor === '' || !statSync(resolved).isFile() || !resolved.endsWith('.md')) return;
      expect([...headingAnchors(readFileSync(resolved, 'utf8'))]).toContain(anchor);
    },
  );
});

describe('headingAnchors', () => {
  it('should make the anchors GitHub makes', () => {
    const text = [
      '# Human approval (`confirm`)',
      '## Fidelity: what the wrappers change',
      '```sh',
      '# not a heading',
      '```',
      '## Errors',
      '## Errors',
    ].join('\n');
    expect([...headingAnchors(text)]).toEqual(['human-approval-confirm', 'fidelity-what-the-wrappers-change', 'errors', 'errors-1']);
  });
});
