/**
 * `telemetry()`: runs and decision records as OpenTelemetry spans, exported
 * through a real SDK (`BasicTracerProvider` + `InMemorySpanExporter`).
 */
import { context, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { isStepCount, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { telemetry } from '../../src/builtins/telemetry.ts';
import { mergeHooks } from '../../src/hooks/merge-hooks.ts';
import {
  createApprovalLedger,
  createDecisionTrail,
  createInterventions,
  createMemoryStore,
  type DecisionRecord,
  defineHandler,
  type HooksConfig,
  InterventionActions,
  type InterventionHooks,
  verifyDecisionTrail,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../../src/testing/index.ts';

let exporter: InMemorySpanExporter;
let tracer: Tracer;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
});

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const spansNamed = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);
const runSpans = () => spansNamed('ai_interventions.run');
const decisionSpans = () => spansNamed('ai_interventions.decision');
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;

/** Two tools: `delete_file` is denied by the guard, `list_files` runs. */
function fileTools() {
  const executed: string[] = [];
  return {
    executed,
    tools: {
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => {
          executed.push(`delete ${path}`);
          return 'deleted';
        },
      }),
      list_files: tool({
        inputSchema: z.object({}),
        execute: async () => {
          executed.push('list');
          return ['a.txt'];
        },
      }),
    },
  };
}

const toolGuard = defineHandler({
  name: 'tool-guard',
  beforeToolCall: ({ toolCall: call }) =>
    call.toolName === 'delete_file' ? InterventionActions.deny('Deleting files is not allowed here') : InterventionActions.proceed(),
});

