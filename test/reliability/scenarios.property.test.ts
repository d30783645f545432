/**
 * Random scenarios through both wrappers: random handler lists (every action,
 * sync or async, throwing, never settling past a `timeoutMs`, every
 * `onError`, some in shadow mode), a random first model turn (text, one
 * call, parallel calls, unknown tools, malformed JSON, schema-invalid input)
 * followed by a final text turn, random tool hooks (`preToolCall` passing,
 * short-circuiting with `{ result }` or `{ error }`; `onToolCallResult`;
 * `onToolCallError`) and a pass-through model hook that changes how a stream
 * is held. Handlers act on every call of the turn or only on some, so one
 * turn mixes outcomes (a call waiting for approval beside calls that run).
 *
 * Every scenario runs through `interventions.generateText` and
 * `interventions.streamText` and must, in both:
 * - follow the precedence (deny > confirm > guide > transform > proceed,
 *   failures by `onError`, a timeout counted as a throw);
 * - send a valid next request: every tool call in the history has exactly one
 *   result;
 * - never run the `execute` of a denied, guided, fail-closed or pending call;
 * - keep one decision record per evaluated handler per well-formed call, none
 *   after a deny, the same in `onDecision` and in the result;
 * - settle (resolve, or reject with the documented typed error) and fire
 *   exactly one of `onChatDone` / `onChatError` / `onChatAbort`, leaving no
 *   timer behind.
 *
 * FUZZ_SEED and FUZZ_RUNS override the seed and the number of scenarios.
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { isStepCount, type ModelMessage, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeToolCallAction,
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  type DecisionRecord,
  defineHandler,
  HandlerTimeoutError,
  InterventionActions,
  InterventionHandlerError,
  type InterventionHandlerLike,
  type InterventionHooks,
  type Interventions,
  type OnError,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';
import { type ActionKind as Kind, taggingAction } from '../helpers/tagging-action.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
/** A run that has not settled after this long is a hang. */
const DEADLINE_MS = 5_000;
/** The `timeoutMs` of handlers that never settle. */
const HANG_TIMEOUT_MS = 3;
/** Room for a loaded machine and for FUZZ_RUNS=3000 (npm run test:fuzz): about 10 ms per scenario and wrapper. */
const TIMEOUT_MS = Math.max(60_000, RUNS * 40);

// ---------------------------------------------------------------- scenarios

type Failure = 'none' | 'throw' | 'hang';
type Thrown = 'error' | 'string' | 'null' | 'object';

interface HandlerSpec {
  readonly kind: Kind;
  readonly async: boolean;
  readonly failure: Failure;
  readonly thrown: Thrown;
  readonly onError: OnError;
  readonly shadow: boolean;
  /** A generous timeout on a handler that settles: the timer must be cleared. */
  readonly spareTimeout: boolean;
  /** Which calls of the turn the handler acts on (by position); it proceeds on the others. */
  readonly target: Target;
}

type Target = 'all' | 'even' | 'odd';
const targets = (target: Target, position: number) => target === 'all' || (target === 'even') === (position % 2 === 0);

/** A call of the first model turn. */
type CallKind = 'ok' | 'ok-failing-tool' | 'unknown-tool' | 'malformed-json' | 'invalid-input';

interface HookSpec {
  /** A pass-through model-level hook: each changes how a stream is held (not at all, whole response). */
  readonly model: 'none' | 'preRequest' | 'onResponse';
  readonly preToolCall: 'absent' | 'nothing' | 'result' | 'error';
  readonly onToolCallResult: boolean;
  readonly onToolCallError: boolean;
}

interface Scenario {
  readonly handlers: readonly HandlerSpec[];
  readonly withText: boolean;
  readonly calls: readonly CallKind[];
  readonly hooks: HookSpec;
}

