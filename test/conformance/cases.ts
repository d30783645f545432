/**
 * Fixed, named scripts: one per behavior the AI SDK's own generateText /
 * streamText tests cover, and one minimal script per known defect of the
 * wrappers (so each is a precise regression test; `pending.ts` says which
 * of them still differ, where, and why).
 */
import type { Mode } from './configurations.ts';
import type { Part, Script, ToolSpec, Turn } from './script.ts';
import { usageOf } from './script.ts';

export interface ConformanceCase {
  readonly id: string;
  /** What the case exercises. */
  readonly about: string;
  readonly script: Script;
  /** The modes it runs in (default: both). */
  readonly modes?: readonly Mode[];
}

// ---------------------------------------------------------------- builders

const start = (warnings: Extract<Part, { type: 'stream-start' }>['warnings'] = []): Part => ({ type: 'stream-start', warnings });

function finish(reason: 'stop' | 'tool-calls' | 'length', providerMetadata?: Record<string, Record<string, string>>): Part {
  return {
    type: 'finish',
    finishReason: { unified: reason, raw: reason === 'tool-calls' ? 'tool_calls' : reason },
    usage: usageOf(5),
    ...(providerMetadata ? { providerMetadata } : {}),
  };
}

function text(id: string, ...deltas: string[]): Part[] {
  return [{ type: 'text-start', id }, ...deltas.map((delta): Part => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }];
}

function call(toolCallId: string, toolName: string, input: unknown): Part {
  return { type: 'tool-call', toolCallId, toolName, input: typeof input === 'string' ? input : JSON.stringify(input) };
}

function turn(...parts: Part[]): Turn {
  const calls = parts.some((part) => part.type === 'tool-call' && part.providerExecuted !== true);
  return { parts: [start(), ...parts, finish(calls ? 'tool-calls' : 'stop')] };
}

/** A provider-executed (dynamic) search call, as random scripts make them. */
const providerSearchCall: Part = {
  type: 'tool-call',
  toolCallId: 'call-0-0',
  toolName: 'web_search',
  input: '{"q":"alpha"}',
  providerExecuted: true,
  dynamic: true,
};

