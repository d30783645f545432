/**
 * The demo and the examples, run as `npm run demo` and `npm run example -- <name>` run them (on the
 * scripted local model): each ends well and prints no library warning (`AIInterventionsWarning`), the
 * first thing a newcomer would otherwise read.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Every script of examples/ (`run.ts` runs the others by name). */
const EXAMPLES = readdirSync(join(root, 'examples'))
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .map((file) => file.slice(0, -'.ts'.length));

/** Runs `examples/<name>.ts` as the package's scripts do, without an OpenAI key. */
async function runExample(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, OPENAI_API_KEY: '' };
  const args = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', '--conditions=ai-interventions-source'];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...args, `examples/${name}.ts`], { cwd: root, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the demo and the examples', () => {
  it('should be all of them', () => expect(EXAMPLES).toHaveLength(7));

  const runs = new Map(EXAMPLES.map((name) => [name, runExample(name)]));

  it.each(EXAMPLES)(
    '%s should end well on the scripted model and print no library warning',
    async (name) => {
      const { code, stdout, stderr } = await (runs.get(name) as ReturnType<typeof runExample>);
      expect(stdout).toMatch(/^Model: scripted LOCAL model/);
      expect(stderr).not.toContain('AIInterventionsWarning');
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
    60_000,
  );
});
