/**
 * One server instance for the inbox-across-instances test, run as its own
 * process (`spawnChild`, args `<redis port> <key prefix> <name> <approval
 * secret>`): a runtime of its own with the shared `approvalSecret`, an
 * approval ledger and an approval inbox on the shared Redis, whose one
 * handler asks a manager to confirm every refund. The refund counts its
 * executions on Redis too (`<prefix>executions`), so the test reads the
 * total across every process, gone ones included.
 *
 * Sends `ready`, then answers each command (`do`) with one message: `ask` (a
 * refund as `runtimeContext`: the history and the approval id; with
 * `store`, the app keeps the conversation and its asker on Redis, as a
 * server keeps a conversation for agents with nobody waiting), `list` and
 * `answer` (the inbox, as `runtimeContext`), `resume` (the history the
 * client has, through `inbox.resume` and a wrapper, as `runtimeContext`),
 * and `continue` (the run continued on the server: the stored
 * conversation, resumed with the stored asker's context, stored back).
 * A resume's reply says what this process executed and what the model was
 * sent for the call.
 */
import { isStepCount, type ModelMessage, tool } from 'ai';
import { Redis } from 'ioredis';
import { z } from 'zod';
import {
  type ApprovalNotification,
  createApprovalInbox,
  createApprovalLedger,
  createInterventions,
  createRedisStore,
  defineHandler,
  type InboxAnswerResult,
  InterventionActions,
  type PendingApproval,
} from '../../src/index.ts';
import { connectParent } from '../helpers/child-process.ts';
import { type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

type Context = Record<string, unknown>;

/** What an instance is asked to do (one message type, `do`, so the commands arrive in order). */
export type InboxChildWork =
  | { readonly op: 'ask'; readonly path: Mode; readonly runtimeContext: Context; readonly store?: string }
  | { readonly op: 'list'; readonly runtimeContext: Context }
  | { readonly op: 'answer'; readonly id: string; readonly approved: boolean; readonly runtimeContext: Context; readonly reason?: string }
  | { readonly op: 'resume'; readonly path: Mode; readonly messages: ModelMessage[]; readonly runtimeContext: Context }
  | { readonly op: 'continue'; readonly path: Mode; readonly conversation: string };

export type InboxChildCommand = { readonly type: 'do' } & InboxChildWork;

export type InboxChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'asked'; readonly messages: ModelMessage[]; readonly approvalId: string }
  | { readonly type: 'listed'; readonly requests: readonly PendingApproval[] }
  | { readonly type: 'answered'; readonly result: InboxAnswerResult; readonly notified: readonly ApprovalNotification['type'][] }
  | {
      readonly type: 'resumed';
      readonly executed: number[];
      /** What the model was sent for the call, `undefined` when it was not called. */
      readonly modelRead: unknown;
      /** Whether the history the run got carried an approval for the call (written in by `inbox.resume`). */
      readonly approvalWritten: boolean;
      readonly messages: ModelMessage[];
    };

const [port, prefix = '', name = '?', approvalSecret] = process.argv.slice(2);
const parent = connectParent<InboxChildCommand, InboxChildMessage>();
const client = new Redis({ host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: 1 });
const store = createRedisStore({ client, prefix });
const notified: ApprovalNotification['type'][] = [];
const interventions = createInterventions({
  approvalSecret,
  approvalLedger: createApprovalLedger({ store }),
  approvalInbox: createApprovalInbox({ store, notify: (event) => void notified.push(event.type) }),
  handlers: [
    defineHandler({
      name: 'refunds',
      beforeToolCall: () => InterventionActions.confirm('Refund it?', { approvers: { roles: ['manager'], label: 'a manager' } }),
    }),
  ],
});
const executed: number[] = [];
const tools = {
  refund: tool({
    inputSchema: z.object({ amount: z.number() }),
    execute: async ({ amount }) => {
      executed.push(amount);
      await client.incr(`${prefix}executions`);
      return `refunded ${amount} on ${name}`;
    },
  }),
};
// warm up (the connection, the scripts) so the instances start even
await client.get(`${prefix}warm-up`);
parent.send({ type: 'ready' });

/** A run resumed from `history` as `runtimeContext`: what ran here and what the model was sent. */
async function resume(path: Mode, history: readonly ModelMessage[], runtimeContext: Context) {
  executed.length = 0;
  const messages = await interventions.inbox.resume(history);
  const approvalWritten = messages.some(
    (message) => message.role === 'tool' && message.content.some((part) => part.type === 'tool-approval-response' && part.approved),
  );
  const model = scriptedModel(step(text(`done on ${name}`)));
  const outcome = await run(interventions, path, { model, tools, stopWhen: isStepCount(3), messages, runtimeContext });
  return {
    type: 'resumed' as const,
    executed: [...executed],
    modelRead: model.calls.length === 0 ? undefined : toolResultsSent(model, 0).r1,
    approvalWritten,
    messages: [...messages, ...outcome.responseMessages],
  };
}

for (;;) {
  const command = await parent.receive('do', { timeoutMs: Number.POSITIVE_INFINITY }).catch(() => undefined);
  if (command === undefined) break;
  switch (command.op) {
    case 'ask': {
      const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
      const model = scriptedModel(step(toolCall('r1', 'refund', { amount: 50 })));
      const asked = await run(interventions, command.path, {
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: prompt,
        runtimeContext: command.runtimeContext,
      });
      const request = asked.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
      const messages = [...prompt, ...asked.responseMessages];
      // the app keeps the conversation, and who it belongs to, where any instance finds it
      if (command.store !== undefined) {
        await client.set(`${prefix}app:${command.store}`, JSON.stringify({ messages, runtimeContext: command.runtimeContext }));
      }
      parent.send({ type: 'asked', messages, approvalId: request?.approvalId ?? '' });
      break;
    }
    case 'list': {
      const { requests } = await interventions.inbox.list({ runtimeContext: command.runtimeContext });
      parent.send({ type: 'listed', requests });
      break;
    }
    case 'answer': {
      notified.length = 0;
      const { id, approved, runtimeContext, reason } = command;
      const result = await interventions.inbox.answer(id, { approved, runtimeContext, ...(reason === undefined ? {} : { reason }) });
      parent.send({ type: 'answered', result, notified: [...notified] });
      break;
    }
    case 'resume':
      parent.send(await resume(command.path, command.messages, command.runtimeContext));
      break;
    case 'continue': {
      // nobody waiting: the server continues the stored conversation as the person it belongs to
      const key = `${prefix}app:${command.conversation}`;
      const kept = JSON.parse((await client.get(key)) ?? '{}') as { messages: ModelMessage[]; runtimeContext: Context };
      const resumed = await resume(command.path, kept.messages, kept.runtimeContext);
      await client.set(key, JSON.stringify({ ...kept, messages: resumed.messages }));
      parent.send(resumed);
      break;
    }
  }
}
await client.quit();