const weighted = <T>(...entries: Array<readonly [number, T]>) =>
  fc.oneof(...entries.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const handlerArbitrary: fc.Arbitrary<HandlerSpec> = fc.record({
  kind: weighted<Kind>([2, 'proceed'], [1, 'deny'], [2, 'guide'], [1, 'confirm'], [2, 'transform']),
  async: fc.boolean(),
  failure: weighted<Failure>([8, 'none'], [1, 'throw'], [1, 'hang']),
  thrown: fc.constantFrom<Thrown>('error', 'string', 'null', 'object'),
  onError: fc.constantFrom<OnError>('throw', 'proceed', 'deny'),
  shadow: weighted([5, false], [1, true]),
  spareTimeout: weighted([4, false], [1, true]),
  target: weighted<Target>([2, 'all'], [1, 'even'], [1, 'odd']),
});

const callArbitrary = weighted<CallKind>(
  [4, 'ok'],
  [1, 'ok-failing-tool'],
  [1, 'unknown-tool'],
  [1, 'malformed-json'],
  [1, 'invalid-input'],
);

const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  handlers: fc.array(handlerArbitrary, { minLength: 0, maxLength: 5 }),
  withText: fc.boolean(),
  // 0 calls: a text-only turn; 1: a single call; more: parallel calls
  calls: fc.oneof(
    { weight: 1, arbitrary: fc.constant<CallKind[]>([]) },
    { weight: 3, arbitrary: fc.array(callArbitrary, { minLength: 1, maxLength: 1 }) },
    { weight: 3, arbitrary: fc.array(callArbitrary, { minLength: 2, maxLength: 4 }) },
  ),
  hooks: fc.record({
    model: fc.constantFrom<HookSpec['model']>('none', 'preRequest', 'onResponse'),
    preToolCall: fc.constantFrom<HookSpec['preToolCall']>('absent', 'nothing', 'result', 'error'),
    onToolCallResult: fc.boolean(),
    onToolCallError: fc.boolean(),
  }),
});

// ---------------------------------------------------------------- the system under test

const thrownValue = (thrown: Thrown, name: string): unknown => {
  switch (thrown) {
    case 'error':
      return new Error(`${name} broke`);
    case 'string':
      return `${name} broke`;
    case 'null':
      return null;
    case 'object':
      return { broken: name };
  }
};

function handlerFor(spec: HandlerSpec, index: number, thrownValues: Map<string, unknown>): InterventionHandlerLike {
  const name = `h${index}`;
  const act = (): BeforeToolCallAction => {
    return taggingAction(spec.kind, index);
  };
  const decide = (): BeforeToolCallAction | Promise<BeforeToolCallAction> => {
    if (spec.failure === 'hang') return new Promise<never>(() => {});
    if (spec.failure === 'throw') {
      const value = thrownValue(spec.thrown, name);
      thrownValues.set(name, value);
      if (spec.async) return Promise.reject(value);
      throw value;
    }
    return spec.async ? Promise.resolve().then(act) : act();
  };
  const beforeToolCall = (event: BeforeToolCallEvent) => {
    const position = Number(/^c(\d+)/.exec((event.toolCall.input as { tag: string }).tag)?.[1]);
    if (targets(spec.target, position)) return decide();
    return spec.async ? Promise.resolve(InterventionActions.proceed()) : InterventionActions.proceed();
  };
  const timeoutMs = spec.failure === 'hang' ? HANG_TIMEOUT_MS : spec.spareTimeout ? 2_000 : undefined;
  return defineHandler({
    name,
    onError: spec.onError,
    mode: spec.shadow ? 'shadow' : 'enforce',
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    beforeToolCall,
  });
}

interface Call {
  readonly id: string;
  readonly kind: CallKind;
  readonly toolName: string;
  readonly tag: string;
}

function callsOf(scenario: Scenario): Call[] {
  return scenario.calls.map((kind, position) => ({
    id: `call-${position}`,
    kind,
    toolName: kind === 'unknown-tool' ? 'nope' : kind === 'ok-failing-tool' ? 'fail' : 't',
    tag: `c${position}`,
  }));
}

const wellFormed = (call: Call) => call.kind === 'ok' || call.kind === 'ok-failing-tool';

function firstTurn(scenario: Scenario, calls: readonly Call[]) {
  const content = calls.map((call) => {
    switch (call.kind) {
      case 'malformed-json':
        return toolCall(call.id, call.toolName, `{"tag": "${call.tag}"`);
      case 'invalid-input':
        return toolCall(call.id, call.toolName, { tag: 42 });
      default:
        return toolCall(call.id, call.toolName, { tag: call.tag });
    }
  });
  return step(...(scenario.withText || calls.length === 0 ? [text('thinking first')] : []), ...content);
}

