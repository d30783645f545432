/**
 * Tools guarded for the plain SDK, when a provider repeats a call id in one
 * response: nothing renames it, and the SDK's own history keeps one of the
 * calls twice (it keys calls, approvals and results by id). An approval
 * given for one of them must not run another, nor run the model's arguments
 * when the person approved an edit: the guard refuses, with a record.
 */
import { dynamicTool, generateText, isStepCount, type ModelMessage, streamText, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  approvalAnswer,
  createInterventions,
  type DecisionRecord,
  defineHandler,
  flowPolicy,
  guardTools,
  InterventionActions,
  type InterventionHandlerLike,
  toolPolicy,
  trustToolAnnotations,
} from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const inputSchema = z.object({ tag: z.string() });

/** Both calls of the first response share `call_0`; `ask` confirms calls to `asked`. */
async function pausedWithRepeatedId(first: string, second: string, asked: string) {
  const ran: string[] = [];
  const decisions: DecisionRecord[] = [];
  const execute = (name: string) => async (input: unknown) => {
    ran.push(`${name}(${(input as { tag: string }).tag})`);
    return `${name} ran`;
  };
  const tools: ToolSet = guardTools(
    {
      alpha: tool({ inputSchema, execute: execute('alpha') }),
      beta: tool({ inputSchema, execute: execute('beta') }),
      dyn: dynamicTool({ inputSchema, execute: execute('dyn') }),
    },
    {
      handlers: [defineHandler({ name: 'ask', tools: [asked], beforeToolCall: () => InterventionActions.confirm('Run it?') })],
      hooks: { onDecision: ({ record }) => void decisions.push(record) },
    },
  );
  const model = scriptedModel(
    step(
      { type: 'tool-call', toolCallId: 'call_0', toolName: first, input: '{"tag":"x"}' },
      { type: 'tool-call', toolCallId: 'call_0', toolName: second, input: '{"tag":"y"}' },
    ),
  );
  const history: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const paused = await generateText({ model, tools, messages: history, stopWhen: isStepCount(2) });
  const [request] = approvalRequests(paused.content);
  if (request === undefined) throw new Error('no approval request');
  const resume = async (answer: ReturnType<typeof approvalAnswer>) => {
    const next = scriptedModel(step(text('done')));
    const { approved, reason } = answer;
    await generateText({
      model: next,
      tools,
      stopWhen: isStepCount(2),
      messages: [
        ...history,
        ...paused.responseMessages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved, reason }] },
      ],
    });
    return next;
  };
  return { ran, decisions, request, resume };
}

describe('guardTools with the plain SDK, when a provider repeats a call id in one response', () => {
  it('should not run another call under the approval given for one of them', async () => {
    const { ran, decisions, request, resume } = await pausedWithRepeatedId('alpha', 'dyn', 'dyn');
    expect(request.toolCall).toMatchObject({ toolName: 'dyn', input: { tag: 'y' } });
    await resume(approvalAnswer({ id: request.approvalId, approved: true }));
    // the SDK resumes the first call with that id (alpha, which nobody was asked about) on dyn's approval
    expect(ran).toEqual([]);
    expect(decisions.at(-1)).toMatchObject({ handler: 'ai-interventions', action: 'deny', toolName: 'alpha', enforced: true });
    expect(decisions.at(-1)?.reason).toMatch(/more than one tool call with the id/);
  });

  it("should not run the model's arguments when the person approved an edit it cannot apply", async () => {
    // the SDK's history turns the unknown tool's call into a second beta call, and answers it with an error
    const { ran, decisions, request, resume } = await pausedWithRepeatedId('beta', 'ghost', 'beta');
    const next = await resume(approvalAnswer({ id: request.approvalId, approved: true, input: { tag: 'edited' } }));
    expect(ran).toEqual([]);
    expect(decisions.at(-1)).toMatchObject({ handler: 'ai-interventions', action: 'deny', toolName: 'beta', enforced: true });
    expect(decisions.at(-1)?.reason).toMatch(/was not used: the call already has its result/);
    expect(JSON.stringify(next.calls[0]?.prompt)).toContain('was blocked and was not executed');
  });

  it('should run a new call that reuses the id of an answered call whose result the history already holds', async () => {
    const ran: string[] = [];
    const tools = guardTools({ lookup: tool({ inputSchema, execute: async ({ tag }) => (ran.push(tag), `found ${tag}`) }) }, [
      defineHandler({ name: 'look', beforeToolCall: () => InterventionActions.proceed() }),
    ]);
    // the last request ended right after an approved call ran: its answer and its result share the last message
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'call_0', toolName: 'lookup', input: { tag: 'old' } },
          { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'call_0' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: 'a1', approved: true },
          { type: 'tool-result', toolCallId: 'call_0', toolName: 'lookup', output: { type: 'text', value: 'found old' } },
        ],
      },
    ];
    // the provider numbers calls call_0 every turn
    const model = scriptedModel(step(toolCall('call_0', 'lookup', { tag: 'new' })), step(text('done')));
    await generateText({ model, tools, messages, stopWhen: isStepCount(3) });
    expect(ran).toEqual(['new']);
  });
});

