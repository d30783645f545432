/**
 * Typed answers (`approvalAnswer`) take the same path with `wrapTools` and
 * PLAIN `generateText` / `streamText` as through the wrappers: an approved
 * edit runs the edited arguments (never the model's), an answer that cannot
 * be read runs nothing, and each refusal leaves a record.
 */
import { generateText, isStepCount, type ModelMessage, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  APPROVAL_ANSWER_PREFIX,
  type ApprovalAnswer,
  approvalAnswer,
  createInterventions,
  type DecisionRecord,
  defaultWording,
  defineHandler,
  InterventionActions,
  type InterventionHandlerLike,
} from '../../src/index.ts';
import { answeredHistory } from '../helpers/approval-requests.ts';
import { MODES } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const ask = defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete it?') });

describe.each(MODES)('typed answers with wrapTools and plain %s', (mode) => {
  async function plain(options: Parameters<typeof generateText>[0]) {
    if (mode === 'generateText') return void (await generateText(options));
    await streamText(options as Parameters<typeof streamText>[0]).consumeStream();
  }

  /** A paused delete of `/tmp/report.txt`, and the resume of an answer to it. */
  async function paused(handlers: InterventionHandlerLike[] = [ask]) {
    const deleted: string[] = [];
    const records: DecisionRecord[] = [];
    const interventions = createInterventions({ handlers, hooks: { onDecision: ({ record }) => void records.push(record) } });
    const tools = interventions.wrapTools({
      delete_file: tool({
        inputSchema: z.object({ path: z.string().startsWith('/') }),
        execute: async ({ path }) => (deleted.push(path), `deleted ${path}`),
      }),
    });
    const history: ModelMessage[] = [{ role: 'user', content: 'delete the report' }];
    const first = await generateText({
      model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/report.txt' }))),
      tools,
      messages: history,
    });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    if (request === undefined) throw new Error('no approval request');
    const resume = async (answer: ApprovalAnswer | { id: string; approved: boolean; reason: string }) => {
      const response = 'id' in answer ? answer : approvalAnswer({ id: request.approvalId, ...answer });
      const model = scriptedModel(step(text('done')));
      await plain({ model, tools, stopWhen: isStepCount(3), messages: answeredHistory(history, first.responseMessages, response) });
      return model;
    };
    return { deleted, records, resume, approvalId: request.approvalId };
  }

  it('should run the edited arguments the person approved, never the model’s', async () => {
    const { deleted, resume } = await paused();
    const model = await resume({ approved: true, input: { path: '/tmp/report-old.txt' } });
    expect(deleted).toEqual(['/tmp/report-old.txt']);
    expect(toolResultsSent(model, 0).c1).toEqual({ type: 'text', value: 'deleted /tmp/report-old.txt' });
  });

  it('should let a deny win on the edited arguments', async () => {
    const noTmpOld = defineHandler({
      name: 'keep-old',
      beforeToolCall: ({ toolCall: call }) =>
        (call.input as { path: string }).path.endsWith('-old.txt')
          ? InterventionActions.deny('Old reports are kept')
          : InterventionActions.proceed(),
    });
    const { deleted, resume } = await paused([noTmpOld, ask]);
    const model = await resume({ approved: true, input: { path: '/tmp/report-old.txt' } });
    expect(deleted).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 0).c1)).toContain('Old reports are kept');
  });

  it('should refuse an edit the schema rejects, with a record, and run nothing', async () => {
    const { deleted, records, resume } = await paused();
    const model = await resume({ approved: true, input: { path: 'relative.txt' } });
    expect(deleted).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 0).c1)).toContain('the edited arguments are not valid');
    expect(records.at(-1)).toMatchObject({ handler: 'approval-edit', action: 'deny', toolCallId: 'c1' });
  });

  it('should run nothing for an approval whose typed answer cannot be read, tell the model why, and record it', async () => {
    const { deleted, records, resume, approvalId } = await paused();
    const model = await resume({ id: approvalId, approved: true, reason: `${APPROVAL_ANSWER_PREFIX}{not json` });
    expect(deleted).toEqual([]);
    const sent = JSON.stringify(toolResultsSent(model, 0).c1);
    expect(sent).toContain('The approval answer could not be read');
    expect(sent).not.toContain(APPROVAL_ANSWER_PREFIX);
    expect(records.at(-1)).toMatchObject({ handler: 'approval-answer', action: 'deny', toolCallId: 'c1' });
  });

  it('should answer a replay carrying another edit with what ran, deciding nothing again', async () => {
    const { deleted, records, resume } = await paused();
    const first = await resume({ approved: true, input: { path: '/tmp/FIRST' } });
    const replay = await resume({ approved: true, input: { path: 'not-absolute' } });
    expect(deleted).toEqual(['/tmp/FIRST']);
    expect(toolResultsSent(replay, 0).c1).toEqual(toolResultsSent(first, 0).c1);
    expect(records.filter((record) => record.action === 'deny')).toEqual([]);
  });

  it('should run a plain approval once with the model’s arguments, as before', async () => {
    const { deleted, resume, approvalId } = await paused();
    await resume({ id: approvalId, approved: true, reason: 'ok' });
    expect(deleted).toEqual(['/tmp/report.txt']);
  });
});

describe.each(MODES)('a typed refusal with wrapTools, plain %s and interventions.middleware', (mode) => {
  it("should give the model the person's words in the rejectedCall wording, never the encoding, and run nothing", async () => {
    const deleted: string[] = [];
    const interventions = createInterventions({ handlers: [ask] });
    const tools = interventions.wrapTools({
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => (deleted.push(path), `deleted ${path}`),
      }),
    });
    const history: ModelMessage[] = [{ role: 'user', content: 'delete the report' }];
    const first = await generateText({
      model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/report.txt' }))),
      tools,
      messages: history,
    });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    const scripted = scriptedModel(step(text('ok')));
    const model = wrapLanguageModel({ model: scripted, middleware: interventions.middleware });
    const messages = answeredHistory(
      history,
      first.responseMessages,
      approvalAnswer({ id: request!.approvalId, approved: false, reason: 'Not that file' }),
    );

    if (mode === 'generateText') await generateText({ model, tools, messages });
    else await streamText({ model, tools, messages }).consumeStream();

    expect(deleted).toEqual([]);
    expect(JSON.stringify(scripted.calls)).not.toContain(APPROVAL_ANSWER_PREFIX);
    expect(toolResultsSent(scripted, 0).c1).toEqual({
      type: 'execution-denied',
      reason: defaultWording.rejectedCall({
        toolCall: { toolCallId: 'c1', toolName: 'delete_file', input: { path: '/tmp/report.txt' } },
        reason: 'Not that file',
      }),
    });
  });
});