// ---------------------------------------------------------------- the expected outcome, written plainly

type Verdict =
  | { readonly type: 'throw'; readonly handler: string; readonly timeout: boolean }
  | { readonly type: 'deny'; readonly reason: string }
  | { readonly type: 'confirm'; readonly prompt: string }
  | { readonly type: 'guide'; readonly lines: readonly string[] }
  | { readonly type: 'run'; readonly suffix: string };

interface ExpectedRecord {
  readonly handler: string;
  readonly action: string;
  readonly enforced: boolean;
  readonly failed: 'timeout' | 'throw' | undefined;
}

/** The precedence rules of the design, for one well-formed call. */
function expectedVerdict(specs: readonly HandlerSpec[], position: number): { verdict: Verdict; records: ExpectedRecord[] } {
  const records: Array<{ -readonly [K in keyof ExpectedRecord]: ExpectedRecord[K] }> = [];
  const guides: string[] = [];
  const prompts: string[] = [];
  let suffix = '';
  const denied = (reason: string) => {
    // drafts, guides and prompts before a deny are not enforced
    for (const record of records.slice(0, -1)) {
      if (['guide', 'confirm', 'transform'].includes(record.action)) record.enforced = false;
    }
    return { verdict: { type: 'deny' as const, reason }, records };
  };
  for (const [index, given] of specs.entries()) {
    const handler = `h${index}`;
    // a handler that does not target this call proceeds on it
    const spec: HandlerSpec = targets(given.target, position) ? given : { ...given, kind: 'proceed', failure: 'none' };
    const failed = spec.failure === 'hang' ? 'timeout' : spec.failure === 'throw' ? 'throw' : undefined;
    if (spec.shadow) {
      records.push({ handler, action: failed ? 'error' : spec.kind, enforced: false, failed });
      continue;
    }
    if (failed !== undefined) {
      if (spec.onError === 'throw') {
        records.push({ handler, action: 'error', enforced: true, failed });
        return { verdict: { type: 'throw', handler, timeout: failed === 'timeout' }, records };
      }
      if (spec.onError === 'proceed') {
        records.push({ handler, action: 'proceed', enforced: true, failed });
        continue;
      }
      // fail closed: the failure is a deny naming the handler
      records.push({ handler, action: 'deny', enforced: true, failed });
      return denied(`The "${handler}" check failed, so this was blocked (fail closed).`);
    }
    records.push({ handler, action: spec.kind, enforced: true, failed });
    if (spec.kind === 'deny') return denied(`reason-${index}`);
    if (spec.kind === 'guide') guides.push(`[${handler}] feedback-${index}`);
    if (spec.kind === 'confirm') prompts.push(`prompt-${index}`);
    if (spec.kind === 'transform') suffix += `+${index}`;
  }
  // seed 000: a confirm outranks guides; the person is shown their feedback with the prompts
  if (prompts.length > 0) return { verdict: { type: 'confirm', prompt: [...prompts, ...guides].join('\n') }, records };
  if (guides.length > 0) return { verdict: { type: 'guide', lines: guides }, records };
  return { verdict: { type: 'run', suffix }, records };
}

// ---------------------------------------------------------------- running one scenario

type Mode = 'generateText' | 'streamText';

interface Observed {
  readonly settled: { readonly ok: true } | { readonly ok: false; readonly error: unknown };
  readonly text?: string;
  readonly content?: ReadonlyArray<{ readonly type: string }>;
  readonly responseMessages?: readonly ModelMessage[];
  readonly decisions?: readonly DecisionRecord[];
  /** Every error a stream reported (parts and `onError`). */
  readonly streamErrors: readonly unknown[];
}

