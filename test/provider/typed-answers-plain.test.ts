/**
 * Typed answers with `wrapTools` and PLAIN `generateText` / `streamText`,
 * through the REAL `@ai-sdk/openai` provider on a loopback server (both
 * APIs): an approved edit runs the edited arguments, an answer that cannot
 * be read runs nothing, and a refusal reads as the person's words to a
 * model wrapped with `interventions.middleware`.
 */
import { generateText, type LanguageModel, type ModelMessage, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APPROVAL_ANSWER_PREFIX, approvalAnswer, createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { answeredHistory } from '../helpers/approval-requests.ts';
import { replyText, replyToolCalls, toolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, serve } from '../helpers/openai-wire.ts';

describe.each(CASES)('typed answers with wrapTools and plain calls: $api API, $mode', ({ api, mode, wire }) => {
  async function paused() {
    const deleted: string[] = [];
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete it?') })],
    });
    const tools = interventions.wrapTools({
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => (deleted.push(path), `deleted ${path}`),
      }),
    });
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_1', 'delete_file', { path: '/tmp/report.txt' })),
      replyText('Done.'),
    );
    const history: ModelMessage[] = [{ role: 'user', content: 'delete the report' }];
    const call = async (options: { model: LanguageModel; messages: ModelMessage[] }) => {
      if (mode === 'generateText') return generateText({ ...options, tools });
      const result = streamText({ ...options, tools });
      await result.consumeStream();
      return { content: await result.content, responseMessages: await result.responseMessages };
    };
    const first = await call({ model, messages: history });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    const resume = (answer: { id: string; approved: boolean; reason: string }, resumeModel: LanguageModel = model) =>
      call({ model: resumeModel, messages: answeredHistory(history, first.responseMessages, answer) });
    return { deleted, server, interventions, model, approvalId: request!.approvalId, resume };
  }

  it('should run the edited arguments the person approved', async () => {
    const { deleted, server, resume, approvalId } = await paused();
    await resume(approvalAnswer({ id: approvalId, approved: true, input: { path: '/tmp/report-old.txt' } }));
    expect(deleted).toEqual(['/tmp/report-old.txt']);
    expect(wire.toolOutputs(server.requests[1])).toEqual([['call_1', expect.stringContaining('deleted /tmp/report-old.txt')]]);
  });

  it('should run nothing for an answer that cannot be read', async () => {
    const { deleted, server, resume, approvalId } = await paused();
    await resume({ id: approvalId, approved: true, reason: `${APPROVAL_ANSWER_PREFIX}{broken` });
    expect(deleted).toEqual([]);
    const [[, output] = []] = wire.toolOutputs(server.requests[1]);
    expect(output).toContain('The approval answer could not be read');
    expect(output).not.toContain(APPROVAL_ANSWER_PREFIX);
  });

  it("should give a model wrapped with interventions.middleware a refusal in the person's words", async () => {
    const { deleted, server, resume, approvalId, interventions, model } = await paused();
    await resume(
      approvalAnswer({ id: approvalId, approved: false, reason: 'Not that file' }),
      wrapLanguageModel({ model: model as never, middleware: interventions.middleware }),
    );
    expect(deleted).toEqual([]);
    const [[, output] = []] = wire.toolOutputs(server.requests[1]);
    expect(output).toContain('Not that file');
    expect(output).not.toContain(APPROVAL_ANSWER_PREFIX);
  });
});
