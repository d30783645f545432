import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertToModelMessages, isStepCount, readUIMessageStream, tool, toUIMessageStream, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, usage } from '../helpers/scripted-model.ts';

describe('the UI message stream', () => {
  it('should show denied, guided and confirmed calls in the states useChat renders', async () => {
    const ran: string[] = [];
    const interventions = createInterventions({
      approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
      handlers: [
        defineHandler({
          name: 'policy',
          beforeToolCall: ({ toolCall: call }) =>
            call.toolName === 'wipe'
              ? InterventionActions.deny('Wiping is not allowed')
              : call.toolName === 'email'
                ? InterventionActions.guide('Add a subject line.')
                : InterventionActions.confirm('Deploy to production?'),
        }),
      ],
    });
    const make = (name: string) => tool({ inputSchema: z.object({}), execute: async () => (ran.push(name), 'ran') });
    const result = interventions.streamText({
      model: scriptedModel(step(toolCall('1', 'wipe', {}), toolCall('2', 'email', {}), toolCall('3', 'deploy', {})), step(text('x'))),
      tools: { wipe: make('wipe'), email: make('email'), deploy: make('deploy') },
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    let message: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: toUIMessageStream({ stream: result.stream }) })) message = update;
    const parts = (message?.parts ?? []).filter((part) => part.type.startsWith('tool-'));
    expect(ran).toEqual([]);
    expect(parts).toEqual([
      expect.objectContaining({
        type: 'tool-wipe',
        state: 'output-denied',
        approval: expect.objectContaining({ approved: false, reason: expect.stringContaining('Wiping is not allowed') }),
      }),
      expect.objectContaining({
        type: 'tool-email',
        state: 'output-denied',
        approval: expect.objectContaining({ approved: false, reason: expect.stringContaining('[policy] Add a subject line.') }),
      }),
      expect.objectContaining({
        type: 'tool-deploy',
        state: 'approval-requested',
        approval: expect.objectContaining({ requestReason: 'Deploy to production?' }),
      }),
    ]);
  });

  it('should resume the run from an approval answered in the UI, on the next request', async () => {
    const deployed: string[] = [];
    const interventions = createInterventions({
      approvalSecret: 'secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
      handlers: [defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Deploy to production?') })],
    });
    const tools = {
      deploy: tool({ inputSchema: z.object({ env: z.string() }), execute: async ({ env }) => (deployed.push(env), `deployed ${env}`) }),
    };
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'ship it' }] };
    const first = interventions.streamText({
      model: scriptedModel(step(toolCall('d1', 'deploy', { env: 'prod' }))),
      tools,
      stopWhen: isStepCount(3),
      messages: await convertToModelMessages([user], { tools }),
    });
    let assistant: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: toUIMessageStream({ stream: first.stream }) })) assistant = update;
    if (assistant === undefined) throw new Error('no assistant message');

    // what useChat's addToolApprovalResponse({ id, approved: true }) does to the part
    const answered: UIMessage = {
      ...assistant,
      id: 'a1',
      parts: assistant.parts.map((part) =>
        'approval' in part && part.state === 'approval-requested'
          ? { ...part, state: 'approval-responded' as const, approval: { ...part.approval, approved: true } }
          : part,
      ) as UIMessage['parts'],
    };
    expect(deployed).toEqual([]);
    const model = scriptedModel(step(text('Deployed to prod.')));
    const second = interventions.streamText({
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: await convertToModelMessages([user, answered], { tools }),
    });
    expect(await second.text).toBe('Deployed to prod.');
    expect(deployed).toEqual(['prod']);
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain('deployed prod');
  });

  it("should stream a call's arguments only once decided, so a transformed-away secret never reaches the client", async () => {
    const ssn = '123-45-6789';
    const args = JSON.stringify({ body: `my ssn is ${ssn}` });
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-input-start', id: 'e1', toolName: 'email' },
      { type: 'tool-input-delta', id: 'e1', delta: args.slice(0, 20) },
      { type: 'tool-input-delta', id: 'e1', delta: args.slice(20) },
      { type: 'tool-input-end', id: 'e1' },
      { type: 'tool-call', toolCallId: 'e1', toolName: 'email', input: args },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      }),
    });
    const sent: string[] = [];
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'pii-redactor',
          beforeToolCall: () =>
            InterventionActions.transform<BeforeToolCallEvent>((draft) => {
              const input = draft.toolCall.input as { body: string };
              input.body = input.body.replace(/\d{3}-\d{2}-\d{4}/g, '[REDACTED]');
            }),
        }),
      ],
    });
    const result = interventions.streamText({
      model,
      tools: { email: tool({ inputSchema: z.object({ body: z.string() }), execute: async ({ body }) => (sent.push(body), 'sent') }) },
      prompt: 'email it',
    });
    const chunks: unknown[] = [];
    for await (const chunk of toUIMessageStream({ stream: result.stream })) chunks.push(chunk);
    expect(sent).toEqual(['my ssn is [REDACTED]']);
    expect(JSON.stringify(chunks)).not.toContain(ssn);
    expect(chunks).toContainEqual(expect.objectContaining({ type: 'tool-input-available', input: { body: 'my ssn is [REDACTED]' } }));
  });
});