/** Rejects when `promise` has not settled after `ms`; the timer is always cleared. */
async function withinDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HANG: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function runOnce(interventions: Interventions, mode: Mode, options: Parameters<Interventions['generateText']>[0]): Promise<Observed> {
  if (mode === 'generateText') {
    try {
      const result = await interventions.generateText(options);
      return {
        settled: { ok: true },
        text: result.text,
        content: result.content,
        responseMessages: result.responseMessages,
        decisions: result.interventions.decisions,
        streamErrors: [],
      };
    } catch (error) {
      return { settled: { ok: false, error }, streamErrors: [] };
    }
  }
  const streamErrors: unknown[] = [];
  const result = interventions.streamText({
    ...(options as Parameters<Interventions['streamText']>[0]),
    onError: ({ error }: { error: unknown }) => {
      streamErrors.push(error);
    },
  });
  for await (const part of result.fullStream) {
    if (part.type === 'error') streamErrors.push(part.error);
  }
  if (streamErrors.length > 0) return { settled: { ok: false, error: streamErrors[0] }, streamErrors };
  return {
    settled: { ok: true },
    text: await result.text,
    content: await result.content,
    responseMessages: await result.responseMessages,
    decisions: result.interventions.decisions,
    streamErrors,
  };
}

/** Tool call ids vs tool result ids of a prompt: each call needs exactly one result. */
function pairing(messages: ReadonlyArray<LanguageModelV4CallOptions['prompt'][number] | ModelMessage>) {
  const calls: string[] = [];
  const results: string[] = [];
  const approvals: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content as ReadonlyArray<{ type: string; toolCallId?: string; isAutomatic?: boolean }>) {
      if (part.type === 'tool-call') calls.push(part.toolCallId as string);
      if (part.type === 'tool-result') results.push(part.toolCallId as string);
      // automatic requests record a decision already taken (a denied call); they carry a result
      if (part.type === 'tool-approval-request' && part.isAutomatic !== true) approvals.push(part.toolCallId as string);
    }
  }
  return { calls, results, approvals };
}

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

