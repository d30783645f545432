/**
 * `loopGuard`: identical tool calls repeated past `maxRepeats` in a run, and
 * the retry spiral after a block, are first guided, then denied. Every
 * scenario runs through `interventions.generateText` and
 * `interventions.streamText` on a scripted model, asserting on what ran and
 * what the model was sent next.
 */
import { convertToModelMessages, isStepCount, type ModelMessage, readUIMessageStream, tool, toUIMessageStream, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopGuard } from '../../src/builtins/loop-guard.ts';
import { toolPolicy } from '../../src/builtins/tool-policy.ts';
import {
  type BeforeToolCallAction,
  type BeforeToolCallEvent,
  createInterventions,
  type DecisionRecord,
  InterventionActions,
} from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { MODES, type Outcome, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

// ---------------------------------------------------------------- helpers

function countingTools() {
  const ran: Array<{ readonly tool: string; readonly input: unknown }> = [];
  const tools = {
    search: tool({
      inputSchema: z.object({ q: z.string(), limit: z.number().optional() }),
      execute: async (input) => {
        ran.push({ tool: 'search', input });
        return `no results for ${input.q}`;
      },
    }),
    poll_status: tool({
      inputSchema: z.object({ job: z.string() }),
      execute: async (input) => {
        ran.push({ tool: 'poll_status', input });
        return 'pending';
      },
    }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async (input) => {
        ran.push({ tool: 'delete_file', input });
        return `deleted ${input.path}`;
      },
    }),
  };
  const inputsOf = (name: string) => ran.filter((entry) => entry.tool === name).map((entry) => entry.input);
  return { tools, inputsOf };
}

/** The loop guard's records: [toolCallId, action]. */
const loopRecords = (decisions: readonly DecisionRecord[]) =>
  decisions.filter((d) => d.handler === 'loop-guard').map((d) => [d.toolCallId, d.action]);

const USER: ModelMessage = { role: 'user', content: 'Find it' };

// ---------------------------------------------------------------- repeats

