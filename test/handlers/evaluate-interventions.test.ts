import { isStepCount, type ModelMessage, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeToolCallAction,
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  humanApproval,
  InterventionActions,
  InterventionHandlerError,
  type InterventionHandlerLike,
  type OnError,
} from '../../src/index.ts';
import { answeredHistory, approvalRequests } from '../helpers/approval-requests.ts';
import { deniedText, MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';
import { type ActionKind as Kind, taggingAction } from '../helpers/tagging-action.ts';

interface Spec {
  readonly kind: Kind;
  readonly async: boolean;
  readonly shadow: boolean;
  readonly throws: boolean;
  readonly onError: OnError;
}

/** Mostly well-behaved, enforcing handlers, so the interesting mixes are common. */
const rarely = fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
const specArbitrary = fc.record({
  kind: fc.oneof(
    { weight: 1, arbitrary: fc.constant<Kind>('proceed') },
    { weight: 1, arbitrary: fc.constant<Kind>('deny') },
    { weight: 2, arbitrary: fc.constant<Kind>('guide') },
    { weight: 2, arbitrary: fc.constant<Kind>('confirm') },
    { weight: 2, arbitrary: fc.constant<Kind>('transform') },
  ),
  async: fc.boolean(),
  shadow: rarely,
  throws: rarely,
  onError: fc.constantFrom<OnError>('throw', 'proceed', 'deny'),
});

function handlerFor(spec: Spec, index: number): InterventionHandlerLike {
  const name = `h${index}`;
  const act = (): BeforeToolCallAction => {
    if (spec.throws) throw new Error(`${name} broke`);
    return taggingAction(spec.kind, index);
  };
  return defineHandler({
    name,
    onError: spec.onError,
    mode: spec.shadow ? 'shadow' : 'enforce',
    beforeToolCall: spec.async ? async () => act() : act,
  });
}

type Expected =
  | { readonly type: 'throw'; readonly handler: string; readonly evaluated: number }
  | { readonly type: 'deny'; readonly reason: string; readonly evaluated: number }
  | { readonly type: 'confirm'; readonly prompt: string; readonly guides: string[]; readonly evaluated: number }
  | { readonly type: 'guide'; readonly lines: string[]; readonly evaluated: number }
  | { readonly type: 'run'; readonly tag: string; readonly evaluated: number };

/** The precedence rules of the design, written plainly. */
function expectedOutcome(specs: readonly Spec[]): Expected {
  const guides: string[] = [];
  const prompts: string[] = [];
  let tag = 'start';
  for (const [index, spec] of specs.entries()) {
    const evaluated = index + 1;
    if (spec.shadow) continue;
    if (spec.throws) {
      if (spec.onError === 'throw') return { type: 'throw', handler: `h${index}`, evaluated };
      if (spec.onError === 'deny') return { type: 'deny', reason: `"h${index}" check failed`, evaluated };
      continue;
    }
    if (spec.kind === 'deny') return { type: 'deny', reason: `reason-${index}`, evaluated };
    if (spec.kind === 'guide') guides.push(`[h${index}] feedback-${index}`);
    if (spec.kind === 'confirm') prompts.push(`prompt-${index}`);
    if (spec.kind === 'transform') tag = `${tag}+${index}`;
  }
  const evaluated = specs.length;
  // seed 000: a confirm outranks guides, whose feedback the person is shown with the request
  if (prompts.length > 0) return { type: 'confirm', prompt: prompts.join('\n'), guides, evaluated };
  if (guides.length > 0) return { type: 'guide', lines: guides, evaluated };
  return { type: 'run', tag, evaluated };
}

describe('evaluateInterventions (through interventions.generateText)', () => {
  it('should resolve any handler list by deny > confirm > guide > transform > proceed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(specArbitrary, { minLength: 1, maxLength: 6, size: 'max' }), async (specs) => {
        const executed: string[] = [];
        const tools = {
          t: tool({
            inputSchema: z.object({ tag: z.string() }),
            execute: async ({ tag }) => {
              executed.push(tag);
              return `ran ${tag}`;
            },
          }),
        };
        const model = scriptedModel(step(toolCall('c1', 't', { tag: 'start' })), step(text('done')));
        const interventions = createInterventions({ handlers: specs.map(handlerFor) });
        const expected = expectedOutcome(specs);
        const call = interventions.generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });

        if (expected.type === 'throw') {
          const error = await call.catch((caught: unknown) => caught);
          expect(InterventionHandlerError.isInstance(error)).toBe(true);
          expect((error as InterventionHandlerError).handlerName).toBe(expected.handler);
          expect(executed).toEqual([]);
          expect(model.calls).toHaveLength(1);
          return;
        }

        const result = await call;
        // one record per evaluated handler, in order
        expect(result.interventions.decisions.map((record) => record.handler)).toEqual(
          specs.slice(0, expected.evaluated).map((_, index) => `h${index}`),
        );
        const sent = toolResultsSent(model, 1).c1 as { type: string; reason?: string; value?: unknown } | undefined;
        switch (expected.type) {
          case 'deny':
            expect(executed).toEqual([]);
            expect(sent?.type).toBe('execution-denied');
            expect(sent?.reason).toContain(expected.reason);
            expect(sent?.reason).toContain('was not executed');
            break;
          case 'confirm': {
            expect(executed).toEqual([]);
            expect(model.calls).toHaveLength(1);
            const requests = result.content.filter((part) => part.type === 'tool-approval-request');
            expect(requests).toHaveLength(1);
            // the person sees the prompts, then each guide's feedback the confirm outranks
            const shown = [expected.prompt, ...expected.guides].join('\n');
            expect(requests[0]).toMatchObject({ reason: shown });
            break;
          }
          case 'guide':
            expect(executed).toEqual([]);
            expect(sent?.type).toBe('execution-denied');
            expect(sent?.reason).toContain(expected.lines.join('\n'));
            break;
          case 'run':
            expect(executed).toEqual([expected.tag]);
            expect(sent).toEqual({ type: 'text', value: `ran ${expected.tag}` });
            // the history shows the arguments that ran
            expect(model.calls[1]?.prompt[1]).toMatchObject({
              role: 'assistant',
              content: [{ type: 'tool-call', input: { tag: expected.tag } }],
            });
            break;
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200), seed: Number(process.env.FUZZ_SEED ?? 20261122) },
    );
  });

  it('should not evaluate handlers after a deny', async () => {
    const evaluated: string[] = [];
    const spy = (
      name: string,
      action: () => ReturnType<typeof InterventionActions.proceed> | ReturnType<typeof InterventionActions.deny>,
    ) => defineHandler({ name, beforeToolCall: () => (evaluated.push(name), action()) });
    const interventions = createInterventions({
      handlers: [
        spy('auth', () => InterventionActions.deny('Unauthorized')),
        spy('expensive-llm-check', () => InterventionActions.proceed()),
      ],
    });
    const model = scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('ok')));
    const tools = { t: tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => 'ran' }) };
    await interventions.generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });
    expect(evaluated).toEqual(['auth']);
  });

  it('should let later handlers see a transform, and discard it when a later handler denies', async () => {
    const seen: unknown[] = [];
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'rewrite',
          beforeToolCall: () =>
            InterventionActions.transform<BeforeToolCallEvent>((draft) => {
              draft.toolCall.input = { tag: 'rewritten' };
            }),
        }),
        defineHandler({
          name: 'deny-rewritten',
          beforeToolCall: (event) => {
            seen.push(event.toolCall.input);
            return InterventionActions.deny('no');
          },
        }),
      ],
    });
    const model = scriptedModel(step(toolCall('c1', 't', { tag: 'original' })), step(text('ok')));
    const tools = { t: tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => 'ran' }) };
    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });
    expect(seen).toEqual([{ tag: 'rewritten' }]);
    // not committed: the history keeps the model's own arguments
    expect(model.calls[1]?.prompt[1]).toMatchObject({ content: [{ type: 'tool-call', input: { tag: 'original' } }] });
    const [transform, deny] = result.interventions.decisions;
    expect(transform).toMatchObject({ handler: 'rewrite', action: 'transform', enforced: false });
    expect(deny).toMatchObject({ handler: 'deny-rewritten', action: 'deny', enforced: true, reason: 'no' });
  });

  it('should record shadow handlers without enforcing them', async () => {
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'dry-run', mode: 'shadow', beforeToolCall: () => InterventionActions.deny('would deny') })],
    });
    let ran = 0;
    const model = scriptedModel(step(toolCall('c1', 't', { tag: 'x' })), step(text('ok')));
    const tools = { t: tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => (ran++, 'ran') }) };
    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });
    expect(ran).toBe(1);
    expect(result.interventions.decisions).toEqual([
      expect.objectContaining({ handler: 'dry-run', action: 'deny', reason: 'would deny', enforced: false, mode: 'shadow' }),
    ]);
  });

  it('should not evaluate a handler scoped to other tools, nor record it', async () => {
    const seen: string[] = [];
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'email-only',
          tools: ['send_email'],
          beforeToolCall: (event) => (seen.push(event.toolCall.toolName), InterventionActions.guide('Add a subject.')),
        }),
      ],
    });
    const model = scriptedModel(step(toolCall('c1', 't', { tag: 'x' }), toolCall('c2', 'send_email', { tag: 'y' })), step(text('ok')));
    const make = () => tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => 'ran' });
    const result = await interventions.generateText({
      model,
      tools: { t: make(), send_email: make() },
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    expect(seen).toEqual(['send_email']);
    expect(result.interventions.decisions.map((record) => [record.toolCallId, record.action])).toEqual([['c2', 'guide']]);
    expect(() =>
      createInterventions({ handlers: [{ name: 'bad', tools: [''], beforeToolCall: () => InterventionActions.proceed() }] }),
    ).toThrow(/The tools of "bad" cannot be valid/);
  });

  describe.each(MODES)('when one handler confirms a call another guides (seed 000: deny > confirm > guide), %s', (mode) => {
    const styleGuide = defineHandler({
      name: 'style-guide',
      beforeToolCall: ({ toolCall: call }) =>
        call.toolName === 'send_email'
          ? InterventionActions.guide('Mention the ticket number in the subject.')
          : InterventionActions.proceed(),
    });
    const approval = humanApproval({ tools: 'send_email', prompt: () => 'Send this email?' });
    const mailer = () => {
      const sent: unknown[] = [];
      const tools = {
        send_email: tool({ inputSchema: z.object({ to: z.string() }), execute: async (input) => (sent.push(input), 'sent') }),
      };
      return { sent, tools };
    };
    const ORDERS = [
      ['the confirm first', () => [approval, styleGuide]],
      ['the guide first', () => [styleGuide, approval]],
    ] as const;

    /** Asks about one send_email call; answers it as given; returns what ran and what each model call was sent. */
    async function askAndAnswer(handlers: readonly InterventionHandlerLike[], answer?: { approved: boolean; reason?: string }) {
      const { sent, tools } = mailer();
      const interventions = createInterventions({ handlers: [...handlers], approvalLedger: createApprovalLedger() });
      const history: ModelMessage[] = [{ role: 'user', content: 'Email bob' }];
      const first = scriptedModel(step(toolCall('s1', 'send_email', { to: 'bob@corp.test' })));
      const asked = await run(interventions, mode, { model: first, tools, messages: history });
      const requests = approvalRequests(asked.content);
      if (answer === undefined) return { sent, requests, asked, resumed: undefined, second: undefined };
      const second = scriptedModel(step(text('ok')));
      const resumed = await run(interventions, mode, {
        model: second,
        tools,
        messages: answeredHistory(history, asked.responseMessages, { id: requests[0]?.approvalId ?? '', ...answer }),
      });
      return { sent, requests, asked, resumed, second };
    }

    it.each(ORDERS)("should ask the person once, with the guide's feedback shown beside the prompt (%s)", async (_, handlers) => {
      const { sent, requests, asked } = await askAndAnswer(handlers());

      expect(sent).toEqual([]);
      expect(requests).toHaveLength(1);
      expect(requests[0]?.reason).toContain('Send this email?');
      expect(requests[0]?.reason).toContain('[style-guide] Mention the ticket number in the subject.');
      expect(
        asked.decisions.filter((record) => record.toolCallId === 's1').map((record) => [record.handler, record.action, record.enforced]),
      ).toEqual(
        handlers()[0] === approval
          ? [
              ['human-approval', 'confirm', true],
              ['style-guide', 'guide', true],
            ]
          : [
              ['style-guide', 'guide', true],
              ['human-approval', 'confirm', true],
            ],
      );
    });

    it.each(ORDERS)('should run the call once when the person approves, the guide not blocking it (%s)', async (_, handlers) => {
      const { sent, resumed } = await askAndAnswer(handlers(), { approved: true });

      expect(sent).toEqual([{ to: 'bob@corp.test' }]);
      const guide = resumed?.decisions.find((record) => record.handler === 'style-guide');
      expect(guide).toMatchObject({ action: 'guide', enforced: false });
      expect(guide?.warning).toContain('a person approved this call');
    });

    it.each(ORDERS)(
      "should run nothing when the person refuses, and the model reads their reason with the guide's feedback (%s)",
      async (_, handlers) => {
        const { sent, second } = await askAndAnswer(handlers(), { approved: false, reason: 'wrong recipient' });

        expect(sent).toEqual([]);
        const read = deniedText(toolResultsSent(second!, 0).s1);
        expect(read).toContain('wrong recipient');
        expect(read).toContain('[style-guide] Mention the ticket number in the subject.');
      },
    );

    it.each(ORDERS)('should ask nobody when a deny stands beside them (%s)', async (_, handlers) => {
      const deny = defineHandler({ name: 'no-mail', beforeToolCall: () => InterventionActions.deny('Mail is off.') });

      const { sent, requests } = await askAndAnswer([...handlers(), deny]);

      expect(sent).toEqual([]);
      expect(requests).toEqual([]);
    });
  });
});
