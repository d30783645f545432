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

/** Every relative link of the documents: `[text](path#anchor)`, with the document it is in. */
function relativeLinks() {
  return documentFiles(root).flatMap((file) =>
    [...prose(readFileSync(join(root, file), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^[a-z]+:/i.test(target))
      .map((target) => ({ file, target })),
  );
}

describe('the links between the documents', () => {
  const links = relativeLinks();

  it('should find the links of the README and the docs pages', () => {
    expect(links.length).toBeGreaterThanOrEqual(10);
  });

  it.each(links.map(({ file, target }) => [`${file} → ${target}`, file, target] as const))(
    '%s should point at a file and a heading that exist',
    (_, file, target) => {
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? join(root, file) : normalize(join(root, dirname(file), path));
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
