/**
 * `truncateToolResult`: an `afterToolCall` transform capping what the model
 * reads of a tool result (characters or approximate tokens), keeping head
 * and tail around an honest notice. Every scenario runs through
 * `interventions.generateText` and `interventions.streamText` on a scripted
 * model, asserting on the tool result the model was sent next. Seed 002's
 * `afterToolExecute` truncation is expressed with the built-in.
 */
import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TruncatedToolResult, truncateToolResult } from '../../src/builtins/truncate-tool-result.ts';
import { type AfterToolCallEvent, createInterventions } from '../../src/index.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

// ---------------------------------------------------------------- helpers

/** A text whose every position is recognisable: "0000000001 0000000002 …" (11 characters per entry). */
function numbered(length: number): string {
  let out = '';
  for (let index = 1; out.length < length; index++) out += `${String(index).padStart(10, '0')} `;
  return out.slice(0, length);
}

/** Tools returning whatever the test hands them. */
function tools(outputs: { read?: string; query?: unknown; bash?: string }) {
  return {
    fs_read: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => outputs.read ?? '' }),
    query: tool({ inputSchema: z.object({ sql: z.string() }), execute: async () => outputs.query ?? null }),
    bash: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => outputs.bash ?? '' }),
  };
}

/** The text value of the tool result the model read in its second request. */
function resultText(model: ReturnType<typeof scriptedModel>, id: string): string {
  const output = toolResultsSent(model, 1)[id] as { type: string; value: unknown };
  expect(output.type).toBe('text');
  return String(output.value);
}

const readOnce = (id = 'r1', name = 'fs_read', input: unknown = { path: 'big.log' }) =>
  scriptedModel(step(toolCall(id, name, input)), step(text('Read it.')));

// ---------------------------------------------------------------- scenarios

