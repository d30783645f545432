/**
 * Parity tests for seed 003 (loop hooks): `transformContext`, `gateToolCalls`,
 * `afterToolCall` (here `onToolCallResult` / `onToolCallError`),
 * `drainSteering` and `drainFollowUp`, with the caller's message queues
 * (`createMessageQueue()` passed as `steering` / `followUp`).
 *
 * Every rule runs through `interventions.generateText` and again through
 * `interventions.streamText`, on a scripted `MockLanguageModelV4`. Assertions
 * are on what the model was sent (`model.calls[n].prompt`), which tools
 * executed, and what the caller got.
 *
 * Name adaptation: the seed's `afterToolCall(info)` is the `onToolCallResult`
 * hook (`info.isError === false`) or the `onToolCallError` hook
 * (`info.isError === true`); a `GateDecision` is an `InterventionActions`
 * action (proceed = allow, deny = deny, confirm = ask); `Message` is a
 * `ModelMessage`; `maxSteps` is the loop option of the wrappers.
 */
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, type ModelMessage, type StepResult, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInterventions,
  createMessageQueue,
  type DecisionRecord,
  type DrainContext,
  type GateToolCallsContext,
  InterventionActions,
  type Interventions,
  InterventionsError,
  type InterventionsGenerateText,
  type InterventionsStreamText,
  InvalidHookResultError,
  type MemoryMessageQueue,
  type OnChatDoneContext,
  type ToolCallInfo,
  type TransformContextContext,
} from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

// ---------------------------------------------------------------------------
// running a call through either wrapper
// ---------------------------------------------------------------------------

const MODES = ['generateText', 'streamText'] as const;
type Mode = (typeof MODES)[number];
type RunOptions = Parameters<InterventionsGenerateText>[0];

/** What the caller got, the same way for both wrappers. */
interface Outcome {
  readonly text: string;
  readonly content: ReadonlyArray<{ readonly type: string }>;
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  readonly responseMessages: ModelMessage[];
  readonly decisions: readonly DecisionRecord[];
}

/**
 * Runs one call through `interventions.generateText` or (fully consuming the
 * stream) `interventions.streamText`. A streamed error is thrown, the
 * library's own error first.
 */
async function run(mode: Mode, interventions: Interventions, options: RunOptions): Promise<Outcome> {
  if (mode === 'generateText') {
    const result = await interventions.generateText(options);
    return {
      text: result.text,
      content: result.content,
      steps: result.steps,
      responseMessages: result.responseMessages,
      decisions: result.interventions.decisions,
    };
  }
  const errors: unknown[] = [];
  const result = interventions.streamText({
    ...options,
    onError: ({ error }: { error: unknown }) => {
      errors.push(error);
    },
  } as unknown as Parameters<InterventionsStreamText>[0]);
  for await (const part of result.stream) {
    if (part.type === 'error') errors.push(part.error);
  }
  if (errors.length > 0) throw errors.find((error) => InterventionsError.isInstance(error)) ?? errors[0];
  const [resultText, content, steps, responseMessages] = await Promise.all([
    result.text,
    result.content,
    result.steps,
    result.responseMessages,
  ]);
  return { text: resultText, content, steps, responseMessages, decisions: result.interventions.decisions };
}

/** The error a call ends with (fails the test if it completes). */
async function failureOf(mode: Mode, interventions: Interventions, options: RunOptions): Promise<unknown> {
  try {
    await run(mode, interventions, options);
  } catch (error) {
    return error;
  }
  throw new Error(`expected the ${mode} call to fail, but it completed`);
}

// ---------------------------------------------------------------------------
// tools and prompts
// ---------------------------------------------------------------------------

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const USER: ModelMessage = { role: 'user', content: 'Do the task' };

/**
 * Tools that log every execution (`exec:<toolCallId>`) into `events`, and
 * call `during` from inside `execute` (e.g. to feed a steering queue).
 */
function workbench({ events = [], during }: { events?: string[]; during?: (toolName: string, toolCallId: string) => void } = {}) {
  const executed: string[] = [];
  const note = (toolName: string, toolCallId: string) => {
    events.push(`exec:${toolCallId}`);
    executed.push(toolCallId);
    during?.(toolName, toolCallId);
  };
  const tools = {
    search: tool({
      inputSchema: z.object({ q: z.string() }),
      execute: async ({ q }, { toolCallId }) => {
        note('search', toolCallId);
        return `found ${q}`;
      },
    }),
    read_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }, { toolCallId }) => {
        note('read_file', toolCallId);
        return `contents of ${path}`;
      },
    }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }, { toolCallId }) => {
        note('delete_file', toolCallId);
        return `deleted ${path}`;
      },
    }),
  };
  return { tools, events, executed };
}

type Prompt = LanguageModelV4Prompt;

/** One line per message of a request: `user:<text>`, `assistant:call(c1),…`, `tool:result(c1),…`. */
function shapeOf(prompt: Prompt | undefined): string[] {
  return (prompt ?? []).map((message) => {
    switch (message.role) {
      case 'system':
        return `system:${message.content}`;
      case 'user':
        return `user:${message.content.map((part) => (part.type === 'text' ? part.text : part.type)).join('')}`;
      case 'assistant':
        return `assistant:${message.content
          .map((part) => (part.type === 'tool-call' ? `call(${part.toolCallId})` : part.type === 'text' ? part.text : part.type))
          .join(',')}`;
      case 'tool':
        return `tool:${message.content.map((part) => (part.type === 'tool-result' ? `result(${part.toolCallId})` : part.type)).join(',')}`;
    }
  });
}

