/**
 * A second, different answer to a used approval, through the REAL
 * `@ai-sdk/openai` provider on a loopback server (both APIs, both
 * wrappers): the replay's request reads exactly as the first resume's (the
 * arguments that ran, and their result), and nothing runs twice.
 */
import { type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApprovalAnswer, approvalAnswer, createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { answeredHistory, approvalRequests } from '../helpers/approval-requests.ts';
import { replyText, replyToolCalls, toolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, run, serve } from '../helpers/openai-wire.ts';

describe.each(CASES)('a replay with another answer: $api API, $mode', ({ api, mode, wire }) => {
  it.each<[string, ApprovalAnswer]>([
    ['another edit', { approved: true, input: { path: '/tmp/SECOND' } }],
    ['a refusal', { approved: false, reason: 'Changed my mind' }],
  ])('should show the model what ran when the replay carries %s', async (_, second) => {
    const deleted: string[] = [];
    const tools = {
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => (deleted.push(path), { deleted: path }),
      }),
    };
    const ask = defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete it?') });
    const interventions = createInterventions({ handlers: [ask] });
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_1', 'delete_file', { path: '/tmp/MODEL' })),
      replyText('Done.'),
      replyText('Done again.'),
    );
    const history: ModelMessage[] = [{ role: 'user', content: 'delete it' }];
    const first = await run(mode, interventions, { model, tools, messages: history });
    const [request] = approvalRequests(first.content);
    const resume = (answer: ApprovalAnswer) =>
      run(mode, interventions, {
        model,
        tools,
        messages: answeredHistory(history, first.responseMessages, approvalAnswer({ id: request!.approvalId, ...answer })),
      });

    const resumed = await resume({ approved: true, input: { path: '/tmp/FIRST' } });
    const replayed = await resume(second);

    expect(deleted).toEqual(['/tmp/FIRST']);
    expect(wire.toolCalls(server.requests[2])).toEqual(wire.toolCalls(server.requests[1]));
    expect(wire.toolOutputs(server.requests[2])).toEqual(wire.toolOutputs(server.requests[1]));
    expect(wire.toolCalls(server.requests[1]).map((call) => call.args)).toEqual([{ path: '/tmp/FIRST' }]);
    expect(wire.toolOutputs(server.requests[1])[0]?.[1]).toContain('/tmp/FIRST');
    // the tool message is the resume's; the text after it is the (scripted) model's next answer
    expect(JSON.stringify(replayed.responseMessages[0])).toBe(JSON.stringify(resumed.responseMessages[0]));
  });
});
