import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the README\'s "State across instances" snippet', () => {
  it('should be the code that state-across-instances.snippet.ts compiles', () => {
    const readme = read('../../README.md');
    const section = readme.slice(readme.indexOf('## State across instances'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const snippet = read('./state-across-instances.snippet.ts');
    const body = /\/\/ --- README snippet starts here ---\n([\s\S]*?)\s*\/\/ --- README snippet ends here ---/.exec(snippet)?.[1] ?? '';
    const imports = /(import \{ Redis \}[\s\S]*?from 'ai-interventions';)/.exec(snippet)?.[1] ?? '';
    const dedented = body.split('\n').map((line) => line.replace(/^ {2}/, '')).join('\n');
    expect(block.trim()).toBe(`${imports}\n\n${dedented}`.trim());
  });
});