/** How many user text parts of a request are exactly `needle`. */
function occurrences(prompt: Prompt | undefined, needle: string): number {
  let count = 0;
  for (const message of prompt ?? []) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'text' && part.text === needle) count++;
  }
  return count;
}

/** Every tool call of the request has exactly one result, and every result has its call. */
function expectValidHistory(prompt: Prompt | undefined) {
  const calls: string[] = [];
  const results = new Map<string, number>();
  for (const message of prompt ?? []) {
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool-call' && part.providerExecuted !== true) calls.push(part.toolCallId);
      }
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result') results.set(part.toolCallId, (results.get(part.toolCallId) ?? 0) + 1);
      }
    }
  }
  for (const id of calls) expect(results.get(id) ?? 0, `results for tool call ${id}`).toBe(1);
  for (const id of results.keys()) expect(calls, `the call of tool result ${id}`).toContain(id);
}

/** The history that resumes a paused run with the human's answer. */
function resumeWith(initial: ModelMessage[], first: Outcome, approvalId: string, approved = true): ModelMessage[] {
  return [...initial, ...first.responseMessages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved }] }];
}

/** Counts the chat observers of a run. */
function chatObservers() {
  const seen = { start: 0, done: 0, error: [] as unknown[], doneSteps: [] as number[][] };
  return {
    seen,
    hooks: {
      onChatStart: () => {
        seen.start++;
      },
      onChatDone: ({ response }: OnChatDoneContext) => {
        seen.done++;
        seen.doneSteps.push(response.steps.map((s) => s.stepNumber));
      },
      onChatError: ({ error }: { error: unknown }) => {
        seen.error.push(error);
      },
    },
  };
}

// ---------------------------------------------------------------------------
// transformContext
// ---------------------------------------------------------------------------

describe.each(MODES)('seed 003: transformContext (%s)', (mode) => {
  it('should reshape the history right before each model call: the model is sent exactly what the hook returned, per request', async () => {
    const { tools } = workbench();
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'token' })),
      step(toolCall('c2', 'read_file', { path: '/notes.txt' })),
      step(text('All done.')),
    );
    const isStamp = (message: ModelMessage) =>
      message.role === 'user' && typeof message.content === 'string' && message.content.startsWith('[context for step');
    const seen: Array<{ stepNumber: number; received: ModelMessage[] }> = [];
    // stamps the request with its step and clears every tool result but the latest ones
    const reshape = ({ messages, stepNumber }: TransformContextContext): ModelMessage[] => {
      seen.push({ stepNumber, received: structuredClone(messages) });
      const history = messages.filter((message) => !isStamp(message));
      const lastTool = history.findLastIndex((message) => message.role === 'tool');
      const cleared = history.map(
        (message, index): ModelMessage =>
          message.role === 'tool' && index !== lastTool
            ? {
                ...message,
                content: message.content.map((part) =>
                  part.type === 'tool-result' ? { ...part, output: { type: 'text' as const, value: '[cleared]' } } : part,
                ),
              }
            : message,
      );
      return [{ role: 'user', content: `[context for step ${stepNumber}]` }, ...cleared];
    };
    const interventions = createInterventions({ hooks: { transformContext: reshape } });

    const outcome = await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(outcome.text).toBe('All done.');
    expect(model.calls).toHaveLength(3);
    // once per model call, right before it, with the step about to run
    expect(seen.map((s) => s.stepNumber)).toEqual([0, 1, 2]);
    // the hook sees the current working history: step 1 sees step 0's call and its result
    expect(
      seen[1]!.received.some((m) => m.role === 'tool' && m.content.some((p) => p.type === 'tool-result' && p.toolCallId === 'c1')),
    ).toBe(true);
    for (const [n, request] of model.calls.entries()) {
      expect(shapeOf(request.prompt)[0], `request ${n} starts with its stamp`).toBe(`user:[context for step ${n}]`);
      expect(
        shapeOf(request.prompt).filter((line) => line.startsWith('user:[context for step')),
        `request ${n}`,
      ).toHaveLength(1);
      expectValidHistory(request.prompt);
    }
    expect(shapeOf(model.calls[0]!.prompt)).toEqual(['user:[context for step 0]', 'user:Do the task']);
    // request 1: c1's result is the latest one, kept
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'text', value: 'found token' });
    // request 2: c1's result was cleared, c2's (the latest) kept
    expect(toolResultsSent(model, 2)).toEqual({
      c1: { type: 'text', value: '[cleared]' },
      c2: { type: 'text', value: 'contents of /notes.txt' },
    });
  });

  it('should compact old turns into one summary message written by a second model call, keeping the history valid', async () => {
    const { tools, executed } = workbench();
    const old: ModelMessage[] = [
      { role: 'user', content: 'Old question one' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'o1', toolName: 'search', input: { q: 'old' } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'o1', toolName: 'search', output: { type: 'text', value: 'found old' } }],
      },
      { role: 'assistant', content: 'Old answer one' },
      { role: 'user', content: 'Old question two' },
      { role: 'assistant', content: 'Old answer two' },
    ];
    const latest: ModelMessage = { role: 'user', content: 'New question' };
    const summarizer = scriptedModel(step(text('The user asked two questions; a search found "old".')));
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'new' })), step(text('Answered.')));
    let compactions = 0;
    let consulted = 0;
    const compact = async ({ messages }: TransformContextContext) => {
      consulted++;
      if (messages.length <= 4) return undefined; // small enough: keep as is
      compactions++;
      const cut = messages.findLastIndex((message) => message.role === 'user');
      const summary = await generateText({
        model: summarizer,
        prompt: `Summarise this conversation in one paragraph:\n${JSON.stringify(messages.slice(0, cut))}`,
      });
      return [{ role: 'user' as const, content: `Summary of the earlier conversation: ${summary.text}` }, ...messages.slice(cut)];
    };
    const interventions = createInterventions();
    interventions.addHook('transformContext', compact);

    const outcome = await run(mode, interventions, {
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: [...old, latest],
    });

    expect(outcome.text).toBe('Answered.');
    expect(executed).toEqual(['c1']);
    expect(consulted).toBe(2);
    expect(compactions).toBe(1);
    // the second model summarised the old turns
    expect(summarizer.calls).toHaveLength(1);
    const summarised = JSON.stringify(summarizer.calls[0]!.prompt);
    expect(summarised).toContain('Old question one');
    expect(summarised).toContain('found old');
    // the main model only ever saw the summary instead of the old turns
    const summaryLine = 'user:Summary of the earlier conversation: The user asked two questions; a search found "old".';
    expect(shapeOf(model.calls[0]!.prompt)).toEqual([summaryLine, 'user:New question']);
    expect(shapeOf(model.calls[1]!.prompt)).toEqual([summaryLine, 'user:New question', 'assistant:call(c1)', 'tool:result(c1)']);
    for (const request of model.calls) {
      expect(JSON.stringify(request.prompt)).not.toContain('Old question');
      expect(JSON.stringify(request.prompt)).not.toContain('"o1"');
      expectValidHistory(request.prompt);
    }
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'text', value: 'found new' });
  });

  it('should not send a tool result whose call a naive window cut away (every request stays a valid history)', async () => {
    const { tools } = workbench();
    const history: ModelMessage[] = [
      { role: 'user', content: 'Old question' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'o1', toolName: 'search', input: { q: 'old' } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'o1', toolName: 'search', output: { type: 'text', value: 'found old' } }],
      },
      { role: 'assistant', content: 'Old answer' },
      { role: 'user', content: 'New question' },
    ];
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'new' })), step(text('Answered.')));
    // keeps the last three messages, wherever that cuts
    const interventions = createInterventions({ hooks: { transformContext: ({ messages }) => messages.slice(-3) } });

    const outcome = await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: history });

    expect(outcome.text).toBe('Answered.');
    expect(shapeOf(model.calls[0]!.prompt)).toEqual(['assistant:Old answer', 'user:New question']);
    expect(shapeOf(model.calls[1]!.prompt)).toEqual(['user:New question', 'assistant:call(c1)', 'tool:result(c1)']);
    for (const request of model.calls) expectValidHistory(request.prompt);
  });
});