describe('telemetry', () => {
  describe('when a run completes', () => {
    it('should export one ended run span with the run id, the given attributes and the outcome', async () => {
      const interventions = createInterventions({
        hooks: telemetry({ tracer, attributes: { 'app.tenant': 'acme' } }),
      });
      const model = scriptedModel(text('Hello.'));
      await interventions.generateText({ model, prompt: 'hi' });

      const [run] = runSpans();
      expect(runSpans()).toHaveLength(1);
      expect(run?.ended).toBe(true);
      expect(run?.status.code).toBe(SpanStatusCode.UNSET);
      expect(run?.attributes).toMatchObject({
        'app.tenant': 'acme',
        'ai_interventions.finish_reason': 'stop',
        'ai_interventions.steps': 1,
        'ai_interventions.decisions': 0,
        'ai_interventions.denied': 0,
      });
      expect(run?.attributes['ai_interventions.run_id']).toEqual(expect.any(String));
    });

    it('should compute attributes from the run start (runtimeContext)', async () => {
      const interventions = createInterventions({
        hooks: telemetry({ tracer, attributes: ({ runtimeContext }) => ({ 'app.user': String(runtimeContext.userId) }) }),
      });
      await interventions.generateText({ model: scriptedModel(text('ok')), prompt: 'hi', runtimeContext: { userId: 'u-7' } });
      expect(runSpans()[0]?.attributes['app.user']).toBe('u-7');
    });

    it('should give each sequential run its own span', async () => {
      const interventions = createInterventions({ hooks: telemetry({ tracer }) });
      const model = scriptedModel(text('one'), text('two'));
      await interventions.generateText({ model, prompt: 'one' });
      await interventions.generateText({ model, prompt: 'two' });
      const ids = runSpans().map((span) => span.attributes['ai_interventions.run_id']);
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(2);
    });
  });

  describe('when a handler denies a tool call', () => {
    it('should export the DENIED call as a child span of the run, with every decision attribute', async () => {
      const { tools, executed } = fileTools();
      const interventions = createInterventions({ handlers: [toolGuard], hooks: telemetry({ tracer }) });
      const model = scriptedModel(
        step(toolCall('c1', 'list_files', {}), toolCall('c2', 'delete_file', { path: '/tmp/x' })),
        text('I could not delete it.'),
      );
      await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'clean up' });
      expect(executed).toEqual(['list']);

      const [run] = runSpans();
      const decisions = decisionSpans();
      expect(decisions).toHaveLength(2);
      for (const span of decisions) {
        expect(parentOf(span)).toBe(idOf(run));
        expect(span.spanContext().traceId).toBe(run?.spanContext().traceId);
      }
      const denied = decisions.find((span) => span.attributes['ai_interventions.action'] === 'deny');
      expect(denied?.attributes).toEqual({
        'ai_interventions.handler': 'tool-guard',
        'ai_interventions.lifecycle': 'beforeToolCall',
        'ai_interventions.action': 'deny',
        'ai_interventions.enforced': true,
        'ai_interventions.mode': 'enforce',
        'ai_interventions.reason': 'Deleting files is not allowed here',
        'ai_interventions.tool_name': 'delete_file',
        'ai_interventions.tool_call_id': 'c2',
        'ai_interventions.step': 0,
        'ai_interventions.duration_ms': expect.any(Number),
        'ai_interventions.run_id': run?.attributes['ai_interventions.run_id'],
      });
      expect(denied?.status.code).toBe(SpanStatusCode.UNSET);
      expect(run?.attributes).toMatchObject({ 'ai_interventions.decisions': 2, 'ai_interventions.denied': 1 });
    });

    it('should time a decision span by the handler duration', async () => {
      const slow = defineHandler({
        name: 'slow-check',
        beforeToolCall: async () => {
          await delay(30);
          return InterventionActions.deny('too slow to allow');
        },
      });
      const { tools } = fileTools();
      const interventions = createInterventions({ handlers: [slow], hooks: telemetry({ tracer }) });
      const model = scriptedModel(toolCall('c1', 'list_files', {}), text('ok'));
      await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'list' });
      const [span] = decisionSpans();
      const durationMs = span!.duration[0] * 1_000 + span!.duration[1] / 1e6;
      expect(span?.attributes['ai_interventions.duration_ms']).toBeGreaterThanOrEqual(25);
      expect(durationMs).toBeGreaterThanOrEqual(25);
    });

    it('should export records as span events of the run span with decisionsAs: "events"', async () => {
      const { tools } = fileTools();
      const interventions = createInterventions({
        handlers: [toolGuard],
        hooks: telemetry({ tracer, decisionsAs: 'events' }),
      });
      const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/etc' }), text('no'));
      await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'delete' });

      expect(decisionSpans()).toHaveLength(0);
      const events = runSpans()[0]?.events ?? [];
      expect(events).toHaveLength(1);
      expect(events[0]?.name).toBe('ai_interventions.decision');
      expect(events[0]?.attributes).toMatchObject({
        'ai_interventions.action': 'deny',
        'ai_interventions.tool_name': 'delete_file',
        'ai_interventions.reason': 'Deleting files is not allowed here',
      });
    });

    it('should export guide, confirm and shadow records with their text and enforcement', async () => {
      const { tools } = fileTools();
      const interventions = createInterventions({
        handlers: [
          defineHandler({ name: 'shadow-deny', mode: 'shadow', beforeToolCall: () => InterventionActions.deny('would block') }),
          defineHandler({ name: 'ask', beforeToolCall: () => InterventionActions.confirm('Delete /tmp/x?') }),
        ],
        hooks: telemetry({ tracer }),
      });
      const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/tmp/x' }));
      await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'delete' });

      const byHandler = Object.fromEntries(decisionSpans().map((span) => [span.attributes['ai_interventions.handler'], span.attributes]));
      expect(byHandler['shadow-deny']).toMatchObject({
        'ai_interventions.action': 'deny',
        'ai_interventions.mode': 'shadow',
        'ai_interventions.enforced': false,
        'ai_interventions.reason': 'would block',
      });
      expect(byHandler.ask).toMatchObject({ 'ai_interventions.action': 'confirm', 'ai_interventions.prompt': 'Delete /tmp/x?' });
      // a shadow deny is not a denied call
      expect(runSpans()[0]?.attributes['ai_interventions.denied']).toBe(0);
    });
  });

  describe('when a person answers an approval', () => {
    it('should say on the decision span what became of the answer, and who asked and answered', async () => {
      const { tools } = fileTools();
      const interventions = createInterventions({
        handlers: [
          defineHandler({
            name: 'deletes',
            beforeToolCall: () =>
              InterventionActions.confirm('Delete it?', { approvers: { roles: ['admin'], label: 'an admin' }, quorum: 2 }),
          }),
        ],
        hooks: telemetry({ tracer }),
        approvalSecret: 'a telemetry test secret of at least 32 bytes',
        approvalLedger: createApprovalLedger(),
      });
      const asked = await interventions.generateText({
        model: scriptedModel(step(toolCall('c1', 'delete_file', { path: '/tmp/a' }))),
        tools,
        prompt: 'delete it',
        runtimeContext: { userId: 'ann' },
      });
      const request = asked.content.find((part) => part.type === 'tool-approval-request');
      if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
      exporter.reset();
      await interventions.generateText({
        model: scriptedModel(step(text('done'))),
        tools,
        messages: [
          { role: 'user', content: 'delete it' },
          ...asked.response.messages,
          { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
        ],
        runtimeContext: { userId: 'bo', role: 'admin' },
      });
      const quorum = decisionSpans().find((span) => span.attributes['ai_interventions.handler'] === 'approval-quorum');
      expect(quorum?.attributes).toMatchObject({
        'ai_interventions.approval.status': 'awaiting-quorum',
        'ai_interventions.approval.asked_by': 'ann',
        'ai_interventions.approval.answered_by': 'bo',
        'ai_interventions.approval.approved_by': ['bo'],
        'ai_interventions.approval.may_answer': 'an admin',
        'ai_interventions.approval.quorum': 2,
      });
    });
  });

  describe('when the runtime has a decision trail', () => {
    it('should put each link (key, index, hash, prev), the action digest and the policy version on its decision span', async () => {
      const { tools } = fileTools();
      const trail = createDecisionTrail({ store: createMemoryStore(), key: 'ops' });
      const interventions = createInterventions({ handlers: [toolGuard], hooks: telemetry({ tracer }), trail, policyVersion: 'v9' });
      const model = scriptedModel(
        step(toolCall('c1', 'list_files', {}), toolCall('c2', 'delete_file', { path: '/tmp/x' })),
        text('I could not delete it.'),
      );
      await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'clean up' });

      const { links } = await verifyDecisionTrail({ trail, key: 'ops' });
      expect(links).toHaveLength(2);
      const spans = decisionSpans().sort(
        (a, b) => Number(a.attributes['ai_interventions.trail.index']) - Number(b.attributes['ai_interventions.trail.index']),
      );
      expect(spans.map((span) => span.attributes)).toEqual(
        links.map((link) =>
          expect.objectContaining({
            'ai_interventions.tool_call_id': link.record.toolCallId,
            'ai_interventions.action_digest': link.record.actionDigest,
            'ai_interventions.policy_version': 'v9',
            'ai_interventions.trail.key': 'ops',
            'ai_interventions.trail.index': link.index,
            'ai_interventions.trail.hash': link.hash,
            'ai_interventions.trail.prev': link.prev,
          }),
        ),
      );
      // the spans are anchors: a chain rewritten after them is caught
      const anchors = spans.map((span) => ({
        index: Number(span.attributes['ai_interventions.trail.index']),
        hash: String(span.attributes['ai_interventions.trail.hash']),
      }));
      expect((await verifyDecisionTrail({ links, key: 'ops', anchors })).valid).toBe(true);
      expect(await verifyDecisionTrail({ links: links.slice(0, 1), key: 'ops', anchors })).toMatchObject({
        valid: false,
        broken: { index: 1, problem: 'cut' },
      });
    });
  });

  describe('when a run fails or is aborted', () => {
    it('should set status ERROR and record the exception on the run span, and mark the failed record ERROR', async () => {
      const broken = defineHandler({
        name: 'broken-policy',
        beforeToolCall: () => {
          throw new Error('policy service unreachable');
        },
      });
      const { tools } = fileTools();
      const interventions = createInterventions({ handlers: [broken], hooks: telemetry({ tracer }) });
      const model = scriptedModel(toolCall('c1', 'list_files', {}), text('never'));
      await expect(interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'list' })).rejects.toThrow();

      const [run] = runSpans();
      expect(run?.status.code).toBe(SpanStatusCode.ERROR);
      expect(run?.events.some((event) => event.name === 'exception')).toBe(true);
      const [record] = decisionSpans();
      expect(record?.attributes).toMatchObject({ 'ai_interventions.action': 'error', 'ai_interventions.handler': 'broken-policy' });
      expect(String(record?.attributes['ai_interventions.error'])).toContain('policy service unreachable');
      expect(record?.status.code).toBe(SpanStatusCode.ERROR);
    });

    it('should end the run span as aborted when the caller aborts a streamText run', async () => {
      const controller = new AbortController();
      const cancel = tool({
        inputSchema: z.object({}),
        execute: async () => {
          controller.abort('user pressed stop');
          return 'cancelling';
        },
      });
      const interventions = createInterventions({ hooks: telemetry({ tracer }) });
      const model = scriptedModel(toolCall('c1', 'cancel', {}), text('never'));
      const result = interventions.streamText({
        model,
        tools: { cancel },
        stopWhen: isStepCount(5),
        prompt: 'stop',
        abortSignal: controller.signal,
      });
      await result.consumeStream();
      await delay(20);

      const [run] = runSpans();
      expect(run?.attributes['ai_interventions.aborted']).toBe(true);
      expect(run?.events.find((event) => event.name === 'ai_interventions.abort')?.attributes).toEqual({
        'ai_interventions.reason': 'user pressed stop',
      });
      expect(run?.status.code).toBe(SpanStatusCode.UNSET);
    });

    it('should end the run span of a streamText run when its stream finishes', async () => {
      const { tools } = fileTools();
      const interventions = createInterventions({ handlers: [toolGuard], hooks: telemetry({ tracer }) });
      const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/x' }), text('Not allowed, sorry.'));
      const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'delete' });
      expect(await result.text).toBe('Not allowed, sorry.');
      await delay(10);
      expect(runSpans()).toHaveLength(1);
      expect(decisionSpans()[0]?.attributes['ai_interventions.action']).toBe('deny');
      expect(parentOf(decisionSpans()[0]!)).toBe(idOf(runSpans()[0]));
    });
  });

  describe('when records are made outside a run', () => {
    it('should give a guardTools decision a span of its own', async () => {
      const hooks = telemetry({ tracer });
      const { tools } = fileTools();
      const interventions = createInterventions({ handlers: [toolGuard], hooks });
      const guarded = interventions.wrapTools(tools);
      await expect(guarded.delete_file.execute?.({ path: '/x' }, { toolCallId: 'c9', messages: [], context: {} })).rejects.toThrow(
        /blocked/,
      );

      expect(runSpans()).toHaveLength(0);
      const [span] = decisionSpans();
      expect(span?.attributes).toMatchObject({ 'ai_interventions.action': 'deny', 'ai_interventions.tool_call_id': 'c9' });
      expect(span?.attributes['ai_interventions.run_id']).toBeUndefined();
      expect(parentOf(span!)).toBeUndefined();
    });
  });

  describe('when runs overlap', () => {
    afterEach(() => {
      context.disable();
    });

    it('should match each record to its run by the active span (one run per request, with a context manager)', async () => {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      const slowGuard = defineHandler({
        name: 'slow-guard',
        beforeToolCall: async ({ toolCall: call }) => {
          const { path } = call.input as { path: string };
          await delay(path === '/a' ? 30 : 5); // the first run decides last
          return InterventionActions.deny(`no ${path}`);
        },
      });
      const interventions = createInterventions({ handlers: [slowGuard], hooks: telemetry({ tracer }) });
      const request = (path: string) =>
        tracer.startActiveSpan(`request ${path}`, async (span) => {
          const { tools } = fileTools();
          const model = scriptedModel(toolCall(`call${path}`, 'delete_file', { path }), text(`done ${path}`));
          try {
            return await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: path });
          } finally {
            span.end();
          }
        });
      await Promise.all([request('/a'), request('/b')]);

      for (const path of ['/a', '/b']) {
        const requestSpan = spansNamed(`request ${path}`)[0];
        const run = runSpans().find((span) => parentOf(span) === idOf(requestSpan));
        const decision = decisionSpans().find((span) => span.attributes['ai_interventions.tool_call_id'] === `call${path}`);
        expect(run).toBeDefined();
        expect(parentOf(decision!)).toBe(idOf(run));
        expect(run?.attributes['ai_interventions.denied']).toBe(1);
        expect(run?.attributes['ai_interventions.guessed']).toBeUndefined();
      }
    });

    it('should match records and ends by runId when the hook contexts carry it', async () => {
      const hooks = telemetry({ tracer }) as { [K in keyof InterventionHooks]?: InterventionHooks[K] };
      const start = (runId: string) => hooks.onChatStart?.({ runId, messages: [], runtimeContext: {}, abortSignal: undefined });
      const record = (toolCallId: string): DecisionRecord => ({
        handler: 'guard',
        lifecycle: 'beforeToolCall',
        action: 'deny',
        reason: 'no',
        enforced: true,
        mode: 'enforce',
        durationMs: 1,
        toolCallId,
        toolName: 'delete_file',
      });
      const withRun = <T extends object>(runId: string, hookContext: T): T & { runId: string } => ({ ...hookContext, runId });
      await start('run-a');
      await start('run-b');
      await hooks.onDecision?.(withRun('run-b', { record: record('b1') }));
      await hooks.onDecision?.(withRun('run-a', { record: record('a1') }));
      await hooks.onChatError?.(withRun('run-b', { error: new Error('b failed') }));
      await hooks.onChatDone?.(
        withRun('run-a', {
          response: { text: '', finishReason: 'stop', usage: {} as never, steps: [], responseMessages: [] },
        }),
      );

      const runOf = (id: string) => runSpans().find((span) => span.attributes['ai_interventions.run_id'] === id);
      expect(runOf('run-a')?.status.code).toBe(SpanStatusCode.UNSET);
      expect(runOf('run-b')?.status.code).toBe(SpanStatusCode.ERROR);
      const decisionOf = (id: string) => decisionSpans().find((span) => span.attributes['ai_interventions.tool_call_id'] === id);
      expect(parentOf(decisionOf('a1')!)).toBe(idOf(runOf('run-a')));
      expect(parentOf(decisionOf('b1')!)).toBe(idOf(runOf('run-b')));
    });

    it('should still end every run span when concurrent runs cannot be told apart', async () => {
      const interventions = createInterventions({ hooks: telemetry({ tracer }) });
      const slowModel = (answer: string) =>
        scriptedModel(async () => {
          await delay(answer === 'first' ? 20 : 5);
          return text(answer);
        });
      await Promise.all([
        interventions.generateText({ model: slowModel('first'), prompt: 'a' }),
        interventions.generateText({ model: slowModel('second'), prompt: 'b' }),
      ]);
      expect(runSpans()).toHaveLength(2);
      expect(runSpans().every((span) => span.ended)).toBe(true);
    });
  });

  describe('when the tracer fails', () => {
    it('should never break the run', async () => {
      const throwing = {
        startSpan: () => {
          throw new Error('exporter down');
        },
        startActiveSpan: () => {
          throw new Error('exporter down');
        },
      } as unknown as Tracer;
      const { tools } = fileTools();
      const interventions = createInterventions({ handlers: [toolGuard], hooks: telemetry({ tracer: throwing }) });
      const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/x' }), text('fine'));
      const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'go' });
      expect(result.text).toBe('fine');
    });
  });

  describe('with the global tracer provider', () => {
    afterEach(() => {
      trace.disable();
    });

    it('should use trace.getTracer("ai-interventions") by default, merged with other hooks', async () => {
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      const seen: string[] = [];
      const other: HooksConfig = { onDecision: ({ record }) => void seen.push(record.handler) };
      const { tools } = fileTools();
      const interventions = createInterventions({ handlers: [toolGuard], hooks: mergeHooks(telemetry(), other) });
      const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/x' }), text('ok'));
      await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'go' });

      expect(seen).toEqual(['tool-guard']);
      expect(runSpans()[0]?.instrumentationScope.name).toBe('ai-interventions');
      expect(decisionSpans()).toHaveLength(1);
    });
  });
});
