/**
 * How much of the library one denied tool call runs: the functions of
 * `src/` entered (and the files they are in, and how many of them are
 * approval code: `src/approvals/`, `src/answers/`, `src/ledger/`) by one `interventions.streamText` call (or
 * `interventions.generateText`, with `--generate`) whose model asks for one
 * tool call that a `beforeToolCall` handler denies (a handler that declares
 * no `toolCallActions`), with no approval in the request, read to its end. The count is V8's precise coverage with
 * call counts (`node:inspector`): counters are reset after a first, warm-up
 * call, so the figures are those of a steady call, not of loading modules.
 *
 * Usage:
 *   node --experimental-strip-types --conditions=ai-interventions-source scripts/functions-entered.ts [--generate] [--list] [--json]
 *
 * `--list` prints every function entered, by file; `--json` prints the
 * figures as JSON.
 */
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStepCount, tool } from 'ai';
import { createInterventions, defineHandler, InterventionActions } from 'ai-interventions';
import { scriptedModel, text, toolCall } from 'ai-interventions/testing';
import { z } from 'zod';

const root = fileURLToPath(new URL('..', import.meta.url));
const list = process.argv.includes('--list');
const json = process.argv.includes('--json');
const generate = process.argv.includes('--generate');

const interventions = createInterventions({
  handlers: [
    defineHandler({
      name: 'no-deletes',
      beforeToolCall: ({ toolCall }) =>
        toolCall.toolName === 'delete_file' ? InterventionActions.deny('deleting files is not allowed') : InterventionActions.proceed(),
    }),
  ],
});
const tools = {
  delete_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => ({ deleted: path }) }),
};

/** One denied call: the model asks for delete_file, the handler denies it, the model answers in text. */
async function deniedCall(): Promise<void> {
  const model = scriptedModel(toolCall('call-1', 'delete_file', { path: '/tmp/report.txt' }), text('I may not delete it.'));
  const options = { model, tools, stopWhen: isStepCount(3), prompt: 'Delete /tmp/report.txt' };
  if (generate) await interventions.generateText(options);
  else {
    const result = interventions.streamText(options);
    for await (const _part of result.fullStream) {
      // read to the end, as a chat route does
    }
  }
  if (model.calls.length !== 2) throw new Error(`expected two model calls, got ${model.calls.length}`);
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await deniedCall(); // warm-up: modules load, caches fill
await session.post('Profiler.takePreciseCoverage'); // resets the counters
await deniedCall();
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();

const entered = new Map<string, string[]>();
/** How many times each file's functions were entered in all. */
const calls = new Map<string, number>();
for (const script of result) {
  if (!script.url.startsWith('file:')) continue;
  const file = relative(root, fileURLToPath(script.url));
  // the library's own code: not the scripted model of ai-interventions/testing
  if (!file.startsWith('src/') || file.startsWith('src/testing/')) continue;
  for (const fn of script.functions) {
    // the first range is the function's own: its count is how often it was entered
    const times = fn.ranges[0]?.count ?? 0;
    if (times === 0 || (fn.functionName === '' && fn.ranges[0]?.startOffset === 0)) continue;
    calls.set(file, (calls.get(file) ?? 0) + times);
    const names = entered.get(file) ?? [];
    names.push(fn.functionName === '' ? `(anonymous @${fn.ranges[0]?.startOffset})` : fn.functionName);
    entered.set(file, names);
  }
}

const files = [...entered.keys()].sort();
const sum = (of: (file: string) => number, filter: (file: string) => boolean = () => true) =>
  files.filter(filter).reduce((total, file) => total + of(file), 0);
const inApprovals = (file: string) => /^src\/(approvals|answers|ledger)\//.test(file);
const functionsIn = (file: string) => entered.get(file)?.length ?? 0;
const callsIn = (file: string) => calls.get(file) ?? 0;
const figures = {
  functions: sum(functionsIn),
  files: files.length,
  calls: sum(callsIn),
  approvalFunctions: sum(functionsIn, inApprovals),
  approvalFiles: files.filter(inApprovals).length,
  approvalCalls: sum(callsIn, inApprovals),
  /** The functions of approval code entered (src/approvals/, src/answers/, src/ledger/), as `file: name`. */
  approvalEntered: files.filter(inApprovals).flatMap((file) => (entered.get(file) ?? []).map((name) => `${file}: ${name}`)),
};

if (json) console.log(JSON.stringify(figures));
else {
  console.log(
    `one denied call (interventions.${generate ? 'generateText' : 'streamText'}, a beforeToolCall deny, no approval in the request): ` +
      `${figures.functions} functions entered (${figures.calls} calls) in ${figures.files} files of src/; ` +
      `${figures.approvalFunctions} of them (${figures.approvalCalls} calls) in ${figures.approvalFiles} files of approval code (src/approvals/, src/answers/, src/ledger/)`,
  );
}
if (list) for (const file of files) console.log(`${file} (${callsIn(file)} calls): ${entered.get(file)?.join(', ')}`);