// ---------------------------------------------------------------------------
// gateToolCalls
// ---------------------------------------------------------------------------

describe.each(MODES)('seed 003: gateToolCalls (%s)', (mode) => {
  it("should be called once per turn with all the turn's calls, parsed and in order, before any of them runs", async () => {
    const events: string[] = [];
    const { tools, executed } = workbench({ events });
    const model = scriptedModel(
      step(toolCall('s1', 'search', { q: 'a' }), toolCall('r1', 'read_file', { path: '/a' }), toolCall('s2', 'search', { q: 'b' })),
      step(toolCall('r2', 'read_file', { path: '/b' })),
      step(text('Read everything.')),
    );
    const batches: Array<readonly ToolCallInfo[]> = [];
    const gate = async ({ calls, stepNumber }: GateToolCallsContext) => {
      if (calls.length === 0) return []; // (a turn without calls has nothing to gate)
      events.push(`gate:${stepNumber}:${calls.map((call) => call.toolCallId).join(',')}`);
      batches.push(structuredClone(calls));
      await delay(15); // a slow gate (a permission prompt): nothing may start meanwhile
      events.push(`gate-done:${stepNumber}`);
      return calls.map(() => InterventionActions.proceed());
    };
    const interventions = createInterventions({ hooks: { gateToolCalls: gate } });

    const outcome = await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(outcome.text).toBe('Read everything.');
    expect(batches).toEqual([
      [
        { toolCallId: 's1', toolName: 'search', input: { q: 'a' } },
        { toolCallId: 'r1', toolName: 'read_file', input: { path: '/a' } },
        { toolCallId: 's2', toolName: 'search', input: { q: 'b' } },
      ],
      [{ toolCallId: 'r2', toolName: 'read_file', input: { path: '/b' } }],
    ]);
    expect(events.slice(0, 2)).toEqual(['gate:0:s1,r1,s2', 'gate-done:0']);
    expect(events.slice(2, 5).sort()).toEqual(['exec:r1', 'exec:s1', 'exec:s2']);
    expect(events.slice(5)).toEqual(['gate:1:r2', 'gate-done:1', 'exec:r2']);
    expect(executed.sort()).toEqual(['r1', 'r2', 's1', 's2']);
    expect(toolResultsSent(model, 1)).toEqual({
      s1: { type: 'text', value: 'found a' },
      r1: { type: 'text', value: 'contents of /a' },
      s2: { type: 'text', value: 'found b' },
    });
  });

  it('should run several gates serially, one finished before the next starts, all before any tool', async () => {
    const events: string[] = [];
    const { tools } = workbench({ events });
    const model = scriptedModel(step(toolCall('s1', 'search', { q: 'a' }), toolCall('s2', 'search', { q: 'b' })), step(text('ok')));
    const slowGate =
      (name: string, ms: number) =>
      async ({ calls }: GateToolCallsContext) => {
        events.push(`${name}:start:${calls.length}`);
        await delay(ms);
        events.push(`${name}:end`);
        return calls.map(() => InterventionActions.proceed());
      };
    const interventions = createInterventions({ hooks: { gateToolCalls: [slowGate('first', 20), slowGate('second', 1)] } });

    await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(events.slice(0, 4)).toEqual(['first:start:2', 'first:end', 'second:start:2', 'second:end']);
    expect(events.slice(4).sort()).toEqual(['exec:s1', 'exec:s2']);
  });

  it('should apply the decisions index-aligned: a denied call does not stop its siblings', async () => {
    const { tools, executed } = workbench();
    const model = scriptedModel(
      step(toolCall('a1', 'search', { q: 'a' }), toolCall('b1', 'search', { q: 'b' }), toolCall('c1', 'search', { q: 'c' })),
      step(text('Searched a and c.')),
    );
    const interventions = createInterventions({
      hooks: {
        gateToolCalls: () => [
          InterventionActions.proceed(),
          InterventionActions.deny('Searching for b is not allowed'),
          InterventionActions.proceed(),
        ],
      },
    });

    const outcome = await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(outcome.text).toBe('Searched a and c.');
    expect(executed.sort()).toEqual(['a1', 'c1']);
    const sent = toolResultsSent(model, 1);
    expect(sent.a1).toEqual({ type: 'text', value: 'found a' });
    expect(sent.c1).toEqual({ type: 'text', value: 'found c' });
    expect(sent.b1).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent.b1)).toContain('Searching for b is not allowed');
    expect(JSON.stringify(sent.b1)).toMatch(/not executed/);
    expectValidHistory(model.calls[1]!.prompt);
    expect(outcome.decisions.filter((d) => d.action === 'deny').map((d) => d.toolCallId)).toEqual(['b1']);
  });

  it('should allow one, deny one and ask for one of three parallel calls, then run the asked call once on approval with a valid history', async () => {
    const { tools, executed } = workbench();
    const model = scriptedModel(
      step(
        toolCall('c1', 'search', { q: 'tmp' }),
        toolCall('c2', 'delete_file', { path: '/etc/passwd' }),
        toolCall('c3', 'delete_file', { path: '/tmp/x' }),
      ),
      step(text('Searched, deleted /tmp/x, left /etc alone.')),
    );
    const gateCalls: string[][] = [];
    const permissions = ({ calls }: GateToolCallsContext) => {
      gateCalls.push(calls.map((call) => call.toolCallId));
      return calls.map((call) => {
        if (call.toolName !== 'delete_file') return InterventionActions.proceed(); // allow
        const { path } = call.input as { path: string };
        return path.startsWith('/etc')
          ? InterventionActions.deny('System files are off limits') // deny
          : InterventionActions.confirm(`Approve deleting ${path}?`); // ask
      });
    };
    const interventions = createInterventions({ hooks: { gateToolCalls: permissions } });

    const first = await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });

    // exactly one approval request, for the asked call; the allowed one ran, the others did not
    const requests = approvalRequests(first.content);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.toolCall).toMatchObject({ toolCallId: 'c3', toolName: 'delete_file', input: { path: '/tmp/x' } });
    expect(requests[0]!.reason).toBe('Approve deleting /tmp/x?');
    expect(executed).toEqual(['c1']);
    expect(model.calls).toHaveLength(1);
    expect(gateCalls[0]).toEqual(['c1', 'c2', 'c3']);

    const resumed = await run(mode, interventions, {
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: resumeWith([USER], first, requests[0]!.approvalId),
    });

    expect(resumed.text).toBe('Searched, deleted /tmp/x, left /etc alone.');
    // the asked call ran once; the allowed one was not run again; the denied one never ran
    expect(executed).toEqual(['c1', 'c3']);
    expect(model.calls).toHaveLength(2);
    expectValidHistory(model.calls[1]!.prompt);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'text', value: 'found tmp' });
    expect(sent.c2).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent.c2)).toContain('System files are off limits');
    expect(sent.c3).toEqual({ type: 'text', value: 'deleted /tmp/x' });
    expect(approvalRequests(resumed.content)).toHaveLength(0);
  });

  it("should present a resumed turn's calls to the gate together, at most once, when a run resumes from approvals", async () => {
    const events: string[] = [];
    const { tools, executed } = workbench({ events });
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' }), toolCall('d2', 'delete_file', { path: '/tmp/b' })),
      step(text('Deleted both.')),
    );
    const batches: string[][] = [];
    const interventions = createInterventions({
      hooks: {
        gateToolCalls: async ({ calls }) => {
          if (calls.length > 0) batches.push(calls.map((call) => call.toolCallId));
          await delay(5);
          return calls.map(() => InterventionActions.confirm('Delete it?'));
        },
      },
    });

    const first = await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });
    const requests = approvalRequests(first.content);
    expect(requests.map((r) => r.toolCall.toolCallId)).toEqual(['d1', 'd2']);
    expect(batches).toEqual([['d1', 'd2']]);

    const resumed = await run(mode, interventions, {
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: [
        USER,
        ...first.responseMessages,
        {
          role: 'tool',
          content: requests.map((r) => ({ type: 'tool-approval-response' as const, approvalId: r.approvalId, approved: true })),
        },
      ],
    });

    expect(resumed.text).toBe('Deleted both.');
    expect(executed).toEqual(['d1', 'd2']);
    // the turn's calls arrive together: on resume the gate is consulted once (or not at all), never per call
    const onResume = batches.slice(1);
    expect(onResume.length).toBeLessThanOrEqual(1);
    for (const batch of onResume) expect(batch).toEqual(['d1', 'd2']);
    expectValidHistory(model.calls[1]!.prompt);
  });

  it('should present only well-formed calls: an unknown tool and an invalid input skip the gate and reach the model as errors', async () => {
    const { tools, executed } = workbench();
    const model = scriptedModel(
      step(toolCall('u1', 'launch_rockets', { count: 3 }), toolCall('s1', 'search', { q: 'ok' }), toolCall('b1', 'search', { q: 42 })),
      step(text('One search worked.')),
    );
    const batches: string[][] = [];
    const interventions = createInterventions({
      hooks: {
        gateToolCalls: ({ calls }) => {
          if (calls.length > 0) batches.push(calls.map((call) => call.toolCallId));
          return calls.map(() => InterventionActions.proceed());
        },
      },
    });

    const outcome = await run(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(outcome.text).toBe('One search worked.');
    expect(batches).toEqual([['s1']]);
    expect(executed).toEqual(['s1']);
    expectValidHistory(model.calls[1]!.prompt);
    const sent = toolResultsSent(model, 1);
    expect(sent.s1).toEqual({ type: 'text', value: 'found ok' });
    expect(sent.u1).toMatchObject({ type: expect.stringMatching(/^error-/) });
    expect(JSON.stringify(sent.u1)).toContain('launch_rockets');
    expect(sent.b1).toMatchObject({ type: expect.stringMatching(/^error-/) });
  });

  it('should end the call with an InvalidHookResultError naming the gate when it returns the wrong number of decisions', async () => {
    const { tools, executed } = workbench();
    const model = scriptedModel(
      step(toolCall('s1', 'search', { q: 'a' }), toolCall('s2', 'search', { q: 'b' })),
      step(text('should never be reached')),
    );
    const observers = chatObservers();
    const interventions = createInterventions({ hooks: observers.hooks });
    // one decision short
    function approveFirstOnly({ calls }: GateToolCallsContext) {
      return calls.slice(1).map(() => InterventionActions.proceed());
    }
    interventions.addHook('gateToolCalls', approveFirstOnly);

    const error = await failureOf(mode, interventions, { model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(InvalidHookResultError.isInstance(error)).toBe(true);
    expect((error as InvalidHookResultError).hook).toContain('gateToolCalls');
    expect((error as InvalidHookResultError).hook).toContain('approveFirstOnly');
    expect((error as Error).message).toContain('approveFirstOnly');
    expect(executed).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(observers.seen.done).toBe(0);
    expect(observers.seen.error).toHaveLength(1);
    expect(InvalidHookResultError.isInstance(observers.seen.error[0])).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// afterToolCall: onToolCallResult / onToolCallError
// ---------------------------------------------------------------------------

describe.each(MODES)('seed 003: afterToolCall overrides (%s)', (mode) => {
  it('should let the model read an overridden result (and keep a result the hook leaves alone)', async () => {
    const events: string[] = [];
    const seen: Array<{ call: ToolCallInfo; result: unknown }> = [];
    const read_file = tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        events.push('exec:read_file');
        return `contents of ${path}: password=hunter2`;
      },
    });
    const { tools } = workbench({ events });
    const model = scriptedModel(
      step(toolCall('r1', 'read_file', { path: '/home/me/.env' }), toolCall('s1', 'search', { q: 'x' })),
      step(text('Read it.')),
    );
    const interventions = createInterventions({
      hooks: {
        onToolCallResult: ({ call, result }) => {
          events.push(`after:${call.toolCallId}`);
          seen.push({ call, result });
          if (typeof result === 'string' && result.includes('password=')) {
            return { result: result.replace(/password=\S+/, 'password=[redacted]') };
          }
          return undefined;
        },
      },
    });

    const outcome = await run(mode, interventions, {
      model,
      tools: { ...tools, read_file },
      stopWhen: isStepCount(5),
      messages: [USER],
    });

    expect(outcome.text).toBe('Read it.');
    // called after the call ran, with its parsed arguments and its result
    expect(events.indexOf('after:r1')).toBeGreaterThan(events.indexOf('exec:read_file'));
    expect(seen.find((s) => s.call.toolCallId === 'r1')).toEqual({
      call: { toolCallId: 'r1', toolName: 'read_file', input: { path: '/home/me/.env' } },
      result: 'contents of /home/me/.env: password=hunter2',
    });
    const sent = toolResultsSent(model, 1);
    expect(sent.r1).toEqual({ type: 'text', value: 'contents of /home/me/.env: password=[redacted]' });
    expect(sent.s1).toEqual({ type: 'text', value: 'found x' });
    expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain('hunter2');
    // the caller's step holds the overridden result too
    const results = outcome.steps[0]!.toolResults.map((r) => [r.toolCallId, r.output]);
    expect(results).toContainEqual(['r1', 'contents of /home/me/.env: password=[redacted]']);
  });

  it('should let the model read an overridden error on the isError path (the result hook is not called)', async () => {
    const afterResult: string[] = [];
    const seenErrors: Array<{ call: ToolCallInfo; error: unknown }> = [];
    const flaky = tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async (): Promise<string> => {
        throw new Error('disk on fire');
      },
    });
    const model = scriptedModel(step(toolCall('f1', 'flaky', { path: '/a' })), step(text('It failed; I will try read_file.')));
    const interventions = createInterventions({
      hooks: {
        onToolCallResult: ({ call }) => {
          afterResult.push(call.toolCallId);
        },
        onToolCallError: ({ call, error }) => {
          seenErrors.push({ call, error });
          return { error: `The tool ${call.toolName} failed (${(error as Error).message}); try read_file instead.` };
        },
      },
    });

    const outcome = await run(mode, interventions, { model, tools: { flaky }, stopWhen: isStepCount(5), messages: [USER] });

    expect(outcome.text).toBe('It failed; I will try read_file.');
    expect(afterResult).toEqual([]);
    expect(seenErrors).toHaveLength(1);
    expect(seenErrors[0]!.call).toEqual({ toolCallId: 'f1', toolName: 'flaky', input: { path: '/a' } });
    expect((seenErrors[0]!.error as Error).message).toBe('disk on fire');
    const sent = toolResultsSent(model, 1).f1 as { type: string; value: unknown };
    expect(sent.type).toMatch(/^error-/);
    expect(JSON.stringify(sent.value)).toContain('The tool flaky failed (disk on fire); try read_file instead.');
    expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain('Error: disk on fire');
    expectValidHistory(model.calls[1]!.prompt);
  });
});

