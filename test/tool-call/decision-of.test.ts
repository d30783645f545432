/**
 * The one owner of a tool call's decision (`decisionOf`), tried through the
 * public API with the REAL `@ai-sdk/openai` provider on a loopback server
 * (both APIs, both wrappers): the fail-closed rules hold whichever point of
 * the SDK meets the call (the model layer's hold, the approval point).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { isStepCount, type LanguageModel, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, type DecisionRecord, defineHandler, InterventionActions, redactPii } from '../../src/index.ts';
import { replyText, replyToolCalls, toolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, run, serve } from '../helpers/openai-wire.ts';
import { startReasoningServer } from '../helpers/reasoning-wire-server.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';

const USER = { role: 'user' as const, content: 'Tidy up and mail the report' };
const SSN = '123-45-6789';

/** `send_email` (`{ to, body }`): `sent` records each body that was sent. */
function mailTools() {
  const sent: string[] = [];
  const tools = {
    send_email: tool({
      inputSchema: z.object({ to: z.string(), body: z.string() }),
      execute: async ({ body }) => (sent.push(body), 'sent'),
    }),
  };
  return { sent, tools };
}

/** Runs a scenario and gives what ran, or the error the run ended with. */
async function settled<T>(work: Promise<T>): Promise<{ readonly value?: T; readonly error?: unknown }> {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
}

describe.each(CASES)('an action a handler did not declare: $api API, $mode', ({ api, mode }) => {
  it("should fail closed with onError 'proceed': a returned deny stops the call, and the record says why", async () => {
    const { ran, tools } = wipeAndLookupTools();
    const { model } = await serve(api, replyToolCalls(toolCall('c1', 'wipe_disk', { disk: 'sda' })), replyText('Not wiped.'));
    const sloppy = defineHandler({
      name: 'sloppy',
      onError: 'proceed',
      toolCallActions: ['guide'],
      beforeToolCall: ({ toolCall: call }) =>
        call.toolName === 'wipe_disk' ? InterventionActions.deny('never wipe') : InterventionActions.proceed(),
    });

    const result = await run(mode, createInterventions({ handlers: [sloppy] }), { model, tools, messages: [USER] });

    expect(ran).toEqual([]);
    const record = result.decisions.find((item) => item.handler === 'sloppy');
    expect(record).toMatchObject({ action: 'deny', enforced: true, toolName: 'wipe_disk' });
    expect(record?.reason).toContain('cannot be carried out');
    expect(record?.reason).toContain('toolCallActions (guide) do not include');
    expect(record?.error).toMatchObject({ name: 'AIInterventions_InvalidActionError' });
  });

  it("should fail closed with onError 'proceed': a returned redacting transform stops the call instead of running the unredacted one", async () => {
    const { sent, tools } = mailTools();
    const { model } = await serve(
      api,
      replyToolCalls(toolCall('c1', 'send_email', { to: 'hr@example.com', body: `SSN ${SSN}` })),
      replyText('Not sent.'),
    );
    const redacting = defineHandler({
      name: 'redact-ssn',
      onError: 'proceed',
      toolCallActions: ['deny'],
      beforeToolCall: () =>
        InterventionActions.transform((draft) => {
          if ('toolCall' in draft) draft.toolCall.input = { ...(draft.toolCall.input as object), body: 'SSN [SSN]' };
        }),
    });

    await run(mode, createInterventions({ handlers: [redacting] }), { model, tools, messages: [USER] });

    expect(sent).toEqual([]);
  });
});

describe.each(CASES)('a decision that fails: $api API, $mode', ({ api, mode }) => {
  /** Throws on wipe_disk (the model calls lookup first, then wipe_disk, in one step). */
  const flaky = defineHandler({
    name: 'flaky',
    toolCallActions: ['deny'],
    beforeToolCall: ({ toolCall: call }) => {
      if (call.toolName === 'wipe_disk') throw new Error('policy service down');
      return InterventionActions.proceed();
    },
  });

  it('should start no further tool: the sibling call of the same step does not run', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const { model } = await serve(
      api,
      replyToolCalls(toolCall('c1', 'lookup', { q: 'weather' }), toolCall('c2', 'wipe_disk', { disk: 'sda' })),
      replyText('Done.'),
    );

    const outcome = await settled(run(mode, createInterventions({ handlers: [flaky] }), { model, tools, messages: [USER] }));

    expect(outcome.error).toMatchObject({ name: 'AIInterventions_InterventionHandlerError', handlerName: 'flaky' });
    expect(ran).toEqual([]);
  });
});

