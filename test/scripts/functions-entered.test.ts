/**
 * How much of the library one denied call runs, as scripts/functions-entered.ts
 * measures it (V8 precise coverage of one denied call, counters reset after a
 * warm-up call): a call whose request answers nothing runs no approval code
 * beyond the check up front that finds no answers in the request (issue 24),
 * and the call's path stays short (issue 35: at most 100 functions of src/
 * entered and 200 calls under interventions.streamText, 90 and 150 under
 * interventions.generateText, with a handler that declares no toolCallActions).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Figures {
  readonly functions: number;
  readonly calls: number;
  readonly approvalEntered: string[];
}

async function figuresOf(...flags: string[]): Promise<Figures> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--experimental-strip-types', '--conditions=ai-interventions-source', 'scripts/functions-entered.ts', '--json', ...flags],
    { cwd: root },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Figures;
}

it('a denied call with no approval in the request enters only the up-front check of src/approvals/', async () => {
  const figures = await figuresOf();
  expect(figures.functions).toBeGreaterThan(0);
  expect(figures.approvalEntered.sort()).toEqual([
    'src/answers/answers-in.ts: answersIn',
    'src/answers/decode-answers.ts: hasTypedAnswers',
  ]);
}, 60_000);

it('a denied streamed call enters at most 100 functions of src/, 200 calls in all', async () => {
  const { functions, calls } = await figuresOf();
  expect(functions).toBeLessThanOrEqual(100);
  expect(calls).toBeLessThanOrEqual(200);
}, 60_000);

it('a denied generated call enters at most 90 functions of src/, 150 calls in all', async () => {
  const { functions, calls } = await figuresOf('--generate');
  expect(functions).toBeLessThanOrEqual(90);
  expect(calls).toBeLessThanOrEqual(150);
}, 60_000);
