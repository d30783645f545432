/**
 * Transform + confirm on one call through the REAL `@ai-sdk/openai`
 * provider on a loopback server (both APIs, both wrappers): the approval
 * shows the transformed arguments, and once approved the call runs once
 * with them; the model reads its result.
 */
import { type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BeforeToolCallEvent, createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { answeredHistory, approvalRequests } from '../helpers/approval-requests.ts';
import { replyText, replyToolCalls, toolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, run, serve } from '../helpers/openai-wire.ts';

const FOOTER = '\n-- sent by the assistant';

describe.each(CASES)('transform + confirm: $api API, $mode', ({ api, mode, wire }) => {
  it('should run the approved call once, with the transformed arguments the person saw', async () => {
    const sent: string[] = [];
    const tools = {
      send_email: tool({
        inputSchema: z.object({ to: z.string(), body: z.string() }),
        execute: async ({ to, body }) => (sent.push(`${to}: ${body}`), `sent to ${to}`),
      }),
    };
    const footer = defineHandler({
      name: 'footer',
      beforeToolCall: () =>
        InterventionActions.transform<BeforeToolCallEvent>((event) => {
          const input = event.toolCall.input as { to: string; body: string };
          event.toolCall.input = { ...input, body: `${input.body}${FOOTER}` };
        }),
    });
    const ask = defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Send this email?') });
    const interventions = createInterventions({ handlers: [footer, ask] });
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_1', 'send_email', { to: 'bob', body: 'Hi' })),
      replyText('Sent.'),
    );
    const history: ModelMessage[] = [{ role: 'user', content: 'email bob' }];

    const first = await run(mode, interventions, { model, tools, messages: history });
    const [request] = approvalRequests(first.content);
    expect(request?.toolCall.input).toEqual({ to: 'bob', body: `Hi${FOOTER}` });

    const resumed = await run(mode, interventions, {
      model,
      tools,
      messages: answeredHistory(history, first.responseMessages, { id: request!.approvalId, approved: true }),
    });

    expect(sent).toEqual([`bob: Hi${FOOTER}`]);
    expect(resumed.text).toBe('Sent.');
    expect(wire.toolCalls(server.requests[1]).map((call) => call.args)).toEqual([{ to: 'bob', body: `Hi${FOOTER}` }]);
    expect(wire.toolOutputs(server.requests[1])).toEqual([['call_1', expect.stringContaining('sent to bob')]]);
  });
});