describe.each(MODES)('truncateToolResult through %s', (mode) => {
  describe("seed 002's afterToolExecute truncation", () => {
    it('should cap a long string result at 10,000 characters by default, keeping head and tail around the notice', async () => {
      const original = numbered(25_000);
      const model = readOnce();

      const result = await run(createInterventions({ handlers: [truncateToolResult()] }), mode, {
        model,
        tools: tools({ read: original }),
        stopWhen: isStepCount(5),
        prompt: 'Read big.log',
      });

      const sent = resultText(model, 'r1');
      expect(sent.length).toBeLessThanOrEqual(10_000);
      expect(sent.length).toBeGreaterThan(9_950);
      const match = /\n\[… ([\d,]+) characters omitted …\]\n/.exec(sent);
      expect(match).not.toBeNull();
      const [head, tail] = sent.split(match![0]) as [string, string];
      const omitted = Number(match![1]!.replaceAll(',', ''));
      expect(head.length + omitted + tail.length).toBe(original.length);
      expect(original.startsWith(head)).toBe(true);
      expect(original.endsWith(tail)).toBe(true);
      expect(Math.abs(head.length - tail.length)).toBeLessThanOrEqual(1); // headShare 0.5
      expect(match![1]).toBe(omitted.toLocaleString('en-US'));
      expect(result.decisions).toMatchObject([
        { handler: 'truncate-tool-result', lifecycle: 'afterToolCall', action: 'transform', toolCallId: 'r1' },
      ]);
      // what the steps show is the capped copy as well
      expect(JSON.stringify(result.steps[0]?.content)).not.toContain(original.slice(12_000, 12_100));
    });
  });

  describe('when the result is not a string', () => {
    it('should truncate the JSON of an object result and say it was JSON', async () => {
      const rows = Array.from({ length: 500 }, (_, index) => ({ id: index, name: `user-${index}`, email: `user-${index}@example.com` }));
      const model = readOnce('q1', 'query', { sql: 'select * from users' });

      await run(createInterventions({ handlers: [truncateToolResult({ maxChars: 2_000 })] }), mode, {
        model,
        tools: tools({ query: rows }),
        stopWhen: isStepCount(5),
        prompt: 'List users',
      });

      const sent = resultText(model, 'q1');
      const json = JSON.stringify(rows);
      expect(sent.length).toBeLessThanOrEqual(2_000);
      expect(sent.startsWith('[{"id":0,"name":"user-0"')).toBe(true);
      expect(sent.endsWith('"email":"user-499@example.com"}]')).toBe(true);
      expect(sent).toMatch(/\[… [\d,]+ characters omitted from this JSON result …\]/);
      expect(json.length).toBeGreaterThan(2_000);
    });

    it('should leave a JSON result under the limit as JSON', async () => {
      const model = readOnce('q1', 'query', { sql: 'select 1' });

      await run(createInterventions({ handlers: [truncateToolResult({ maxChars: 2_000 })] }), mode, {
        model,
        tools: tools({ query: { rows: [1] } }),
        stopWhen: isStepCount(5),
        prompt: 'Count',
      });

      expect(toolResultsSent(model, 1).q1).toEqual({ type: 'json', value: { rows: [1] } });
    });
  });

  describe('when the limit is in tokens', () => {
    it('should approximate 4 characters per token, and take the smaller of two limits', async () => {
      const model = readOnce();
      await run(createInterventions({ handlers: [truncateToolResult({ maxTokens: 500 })] }), mode, {
        model,
        tools: tools({ read: numbered(5_000) }),
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });
      const byTokens = resultText(model, 'r1');
      expect(byTokens.length).toBeLessThanOrEqual(2_000);
      expect(byTokens.length).toBeGreaterThan(1_950);

      const both = readOnce();
      await run(createInterventions({ handlers: [truncateToolResult({ maxTokens: 500, maxChars: 1_000, charsPerToken: 3 })] }), mode, {
        model: both,
        tools: tools({ read: numbered(5_000) }),
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });
      const smaller = resultText(both, 'r1');
      expect(smaller.length).toBeLessThanOrEqual(1_000);
      expect(smaller.length).toBeGreaterThan(950);
    });
  });

  describe('when only some tools are covered', () => {
    it("should cap the tools matching `tools` and pass the others' results through whole", async () => {
      const long = numbered(3_000);
      const model = scriptedModel(
        step(toolCall('r1', 'fs_read', { path: 'a' }), toolCall('b1', 'bash', { command: 'cat a' })),
        step(text('Done.')),
      );

      const result = await run(createInterventions({ handlers: [truncateToolResult({ maxChars: 1_000, tools: 'fs_*' })] }), mode, {
        model,
        tools: tools({ read: long, bash: long }),
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });

      const sent = toolResultsSent(model, 1);
      expect(String((sent.r1 as { value: string }).value).length).toBeLessThanOrEqual(1_000);
      expect(sent.b1).toEqual({ type: 'text', value: long });
      // the two calls run in parallel: their records come in completion order
      expect(Object.fromEntries(result.decisions.map((d) => [d.toolCallId, d.action]))).toEqual({ r1: 'transform', b1: 'proceed' });
    });
  });

  describe('when the result is just over the limit', () => {
    it('should leave a result exactly at the limit whole, and cut one just over it by more than the notice adds', async () => {
      const exact = numbered(1_000);
      const atLimit = readOnce();
      const first = await run(createInterventions({ handlers: [truncateToolResult({ maxChars: 1_000 })] }), mode, {
        model: atLimit,
        tools: tools({ read: exact }),
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });
      expect(toolResultsSent(atLimit, 1).r1).toEqual({ type: 'text', value: exact });
      expect(first.decisions.map((d) => d.action)).toEqual(['proceed']);

      const barely = numbered(1_020);
      const overLimit = readOnce();
      await run(createInterventions({ handlers: [truncateToolResult({ maxChars: 1_000 })] }), mode, {
        model: overLimit,
        tools: tools({ read: barely }),
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });
      const sent = resultText(overLimit, 'r1');
      const notice = /\n\[… ([\d,]+) characters omitted …\]\n/.exec(sent)!;
      expect(sent.length).toBeLessThanOrEqual(1_000);
      // never a cut smaller than the notice replacing it: the 20 characters over, plus the notice's own size
      expect(Number(notice[1])).toBeGreaterThan(notice[0].length);
      expect(Number(notice[1])).toBe(barely.length - (sent.length - notice[0].length));
    });
  });

  describe('when the text has characters outside the BMP', () => {
    it('should never split a surrogate pair at either cut', async () => {
      const emoji = '😀'.repeat(2_000); // 4,000 UTF-16 code units
      const model = readOnce();

      await run(createInterventions({ handlers: [truncateToolResult({ maxChars: 501 })] }), mode, {
        model,
        tools: tools({ read: emoji }),
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });

      const sent = resultText(model, 'r1');
      // no lone surrogate anywhere
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(sent)).toBe(false);
      const [head, tail] = sent.split(/\n\[… [\d,]+ characters omitted …\]\n/) as [string, string];
      expect(head.length % 2).toBe(0);
      expect(tail.length % 2).toBe(0);
      expect(head.length).toBeGreaterThan(0);
      expect(tail.length).toBeGreaterThan(0);
    });
  });

  describe('when the full copy must be kept', () => {
    it('should hand the original and the truncated text to onTruncate, and survive it throwing', async () => {
      const seen: TruncatedToolResult[] = [];
      const original = numbered(4_000);
      const model = readOnce();
      const handler = truncateToolResult({
        maxChars: 1_000,
        onTruncate: (info) => {
          seen.push(info);
          throw new Error('log sink down');
        },
      });

      await run(createInterventions({ handlers: [handler] }), mode, {
        model,
        tools: tools({ read: original }),
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });

      expect(seen).toHaveLength(1);
      expect(seen[0]?.original).toBe(original);
      expect(seen[0]?.truncated).toBe(resultText(model, 'r1'));
      expect(seen[0]?.toolCall).toMatchObject({ toolCallId: 'r1', toolName: 'fs_read' });
      expect(seen[0]!.omitted + seen[0]!.truncated.length).toBeGreaterThan(original.length);
    });
  });

  describe('when the tool maps its own model output', () => {
    it('should leave results of tools with toModelOutput alone (that function expects the tool output type)', async () => {
      const long = numbered(3_000);
      const withOutput = {
        fs_read: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async () => ({ content: long }),
          toModelOutput: ({ output }) => ({ type: 'text', value: output.content.slice(0, 100) }),
        }),
      };
      const model = readOnce();

      await run(createInterventions({ handlers: [truncateToolResult({ maxChars: 1_000 })] }), mode, {
        model,
        tools: withOutput,
        stopWhen: isStepCount(5),
        prompt: 'Read',
      });

      expect(toolResultsSent(model, 1).r1).toEqual({ type: 'text', value: long.slice(0, 100) });
    });
  });
});

