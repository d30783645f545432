/**
 * fast-check generators of conformance scripts: model turns made of text
 * and reasoning blocks (several deltas, provider metadata on start, delta
 * and end, interleaved blocks with their own ids), tool calls (streamed
 * input deltas, provider metadata, invalid input, unknown tools),
 * provider-executed calls with their results, raw chunks, sources, files,
 * response metadata, warnings, error parts and faults (a stream that
 * throws, a rejected call, an abort at a chosen part, a stall under a chunk
 * timeout); tools of every kind (function, dynamic, class, client side)
 * and behavior (ok, throwing, async generator); and the call options
 * (stopWhen, prepareStep, activeTools, toolChoice, toolApproval,
 * needsApproval, structured output, raw chunks, settings, contexts,
 * repairToolCall, callbacks) with an optional approval resume.
 *
 * A feature can be left out (`excluded`): the pending list uses that to
 * keep the random properties green while a known difference is fixed.
 */
import type { SharedV4ProviderMetadata } from '@ai-sdk/provider';
import fc from 'fast-check';
import type { OptionsSpec, Part, PrepareStepSpec, ResumeSpec, Script, ToolApprovalSpec, ToolSpec, Turn } from './script.ts';
import { usageOf } from './script.ts';

export const FEATURES = [
  /** Tools whose `execute` is an async generator (preliminary results). */
  'generator-tools',
  /** Tools written as classes (prototype `execute` / `toModelOutput`). */
  'class-tools',
  /** Class tools whose (plain) execute returns an async iterable. */
  'class-iterable-tools',
  /** A turn calling a streaming (generator) tool beside other tools. */
  'parallel-streaming-calls',
  /** Tools without `execute`. */
  'client-tools',
  /** Tools with `needsApproval`. */
  'needs-approval',
  /** The `toolApproval` option. */
  'tool-approval',
  /** A second call resuming from `tool-approval-response`s. */
  'resume',
  /** The resume request sent twice. */
  'resume-replay',
  /** Provider-executed tool calls and results. */
  'provider-executed',
  /** `includeRawChunks` and raw parts. */
  'raw-chunks',
  /** `error` parts in a provider stream. */
  'error-parts',
  /** Provider streams that throw, calls that reject. */
  'provider-failures',
  /** The caller aborting mid-call. */
  'abort',
  /** A provider stream stalling under `timeout.chunkMs`. */
  'chunk-timeout',
  /** Tools that throw. */
  'throwing-tools',
  /** Invalid tool input, unknown tools. */
  'invalid-calls',
  /** `repairToolCall`. */
  'repair',
  /** `prepareStep` answers (it is always recorded). */
  'prepare-step',
  /** `output: Output.object(...)`. */
  'structured-output',
  /** Calls without any callback (stream errors reach the SDK's default `onError`). */
  'no-callbacks',
  /** Text, reasoning and other parts after a tool call in the same step. */
  'parts-after-tool-calls',
  /** Empty text and reasoning deltas. */
  'empty-deltas',
] as const;
export type Feature = (typeof FEATURES)[number];

const Q_VALUES = ['alpha', 'ask-1', 'deny-2', 'ok-3'] as const;

interface Allowed {
  has(feature: Feature): boolean;
}

/** Scripts without the `excluded` features. */
export function scriptArbitrary(excluded: ReadonlySet<Feature> = new Set()): fc.Arbitrary<Script> {
  const allowed: Allowed = { has: (feature) => !excluded.has(feature) };
  return fc
    .array(toolArbitrary(allowed), { minLength: 0, maxLength: 3 })
    .map((tools) => tools.map((tool, index) => ({ ...tool, name: `t${index}` })))
    .chain((tools) =>
      fc.record({ options: optionsArbitrary(tools, allowed) }).chain(({ options }) =>
        fc
          .record({
            turns: fc.array(turnArbitrary(tools, options, allowed), { minLength: 1, maxLength: 4 }),
            resume: allowed.has('resume') ? fc.option(resumeArbitrary(allowed), { nil: undefined, freq: 2 }) : fc.constant(undefined),
          })
          .map(({ turns, resume }): Script => {
            const numbered = numberToolCalls(turns);
            const script: Script = { turns: numbered, tools, options };
            return resume === undefined ? script : { ...script, resume };
          }),
      ),
    )
    .filter((script) => allowed.has('parallel-streaming-calls') || !callsStreamingToolInParallel(script));
}