describe.each(MODES)('loopGuard through %s', (mode) => {
  describe('when the model repeats the same call', () => {
    it('should run it maxRepeats times, then guide once, then deny, and tell the model why each time', async () => {
      const { tools, inputsOf } = countingTools();
      const same = (id: string) => step(toolCall(id, 'search', { q: 'lost keys' }));
      const model = scriptedModel(same('s1'), same('s2'), same('s3'), same('s4'), same('s5'), step(text('I could not find them.')));

      const result = await run(createInterventions({ handlers: [loopGuard()] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(10),
        prompt: 'Find my keys',
      });

      expect(inputsOf('search')).toHaveLength(3);
      expect(loopRecords(result.decisions)).toEqual([
        ['s1', 'proceed'],
        ['s2', 'proceed'],
        ['s3', 'proceed'],
        ['s4', 'guide'],
        ['s5', 'deny'],
      ]);
      const guided = JSON.stringify(toolResultsSent(model, 4).s4);
      expect(guided).toContain('execution-denied');
      expect(guided).toContain('was not executed');
      expect(guided).toContain('[loop-guard] You have called \\"search\\" with the same arguments 4 times in this run (the limit is 3)');
      expect(guided).toContain('change your approach');
      const deniedText = JSON.stringify(toolResultsSent(model, 5).s5);
      expect(deniedText).toContain('was blocked and was not executed');
      expect(deniedText).toContain('\\"search\\" was called again with the same arguments after being blocked once');
      expect(result.text).toBe('I could not find them.');
    });

    it('should treat arguments with the same keys in another order as the same call, and other arguments as a new one', async () => {
      const { tools, inputsOf } = countingTools();
      const model = scriptedModel(
        step(toolCall('a', 'search', { q: 'x', limit: 5 })),
        step(toolCall('b', 'search', { limit: 5, q: 'x' })),
        step(toolCall('c', 'search', { q: 'y', limit: 5 })),
        step(toolCall('d', 'search', { limit: 5, q: 'x' })),
        step(text('Done.')),
      );

      const result = await run(createInterventions({ handlers: [loopGuard({ maxRepeats: 2 })] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(10),
        prompt: 'Go',
      });

      expect(inputsOf('search')).toEqual([
        { q: 'x', limit: 5 },
        { limit: 5, q: 'x' },
        { q: 'y', limit: 5 },
      ]);
      expect(loopRecords(result.decisions)).toEqual([
        ['a', 'proceed'],
        ['b', 'proceed'],
        ['c', 'proceed'],
        ['d', 'guide'],
      ]);
    });

    it('should count identical parallel calls of one turn', async () => {
      const { tools, inputsOf } = countingTools();
      const model = scriptedModel(step(...['p1', 'p2', 'p3', 'p4'].map((id) => toolCall(id, 'search', { q: 'x' }))), step(text('Done.')));

      const result = await run(createInterventions({ handlers: [loopGuard({ maxRepeats: 2 })] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(10),
        prompt: 'Go',
      });

      expect(inputsOf('search')).toHaveLength(2);
      expect(loopRecords(result.decisions)).toEqual([
        ['p1', 'proceed'],
        ['p2', 'proceed'],
        ['p3', 'guide'],
        ['p4', 'deny'],
      ]);
      const sent = toolResultsSent(model, 1);
      expect(sent.p1).toEqual({ type: 'text', value: 'no results for x' });
      expect(sent.p3).toMatchObject({ type: 'execution-denied' });
    });

    it("should keep guiding and never deny with `then: 'guide'`", async () => {
      const { tools, inputsOf } = countingTools();
      const same = (id: string) => step(toolCall(id, 'search', { q: 'x' }));
      const model = scriptedModel(same('s1'), same('s2'), same('s3'), same('s4'), step(text('Done.')));

      const result = await run(createInterventions({ handlers: [loopGuard({ maxRepeats: 1, then: 'guide' })] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(10),
        prompt: 'Go',
      });

      expect(inputsOf('search')).toHaveLength(1);
      expect(loopRecords(result.decisions)).toEqual([
        ['s1', 'proceed'],
        ['s2', 'guide'],
        ['s3', 'guide'],
        ['s4', 'guide'],
      ]);
      expect(JSON.stringify(toolResultsSent(model, 3).s3)).toContain('was already blocked once in this turn');
    });

    it('should leave tools outside `tools` alone (polling is meant to repeat)', async () => {
      const { tools, inputsOf } = countingTools();
      const poll = (id: string) => step(toolCall(id, 'poll_status', { job: 'j1' }));
      const model = scriptedModel(poll('p1'), poll('p2'), poll('p3'), step(text('Still pending.')));

      const result = await run(createInterventions({ handlers: [loopGuard({ maxRepeats: 1, tools: '!poll_*' })] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(10),
        prompt: 'Wait for j1',
      });

      expect(inputsOf('poll_status')).toHaveLength(3);
      expect(loopRecords(result.decisions).every(([, action]) => action === 'proceed')).toBe(true);
    });

    it('should start every run at zero: per-run counts never leak into the next run', async () => {
      const { tools, inputsOf } = countingTools();
      const interventions = createInterventions({ handlers: [loopGuard({ maxRepeats: 2 })] });
      for (const runIndex of [1, 2]) {
        const model = scriptedModel(
          step(toolCall(`r${runIndex}a`, 'search', { q: 'x' })),
          step(toolCall(`r${runIndex}b`, 'search', { q: 'x' })),
          step(text('Done.')),
        );
        // a fresh conversation each time: no history carries over either
        const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(10), prompt: 'Go' });
        expect(loopRecords(result.decisions).map(([, action]) => action)).toEqual(['proceed', 'proceed']);
      }
      expect(inputsOf('search')).toHaveLength(4);
    });
  });

  // ---------------------------------------------------------------- the retry spiral

  describe('when the model retries a call that was blocked', () => {
    it("should escalate retries of another handler's denial: guide on the first retry, deny on the next", async () => {
      const { tools, inputsOf } = countingTools();
      const policy = toolPolicy({ rules: [{ deny: 'delete_file', reason: 'Deleting files is not allowed' }], default: 'allow' });
      const again = (id: string) => step(toolCall(id, 'delete_file', { path: '/etc/hosts' }));
      const model = scriptedModel(again('d1'), again('d2'), again('d3'), step(text('I cannot delete it.')));

      const result = await run(createInterventions({ handlers: [loopGuard(), policy] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(10),
        prompt: 'Delete /etc/hosts',
      });

      expect(inputsOf('delete_file')).toEqual([]);
      expect(result.decisions.map((d) => [d.handler, d.toolCallId, d.action])).toEqual([
        ['loop-guard', 'd1', 'proceed'],
        ['tool-policy', 'd1', 'deny'],
        // the first retry: the guard guides, the policy still denies (deny wins)
        ['loop-guard', 'd2', 'guide'],
        ['tool-policy', 'd2', 'deny'],
        // the second retry: the guard denies, and short-circuits the policy
        ['loop-guard', 'd3', 'deny'],
      ]);
      const third = JSON.stringify(toolResultsSent(model, 3).d3);
      expect(third).toContain('\\"delete_file\\" was called again with the same arguments after being blocked 2 times');
      expect(third).toContain('stop calling it with these arguments');
      expect(result.text).toBe('I cannot delete it.');
    });

    it('should guide a retry of a guided call, next to the feedback the model ignored', async () => {
      const { tools, inputsOf } = countingTools();
      const needsLimit = {
        name: 'needs-limit',
        beforeToolCall: (event: BeforeToolCallEvent): BeforeToolCallAction =>
          (event.toolCall.input as { limit?: number }).limit === undefined
            ? InterventionActions.guide('Pass a limit.')
            : InterventionActions.proceed(),
      };
      const model = scriptedModel(
        step(toolCall('s1', 'search', { q: 'x' })),
        step(toolCall('s2', 'search', { q: 'x' })),
        step(toolCall('s3', 'search', { q: 'x', limit: 10 })),
        step(text('Found nothing.')),
      );

      const result = await run(createInterventions({ handlers: [loopGuard(), needsLimit] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(10),
        prompt: 'Go',
      });

      expect(inputsOf('search')).toEqual([{ q: 'x', limit: 10 }]);
      const second = JSON.stringify(toolResultsSent(model, 2).s2);
      expect(second).toContain('[loop-guard] This exact call to \\"search\\" (same arguments) was already blocked once in this turn');
      expect(second).toContain('[needs-limit] Pass a limit.');
      expect(loopRecords(result.decisions)).toEqual([
        ['s1', 'proceed'],
        ['s2', 'guide'],
        ['s3', 'proceed'],
      ]);
    });

    it('should catch retries of a call the human refused across runs (from the history, not from run state)', async () => {
      const { tools, inputsOf } = countingTools();
      const policy = toolPolicy({ rules: [{ confirm: 'delete_file' }], default: 'allow' });
      const interventions = createInterventions({ handlers: [loopGuard(), policy] });
      const del = (id: string) => step(toolCall(id, 'delete_file', { path: '/tmp/report.txt' }));
      // after the refusal, the model insists, twice
      const model = scriptedModel(del('d1'), del('d2'), del('d3'), step(text('I will keep the report.')));
      let messages: ModelMessage[] = [USER];
      const refuse = async (outcome: Outcome) => {
        const [request] = approvalRequests(outcome.content);
        expect(request).toBeDefined();
        messages = [
          ...messages,
          ...outcome.responseMessages,
          {
            role: 'tool',
            content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: false, reason: 'keep it' }],
          },
        ];
      };

      await refuse(await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), messages }));

      // first retry, in a new run: the guard guides and the policy confirms; a confirm outranks a guide (seed 000), so the
      // human is asked once more, shown the guard's feedback
      const second = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), messages });
      expect(loopRecords(second.decisions)).toEqual([['d2', 'guide']]);
      const [again] = approvalRequests(second.content);
      expect(again?.reason).toContain('[loop-guard]');
      await refuse(second);
      // the retry after that: blocked twice in this turn, the guard denies, and nobody is asked
      const third = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), messages });
      expect(loopRecords(third.decisions)).toEqual([['d3', 'deny']]);
      expect(approvalRequests(third.content)).toHaveLength(0);
      expect(JSON.stringify(toolResultsSent(model, 3).d3)).toContain('after being blocked 2 times');
      expect(inputsOf('delete_file')).toEqual([]);
      expect(third.text).toBe('I will keep the report.');
    });

    it('should forget blocks of an earlier user turn: a new request may try the call again', async () => {
      const { tools, inputsOf } = countingTools();
      const history: ModelMessage[] = [
        { role: 'user', content: 'Delete the report' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'old', toolName: 'delete_file', input: { path: '/tmp/report.txt' } }],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'old', toolName: 'delete_file', output: { type: 'execution-denied', reason: 'not now' } },
          ],
        },
        { role: 'assistant', content: 'I could not delete it.' },
        { role: 'user', content: 'It is fine now, try again' },
      ];
      const model = scriptedModel(step(toolCall('new', 'delete_file', { path: '/tmp/report.txt' })), step(text('Deleted.')));

      const result = await run(createInterventions({ handlers: [loopGuard()] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(5),
        messages: history,
      });

      expect(inputsOf('delete_file')).toEqual([{ path: '/tmp/report.txt' }]);
      expect(loopRecords(result.decisions)).toEqual([['new', 'proceed']]);
    });
  });
});

