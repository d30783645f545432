/**
 * One server instance for the resume-replay test, run as its own process
 * (`spawnChild`, args `<redis port> <key prefix> <name> <approval secret>`):
 * a runtime of its own with the shared `approvalSecret` and an approval
 * ledger on the shared Redis, as every instance of a deployment has.
 *
 * Sends `ready`; on each `resume`, calls `interventions.generateText` or
 * `interventions.streamText` (the stream read to its end) with the resume
 * request's messages, and sends `resumed`: whether this process executed
 * the tool, the tool result the model was sent, the text, and the ledger's
 * records.
 */
import { isStepCount, type ModelMessage, tool } from 'ai';
import { Redis } from 'ioredis';
import { z } from 'zod';
import {
  createApprovalLedger,
  createInterventions,
  createRedisStore,
  type DecisionRecord,
  defineHandler,
  InterventionActions,
} from '../../src/index.ts';
import { connectParent } from '../helpers/child-process.ts';
import { scriptedModel, step, text, toolResultsSent } from '../helpers/scripted-model.ts';

export type ReplayChildCommand = {
  readonly type: 'resume';
  readonly mode: 'generateText' | 'streamText';
  readonly messages: ModelMessage[];
  /** How long the tool takes, so a concurrent resume finds it running. */
  readonly executeMs: number;
};

export type ReplayChildMessage =
  | { readonly type: 'ready' }
  | {
      readonly type: 'resumed';
      readonly executed: boolean;
      readonly toolResult: unknown;
      readonly text: string;
      readonly ledgerRecords: readonly DecisionRecord[];
    };

const [port, prefix, name = '?', approvalSecret] = process.argv.slice(2);
const parent = connectParent<ReplayChildCommand, ReplayChildMessage>();
const client = new Redis({ host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: 1 });
const interventions = createInterventions({
  handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Approve the transfer?') })],
  approvalSecret,
  approvalLedger: createApprovalLedger({ store: createRedisStore({ client, prefix }) }),
});
// warm up (the connection, the scripts) so both instances start even
await client.get(`${prefix ?? ''}warm-up`);
parent.send({ type: 'ready' });

for (;;) {
  const command = await parent.receive('resume', { timeoutMs: Number.POSITIVE_INFINITY }).catch(() => undefined);
  if (command === undefined) break;
  let executed = false;
  const tools = {
    transfer: tool({
      inputSchema: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        executed = true;
        await new Promise((resolve) => setTimeout(resolve, command.executeMs));
        return `transferred ${amount} on ${name}`;
      },
    }),
  };
  const model = scriptedModel(step(text(`done on ${name}`)));
  const options = { model, tools, stopWhen: isStepCount(3), messages: command.messages };
  let finalText: string;
  let decisions: readonly DecisionRecord[];
  if (command.mode === 'generateText') {
    const result = await interventions.generateText(options);
    finalText = result.text;
    decisions = result.interventions.decisions;
  } else {
    const result = interventions.streamText(options);
    finalText = await result.text;
    decisions = result.interventions.decisions;
  }
  parent.send({
    type: 'resumed',
    executed,
    toolResult: toolResultsSent(model, 0).t1,
    text: finalText,
    ledgerRecords: decisions.filter((record) => record.handler === 'approval-ledger'),
  });
}
await client.quit();