describe('guardTools with the plain SDK, when the tools carry MCP annotations', () => {
  /** The tools an app trusts the annotations of, and what ran; the same through the wrappers and through guardTools. */
  function annotated(ran: string[]) {
    const make = (name: string, annotations: Record<string, boolean>) =>
      tool({
        inputSchema: z.object({ to: z.string() }),
        execute: async ({ to }) => (ran.push(`${name} ${to}`), `${name} done`),
        metadata: { annotations },
      });
    return trustToolAnnotations({
      lookup: make('lookup', { readOnlyHint: true }),
      notes: make('notes', { readOnlyHint: true, openWorldHint: false }),
      send_email: make('send_email', { readOnlyHint: false, destructiveHint: false }),
    });
  }
  const modes = ['generateText', 'streamText'] as const;
  /** One plain call with the tools guarded without a run, and the same through the runtime's wrappers: what ran in each. */
  async function both(mode: (typeof modes)[number], handler: InterventionHandlerLike, script: () => ReturnType<typeof scriptedModel>) {
    const viaGuardTools: string[] = [];
    const viaWrappers: string[] = [];
    const plain = { model: script(), tools: guardTools(annotated(viaGuardTools), [handler]), stopWhen: isStepCount(4), prompt: 'go' };
    const interventions = createInterventions({ handlers: [handler] });
    const wrapped = { model: script(), tools: annotated(viaWrappers), stopWhen: isStepCount(4), prompt: 'go' };
    if (mode === 'generateText') {
      await generateText(plain);
      await interventions.generateText(wrapped);
    } else {
      await streamText(plain).consumeStream();
      await interventions.streamText(wrapped).consumeStream();
    }
    return { viaGuardTools, viaWrappers };
  }

  it.each(modes)(
    'should read them in an annotation-based toolPolicy (%s): a read-only tool is allowed, as through the wrappers',
    async (mode) => {
      // the detached run had no tools: every call was decided on the specification's defaults (not read-only), and denied
      const policy = toolPolicy({ rules: [{ allow: { annotations: { readOnlyHint: true } } }], default: 'deny' });
      const script = () =>
        scriptedModel(step(toolCall('c1', 'lookup', { to: 'a' }), toolCall('c2', 'send_email', { to: 'b' })), step(text('done')));
      const { viaGuardTools, viaWrappers } = await both(mode, policy, script);
      expect(viaWrappers).toEqual(['lookup a']);
      expect(viaGuardTools).toEqual(viaWrappers);
    },
  );

  it.each(modes)(
    'should read them in flowPolicy (%s): a closed-world source the app trusts does not taint the conversation',
    async (mode) => {
      // notes declares openWorldHint: false, so it is no untrusted source; lookup declares nothing of it: open world
      const flow = flowPolicy({});
      const afterNotes = () =>
        scriptedModel(step(toolCall('c1', 'notes', { to: 'n' })), step(toolCall('c2', 'send_email', { to: 'b' })), step(text('done')));
      const afterLookup = () =>
        scriptedModel(step(toolCall('c1', 'lookup', { to: 'l' })), step(toolCall('c2', 'send_email', { to: 'b' })), step(text('done')));
      const clean = await both(mode, flow, afterNotes);
      expect(clean.viaWrappers).toEqual(['notes n', 'send_email b']);
      expect(clean.viaGuardTools).toEqual(clean.viaWrappers);
      const tainted = await both(mode, flow, afterLookup);
      expect(tainted.viaWrappers).toEqual(['lookup l']);
      expect(tainted.viaGuardTools).toEqual(tainted.viaWrappers);
    },
  );
});