const answer = turn(...text('final', 'All ', 'done.'));
const fn = (name: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({ name, kind: 'function', behavior: 'ok', ...extra });
const loop = { stop: { kind: 'count', steps: 4 }, callbacks: true } as const;

// ---------------------------------------------------------------- the cases

export const CASES: readonly ConformanceCase[] = [
  // text, reasoning, blocks
  {
    id: 'text-deltas',
    about: 'one text block streamed in several deltas, with its provider id',
    script: { turns: [turn(...text('msg_1', 'Hel', 'lo ', 'world'))], tools: [], options: { stop: { kind: 'default' }, callbacks: true } },
  },
  {
    id: 'delta-provider-metadata',
    about: 'provider metadata on text and reasoning start, delta and end parts',
    script: {
      turns: [
        turn(
          { type: 'reasoning-start', id: 'rs_1', providerMetadata: { mock: { itemId: 'rs_1' } } },
          { type: 'reasoning-delta', id: 'rs_1', delta: 'Thinking', providerMetadata: { mock: { part: '1' } } },
          { type: 'reasoning-delta', id: 'rs_1', delta: ' hard' },
          { type: 'reasoning-end', id: 'rs_1', providerMetadata: { mock: { signature: 'sig' } } },
          { type: 'text-start', id: 'msg_1', providerMetadata: { mock: { itemId: 'msg_1' } } },
          { type: 'text-delta', id: 'msg_1', delta: 'Answer', providerMetadata: { mock: { logprob: '-0.1' } } },
          { type: 'text-end', id: 'msg_1', providerMetadata: { mock: { done: 'yes' } } },
        ),
      ],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true },
    },
  },
  {
    id: 'interleaved-text-blocks',
    about: 'two text blocks with their own ids, deltas interleaved',
    script: {
      turns: [
        turn(
          { type: 'text-start', id: 'a' },
          { type: 'text-start', id: 'b' },
          { type: 'text-delta', id: 'a', delta: 'first ' },
          { type: 'text-delta', id: 'b', delta: 'second ' },
          { type: 'text-delta', id: 'a', delta: 'block' },
          { type: 'text-end', id: 'b' },
          { type: 'text-end', id: 'a' },
        ),
      ],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true },
    },
  },
  {
    id: 'empty-text-block',
    about: 'a text block whose only delta is empty, then a provider-executed call and more text',
    script: {
      turns: [
        turn(
          ...text('empty', ''),
          { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: '{"q":"a"}', providerExecuted: true, dynamic: true },
          { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: ['a'] }, dynamic: true },
          ...text('m', 'Hello'),
        ),
      ],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true },
    },
  },
  {
    id: 'held-stream-random-1234',
    about:
      'found by the random property (seed 1234): raw chunks, an empty text delta with metadata, a provider-executed call, an unknown tool, then text',
    modes: ['streamText'],
    script: {
      turns: [
        {
          parts: [
            {
              type: 'stream-start',
              warnings: [],
            },
            {
              type: 'raw',
              rawValue: {
                sse: 'data 0',
              },
            },
            {
              type: 'text-start',
              id: 'txt-0',
            },
            {
              type: 'text-delta',
              id: 'txt-0',
              delta: '',
              providerMetadata: {
                mock: {
                  signature: 'sig-a',
                },
              },
            },
            {
              type: 'text-end',
              id: 'txt-0',
            },
            providerSearchCall,
            {
              type: 'tool-result',
              toolCallId: 'call-0-0',
              toolName: 'web_search',
              result: {
                hits: ['alpha'],
              },
              dynamic: true,
            },
            {
              type: 'tool-call',
              toolCallId: 'call-0-1',
              toolName: 'unknown_tool',
              input: '{"q":"alpha"}',
            },
            {
              type: 'text-start',
              id: 'txt-3',
            },
            {
              type: 'text-delta',
              id: 'txt-3',
              delta: 'Hello',
            },
            {
              type: 'text-end',
              id: 'txt-3',
            },
            {
              type: 'finish',
              finishReason: {
                unified: 'tool-calls',
                raw: 'tool_calls',
              },
              usage: {
                inputTokens: {
                  total: 10,
                  noCache: 10,
                },
                outputTokens: {
                  total: 10,
                  text: 10,
                },
              },
            },
          ],
        },
        {
          parts: [
            {
              type: 'stream-start',
              warnings: [],
            },
            {
              type: 'raw',
              rawValue: {
                sse: 'data 0',
              },
            },
            {
              type: 'finish',
              finishReason: {
                unified: 'stop',
                raw: 'stop',
              },
              usage: {
                inputTokens: {
                  total: 10,
                  noCache: 10,
                },
                outputTokens: {
                  total: 1,
                  text: 1,
                },
              },
            },
          ],
        },
      ],
      tools: [],
      options: {
        stop: {
          kind: 'default',
        },
        prepareStep: [
          {
            activeTools: [],
            instructions: 'Be brief.',
            temperature: 0.5,
          },
          null,
          {
            activeTools: [],
            toolChoice: 'none',
            temperature: 0,
          },
          null,
        ],
        toolChoice: 'required',
        output: false,
        includeRawChunks: true,
        abortSignal: false,
        settings: {
          temperature: 0.7,
          maxOutputTokens: 256,
          seed: 7,
          providerOptions: false,
        },
        instructions: 'You are a test.',
        runtimeContext: false,
        callbacks: true,
        prompt: 'messages',
      },
    } as Script,
  },
  {
    id: 'raw-chunks',
    about: "includeRawChunks: the provider's raw chunks reach the stream",
    script: {
      turns: [turn({ type: 'raw', rawValue: { sse: 'event 1' } }, ...text('m', 'Hi'), { type: 'raw', rawValue: { sse: 'event 2' } })],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true, includeRawChunks: true },
    },
  },
  {
    id: 'sources-files-metadata',
    about: 'sources, files, response metadata, warnings and finish provider metadata',
    script: {
      turns: [
        {
          parts: [
            start([{ type: 'unsupported', feature: 'topK', details: 'not supported' }]),
            { type: 'response-metadata', id: 'resp_1', modelId: 'mock-model-2025', timestamp: new Date(1_700_000_000_000) },
            { type: 'source', sourceType: 'url', id: 'src_1', url: 'https://example.com', title: 'Example' },
            { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } },
            ...text('m', 'See the sources.'),
            finish('stop', { mock: { cost: '0.01' } }),
          ],
        },
      ],
      tools: [],
      options: {
        stop: { kind: 'default' },
        callbacks: true,
        settings: { temperature: 0.3, maxOutputTokens: 100, seed: 3, providerOptions: true, headers: true },
        instructions: 'Be exact.',
      },
    },
  },
  // tool calls
  {
    id: 'tool-input-deltas',
    about: 'a tool call whose input streams in tool-input-start / delta / end parts, then a second step',
    script: {
      turns: [
        turn(
          { type: 'tool-input-start', id: 'call_1', toolName: 'weather' },
          { type: 'tool-input-delta', id: 'call_1', delta: '{"q":' },
          { type: 'tool-input-delta', id: 'call_1', delta: '"Paris"}' },
          { type: 'tool-input-end', id: 'call_1' },
          call('call_1', 'weather', { q: 'Paris' }),
        ),
        answer,
      ],
      tools: [fn('weather', { inputCallbacks: true })],
      options: loop,
    },
  },
  {
    id: 'tool-call-provider-metadata',
    about: 'a tool call with provider metadata, followed by text in the same step',
    script: {
      turns: [
        turn(
          { ...call('call_1', 'weather', { q: 'Paris' }), providerMetadata: { mock: { itemId: 'fc_1' } } } as Part,
          ...text('after', 'Checking.'),
        ),
        answer,
      ],
      tools: [fn('weather')],
      options: loop,
    },
  },
  {
    id: 'parallel-tool-calls',
    about: 'two calls in one step, the second tool throws',
    script: {
      turns: [turn(call('c1', 'a', { q: 'one' }), call('c2', 'b', { q: 'two' })), answer],
      tools: [fn('a'), fn('b', { behavior: 'throws' })],
      options: loop,
    },
  },
  {
    id: 'provider-executed-tool',
    about: 'a provider-executed call and its result, streamed by the provider',
    script: {
      turns: [
        turn(
          { type: 'tool-input-start', id: 'ws_1', toolName: 'web_search', providerExecuted: true, dynamic: true },
          { type: 'tool-input-delta', id: 'ws_1', delta: '{"q":"news"}' },
          { type: 'tool-input-end', id: 'ws_1' },
          { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: '{"q":"news"}', providerExecuted: true, dynamic: true },
          { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: ['a'] }, dynamic: true },
          ...text('m', 'Found it.'),
        ),
      ],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true },
    },
  },
  {
    id: 'invalid-and-unknown-calls',
    about: 'a call with bad JSON, one failing the schema, one to an unknown tool',
    script: {
      turns: [turn(call('c1', 'a', '{"q":'), call('c2', 'a', { q: 1 }), call('c3', 'nope', { q: 'x' })), answer],
      tools: [fn('a')],
      options: loop,
    },
  },
  {
    id: 'repair-tool-call',
    about: 'repairToolCall fixes an invalid call',
    script: {
      turns: [turn(call('c1', 'a', { q: 1 })), answer],
      tools: [fn('a')],
      options: { ...loop, repair: 'fix' },
    },
  },
  {
    id: 'generator-tool',
    about: 'an async-generator tool: preliminary results, then the final one',
    script: {
      turns: [turn(call('c1', 'progress', { q: 'go' })), answer],
      tools: [fn('progress', { behavior: 'generator' })],
      options: loop,
    },
  },
  {
    id: 'class-tool',
    about: 'a tool written as a class: execute, toModelOutput and a description getter on its prototype',
    script: {
      turns: [turn(call('c1', 'calc', { q: '1+1' })), answer],
      tools: [{ name: 'calc', kind: 'class', behavior: 'ok' }],
      options: loop,
    },
  },
  {
    id: 'class-generator-tool',
    about: 'a class tool whose execute returns an async iterable (preliminary results)',
    script: {
      turns: [turn(call('c1', 'calc', { q: 'slow' })), answer],
      tools: [{ name: 'calc', kind: 'class', behavior: 'generator' }],
      options: loop,
    },
  },
  {
    id: 'tool-extras',
    about: 'toModelOutput, metadata, input callbacks and a dynamic tool',
    script: {
      turns: [turn(call('c1', 'a', { q: 'x' }), call('c2', 'd', { q: 'y' })), answer],
      tools: [
        fn('a', { toModelOutput: true, metadata: true, inputCallbacks: true }),
        { name: 'd', kind: 'dynamic', behavior: 'ok', metadata: true },
      ],
      options: { ...loop, runtimeContext: true },
    },
  },
  {
    id: 'client-tool',
    about: 'a tool without execute: the loop stops with the call',
    script: {
      turns: [turn(call('c1', 'ask_user', { q: 'name?' }))],
      tools: [{ name: 'ask_user', kind: 'client', behavior: 'ok' }],
      options: loop,
    },
  },
  // the loop
  {
    id: 'multi-step-prepare-step',
    about: 'three steps; prepareStep narrows activeTools, changes toolChoice, instructions and settings',
    script: {
      turns: [turn(call('c1', 'a', { q: '1' })), turn(call('c2', 'b', { q: '2' })), answer],
      tools: [fn('a'), fn('b')],
      options: {
        ...loop,
        instructions: 'Start.',
        activeTools: ['a', 'b'],
        prepareStep: [
          null,
          { activeTools: ['b'], toolChoice: 'required', instructions: 'Now b.', temperature: 0.2 },
          { toolChoice: 'none' },
        ],
      },
    },
  },
  {
    id: 'stop-when-has-tool-call',
    about: 'stopWhen: [hasToolCall, isStepCount]',
    script: {
      turns: [turn(call('c1', 'a', { q: '1' })), turn(call('c2', 'done', { q: '2' })), answer],
      tools: [fn('a'), fn('done')],
      options: { stop: { kind: 'has-tool-call', toolName: 'done', steps: 5 }, callbacks: true },
    },
  },
  {
    id: 'structured-output',
    about: 'output: Output.object(...) over two steps',
    script: {
      turns: [turn(call('c1', 'a', { q: 'x' })), turn(...text('json', '{"answer":', '"yes"}'))],
      tools: [fn('a')],
      options: { ...loop, output: true },
    },
  },
  // errors, aborts, timeouts
  {
    id: 'stream-error-part',
    about: 'the provider streams an error part mid-stream',
    script: {
      turns: [
        {
          parts: [
            start(),
            ...text('m', 'Partial'),
            { type: 'error', error: { message: 'overloaded', code: 'overloaded_error' } },
            finish('stop'),
          ],
        },
      ],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true },
    },
  },
  {
    id: 'stream-throws',
    about: 'the provider stream throws after some text',
    script: {
      turns: [{ parts: [start(), ...text('m', 'Partial', ' text'), finish('stop')], fault: { kind: 'throw', at: 3 } }],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true },
    },
  },
  {
    id: 'stream-throws-after-finish',
    about: 'the provider stream throws after its finish part, in a step with tool calls',
    script: {
      turns: [
        { parts: [start(), ...text('m', 'Checking'), call('c1', 'a', { q: 'x' }), finish('tool-calls')], fault: { kind: 'throw', at: 6 } },
      ],
      tools: [fn('a')],
      options: loop,
    },
  },
  {
    id: 'call-rejects',
    about: 'doGenerate / doStream rejects in the second step',
    script: {
      turns: [turn(call('c1', 'a', { q: '1' })), { parts: answer.parts, fault: { kind: 'reject' } }],
      tools: [fn('a')],
      options: loop,
    },
  },
  {
    id: 'stream-error-default-on-error',
    about: 'a failing stream with no callbacks: the SDK logs the error with console.error',
    modes: ['streamText'],
    script: {
      turns: [{ parts: [start(), ...text('m', 'Partial'), finish('stop')], fault: { kind: 'throw', at: 2 } }],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: false },
    },
  },
  {
    id: 'abort-mid-stream',
    about: 'the caller aborts in the middle of the text',
    script: {
      turns: [{ parts: [start(), ...text('m', 'one ', 'two ', 'three'), finish('stop')], fault: { kind: 'abort', at: 3 } }],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true },
    },
  },
  {
    id: 'abort-after-tool-call',
    about: 'the caller aborts after a tool call streamed, before the step finished',
    script: {
      turns: [
        { parts: [start(), call('c1', 'a', { q: 'x' }), ...text('m', 'Hello'), finish('tool-calls')], fault: { kind: 'abort', at: 3 } },
      ],
      tools: [fn('a', { inputCallbacks: true })],
      options: loop,
    },
  },
  {
    id: 'abort-after-provider-executed-call',
    about:
      'found by the random property (seed 20250710): the caller aborts once the provider has sent a step with a provider-executed call and its result',
    modes: ['streamText'],
    script: {
      turns: [
        {
          parts: [
            start(),
            { type: 'response-metadata', id: 'resp-x', modelId: 'mock-model-v2', timestamp: new Date('2023-11-14T22:13:20.000Z') },
            providerSearchCall,
            { type: 'tool-result', toolCallId: 'call-0-0', toolName: 'web_search', result: { hits: ['alpha'] }, dynamic: true },
            finish('stop'),
          ],
          fault: { kind: 'abort', at: 5 },
        },
      ],
      tools: [fn('t0')],
      options: { stop: { kind: 'count', steps: 1 }, callbacks: true },
    },
  },
  {
    id: 'abort-in-tool',
    about: 'the caller aborts while a tool runs',
    script: {
      turns: [turn(call('c1', 'a', { q: 'x' })), answer],
      tools: [fn('a', { behavior: 'abort' })],
      options: loop,
    },
  },
  {
    id: 'chunk-timeout',
    about: 'timeout.chunkMs: the provider stalls after the first chunk',
    modes: ['streamText'],
    script: {
      turns: [{ parts: [start(), ...text('m', 'one ', 'two'), finish('stop')], fault: { kind: 'stall', at: 3 } }],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true, timeout: { chunkMs: 50 } },
    },
  },
  {
    id: 'chunk-timeout-stall-after-finish',
    about:
      'found by the random property (seed 20250710): timeout.chunkMs and stepMs, the provider stalls after its finish part without closing (the step timeout ends it, not the chunk timeout)',
    modes: ['streamText'],
    script: {
      turns: [{ parts: [start(), ...text('m', 'Hello'), finish('stop')], fault: { kind: 'stall', at: 5 } }],
      tools: [],
      options: { stop: { kind: 'default' }, callbacks: true, timeout: { chunkMs: 40, firstChunkMs: 40, stepMs: 300 } },
    },
  },
  {
    id: 'chunk-timeout-after-tool-call',
    about: 'timeout.chunkMs and firstChunkMs: the provider stalls right after a tool call',
    modes: ['streamText'],
    script: {
      turns: [{ parts: [start(), call('c1', 'a', { q: 'x' }), finish('tool-calls')], fault: { kind: 'stall', at: 2 } }],
      tools: [fn('a')],
      options: { ...loop, timeout: { chunkMs: 40, firstChunkMs: 40 } },
    },
  },
  // approvals
  {
    id: 'tool-approval-statuses',
    about: 'toolApproval per tool: approved, denied (the model reads the reason), not-applicable',
    script: {
      turns: [turn(call('c1', 'a', { q: '1' }), call('c2', 'b', { q: '2' }), call('c3', 'c', { q: '3' })), answer],
      tools: [fn('a'), fn('b'), fn('c')],
      options: {
        ...loop,
        toolApproval: { kind: 'per-tool', statuses: { a: 'approved', b: 'denied', c: 'not-applicable' }, asFunction: true },
      },
    },
  },
  {
    id: 'approval-request',
    about: 'toolApproval asks the user: the run ends with a tool-approval-request',
    script: {
      turns: [turn(call('c1', 'a', { q: 'ask-me' }), call('c2', 'b', { q: 'ok-1' }))],
      tools: [fn('a'), fn('b')],
      options: { ...loop, toolApproval: { kind: 'generic' } },
    },
  },
  {
    id: 'resume-approved',
    about: 'resume from an approved tool-approval-response (needsApproval)',
    script: {
      turns: [turn(call('c1', 'a', { q: 'go' })), answer],
      tools: [fn('a', { needsApproval: true })],
      options: loop,
      resume: { approve: [true], reason: 'fine by me' },
    },
  },
  {
    id: 'resume-refused',
    about: "resume from a refused tool-approval-response: the model reads the human's reason",
    script: {
      turns: [turn(call('c1', 'a', { q: 'go' })), answer],
      tools: [fn('a', { needsApproval: true })],
      options: loop,
      resume: { approve: [false], reason: 'not today' },
    },
  },
  {
    id: 'resume-provider-options',
    about: 'providerOptions on the approval responses reach the model',
    script: {
      turns: [turn(call('c1', 'a', { q: 'go' })), answer],
      tools: [fn('a', { needsApproval: true })],
      options: loop,
      resume: { approve: [false], providerOptions: true },
    },
  },
  {
    id: 'resume-approved-client-tool',
    about: 'an approved call to a tool without execute: the resume has no result for it (the SDK rejects with MissingToolResultsError)',
    script: {
      turns: [turn(call('c1', 'ask_user', { q: 'go' })), answer],
      tools: [{ name: 'ask_user', kind: 'client', behavior: 'ok', needsApproval: true }],
      options: loop,
      resume: { approve: [true] },
    },
  },
  {
    id: 'resume-regenerate',
    about: 'the same resume request sent twice (a regenerate): the SDK runs the approved call again',
    script: {
      turns: [turn(call('c1', 'a', { q: 'go' })), answer, answer],
      tools: [fn('a', { needsApproval: true })],
      options: loop,
      resume: { approve: [true], replay: true },
    },
  },
  {
    id: 'resume-tool-approval-function',
    about: 'resume with toolApproval re-evaluated (user-approval again means it executes)',
    script: {
      turns: [turn(call('c1', 'a', { q: 'ask-1' }), call('c2', 'a', { q: 'ask-2' })), answer],
      tools: [fn('a')],
      options: { ...loop, toolApproval: { kind: 'generic' } },
      resume: { approve: [true, false], reason: 'mixed' },
    },
  },
  {
    id: 'resume-provider-executed-refused',
    about: "a provider-executed tool asks for approval (the provider's tool-approval-request); the human refuses",
    script: {
      turns: [
        turn(
          { type: 'tool-call', toolCallId: 'mcp_1', toolName: 'mcp_delete', input: '{"q":"x"}', providerExecuted: true, dynamic: true },
          { type: 'tool-approval-request', approvalId: 'apr_1', toolCallId: 'mcp_1' },
        ),
        answer,
      ],
      tools: [],
      options: loop,
      resume: { approve: [false], reason: 'no deletes', providerOptions: true },
    },
  },
  {
    id: 'resume-provider-executed-approved',
    about: 'a provider-executed tool asks for approval; the human approves (the response goes to the provider)',
    script: {
      turns: [
        turn(
          { type: 'tool-call', toolCallId: 'mcp_1', toolName: 'mcp_delete', input: '{"q":"x"}', providerExecuted: true, dynamic: true },
          { type: 'tool-approval-request', approvalId: 'apr_1', toolCallId: 'mcp_1' },
        ),
        turn(
          { type: 'tool-result', toolCallId: 'mcp_1', toolName: 'mcp_delete', result: { deleted: true }, dynamic: true },
          ...text('m', 'Deleted.'),
        ),
      ],
      tools: [],
      options: loop,
      resume: { approve: [true], reason: 'go ahead', providerOptions: true },
    },
  },
  // callbacks and the loop hooks
  {
    id: 'stop-when-calls',
    about: 'a user stopWhen is asked once per step',
    script: {
      turns: [turn(call('c1', 'a', { q: '1' })), turn(call('c2', 'a', { q: '2' })), answer],
      tools: [fn('a')],
      options: { stop: { kind: 'count', steps: 5 }, callbacks: true },
    },
  },
  {
    id: 'no-caller-signal',
    about: 'no abortSignal and no timeout: tools and the model get no signal',
    script: { turns: [turn(call('c1', 'a', { q: '1' })), answer], tools: [fn('a')], options: { ...loop, prepareStep: [] } },
  },
];