// ---------------------------------------------------------------------------
// drainSteering
// ---------------------------------------------------------------------------

describe.each(MODES)('seed 003: drainSteering (%s)', (mode) => {
  it("should inject a queued steering message right after the turn's tool results: [assistant tool_calls][tool results][steering]", async () => {
    const steering = createMessageQueue();
    const { tools } = workbench({ during: () => steering.push('Use Paris, Texas instead.') });
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'weather in Paris' }), toolCall('c2', 'search', { q: 'flights to Paris' })),
      step(text('Sunny in Paris, Texas.')),
    );
    const interventions = createInterventions();

    const outcome = await run(mode, interventions, { model, tools, messages: [USER], steering, maxSteps: 5 });

    expect(outcome.text).toBe('Sunny in Paris, Texas.');
    expect(model.calls).toHaveLength(2);
    expect(occurrences(model.calls[0]!.prompt, 'Use Paris, Texas instead.')).toBe(0);
    // pushed twice (once per call), drained once, after both results
    expect(shapeOf(model.calls[1]!.prompt).slice(-4)).toEqual([
      'assistant:call(c1),call(c2)',
      'tool:result(c1),result(c2)',
      'user:Use Paris, Texas instead.',
      'user:Use Paris, Texas instead.',
    ]);
    expectValidHistory(model.calls[1]!.prompt);
    expect(steering.size).toBe(0);
  });

  it('should consult a drainSteering hook once per turn, right after the tool results, and inject what it returns', async () => {
    const { tools } = workbench();
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'a' })),
      step(toolCall('c2', 'search', { q: 'b' })),
      step(text('Short answer.')),
    );
    const consulted: number[] = [];
    const drainSteering = ({ steps }: DrainContext) => {
      consulted.push(steps.length);
      return consulted.length === 1 ? 'Keep it short.' : undefined;
    };
    const interventions = createInterventions({ hooks: { drainSteering } });

    const outcome = await run(mode, interventions, {
      model,
      tools,
      messages: [USER],
      stopWhen: isStepCount(5),
      maxSteps: 5,
    });

    expect(outcome.text).toBe('Short answer.');
    expect(model.calls).toHaveLength(3);
    expect(consulted).toEqual([1, 2, 3]);
    expect(shapeOf(model.calls[1]!.prompt).slice(-3)).toEqual(['assistant:call(c1)', 'tool:result(c1)', 'user:Keep it short.']);
    expect(shapeOf(model.calls[2]!.prompt).slice(-2)).toEqual(['assistant:call(c2)', 'tool:result(c2)']);
    expect(model.calls.map((request) => occurrences(request.prompt, 'Keep it short.'))).toEqual([0, 1, 1]);
    for (const request of model.calls) expectValidHistory(request.prompt);
  });

  it('should keep the run going past a stopWhen that would have stopped it (under maxSteps)', async () => {
    // baseline: stopWhen stops after one step
    const baselineModel = scriptedModel(step(toolCall('c1', 'search', { q: 'weather' })), step(text('unreached')));
    const baseline = await run(mode, createInterventions(), {
      model: baselineModel,
      tools: workbench().tools,
      messages: [USER],
      stopWhen: isStepCount(1),
      steering: createMessageQueue(),
      maxSteps: 4,
    });
    expect(baselineModel.calls).toHaveLength(1);
    expect(baseline.steps).toHaveLength(1);

    const steering = createMessageQueue();
    const { tools } = workbench({ during: () => steering.push('Also check the forecast.') });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'weather' })), step(text('Forecast: rain.')));

    const outcome = await run(mode, createInterventions(), {
      model,
      tools,
      messages: [USER],
      stopWhen: isStepCount(1),
      steering,
      maxSteps: 4,
    });

    expect(model.calls).toHaveLength(2);
    expect(shapeOf(model.calls[1]!.prompt).slice(-3)).toEqual(['assistant:call(c1)', 'tool:result(c1)', 'user:Also check the forecast.']);
    expect(outcome.text).toBe('Forecast: rain.');
    expect(outcome.steps.map((s) => s.stepNumber)).toEqual([0, 1]);
  });

  it('should keep the run going past stopWhen with a drainSteering hook too', async () => {
    const { tools } = workbench();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'weather' })), step(text('Forecast: rain.')));
    let drained = false;
    const interventions = createInterventions({
      hooks: {
        drainSteering: () => {
          if (drained) return undefined;
          drained = true;
          return [{ role: 'user', content: 'Also check the forecast.' }];
        },
      },
    });

    const outcome = await run(mode, interventions, {
      model,
      tools,
      messages: [USER],
      stopWhen: isStepCount(1),
      maxSteps: 4,
    });

    expect(model.calls).toHaveLength(2);
    expect(shapeOf(model.calls[1]!.prompt).at(-1)).toBe('user:Also check the forecast.');
    expect(outcome.text).toBe('Forecast: rain.');
  });

  it('should never drain once maxSteps is reached: the queued message stays for a later run', async () => {
    const steering = createMessageQueue();
    const { tools } = workbench({ during: () => steering.push('Too late for this run.') });
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'a' })), step(text('unreached')));
    let consulted = 0;
    const interventions = createInterventions({
      hooks: {
        drainSteering: () => {
          consulted++;
        },
      },
    });

    const first = await run(mode, interventions, {
      model,
      tools,
      messages: [USER],
      stopWhen: isStepCount(10),
      steering,
      maxSteps: 1,
    });

    expect(model.calls).toHaveLength(1);
    expect(first.steps).toHaveLength(1);
    expect(consulted).toBe(0);
    expect(steering.size).toBe(1);

    // a later run with the same queue picks it up
    const later = scriptedModel(step(text('Continuing.')), step(text('Handled the late message.')));
    const second = await run(mode, interventions, {
      model: later,
      tools,
      messages: [USER, ...first.responseMessages],
      steering,
      maxSteps: 3,
    });

    expect(steering.size).toBe(0);
    expect(later.calls).toHaveLength(2);
    expect(occurrences(later.calls[0]!.prompt, 'Too late for this run.')).toBe(0);
    expect(shapeOf(later.calls[1]!.prompt).slice(-2)).toEqual(['assistant:Continuing.', 'user:Too late for this run.']);
    expect(second.text).toBe('Handled the late message.');
  });

  it('should not deliver steering while the run waits for an approval, then deliver it exactly once after the resume', async () => {
    const steering = createMessageQueue();
    const { tools, executed } = workbench({
      during: (toolName) => {
        if (toolName === 'search' && executed.length === 1) steering.push('Steer: prefer /tmp/y.');
      },
    });
    const model = scriptedModel(
      // the same turn: a search (runs, and feeds the queue) and a delete that needs approval
      step(toolCall('c1', 'search', { q: 'tmp' }), toolCall('d1', 'delete_file', { path: '/tmp/x' })),
      step(toolCall('c2', 'search', { q: 'after' })),
      step(text('All done.')),
    );
    let consultedWhilePaused = 0;
    let consulted = 0;
    const interventions = createInterventions({
      hooks: {
        gateToolCalls: ({ calls }) =>
          calls.map((call) =>
            call.toolName === 'delete_file' ? InterventionActions.confirm('Delete /tmp/x?') : InterventionActions.proceed(),
          ),
        drainSteering: () => {
          consulted++;
        },
      },
    });

    const first = await run(mode, interventions, { model, tools, messages: [USER], steering, maxSteps: 6 });
    consultedWhilePaused = consulted;

    const [request] = approvalRequests(first.content);
    expect(request?.toolCall.toolCallId).toBe('d1');
    expect(executed).toEqual(['c1']);
    expect(model.calls).toHaveLength(1);
    // paused: nothing was drained
    expect(steering.size).toBe(1);
    expect(consultedWhilePaused).toBe(0);
    expect(JSON.stringify(model.calls)).not.toContain('Steer:');

    // fed between the two calls
    steering.push('Steer: and report sizes.');
    expect(steering.size).toBe(2);

    const resumed = await run(mode, interventions, {
      model,
      tools,
      steering,
      maxSteps: 6,
      messages: resumeWith([USER], first, request!.approvalId),
    });

    expect(resumed.text).toBe('All done.');
    expect(executed).toEqual(['c1', 'd1', 'c2']);
    expect(steering.size).toBe(0);
    expect(model.calls).toHaveLength(3);
    // delivered in the first request after the resume, after the results, and never again
    for (const message of ['Steer: prefer /tmp/y.', 'Steer: and report sizes.']) {
      expect(
        model.calls.map((r) => occurrences(r.prompt, message)),
        message,
      ).toEqual([0, 1, 1]);
    }
    const resumedShape = shapeOf(model.calls[1]!.prompt);
    expect(resumedShape.slice(-2)).toEqual(['user:Steer: prefer /tmp/y.', 'user:Steer: and report sizes.']);
    const d1Result = resumedShape.findIndex((line) => line.startsWith('tool:') && line.includes('result(d1)'));
    expect(d1Result).toBeGreaterThan(-1);
    expect(d1Result).toBeLessThan(resumedShape.indexOf('user:Steer: prefer /tmp/y.'));
    expect(toolResultsSent(model, 1).d1).toEqual({ type: 'text', value: 'deleted /tmp/x' });
    for (const r of model.calls) expectValidHistory(r.prompt);
  });

  it('should keep a steering message delivered before a pause in the history of the resumed run (README resume recipe)', async () => {
    const steering = createMessageQueue();
    const { tools, executed } = workbench({
      during: (toolName) => {
        if (toolName === 'search') steering.push('Steer: only files under /tmp.');
      },
    });
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'tmp' })),
      step(toolCall('d1', 'delete_file', { path: '/tmp/x' })),
      step(text('Deleted /tmp/x.')),
    );
    const interventions = createInterventions({
      hooks: {
        gateToolCalls: ({ calls }) =>
          calls.map((call) =>
            call.toolName === 'delete_file' ? InterventionActions.confirm('Delete /tmp/x?') : InterventionActions.proceed(),
          ),
      },
    });

    const first = await run(mode, interventions, { model, tools, messages: [USER], steering, maxSteps: 6 });
    const [request] = approvalRequests(first.content);
    expect(request?.toolCall.toolCallId).toBe('d1');
    // delivered once, after the first turn's results
    expect(shapeOf(model.calls[1]!.prompt).slice(-3)).toEqual([
      'assistant:call(c1)',
      'tool:result(c1)',
      'user:Steer: only files under /tmp.',
    ]);

    const resumed = await run(mode, interventions, {
      model,
      tools,
      steering,
      maxSteps: 6,
      messages: resumeWith([USER], first, request!.approvalId),
    });

    expect(resumed.text).toBe('Deleted /tmp/x.');
    expect(executed).toEqual(['c1', 'd1']);
    expect(model.calls).toHaveLength(3);
    // the user's steering is part of the conversation: it must not vanish once the run resumes
    expect(model.calls.map((r) => occurrences(r.prompt, 'Steer: only files under /tmp.'))).toEqual([0, 1, 1]);
    expectValidHistory(model.calls[2]!.prompt);
  });
});

