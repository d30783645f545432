/**
 * A handler transforms a call and another asks a human about it: the person
 * approves what will run, and the approved call runs once, with the
 * transformed arguments shown in the approval; transforms are not applied
 * again on resume.
 */
import { isStepCount, type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BeforeToolCallEvent, createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { answeredHistory, approvalRequests } from '../helpers/approval-requests.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const FOOTER = '\n-- sent by the assistant';

function setup() {
  const sent: string[] = [];
  const tools = {
    send_email: tool({
      inputSchema: z.object({ to: z.string(), body: z.string() }),
      execute: async ({ to, body }) => (sent.push(`${to}: ${body}`), `sent to ${to}`),
    }),
  };
  let transforms = 0;
  const footer = defineHandler({
    name: 'footer',
    beforeToolCall: () =>
      InterventionActions.transform<BeforeToolCallEvent>((event) => {
        transforms++;
        const input = event.toolCall.input as { to: string; body: string };
        event.toolCall.input = { ...input, body: `${input.body}${FOOTER}` };
      }),
  });
  const ask = defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Send this email?') });
  const interventions = createInterventions({ handlers: [footer, ask] });
  return { sent, tools, interventions, transforms: () => transforms };
}

describe.each(MODES)('transform + confirm on one call through interventions.%s', (mode) => {
  it('should run the approved call once, with the transformed arguments shown in the approval', async () => {
    const { sent, tools, interventions, transforms } = setup();
    const history: ModelMessage[] = [{ role: 'user', content: 'email bob' }];
    const first = await run(interventions, mode, {
      model: scriptedModel(step(toolCall('c1', 'send_email', { to: 'bob', body: 'Hi' }))),
      tools,
      stopWhen: isStepCount(3),
      messages: history,
    });
    const [request] = approvalRequests(first.content);
    expect(request?.toolCall.input).toEqual({ to: 'bob', body: `Hi${FOOTER}` });
    expect(sent).toEqual([]);
    expect(transforms()).toBe(1);

    const model = scriptedModel(step(text('Sent.')));
    const resumed = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: answeredHistory(history, first.responseMessages, { id: request!.approvalId, approved: true }),
    });

    expect(sent).toEqual([`bob: Hi${FOOTER}`]);
    expect(transforms()).toBe(1);
    expect(toolResultsSent(model, 0).c1).toEqual({ type: 'text', value: 'sent to bob' });
    expect(resumed.text).toBe('Sent.');
  });
});