describe('truncateToolResult options', () => {
  it('should reject limits too small to hold the notice, and invalid numbers', () => {
    expect(() => truncateToolResult({ maxChars: 50 })).toThrow(/below 100/);
    expect(() => truncateToolResult({ maxTokens: 10 })).toThrow(/below 100/);
    expect(() => truncateToolResult({ maxChars: -1 })).toThrow(RangeError);
    expect(() => truncateToolResult({ maxChars: Number.NaN })).toThrow(RangeError);
    expect(() => truncateToolResult({ headShare: 2 })).toThrow(RangeError);
  });

  it('should keep only the head with headShare 1, and pass non-JSON results through', () => {
    const handler = truncateToolResult({ maxChars: 200, headShare: 1 });
    const base = {
      lifecycle: 'afterToolCall' as const,
      runId: 'r',
      runtimeContext: {},
      abortSignal: undefined,
      stepNumber: 0,
      toolCall: { toolCallId: 'c', toolName: 'fs_read', input: {} },
      tool: undefined,
      messages: [],
    };
    const long = numbered(1_000);
    const action = handler.afterToolCall!({ ...base, result: long });
    expect(action).toMatchObject({ type: 'transform' });
    const draft: AfterToolCallEvent = { ...base, result: long };
    if (!('type' in action) || action.type !== 'transform') throw new Error('expected a transform');
    void action.apply(draft);
    expect(String(draft.result).endsWith(' characters omitted …]\n')).toBe(true);
    expect(long.startsWith(String(draft.result).split('\n[…')[0]!)).toBe(true);

    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(handler.afterToolCall!({ ...base, result: cyclic })).toMatchObject({ type: 'proceed' });
    expect(handler.afterToolCall!({ ...base, result: 10n })).toMatchObject({ type: 'proceed' });
  });
});