/** Whether a turn calls a generator tool together with another call. */
function callsStreamingToolInParallel(script: Script): boolean {
  const streaming = new Set(script.tools.filter((tool) => tool.behavior === 'generator').map((tool) => tool.name));
  return script.turns.some((turn) => {
    const calls = turn.parts.filter((part) => part.type === 'tool-call');
    return calls.length > 1 && calls.some((part) => part.type === 'tool-call' && streaming.has(part.toolName));
  });
}

function toolArbitrary(allowed: Allowed): fc.Arbitrary<ToolSpec> {
  const kinds: ToolSpec['kind'][] = ['function', 'dynamic'];
  if (allowed.has('class-tools')) kinds.push('class');
  if (allowed.has('client-tools')) kinds.push('client');
  const behaviors: ToolSpec['behavior'][] = ['ok', 'ok'];
  if (allowed.has('throwing-tools')) behaviors.push('throws');
  if (allowed.has('generator-tools')) behaviors.push('generator');
  return fc
    .record({
      name: fc.constant('t'),
      kind: fc.constantFrom(...kinds),
      behavior: fc.constantFrom(...behaviors),
      needsApproval: allowed.has('needs-approval')
        ? fc.constantFrom<ToolSpec['needsApproval']>(undefined, undefined, true, 'when-ask')
        : fc.constant(undefined),
      inputCallbacks: fc.boolean(),
      toModelOutput: fc.boolean(),
      metadata: fc.boolean(),
    })
    .filter((tool) => allowed.has('class-iterable-tools') || !(tool.kind === 'class' && tool.behavior === 'generator'));
}

function optionsArbitrary(tools: readonly ToolSpec[], allowed: Allowed): fc.Arbitrary<OptionsSpec> {
  const names = tools.map((tool) => tool.name);
  const subset = names.length === 0 ? fc.constant<string[]>([]) : fc.subarray(names);
  const prepareStep: fc.Arbitrary<PrepareStepSpec | null> = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    {
      weight: 2,
      arbitrary: fc.record(
        {
          activeTools: subset,
          toolChoice: fc.constantFrom<'auto' | 'none' | 'required'>('auto', 'none', 'required'),
          instructions: fc.constantFrom('Be brief.', 'Use the tools.'),
          temperature: fc.constantFrom(0, 0.5),
        },
        { requiredKeys: [] },
      ),
    },
  );
  const approval: fc.Arbitrary<ToolApprovalSpec | undefined> = allowed.has('tool-approval')
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant<ToolApprovalSpec>({ kind: 'generic' }) },
        {
          weight: 2,
          arbitrary: fc
            .record({
              statuses: fc.dictionary(
                fc.constantFrom(...(names.length === 0 ? ['t0'] : names)),
                fc.constantFrom('approved', 'denied', 'user-approval', 'not-applicable'),
                { maxKeys: 3 },
              ),
              asFunction: fc.boolean(),
            })
            .map((value): ToolApprovalSpec => ({ kind: 'per-tool', ...value })),
        },
      )
    : fc.constant(undefined);
  return fc
    .record({
      stop: fc.oneof(
        fc.constant<OptionsSpec['stop']>({ kind: 'default' }),
        fc.integer({ min: 1, max: 4 }).map((steps): OptionsSpec['stop'] => ({ kind: 'count', steps })),
        fc
          .record({ toolName: fc.constantFrom(...(names.length === 0 ? ['t0'] : names)), steps: fc.integer({ min: 2, max: 4 }) })
          .map((value): OptionsSpec['stop'] => ({ kind: 'has-tool-call', ...value })),
      ),
      prepareStep: allowed.has('prepare-step')
        ? fc.option(fc.array(prepareStep, { maxLength: 4 }), { nil: undefined })
        : fc.constant(undefined),
      activeTools: fc.option(subset, { nil: undefined, freq: 4 }),
      toolChoice: fc.option(fc.constantFrom<'auto' | 'required'>('auto', 'required'), { nil: undefined, freq: 4 }),
      toolApproval: approval,
      output: allowed.has('structured-output') ? fc.boolean() : fc.constant(false),
      includeRawChunks: allowed.has('raw-chunks') ? fc.option(fc.boolean(), { nil: undefined }) : fc.constant(undefined),
      abortSignal: fc.boolean(),
      settings: fc.option(
        fc.record(
          {
            temperature: fc.constantFrom(0, 0.7),
            maxOutputTokens: fc.constantFrom(64, 256),
            seed: fc.constant(7),
            providerOptions: fc.boolean(),
            headers: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        { nil: undefined },
      ),
      instructions: fc.option(fc.constant('You are a test.'), { nil: undefined }),
      runtimeContext: fc.boolean(),
      repair: allowed.has('repair')
        ? fc.option(fc.constantFrom<'null' | 'fix'>('null', 'fix'), { nil: undefined, freq: 3 })
        : fc.constant(undefined),
      callbacks: allowed.has('no-callbacks')
        ? fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) })
        : fc.constant(true),
      prompt: fc.constantFrom<'string' | 'messages'>('string', 'messages'),
      chunkTimeout: allowed.has('chunk-timeout') ? fc.boolean() : fc.constant(false),
    })
    .map(({ chunkTimeout, ...options }) => {
      // a stall before the first chunk needs firstChunkMs; generateText only has stepMs
      const spec: OptionsSpec = chunkTimeout ? { ...options, timeout: { chunkMs: 40, firstChunkMs: 40, stepMs: 300 } } : options;
      return dropUndefined(spec);
    });
}

