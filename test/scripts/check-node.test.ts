/**
 * `scripts/check-node.mjs`, run first by `npm test`, `npm run demo` and `npm run example`: an older
 * Node gets one line naming the version needed, before anything fails cryptically
 * (`node: bad option: --experimental-strip-types`). Run here on this Node, told another version.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the check as `npm run <script>` would, on a Node that says it is `version`. */
function check(version: string, script = 'demo') {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '${version}' });`;
  const { status, stdout, stderr } = spawnSync(process.execPath, ['--import', pretend, 'scripts/check-node.mjs'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_lifecycle_event: script },
  });
  return { status, stdout, stderr };
}

describe('scripts/check-node.mjs', () => {
  it.each(['20.20.2', '22.11.0', '18.0.0'])('should stop Node %s with one line naming the version needed', (version) => {
    const { status, stdout, stderr } = check(version);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`npm run demo needs Node.js 22.12 or later (this is ${version}): install Node 22 or 24 and run it again.\n`);
  });

  it.each(['22.12.0', '23.0.0', '24.21.0', '26.1.0'])('should let Node %s through, silently', (version) => {
    expect(check(version, 'test')).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('should run first in npm test, npm run demo and npm run example', () => {
    const { scripts } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['test', 'demo', 'example']) expect(scripts[name], name).toMatch(/^node scripts\/check-node\.mjs && /);
  });
});
