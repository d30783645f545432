/**
 * The app's own approvals (`needsApproval` on a tool, its own `toolApproval`)
 * stay the AI SDK's once anything is registered: their requests are signed
 * only when the app configured `experimental_toolApprovalSecret`, and an
 * answer without a signature is taken as the raw SDK takes it. The
 * library's own confirms stay signed and bound to their call.
 */
import type { Context } from '@ai-sdk/provider-utils';
import { generateText, isStepCount, type ModelMessage, type ToolApprovalConfiguration, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApprovalLedger, createInterventions, defineHandler, InterventionActions, type Interventions } from '../../src/index.ts';
import { answeredHistory, approvalRequests } from '../helpers/approval-requests.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const noOp = defineHandler({ name: 'no-op', beforeToolCall: () => InterventionActions.proceed() });
const asks = defineHandler({
  name: 'asks',
  tools: ['delete_file'],
  beforeToolCall: () => InterventionActions.confirm('Delete it?'),
});
const PROMPT: ModelMessage[] = [{ role: 'user', content: 'delete /tmp/a' }];

function deleteTools(ran: string[], needsApproval: boolean): ToolSet {
  return {
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      needsApproval,
      execute: async ({ path }) => {
        ran.push(path);
        return `deleted ${path}`;
      },
    }),
  };
}

/** The SDK's own toolApproval: every delete asks the user. */
const appToolApproval: ToolApprovalConfiguration<ToolSet, Context> = { delete_file: () => ({ type: 'user-approval' }) };

async function pauseAndResume(
  interventions: Interventions,
  mode: Mode,
  {
    needsApproval,
    toolApproval,
    answer,
  }: {
    needsApproval: boolean;
    toolApproval?: ToolApprovalConfiguration<ToolSet, Context>;
    answer: (request: Record<string, unknown>) => void;
  },
) {
  const ran: string[] = [];
  const tools = deleteTools(ran, needsApproval);
  const first = await run(interventions, mode, {
    model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/a' }))),
    tools,
    ...(toolApproval === undefined ? {} : { toolApproval }),
    messages: PROMPT,
    stopWhen: isStepCount(3),
  });
  const [request] = approvalRequests(first.content);
  if (request === undefined) throw new Error('no approval request');
  const responseMessages = structuredClone(first.responseMessages) as ModelMessage[];
  for (const message of responseMessages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-approval-request') answer(part as unknown as Record<string, unknown>);
  }
  const resumed = await run(interventions, mode, {
    model: scriptedModel(step(text('done'))),
    tools,
    ...(toolApproval === undefined ? {} : { toolApproval }),
    messages: answeredHistory(PROMPT, responseMessages, { id: request.approvalId, approved: true }),
    stopWhen: isStepCount(3),
  });
  return { ran, request, first, resumed };
}

const unsigned = (request: Record<string, unknown>) => {
  delete request.signature;
};
const keep = () => {};