function resumeArbitrary(allowed: Allowed): fc.Arbitrary<ResumeSpec> {
  return fc
    .record({
      approve: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
      reason: fc.option(fc.constantFrom('looks fine', 'not today'), { nil: undefined }),
      providerOptions: fc.boolean(),
      replay: allowed.has('resume-replay') ? fc.boolean() : fc.constant(false),
    })
    .map(dropUndefined);
}

/** One content block of a turn, as its stream parts. */
type Block = { readonly parts: readonly Part[]; readonly calls: boolean };

function turnArbitrary(tools: readonly ToolSpec[], options: OptionsSpec, allowed: Allowed): fc.Arbitrary<Turn> {
  const metadata = fc.option(
    fc.constantFrom<SharedV4ProviderMetadata>({ mock: { signature: 'sig-a' } }, { mock: { itemId: 'item-1' } }, { other: { n: 2 } }),
    { nil: undefined, freq: 2 },
  );
  const withMetadata = <T extends object>(part: T, value: object | undefined): T =>
    value === undefined ? part : { ...part, providerMetadata: value };

  const textBlock = (type: 'text' | 'reasoning', id: string): fc.Arbitrary<Block> =>
    fc
      .record({
        deltas:
          options.output && type === 'text'
            ? fc.constantFrom<string[]>(['{"answer":', '"yes"}'], ['{"answer":"no"}'], ['not json'])
            : fc.array(fc.constantFrom(...['Hello', ' world', '!', ' and', ' more', ...(allowed.has('empty-deltas') ? [''] : [])]), {
                minLength: 1,
                maxLength: 4,
              }),
        start: metadata,
        delta: metadata,
        end: metadata,
      })
      .map(({ deltas, start, delta, end }) => ({
        calls: false,
        parts: [
          withMetadata({ type: `${type}-start`, id } as Part, start),
          ...deltas.map((text, index) => withMetadata({ type: `${type}-delta`, id, delta: text } as Part, index === 0 ? delta : undefined)),
          withMetadata({ type: `${type}-end`, id } as Part, end),
        ],
      }));

  const names = tools.map((tool) => tool.name);
  const callNames = [...names];
  if (allowed.has('invalid-calls') || names.length === 0) callNames.push('unknown_tool');
  const inputs = [...Q_VALUES.map((q) => JSON.stringify({ q }))];
  const invalidInputs = allowed.has('invalid-calls') ? ['{"q":1}', '{"q":'] : [];
  const toolCall: fc.Arbitrary<Block> = fc
    .record({
      toolName: fc.constantFrom(...callNames),
      input: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...inputs) },
        { weight: invalidInputs.length > 0 ? 1 : 0, arbitrary: fc.constantFrom(...(invalidInputs.length > 0 ? invalidInputs : inputs)) },
      ),
      streamed: fc.boolean(),
      metadata,
      inputMetadata: metadata,
    })
    .map(({ toolName, input, streamed, metadata: callMetadata, inputMetadata }) => {
      const id = 'CALL';
      const parts: Part[] = [];
      if (streamed) {
        parts.push(withMetadata({ type: 'tool-input-start', id, toolName } as Part, inputMetadata));
        const middle = Math.ceil(input.length / 2);
        parts.push({ type: 'tool-input-delta', id, delta: input.slice(0, middle) });
        parts.push({ type: 'tool-input-delta', id, delta: input.slice(middle) });
        parts.push({ type: 'tool-input-end', id });
      }
      parts.push(withMetadata({ type: 'tool-call', toolCallId: id, toolName, input } as Part, callMetadata));
      return { calls: true, parts };
    });
  const providerExecuted: fc.Arbitrary<Block> = fc
    .record({ q: fc.constantFrom(...Q_VALUES), isError: fc.boolean(), streamed: fc.boolean() })
    .map(({ q, isError, streamed }) => {
      const id = 'CALL';
      const input = JSON.stringify({ q });
      const parts: Part[] = [];
      if (streamed) {
        parts.push({ type: 'tool-input-start', id, toolName: 'web_search', providerExecuted: true, dynamic: true });
        parts.push({ type: 'tool-input-delta', id, delta: input });
        parts.push({ type: 'tool-input-end', id });
      }
      parts.push({ type: 'tool-call', toolCallId: id, toolName: 'web_search', input, providerExecuted: true, dynamic: true });
      parts.push({
        type: 'tool-result',
        toolCallId: id,
        toolName: 'web_search',
        result: isError ? { error: 'search failed' } : { hits: [q] },
        ...(isError ? { isError: true } : {}),
        dynamic: true,
      });
      return { calls: false, parts };
    });
  const source: fc.Arbitrary<Block> = fc.constantFrom<Block>(
    { calls: false, parts: [{ type: 'source', sourceType: 'url', id: 'src-1', url: 'https://example.com/a', title: 'A' }] },
    {
      calls: false,
      parts: [
        {
          type: 'source',
          sourceType: 'document',
          id: 'src-2',
          mediaType: 'application/pdf',
          title: 'Doc',
          filename: 'doc.pdf',
          providerMetadata: { mock: { page: 3 } },
        },
      ],
    },
  );
  const file: fc.Arbitrary<Block> = fc.constantFrom<Block>(
    { calls: false, parts: [{ type: 'file', mediaType: 'text/plain', data: { type: 'data', data: 'aGVsbG8=' } }] },
    {
      calls: false,
      parts: [
        {
          type: 'file',
          mediaType: 'image/png',
          data: { type: 'data', data: new Uint8Array([137, 80, 78, 71]) },
          providerMetadata: { mock: { n: 1 } },
        },
      ],
    },
  );
  const raw: fc.Arbitrary<Block> = fc.constantFrom<Block>({ calls: false, parts: [{ type: 'raw', rawValue: { provider: 'chunk' } }] });

  const blockKinds: Array<{ weight: number; arbitrary: fc.Arbitrary<(index: number) => fc.Arbitrary<Block>> }> = [
    { weight: 4, arbitrary: fc.constant((index: number) => textBlock('text', `txt-${index}`)) },
    { weight: 2, arbitrary: fc.constant((index: number) => textBlock('reasoning', `rsn-${index}`)) },
    { weight: 4, arbitrary: fc.constant(() => toolCall) },
    { weight: 1, arbitrary: fc.constant(() => source) },
    { weight: 1, arbitrary: fc.constant(() => file) },
  ];
  if (allowed.has('provider-executed')) blockKinds.push({ weight: 1, arbitrary: fc.constant(() => providerExecuted) });
  if (allowed.has('raw-chunks')) blockKinds.push({ weight: 1, arbitrary: fc.constant(() => raw) });

  const blocks = fc
    .array(fc.oneof(...blockKinds), { minLength: 0, maxLength: 4 })
    .chain((makers) => (makers.length === 0 ? fc.constant<Block[]>([]) : fc.tuple(...makers.map((make, index) => make(index)))));

  const faults: Array<fc.Arbitrary<Turn['fault'] | 'error-part'>> = [fc.constant(undefined)];
  if (allowed.has('provider-failures')) {
    faults.push(
      fc.constant({ kind: 'reject' } as const),
      fc.nat({ max: 12 }).map((at) => ({ kind: 'throw', at }) as const),
    );
  }
  if (allowed.has('abort')) faults.push(fc.nat({ max: 12 }).map((at) => ({ kind: 'abort', at }) as const));
  if (allowed.has('chunk-timeout') && options.timeout?.chunkMs !== undefined) {
    faults.push(fc.nat({ max: 12 }).map((at) => ({ kind: 'stall', at }) as const));
  }
  if (allowed.has('error-parts')) faults.push(fc.constant('error-part' as const));

  return fc
    .record({
      blocks,
      interleave: fc.array(fc.nat({ max: 7 }), { maxLength: 40 }),
      responseMetadata: fc.boolean(),
      warnings: fc.boolean(),
      finishMetadata: metadata,
      reason: fc.constantFrom('stop', 'length', 'other'),
      fault: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: faults.length > 1 ? 2 : 0, arbitrary: fc.oneof(...faults) },
      ),
      errorAt: fc.nat({ max: 12 }),
      rawAt: fc.nat({ max: 12 }),
    })
    .map(({ blocks: made, interleave, responseMetadata, warnings, finishMetadata, reason, fault, errorAt, rawAt }): Turn => {
      // without parts after tool calls, a step's calls come last
      const body = allowed.has('parts-after-tool-calls')
        ? interleaveBlocks(made, interleave)
        : [
            ...interleaveBlocks(
              made.filter((block) => !block.calls),
              interleave,
            ),
            ...made.filter((block) => block.calls).flatMap((block) => block.parts),
          ];
      if (fault === 'error-part')
        body.splice(Math.min(errorAt, body.length), 0, { type: 'error', error: { message: 'overloaded', code: 'overloaded_error' } });
      if (allowed.has('raw-chunks') && options.includeRawChunks && rawAt % 3 === 0) {
        body.splice(Math.min(rawAt, body.length), 0, { type: 'raw', rawValue: { sse: `data ${rawAt}` } });
      }
      const calls = made.some((block) => block.calls);
      const parts: Part[] = [
        { type: 'stream-start', warnings: warnings ? [{ type: 'unsupported', feature: 'topK', details: 'not supported' }] : [] },
        ...(responseMetadata
          ? [{ type: 'response-metadata', id: 'resp-x', modelId: 'mock-model-v2', timestamp: new Date(1_700_000_000_000) } as Part]
          : []),
        ...body,
        {
          type: 'finish',
          finishReason: calls ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: reason as 'stop', raw: reason },
          usage: usageOf(body.length),
          ...(finishMetadata === undefined ? {} : { providerMetadata: finishMetadata }),
        },
      ];
      return fault === undefined || fault === 'error-part' ? { parts } : { parts, fault };
    });
}