async function checkScenario(scenario: Scenario, mode: Mode): Promise<void> {
  const timersBefore = timers();
  const calls = callsOf(scenario);
  const executed: Array<{ readonly tool: string; readonly tag: string }> = [];
  const preToolCalls: string[] = [];
  const lifecycle: string[] = [];
  const observedRecords: DecisionRecord[] = [];
  const thrownValues = new Map<string, unknown>();
  let chatError: unknown;

  const tools = {
    t: tool({
      inputSchema: z.object({ tag: z.string() }),
      execute: async ({ tag }) => {
        executed.push({ tool: 't', tag });
        return `ran ${tag}`;
      },
    }),
    fail: tool({
      inputSchema: z.object({ tag: z.string() }),
      execute: async ({ tag }): Promise<string> => {
        executed.push({ tool: 'fail', tag });
        throw new Error(`fail ${tag}`);
      },
    }),
  };

  const hooks: Partial<{ [K in keyof InterventionHooks]: InterventionHooks[K] }> = {
    onDecision: ({ record }) => void observedRecords.push(record),
    onChatDone: () => void lifecycle.push('done'),
    onChatError: ({ error }) => {
      lifecycle.push('error');
      chatError = error;
    },
    onChatAbort: () => void lifecycle.push('abort'),
  };
  if (scenario.hooks.model === 'preRequest') hooks.preRequest = () => undefined;
  if (scenario.hooks.model === 'onResponse') hooks.onResponse = () => undefined;
  const { preToolCall } = scenario.hooks;
  if (preToolCall !== 'absent') {
    hooks.preToolCall = ({ call }) => {
      preToolCalls.push(call.toolCallId);
      const tag = (call.input as { tag: string }).tag;
      if (preToolCall === 'result') return { result: `cached ${tag}` };
      if (preToolCall === 'error') return { error: new Error(`pre-error ${tag}`) };
      return undefined;
    };
  }
  if (scenario.hooks.onToolCallResult) {
    hooks.onToolCallResult = ({ result }) => ({ result: `${String(result)}|post` });
  }
  if (scenario.hooks.onToolCallError) {
    hooks.onToolCallError = ({ error }) => ({
      error: new Error(`hooked: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  const interventions = createInterventions({
    handlers: scenario.handlers.map((spec, index) => handlerFor(spec, index, thrownValues)),
    hooks,
    approvalSecret: 'fuzz-secret-with-at-least-32-bytes-for-hmac',
    approvalLedger: createApprovalLedger(),
  });
  const model = scriptedModel(firstTurn(scenario, calls), step(text('final answer')));
  const observed = await withinDeadline(
    runOnce(interventions, mode, { model, tools, stopWhen: isStepCount(4), prompt: 'go' }),
    DEADLINE_MS,
    mode,
  );
  // the end-of-run observers of a stream run in its callbacks: wait for one (a second would follow at once)
  if (mode === 'streamText') {
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (let waited = 0; lifecycle.length === 0 && waited < 1_000; waited++) await new Promise((resolve) => setTimeout(resolve, 1));
  }

  // ---- what should have happened, call by call (the turn's calls are decided in order, before any runs)
  const decided = calls.filter(wellFormed);
  const withHandlers = scenario.handlers.length > 0;
  const expectedRecords: Array<ExpectedRecord & { toolCallId: string }> = [];
  const verdicts = new Map<string, Verdict>();
  let failure: (Verdict & { type: 'throw' }) | undefined;
  for (const call of decided) {
    const { verdict, records } = withHandlers
      ? expectedVerdict(scenario.handlers, Number(call.tag.slice(1)))
      : { verdict: { type: 'run', suffix: '' } as Verdict, records: [] };
    expectedRecords.push(...records.map((record) => ({ ...record, toolCallId: call.id })));
    verdicts.set(call.id, verdict);
    if (verdict.type === 'throw') {
      failure = verdict;
      break;
    }
  }

  // ---- a handler failing with onError 'throw' ends the run with the typed error
  if (failure !== undefined) {
    expect(observed.settled.ok, 'a handler failing with onError "throw" ends the run').toBe(false);
    const error = observed.settled.ok ? undefined : observed.settled.error;
    if (failure.timeout) {
      expect(HandlerTimeoutError.isInstance(error), `expected a HandlerTimeoutError, got ${String(error)}`).toBe(true);
      expect((error as HandlerTimeoutError).handlerName).toBe(failure.handler);
      expect((error as HandlerTimeoutError).timeoutMs).toBe(HANG_TIMEOUT_MS);
    } else {
      expect(InterventionHandlerError.isInstance(error), `expected an InterventionHandlerError, got ${String(error)}`).toBe(true);
      expect((error as InterventionHandlerError).handlerName).toBe(failure.handler);
      expect((error as InterventionHandlerError).lifecycle).toBe('beforeToolCall');
      expect((error as Error).cause).toEqual(thrownValues.get(failure.handler));
    }
    expect(lifecycle).toEqual(['error']);
    expect(chatError).toBe(error);
    // every stream error is that error (no bare abort instead of it)
    for (const reported of observed.streamErrors) expect(reported).toBe(error);
    // nothing ran (the turn is decided before any call runs), no second request
    expect(executed).toEqual([]);
    expect(preToolCalls).toEqual([]);
    expect(model.calls).toHaveLength(1);
    // the records up to the failing handler, none after it, then the runtime's: the call was denied, not run
    const failedCall = expectedRecords.at(-1)?.toolCallId ?? '';
    const notRun = { handler: 'ai-interventions', action: 'deny', enforced: true, failed: undefined, toolCallId: failedCall };
    expect(observedRecords.map(summary)).toEqual([...expectedRecords, notRun]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
    return;
  }

  if (!observed.settled.ok) {
    throw new Error(`the run failed unexpectedly (${mode}): ${String(observed.settled.error)}`, {
      cause: observed.settled.error,
    });
  }
  expect(lifecycle).toEqual(['done']);

  // ---- records: one per evaluated handler per well-formed call, in order, the same in onDecision
  expect(observed.decisions?.map(summary)).toEqual(expectedRecords);
  expect(observedRecords).toEqual(observed.decisions);
  checkSubjects(observedRecords, calls);
  for (const record of observed.decisions ?? []) {
    expect(record.lifecycle).toBe('beforeToolCall');
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
  }

  // ---- a text-only turn ends the run at once
  if (calls.length === 0) {
    expect(model.calls).toHaveLength(1);
    expect(observed.text).toBe('thinking first');
    expect(executed).toEqual([]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
    return;
  }

  // ---- a confirm pauses the run after the turn; the other calls of the turn still run
  const pending = decided.filter((call) => verdicts.get(call.id)?.type === 'confirm');
  const paused = pending.length > 0;
  const requests = (observed.content ?? []).filter(
    (part) => part.type === 'tool-approval-request' && (part as { isAutomatic?: boolean }).isAutomatic !== true,
  ) as Array<{ type: string; reason?: string; toolCall: { toolCallId: string } }>;
  expect(requests.map((part) => part.toolCall.toolCallId)).toEqual(pending.map((call) => call.id));
  for (const request of requests) {
    const verdict = verdicts.get(request.toolCall.toolCallId) as Verdict & { type: 'confirm' };
    expect(request.reason).toBe(verdict.prompt);
  }

  let history: ReadonlyArray<LanguageModelV4CallOptions['prompt'][number] | ModelMessage>;
  if (paused) {
    expect(model.calls).toHaveLength(1);
    history = observed.responseMessages ?? [];
    // every call has exactly one result or one pending approval
    const { calls: ids, results, approvals } = pairing(history);
    expect(ids).toEqual(calls.map((call) => call.id));
    expect([...results, ...approvals].sort()).toEqual([...ids].sort());
    expect([...approvals].sort()).toEqual(pending.map((call) => call.id).sort());
  } else {
    // the next request is valid: every call has exactly one result
    expect(model.calls).toHaveLength(2);
    history = model.calls[1]!.prompt;
    const { calls: ids, results } = pairing(history);
    expect(ids).toEqual(calls.map((call) => call.id));
    expect([...results].sort()).toEqual([...ids].sort());
    expect(observed.text).toBe('final answer');
  }

  const sentInput = new Map<string, unknown>();
  const sentOutput = new Map<string, { type: string; value?: unknown; reason?: string }>();
  for (const message of history) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content as ReadonlyArray<Record<string, unknown>>) {
      if (part.type === 'tool-call') sentInput.set(part.toolCallId as string, part.input);
      if (part.type === 'tool-result') sentOutput.set(part.toolCallId as string, part.output as never);
    }
  }

  const expectedExecuted: Array<{ tool: string; tag: string }> = [];
  const expectedPreToolCalls: string[] = [];
  const hookedError = (value: string, label: string) => {
    if (scenario.hooks.onToolCallError) expect(value, label).toMatch(/^(Error: )?hooked: /);
    else expect(value, label).not.toContain('hooked');
  };
  for (const call of calls) {
    const output = sentOutput.get(call.id);
    const label = `${mode} ${call.kind} ${call.id}`;
    if (!wellFormed(call)) {
      expect(output?.type, label).toBe('error-text');
      const value = String(output?.value);
      expect(value, label).toContain(
        call.kind === 'unknown-tool'
          ? "Model tried to call unavailable tool 'nope'"
          : call.kind === 'malformed-json'
            ? 'JSON parsing failed'
            : 'Type validation failed',
      );
      // an onToolCallError replacement reaches the model in the next request
      // (responseMessages keep the SDK's own text, as documented)
      if (!paused) hookedError(value, label);
      continue;
    }
    const verdict = verdicts.get(call.id)!;
    switch (verdict.type) {
      case 'deny':
        expect(output?.type, label).toBe('execution-denied');
        expect(output?.reason, label).toBe(
          `The call to "${call.toolName}" was blocked and was not executed. Reason: ${verdict.reason}\n` +
            'Do not retry this call as it is; continue without it, or explain to the user why it cannot be done.',
        );
        expect(sentInput.get(call.id), label).toEqual({ tag: call.tag });
        break;
      case 'guide':
        expect(output?.type, label).toBe('execution-denied');
        expect(output?.reason, label).toBe(
          `The call to "${call.toolName}" was not executed. Feedback:\n${verdict.lines.join('\n')}\n` +
            'Revise the call according to this feedback and try again.',
        );
        expect(sentInput.get(call.id), label).toEqual({ tag: call.tag });
        break;
      case 'confirm':
        // pending: no result yet, and it did not run
        expect(output, label).toBeUndefined();
        break;
      case 'run': {
        const tag = `${call.tag}${verdict.suffix}`;
        // the history shows the arguments that ran
        expect(sentInput.get(call.id), label).toEqual({ tag });
        if (preToolCall !== 'absent') expectedPreToolCalls.push(call.id);
        const post = scenario.hooks.onToolCallResult ? '|post' : '';
        if (preToolCall === 'result') {
          expect(output, label).toEqual({ type: 'text', value: `cached ${tag}${post}` });
        } else if (preToolCall === 'error') {
          expect(output?.type, label).toBe('error-text');
          expect(String(output?.value), label).toContain(`pre-error ${tag}`);
          hookedError(String(output?.value), label);
        } else if (call.kind === 'ok-failing-tool') {
          expectedExecuted.push({ tool: 'fail', tag });
          expect(output?.type, label).toBe('error-text');
          expect(String(output?.value), label).toContain(`fail ${tag}`);
          hookedError(String(output?.value), label);
        } else {
          expectedExecuted.push({ tool: 't', tag });
          expect(output, label).toEqual({ type: 'text', value: `ran ${tag}${post}` });
        }
        break;
      }
      case 'throw':
        throw new Error('unreachable');
    }
  }
  // denied, guided, fail-closed and pending calls never ran; the others ran exactly once
  expect(sortBy(executed)).toEqual(sortBy(expectedExecuted));
  expect([...preToolCalls].sort()).toEqual(expectedPreToolCalls.sort());
  expect(timers()).toBeLessThanOrEqual(timersBefore);
}

function summary(record: DecisionRecord) {
  return {
    handler: record.handler,
    action: record.action,
    enforced: record.enforced,
    failed:
      record.error === undefined
        ? undefined
        : HandlerTimeoutError.isInstance(record.error)
          ? ('timeout' as const)
          : InterventionHandlerError.isInstance(record.error)
            ? ('throw' as const)
            : ('other' as never),
    toolCallId: record.toolCallId,
  };
}

/** The tool and step of every record match its call. */
function checkSubjects(records: readonly DecisionRecord[], calls: readonly Call[]) {
  for (const record of records) {
    const call = calls.find((candidate) => candidate.id === record.toolCallId);
    expect(record.toolName).toBe(call?.toolName);
    expect(record.stepNumber).toBe(0);
  }
}

function sortBy(list: ReadonlyArray<{ tool: string; tag: string }>) {
  return [...list].sort((a, b) => `${a.tool}:${a.tag}`.localeCompare(`${b.tool}:${b.tag}`));
}

// ---------------------------------------------------------------- the properties

describe('random scenarios through both wrappers', () => {
  it(
    'should keep precedence, a valid history, unexecuted blocked calls, complete records, and always settle',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArbitrary, async (scenario) => {
          await checkScenario(scenario, 'generateText');
          await checkScenario(scenario, 'streamText');
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'should send the model the same requests through generateText and streamText',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArbitrary, async (scenario) => {
          const requests: Record<Mode, unknown> = { generateText: undefined, streamText: undefined };
          for (const mode of ['generateText', 'streamText'] as const) {
            const calls = callsOf(scenario);
            const model = scriptedModel(firstTurn(scenario, calls), step(text('final answer')));
            const thrown = new Map<string, unknown>();
            const interventions = createInterventions({
              handlers: scenario.handlers.map((spec, index) => handlerFor(spec, index, thrown)),
              approvalSecret: 'fuzz-secret-with-at-least-32-bytes-for-hmac',
              approvalLedger: createApprovalLedger(),
            });
            const tools = {
              t: tool({ inputSchema: z.object({ tag: z.string() }), execute: async ({ tag }) => `ran ${tag}` }),
              fail: tool({
                inputSchema: z.object({ tag: z.string() }),
                execute: async ({ tag }): Promise<string> => {
                  throw new Error(`fail ${tag}`);
                },
              }),
            };
            await withinDeadline(runOnce(interventions, mode, { model, tools, stopWhen: isStepCount(4), prompt: 'go' }), DEADLINE_MS, mode);
            requests[mode] = model.calls.map((call) => call.prompt);
          }
          expect(requests.streamText).toEqual(requests.generateText);
        }),
        { numRuns: Math.max(1, Math.floor(RUNS / 4)), seed: SEED },
      );
    },
    TIMEOUT_MS,
  );
});