// ---------------------------------------------------------------- a chat app's history

describe.each(MODES)(
  'loopGuard in a chat app (useChat: readUIMessageStream, then convertToModelMessages on the next request; the last through %s)',
  (mode) => {
    it('should count refusals the UI history carries as error text: after two, the retry is denied and the human is not asked again', async () => {
      const { tools, inputsOf } = countingTools();
      const policy = toolPolicy({ rules: [{ confirm: 'delete_file' }], default: 'allow' });
      const interventions = createInterventions({ handlers: [loopGuard(), policy] });
      // the model insists, every turn, with the id its provider always sends
      const insist = () => step(toolCall('call_0', 'delete_file', { path: '/tmp/report.txt' }));
      const model = scriptedModel(insist(), insist(), insist(), step(text('I will keep the report.')));
      const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete the report' }] };

      // one request of the chat: the UI history in, the assistant message (continued) out
      let assistant: UIMessage | undefined;
      const request = async () => {
        const history = assistant === undefined ? [user] : [user, assistant];
        const result = interventions.streamText({
          model,
          tools,
          stopWhen: isStepCount(5),
          messages: await convertToModelMessages(history, { tools }),
        });
        for await (const update of readUIMessageStream({
          ...(assistant === undefined ? {} : { message: assistant }),
          stream: toUIMessageStream({ stream: result.stream }),
        })) {
          assistant = update;
        }
        return result;
      };
      // what useChat's addToolApprovalResponse({ id, approved: false, reason }) does to the pending part
      const refuse = () => {
        const pending = assistant?.parts.filter((part) => 'state' in part && part.state === 'approval-requested') ?? [];
        expect(pending).toHaveLength(1);
        assistant = {
          ...assistant!,
          parts: assistant!.parts.map((part) =>
            'approval' in part && part.state === 'approval-requested'
              ? { ...part, state: 'approval-responded' as const, approval: { ...part.approval, approved: false, reason: 'keep it' } }
              : part,
          ) as UIMessage['parts'],
        };
      };

      await request();
      refuse();
      // the first retry, on the next request: the guard guides and the policy confirms; a confirm outranks a guide
      // (seed 000), so the human is asked once more, shown the guard's feedback
      const second = await request();
      expect(loopRecords(second.interventions.decisions)).toEqual([['call_0', 'guide']]);
      const [again] = approvalRequests(await second.content);
      expect(again?.reason).toContain('[loop-guard]');
      refuse();
      // the second retry, on the request after: blocked twice in this turn (the first refusal now reads as error text)
      const messages = await convertToModelMessages([user, assistant!], { tools });
      expect(JSON.stringify(messages)).toContain('"type":"error-text","value":"keep it"');
      const third = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), messages });
      expect(loopRecords(third.decisions)).toEqual([['call_0', 'deny']]);
      expect(approvalRequests(third.content)).toEqual([]);
      expect(third.text).toBe('I will keep the report.');
      expect(JSON.stringify(toolResultsSent(model, 3))).toContain('after being blocked 2 times');
      expect(inputsOf('delete_file')).toEqual([]);
    });
  },
);