/** Merges blocks, keeping each block's own order, taking the next part from the block `choices` point at. */
function interleaveBlocks(blocks: readonly Block[], choices: readonly number[]): Part[] {
  const queues = blocks.map((block) => [...block.parts]);
  const merged: Part[] = [];
  let choice = 0;
  for (;;) {
    const open = queues.filter((queue) => queue.length > 0);
    if (open.length === 0) return merged;
    // only text and reasoning blocks interleave; a tool call's parts stay together
    const pick = open[(choices[choice++] ?? 0) % open.length] as Part[];
    const first = pick[0] as Part;
    if (first.type.startsWith('text-') || first.type.startsWith('reasoning-')) merged.push(pick.shift() as Part);
    else merged.push(...pick.splice(0));
  }
}

/** Gives every tool call (and its input parts and result) a unique id. */
function numberToolCalls(turns: readonly Turn[]): Turn[] {
  let next = 0;
  return turns.map((turn, turnIndex) => {
    const parts: Part[] = [];
    let current = '';
    for (const part of turn.parts) {
      if (
        (part.type === 'tool-input-start' || part.type === 'tool-call') &&
        (part.type === 'tool-call' ? part.toolCallId : part.id) === 'CALL'
      ) {
        if (part.type === 'tool-input-start' || current === '') current = `call-${turnIndex}-${next++}`;
      }
      if (part.type === 'tool-input-start' || part.type === 'tool-input-delta' || part.type === 'tool-input-end') {
        parts.push(part.id === 'CALL' ? { ...part, id: current } : part);
        continue;
      }
      if (part.type === 'tool-call' || part.type === 'tool-result') {
        parts.push(part.toolCallId === 'CALL' ? { ...part, toolCallId: current } : part);
        if (part.type === 'tool-result' || (part.type === 'tool-call' && part.providerExecuted !== true)) current = '';
        continue;
      }
      parts.push(part);
    }
    return { ...turn, parts };
  });
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}