describe('a decision that fails at the approval point, in the UI stream', () => {
  it('should show the call as denied, not as allowed: the decision part says it was not run', async () => {
    const { ran, tools } = wipeAndLookupTools();
    const { model } = await serve('chat', replyToolCalls(toolCall('c2', 'wipe_disk', { disk: 'sda' })), replyText('Done.'));
    const flaky = defineHandler({
      name: 'flaky',
      toolCallActions: ['deny'],
      beforeToolCall: () => {
        throw new Error('policy service down');
      },
    });
    const interventions = createInterventions({ handlers: [flaky] });

    const result = interventions.streamText({ model, tools, messages: [USER] });
    const chunks: Array<{ type: string; data?: unknown }> = [];
    for await (const chunk of result.toUIMessageStream()) chunks.push(chunk as { type: string; data?: unknown });

    expect(ran).toEqual([]);
    const decisions = chunks.filter((chunk) => chunk.type === 'data-intervention').map((chunk) => chunk.data as { action: string });
    expect(decisions.length).toBeGreaterThan(0);
    for (const decision of decisions) expect(decision.action).toBe('deny');
    const records: readonly DecisionRecord[] = result.interventions.decisions;
    expect(records.some((record) => record.handler === 'ai-interventions' && record.action === 'deny')).toBe(true);
  });
});

describe('the owner decides a call once', () => {
  it.each(['generateText', 'streamText'] as const)(
    'should evaluate the handlers once for a call the model layer decided (%s), and apply that decision at the approval point',
    async (mode) => {
      const { ran, tools } = wipeAndLookupTools();
      const { model } = await serve('chat', replyToolCalls(toolCall('c1', 'lookup', { q: 'x' })), replyText('Done.'));
      let evaluated = 0;
      // undeclared: it may transform, so the model layer decides its calls
      const counting = defineHandler({
        name: 'counting',
        beforeToolCall: () => (evaluated++, InterventionActions.proceed()),
      });

      await run(mode, createInterventions({ handlers: [counting, noWipes] }), { model, tools, messages: [USER] });

      expect(ran).toEqual(['lookup x']);
      expect(evaluated).toBe(1);
    },
  );
});

describe("a denied call's arguments, as people see them", () => {
  const noMail = defineHandler({ name: 'no-mail', beforeToolCall: () => InterventionActions.deny('Mail is off today.') });

  /** Every chunk of the UI stream of one streamText call (the denied call, then the model's answer). */
  async function uiChunks(model: LanguageModel): Promise<string> {
    const { sent, tools } = mailTools();
    const interventions = createInterventions({ handlers: [noMail, redactPii()] });
    const result = interventions.streamText({ model, tools, messages: [USER], stopWhen: isStepCount(3) });
    const chunks: unknown[] = [];
    for await (const chunk of result.toUIMessageStream()) chunks.push(chunk);
    expect(sent).toEqual([]);
    return JSON.stringify(chunks);
  }

  it.each(['chat', 'responses'] as const)(
    'should reach the UI stream only as the redactors leave them, though the deny stopped the redacting handler (OpenAI %s API)',
    async (api) => {
      const { model } = await serve(
        api,
        replyToolCalls(toolCall('c1', 'send_email', { to: 'hr@example.com', body: `SSN ${SSN}` })),
        replyText('Not sent.'),
      );

      const ui = await uiChunks(model);

      expect(ui).toContain('tool-input-available');
      expect(ui).not.toContain(SSN);
      expect(ui).toContain('[SSN]');
    },
  );

  it('should reach the UI stream only as the redactors leave them (Anthropic Messages API)', async () => {
    const server = await startReasoningServer([
      { reasoning: 'The user wants the report mailed.', call: { name: 'send_email', input: { to: 'hr@example.com', body: `SSN ${SSN}` } } },
      { text: 'Not sent.' },
    ]);
    try {
      const model = createAnthropic({ baseURL: server.baseURL, apiKey: 'test' })('claude-test');

      const ui = await uiChunks(model);

      expect(ui).toContain('tool-input-available');
      expect(ui).not.toContain(SSN);
    } finally {
      await server.close();
    }
  });
});