describe("the app's own approvals", () => {
  for (const mode of MODES) {
    for (const [label, config] of [
      ['needsApproval', { needsApproval: true }],
      ['its own toolApproval', { needsApproval: false, toolApproval: appToolApproval }],
    ] as const) {
      for (const [setup, options] of [
        ['a no-op handler and a hook', {}],
        [
          'approvalSecret',
          { approvalSecret: 'a-secret-of-the-app-with-at-least-32-bytes-for-hmac', approvalLedger: createApprovalLedger() },
        ],
      ] as const) {
        it(`${mode}, ${label}, ${setup}: the request is not signed, and an unsigned answer runs the call as raw`, async () => {
          const interventions = createInterventions({ handlers: [noOp], hooks: { onChatStart: () => {} }, ...options });
          const { ran, request, resumed } = await pauseAndResume(interventions, mode, { ...config, answer: unsigned });
          expect(Object.keys(request)).not.toContain('signature');
          expect(ran).toEqual(['/tmp/a']);
          expect(resumed.text).toBe('done');
          expect(resumed.decisions.filter((record) => record.action === 'deny')).toEqual([]);
        });
      }
    }

    it(`${mode}: the request of the raw SDK and of the wrapper read the same`, async () => {
      const rawTools = deleteTools([], true);
      const raw = await generateText({
        model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/a' }))),
        tools: rawTools,
        messages: PROMPT,
      });
      const interventions = createInterventions({ handlers: [noOp] });
      const { request } = await pauseAndResume(interventions, mode, { needsApproval: true, answer: keep });
      const [rawRequest] = approvalRequests(raw.content);
      expect(Object.keys(request).sort()).toEqual(Object.keys(rawRequest ?? {}).sort());
    });

    it(`${mode}: with the app's own experimental_toolApprovalSecret, its requests are signed and an unsigned answer fails, as raw`, async () => {
      const interventions = createInterventions({ handlers: [noOp] });
      const ran: string[] = [];
      const tools = deleteTools(ran, true);
      const secret = 'the-apps-own-secret';
      const first = await run(interventions, mode, {
        model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/a' }))),
        tools,
        messages: PROMPT,
        experimental_toolApprovalSecret: secret,
      });
      const [request] = approvalRequests(first.content);
      expect(Object.keys(request ?? {})).toContain('signature');
      const responseMessages = structuredClone(first.responseMessages) as ModelMessage[];
      for (const message of responseMessages) {
        if (typeof message.content !== 'string')
          for (const part of message.content)
            if (part.type === 'tool-approval-request') unsigned(part as unknown as Record<string, unknown>);
      }
      await expect(
        run(interventions, mode, {
          model: scriptedModel(step(text('done'))),
          tools,
          messages: answeredHistory(PROMPT, responseMessages, { id: request?.approvalId ?? '', approved: true }),
          experimental_toolApprovalSecret: secret,
        }),
      ).rejects.toThrow(/signature/);
      expect(ran).toEqual([]);
    });
  }
});

describe("the library's own confirms", () => {
  for (const mode of MODES) {
    it(`${mode}: a confirm's request is signed, and an answer with its signature stripped runs nothing`, async () => {
      const interventions = createInterventions({ handlers: [asks] });
      const { ran, request, resumed } = await pauseAndResume(interventions, mode, { needsApproval: false, answer: unsigned });
      expect(Object.keys(request)).toContain('signature');
      expect(ran).toEqual([]);
      const denial = resumed.decisions.find((record) => record.action === 'deny');
      expect(denial).toMatchObject({ handler: 'approval-verification', toolName: 'delete_file', enforced: true });
    });

    it(`${mode}: a call both the app and a handler ask about is the library's: its answer must carry the signature`, async () => {
      const interventions = createInterventions({ handlers: [asks] });
      const { ran, request } = await pauseAndResume(interventions, mode, { needsApproval: true, answer: unsigned });
      expect(Object.keys(request)).toContain('signature');
      expect(ran).toEqual([]);
      const signedRun = await pauseAndResume(interventions, mode, { needsApproval: true, answer: keep });
      expect(signedRun.ran).toEqual(['/tmp/a']);
    });

    it(`${mode}: an app approval whose arguments a client changed still meets the handlers, which decide on what would run`, async () => {
      const noRoot = defineHandler({
        name: 'no-root',
        beforeToolCall: ({ toolCall }) =>
          String((toolCall.input as { path?: unknown }).path).startsWith('/root')
            ? InterventionActions.deny('Not under /root.')
            : InterventionActions.proceed(),
      });
      const interventions = createInterventions({ handlers: [noRoot] });
      const edit = (request: Record<string, unknown>) => {
        delete request.signature;
      };
      const ran: string[] = [];
      const tools = deleteTools(ran, true);
      const first = await run(interventions, mode, {
        model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/a' }))),
        tools,
        messages: PROMPT,
      });
      const [request] = approvalRequests(first.content);
      const responseMessages = structuredClone(first.responseMessages) as ModelMessage[];
      for (const message of responseMessages) {
        if (typeof message.content === 'string') continue;
        for (const part of message.content) {
          if (part.type === 'tool-approval-request') edit(part as unknown as Record<string, unknown>);
          if (part.type === 'tool-call') part.input = { path: '/root/.ssh' };
        }
      }
      await run(interventions, mode, {
        model: scriptedModel(step(text('done'))),
        tools,
        messages: answeredHistory(PROMPT, responseMessages, { id: request?.approvalId ?? '', approved: true }),
        stopWhen: isStepCount(3),
      });
      expect(ran).toEqual([]);
    });
  }
});
