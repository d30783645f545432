/**
 * Issue #24: a call whose request answers nothing, and whose handlers cannot
 * confirm, runs no approval code beyond the check up front that finds no
 * answers in the request. Measured as scripts/functions-entered.ts measures
 * it (V8 precise coverage of one denied call under interventions.streamText).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('a denied call with no approval in the request enters only the up-front check of src/approvals/', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--experimental-strip-types', '--conditions=ai-interventions-source', 'scripts/functions-entered.ts', '--json'],
    { cwd: root },
  );
  const figures = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { functions: number; approvalEntered: string[] };
  expect(figures.functions).toBeGreaterThan(0);
  expect(figures.approvalEntered.sort()).toEqual([
    'src/approvals/answers-in.ts: answersIn',
    'src/approvals/decode-answers.ts: hasTypedAnswers',
  ]);
}, 60_000);
