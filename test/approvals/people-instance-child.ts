/**
 * One server instance for the people-across-instances test, run as its own
 * process (`spawnChild`, args `<redis port> <key prefix> <name> <approval
 * secret> <confirm options as JSON> [its clock's skew in ms]`): a runtime of its own with the shared
 * `approvalSecret` and an approval ledger on the shared Redis, whose one
 * handler confirms every refund with the given options.
 *
 * Sends `ready`; on a `call` without messages, asks for a refund as
 * `runtimeContext` and sends `asked` (the history and the approval id); on
 * one with messages (answering the request), calls as `runtimeContext` and
 * sends `answered`: the refunds
 * this process executed, the user id the tool hooks saw, the records about
 * the answer, and what the model read for the call.
 */
import { generateText, isStepCount, type ModelMessage, tool } from 'ai';
import { Redis } from 'ioredis';
import { z } from 'zod';
import {
  type ConfirmOptions,
  createApprovalLedger,
  createInterventions,
  createRedisStore,
  type DecisionRecord,
  defineHandler,
  guardTools,
  humanApproval,
  InterventionActions,
} from '../../src/index.ts';
import { connectParent } from '../helpers/child-process.ts';
import { type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

export type PeoplePath = Mode | 'guardTools';

export type PeopleChildCommand = {
  readonly type: 'call';
  readonly path: PeoplePath;
  readonly runtimeContext: Record<string, unknown>;
  /** Absent: ask for a refund; given: the history answering the request. */
  readonly messages?: ModelMessage[];
};

export type PeopleChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'asked'; readonly messages: ModelMessage[]; readonly approvalId: string }
  | {
      readonly type: 'answered';
      readonly executed: number[];
      readonly hookSaw: unknown[];
      readonly records: readonly DecisionRecord[];
      readonly modelRead: unknown;
    };

const [port, prefix, name = '?', approvalSecret, confirmJson = '{}', skewMs = '0'] = process.argv.slice(2);
// an instance whose clock is off by `skewMs` (a server whose clock drifted)
if (Number(skewMs) !== 0) {
  const real = Date.now.bind(Date);
  Date.now = () => real() + Number(skewMs);
}
// `human: true`: the built-in humanApproval asks, with these options and its remembered answers on the shared Redis
const { human, ...confirm } = JSON.parse(confirmJson) as ConfirmOptions & { readonly human?: boolean };
const parent = connectParent<PeopleChildCommand, PeopleChildMessage>();
const client = new Redis({ host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: 1 });
const approvalLedger = createApprovalLedger({ store: createRedisStore({ client, prefix }) });
const handlers = [
  human === true
    ? humanApproval({ tools: ['refund'], ...confirm, remember: { store: createRedisStore({ client, prefix: `${prefix}human:` }) } })
    : defineHandler({ name: 'refunds', beforeToolCall: () => InterventionActions.confirm('Refund it?', confirm) }),
];
const hookSaw: unknown[] = [];
const hooks = {
  preToolCall: [({ runtimeContext }: { runtimeContext: Record<string, unknown> }) => void hookSaw.push(runtimeContext.userId)],
};
const interventions = createInterventions({ handlers, hooks, approvalSecret, approvalLedger });
const executed: number[] = [];
const tools = {
  refund: tool({
    inputSchema: z.object({ amount: z.number() }),
    execute: async ({ amount }) => {
      executed.push(amount);
      return `refunded ${amount} on ${name}`;
    },
  }),
};
// warm up (the connection, the scripts) so both instances start even
await client.get(`${prefix ?? ''}warm-up`);
parent.send({ type: 'ready' });

/** One call on `path`: the wrappers, or a plain generateText with tools guarded for this request. */
async function call(
  path: PeoplePath,
  messages: ModelMessage[],
  runtimeContext: Record<string, unknown>,
  model: ReturnType<typeof scriptedModel>,
) {
  if (path !== 'guardTools') {
    const outcome = await run(interventions, path, { model, tools, stopWhen: isStepCount(3), messages, runtimeContext });
    return { content: outcome.content, responseMessages: outcome.responseMessages, records: outcome.decisions };
  }
  const records: DecisionRecord[] = [];
  const guarded = guardTools(tools, {
    handlers,
    hooks: { ...hooks, onDecision: [({ record }) => void records.push(record)] },
    approvalLedger,
    runtimeContext,
  });
  const result = await generateText({ model, tools: guarded, stopWhen: isStepCount(3), messages });
  return { content: result.content, responseMessages: result.responseMessages, records };
}

for (;;) {
  const command = await parent.receive('call', { timeoutMs: Number.POSITIVE_INFINITY }).catch(() => undefined);
  if (command === undefined) break;
  if (command.messages === undefined) {
    const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
    const asked = await call(command.path, prompt, command.runtimeContext, scriptedModel(step(toolCall('r1', 'refund', { amount: 50 }))));
    const request = asked.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
    parent.send({ type: 'asked', messages: [...prompt, ...asked.responseMessages], approvalId: request?.approvalId ?? '' });
    continue;
  }
  executed.length = 0;
  hookSaw.length = 0;
  const model = scriptedModel(step(text(`done on ${name}`)));
  const answered = await call(command.path, command.messages, command.runtimeContext, model);
  parent.send({
    type: 'answered',
    executed: [...executed],
    hookSaw: [...hookSaw],
    records: answered.records.filter((record) => record.handler.startsWith('approval-')).map(({ error: _error, ...record }) => record),
    modelRead: model.calls.length === 0 ? undefined : toolResultsSent(model, 0).r1,
  });
}
await client.quit();