// ---------------------------------------------------------------------------
// drainFollowUp
// ---------------------------------------------------------------------------

describe.each(MODES)('seed 003: drainFollowUp (%s)', (mode) => {
  it('should continue the same run with a queued follow-up when it would end with a final answer', async () => {
    const followUp = createMessageQueue();
    followUp.push('Now verify the changes.');
    const { tools } = workbench();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'config' })), step(text('Changed.')), step(text('Verified.')));
    const observers = chatObservers();
    const interventions = createInterventions({ hooks: observers.hooks });

    const outcome = await run(mode, interventions, { model, tools, messages: [USER], followUp, maxSteps: 5 });

    expect(model.calls).toHaveLength(3);
    // not delivered after a turn with tool calls
    expect(shapeOf(model.calls[1]!.prompt).slice(-2)).toEqual(['assistant:call(c1)', 'tool:result(c1)']);
    expect(occurrences(model.calls[1]!.prompt, 'Now verify the changes.')).toBe(0);
    // delivered when the run would have ended
    expect(shapeOf(model.calls[2]!.prompt).slice(-2)).toEqual(['assistant:Changed.', 'user:Now verify the changes.']);
    expect(followUp.size).toBe(0);
    // one continuous run
    expect(outcome.text).toBe('Verified.');
    expect(outcome.steps.map((s) => s.stepNumber)).toEqual([0, 1, 2]);
    expect(observers.seen.start).toBe(1);
    expect(observers.seen.done).toBe(1);
    expect(observers.seen.doneSteps).toEqual([[0, 1, 2]]);
  });

  it('should consult a drainFollowUp hook only when the run would end, and continue with what it returns', async () => {
    const { tools } = workbench();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'a' })), step(text('Done.')), step(text('Summary: searched a.')));
    const consulted: number[] = [];
    const observers = chatObservers();
    const interventions = createInterventions({
      hooks: {
        ...observers.hooks,
        drainFollowUp: ({ steps }) => {
          consulted.push(steps.length);
          return consulted.length === 1 ? [{ role: 'user', content: 'Also summarise.' }] : [];
        },
      },
    });

    const outcome = await run(mode, interventions, { model, tools, messages: [USER], stopWhen: isStepCount(8), maxSteps: 8 });

    expect(consulted).toEqual([2, 3]);
    expect(model.calls).toHaveLength(3);
    expect(shapeOf(model.calls[2]!.prompt).slice(-2)).toEqual(['assistant:Done.', 'user:Also summarise.']);
    expect(outcome.text).toBe('Summary: searched a.');
    expect(outcome.steps.map((s) => s.stepNumber)).toEqual([0, 1, 2]);
    expect(observers.seen.start).toBe(1);
    expect(observers.seen.done).toBe(1);
  });

  it('should not consult follow-ups once the maxSteps cap is reached: the queue keeps its messages', async () => {
    const followUp = createMessageQueue();
    followUp.push('Next task.');
    const model = scriptedModel(step(text('Done.')), step(text('unreached')));
    let consulted = 0;
    const observers = chatObservers();
    const interventions = createInterventions({
      hooks: {
        ...observers.hooks,
        drainFollowUp: () => {
          consulted++;
          return 'A follow-up from the hook.';
        },
      },
    });

    const outcome = await run(mode, interventions, { model, messages: [USER], followUp, maxSteps: 1 });

    expect(outcome.text).toBe('Done.');
    expect(model.calls).toHaveLength(1);
    expect(consulted).toBe(0);
    expect(followUp.size).toBe(1);
    expect(observers.seen.done).toBe(1);
  });

  it("should deliver one follow-up per turn in 'one-at-a-time' mode", async () => {
    const followUp: MemoryMessageQueue = createMessageQueue({ mode: 'one-at-a-time' });
    followUp.push('First follow-up.', 'Second follow-up.');
    const model = scriptedModel(step(text('Answer A.')), step(text('Answer B.')), step(text('Answer C.')));
    const observers = chatObservers();
    const interventions = createInterventions({ hooks: observers.hooks });

    const outcome = await run(mode, interventions, { model, messages: [USER], followUp, maxSteps: 6 });

    expect(model.calls).toHaveLength(3);
    expect(shapeOf(model.calls[1]!.prompt).slice(-2)).toEqual(['assistant:Answer A.', 'user:First follow-up.']);
    expect(occurrences(model.calls[1]!.prompt, 'Second follow-up.')).toBe(0);
    expect(shapeOf(model.calls[2]!.prompt).slice(-2)).toEqual(['assistant:Answer B.', 'user:Second follow-up.']);
    expect(occurrences(model.calls[2]!.prompt, 'First follow-up.')).toBe(1);
    expect(followUp.size).toBe(0);
    expect(outcome.text).toBe('Answer C.');
    expect(outcome.steps.map((s) => s.stepNumber)).toEqual([0, 1, 2]);
    expect(observers.seen.start).toBe(1);
    expect(observers.seen.done).toBe(1);
  });
});