// ---------------------------------------------------------------- state bounds, outside a run, options

/** A synthetic `beforeToolCall` event (the handler is a plain function of it). */
function event(runId: string | undefined, toolCallId: string, messages: ModelMessage[] = []): BeforeToolCallEvent {
  return {
    lifecycle: 'beforeToolCall',
    runId,
    runtimeContext: {},
    abortSignal: undefined,
    stepNumber: 0,
    toolCall: { toolCallId, toolName: 'search', input: { q: 'x' } },
    tool: undefined,
    messages,
    approved: false,
    approval: undefined,
  };
}

describe('loopGuard state', () => {
  it('should keep at most maxRuns runs, dropping the least recently used one', async () => {
    const guard = loopGuard({ maxRepeats: 1, maxRuns: 2 });
    const decide = (runId: string, id: string) => guard.beforeToolCall!(event(runId, id));

    expect(await decide('a', 'a1')).toEqual(InterventionActions.proceed());
    expect(await decide('b', 'b1')).toEqual(InterventionActions.proceed());
    expect((await decide('a', 'a2')).type).toBe('guide'); // a is used again: b is now the oldest
    expect(await decide('c', 'c1')).toEqual(InterventionActions.proceed()); // drops b
    expect(await decide('b', 'b2')).toEqual(InterventionActions.proceed()); // b starts again at zero; drops a
    expect((await decide('c', 'c2')).type).toBe('guide');
  });

  it('should answer a call evaluated twice the same way, counting it once', async () => {
    const guard = loopGuard({ maxRepeats: 1 });
    expect(await guard.beforeToolCall!(event('r', 'x1'))).toEqual(InterventionActions.proceed());
    expect(await guard.beforeToolCall!(event('r', 'x1'))).toEqual(InterventionActions.proceed());
    expect((await guard.beforeToolCall!(event('r', 'x2'))).type).toBe('guide');
  });

  it('should count repeats from the current turn of the history outside a run (runId undefined)', async () => {
    const guard = loopGuard({ maxRepeats: 2 });
    const earlier = (id: string): ModelMessage[] => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'search', input: { q: 'x' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'search', output: { type: 'text', value: 'none' } }] },
    ];
    const oneBefore: ModelMessage[] = [USER, ...earlier('h1')];
    const twoBefore: ModelMessage[] = [USER, ...earlier('h1'), ...earlier('h2')];
    const previousTurn: ModelMessage[] = [...earlier('h0'), ...earlier('h00'), USER, ...earlier('h1')];

    expect(await guard.beforeToolCall!(event(undefined, 'c', oneBefore))).toEqual(InterventionActions.proceed());
    expect((await guard.beforeToolCall!(event(undefined, 'c', twoBefore))).type).toBe('guide');
    expect(await guard.beforeToolCall!(event(undefined, 'c', previousTurn))).toEqual(InterventionActions.proceed());
  });

  it('should pair calls and results by position when a provider reuses call ids (outside a run)', async () => {
    const guard = loopGuard({ maxRepeats: 2 });
    const earlier = (output: { type: 'text'; value: string } | { type: 'execution-denied'; reason: string }): ModelMessage[] => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_0', toolName: 'search', input: { q: 'x' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_0', toolName: 'search', output }] },
    ];
    const ran = { type: 'text', value: 'none' } as const;
    const denied = { type: 'execution-denied', reason: 'no' } as const;

    expect((await guard.beforeToolCall!(event(undefined, 'call_0', [USER, ...earlier(ran), ...earlier(ran)]))).type).toBe('guide');
    // the denial answers the second call_0, not the first
    const retried = await guard.beforeToolCall!(event(undefined, 'call_0', [USER, ...earlier(ran), ...earlier(denied)]));
    expect(retried).toEqual(
      InterventionActions.guide(expect.stringContaining('was already blocked once in this turn') as unknown as string),
    );
    // in a run: call_0 of another step is another call
    const inRun = loopGuard({ maxRepeats: 1 });
    expect(await inRun.beforeToolCall!({ ...event('r', 'call_0'), stepNumber: 0 })).toEqual(InterventionActions.proceed());
    expect((await inRun.beforeToolCall!({ ...event('r', 'call_0'), stepNumber: 1 })).type).toBe('guide');
  });

  it('should let `message` word the guide and the deny', async () => {
    const guard = loopGuard({
      maxRepeats: 1,
      message: ({ action, toolName, calls }) => `${action}:${toolName}:${calls}`,
    });
    await guard.beforeToolCall!(event('m', 'm1'));
    expect(await guard.beforeToolCall!(event('m', 'm2'))).toEqual(InterventionActions.guide('guide:search:2'));
  });

  it('should reject invalid options', () => {
    expect(() => loopGuard({ maxRepeats: 0 })).toThrow(RangeError);
    expect(() => loopGuard({ maxRepeats: 1.5 })).toThrow(RangeError);
    expect(() => loopGuard({ maxRuns: 0 })).toThrow(RangeError);
    // @ts-expect-error: then is 'guide' or 'deny'
    expect(() => loopGuard({ then: 'stop' })).toThrow(TypeError);
  });
});
