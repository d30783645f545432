/**
 * A replay of a used approval shows the model, and `responseMessages`, what
 * ran, byte for byte as the first resume did, whatever its answer says now
 * (another edit, a refusal), and whatever the tool returned (a `Date`).
 */
import { isStepCount, type ModelMessage, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ApprovalAnswer,
  approvalAnswer,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
} from '../../src/index.ts';
import { answeredHistory } from '../helpers/approval-requests.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const ask = defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete it?') });

/** A paused delete of `/tmp/MODEL`; `resume(answer)` sends it, and says what the model and the caller got. */
async function paused(mode: Mode, returns: (path: string) => unknown = (path) => ({ deleted: path })) {
  const deleted: string[] = [];
  const interventions = createInterventions({
    handlers: [ask],
    approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
    approvalLedger: createApprovalLedger(),
  });
  const tools = {
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (deleted.push(path), returns(path)),
    }),
  };
  const history: ModelMessage[] = [{ role: 'user', content: 'delete it' }];
  const first = await interventions.generateText({
    model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/MODEL' }))),
    tools,
    stopWhen: isStepCount(3),
    messages: history,
  });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  if (request === undefined) throw new Error('no approval request');
  const resume = async (answer: ApprovalAnswer) => {
    const model = scriptedModel(step(text('done')));
    const messages = answeredHistory(history, first.responseMessages, approvalAnswer({ id: request.approvalId, ...answer }));
    const outcome = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), messages });
    return { prompt: JSON.stringify(model.calls[0]?.prompt), responseMessages: JSON.stringify(outcome.responseMessages) };
  };
  return { deleted, resume };
}

describe.each(MODES)('a replay of a used approval (%s)', (mode) => {
  it('should show what ran when the replay carries another edit', async () => {
    const { deleted, resume } = await paused(mode);
    const first = await resume({ approved: true, input: { path: '/tmp/FIRST' } });
    const replay = await resume({ approved: true, input: { path: '/tmp/SECOND' } });

    expect(deleted).toEqual(['/tmp/FIRST']);
    expect(first.prompt).toContain('/tmp/FIRST');
    expect(replay.prompt).not.toContain('/tmp/SECOND');
    expect(replay.prompt).toBe(first.prompt);
    expect(replay.responseMessages).toBe(first.responseMessages);
  });

  it('should show what ran when the replay carries a refusal', async () => {
    const { deleted, resume } = await paused(mode);
    const first = await resume({ approved: true });
    const replay = await resume({ approved: false, reason: 'Changed my mind' });

    expect(deleted).toEqual(['/tmp/MODEL']);
    expect(replay.prompt).toBe(first.prompt);
    expect(replay.responseMessages).toBe(first.responseMessages);
  });

  it('should give a replayed Date result as the first resume gave it', async () => {
    const { deleted, resume } = await paused(mode, () => new Date(Date.UTC(2026, 0, 2)));
    const first = await resume({ approved: true });
    const replay = await resume({ approved: true });

    expect(deleted).toEqual(['/tmp/MODEL']);
    expect(first.prompt).toContain('"type":"json","value":"2026-01-02T00:00:00.000Z"');
    expect(replay.prompt).toBe(first.prompt);
    expect(replay.responseMessages).toBe(first.responseMessages);
  });
});

describe('a replay of a used approval through a ToolLoopAgent (agentSettings)', () => {
  it('should show what ran when the replay carries another edit', async () => {
    const deleted: string[] = [];
    const interventions = createInterventions({ handlers: [ask] });
    const tools = {
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => (deleted.push(path), { deleted: path }),
      }),
    };
    const history: ModelMessage[] = [{ role: 'user', content: 'delete it' }];
    const paused = await new ToolLoopAgent(
      interventions.agentSettings({ model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/MODEL' }))), tools }),
    ).generate({
      messages: history,
    });
    const request = paused.content.find((part) => part.type === 'tool-approval-request');
    const resume = async (answer: ApprovalAnswer) => {
      const model = scriptedModel(step(text('done')));
      const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools }));
      await agent.generate({
        messages: answeredHistory(history, paused.responseMessages, approvalAnswer({ id: request!.approvalId, ...answer })),
      });
      return JSON.stringify(model.calls[0]?.prompt);
    };

    const first = await resume({ approved: true, input: { path: '/tmp/FIRST' } });
    const replay = await resume({ approved: true, input: { path: '/tmp/SECOND' } });

    expect(deleted).toEqual(['/tmp/FIRST']);
    expect(replay).toBe(first);
  });
});
