/**
 * Differences between the raw AI SDK and the wrappers that are kept ON
 * PURPOSE, each with its reason. The conformance suite ignores exactly
 * these (by configuration, observable and path) and nothing else.
 *
 * Anything that differs by accident belongs in `pending.ts` (temporary)
 * and gets fixed; it does not belong here.
 */
import type { Feature } from './arbitraries.ts';
import type { DifferencePattern } from './compare.ts';
import type { Wrapped } from './configurations.ts';

export interface KnownDifference extends DifferencePattern {
  readonly id: string;
  readonly configurations: readonly Wrapped[];
  readonly reason: string;
  /** Only in these fixed cases (`undefined`: everywhere). */
  readonly cases?: readonly string[];
  /** Features random scripts leave out in these configurations (the difference would show there). */
  readonly excludes?: readonly Feature[];
}

/**
 * A stream aborted while the runtime holds a step whole, or a turn's tool
 * calls, for their decision: the calls were never decided, so they are never
 * handed to the SDK.
 */
const ABORT_DROPS_UNDECIDED_CALLS = {
  configurations: ['noop', 'handler', 'tools', 'declared-held'],
  cases: ['abort-after-tool-call'],
  excludes: ['abort'],
  reason:
    "streamText, the caller aborting after a tool call streamed but before the step finished, when the runtime holds the step whole until the provider finishes (afterModelCall handlers, onResponse hooks) or the turn's calls (gateToolCalls hooks see them together): a call no handler has seen is never handed to the SDK. (With beforeToolCall handlers alone, each call is released once decided, as it comes.) The raw SDK has already parsed it and calls its tool's onInputAvailable, repairToolCall and toolApproval / needsApproval (with the aborted signal) before onAbort; the wrappers call none of them for the dropped call, and onAbort (exactly once) comes when the SDK sees the abort. Nothing executes in either.",
} as const satisfies Omit<KnownDifference, 'id' | 'observable'>;

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    id: 'stream-timed-callbacks',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'log order with stream timing',
    reason:
      "In streamText, where the callbacks the SDK calls as parts flow through its pipeline (onChunk, onLanguageModelCallEnd, onError, the tools' onInputStart / onInputDelta / onInputAvailable, toolApproval and the tools' needsApproval, repairToolCall) fall among the others depends on when each part is delivered (microtask timing), across the calls of a step too. Any model middleware that adds one stream layer moves them: an identity `wrapLanguageModel` middleware piping through an empty TransformStream does, as measured against these scripts; so does a `toolApproval` that awaits (the run's, deciding a streamed call nothing holds, with `declared`; the run's decides before it asks the tool's needsApproval, so the SDK may parse, and repair, the step's next call first: ai 7.0.185 does, every time, with `noop`). Each callback's own calls (`log:<callback>`), the stream itself in order (`stream`), and the order of every other callback (`log order`) are still compared exactly; in generateText the whole order is.",
  },
  {
    id: 'stream-timed-chunk-order',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'log:onChunk order',
    reason:
      "The order of the onChunk calls where the SDK interleaves chunks it makes itself (such as its own error chunks) with the provider's: that follows delivery timing too (the raw SDK's own onChunk order can differ from its stream's). The same chunks are reported (`log:onChunk`), and the stream keeps the raw order (`stream`).",
  },
  {
    id: 'result-interventions',
    configurations: ['idle', 'noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'result.(hidden) interventions',
    reason:
      'The wrappers add `result.interventions` (the decision records) to a generateText result: the one addition of the API. It is not enumerable, so spreading or serialising the result leaves it out.',
  },
  {
    id: 'stream-result-interventions',
    configurations: ['idle', 'noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'result.ownProperties',
    path: /^\.interventions$/,
    reason: 'The same `result.interventions` on a streamText result (not enumerable).',
  },
  {
    id: 'stream-result-ui-decisions',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'result.ownProperties',
    path: /^\.toUIMessageStream$/,
    reason:
      "When handlers or gates decide tool calls, a streamText result's `toUIMessageStream` (which `toUIMessageStreamResponse` and `pipeUIMessageStreamToResponse` call) is its own, not enumerable: the UI message stream adds a `data-intervention` part after each tool call a handler acted on (none when every handler lets every call through: the chunks are then the SDK's, which the suite compares). Every chunk of the SDK's own stream is kept, in order; the function form `toUIMessageStream({ stream: result.stream })` is untouched.",
  },
  {
    id: 'guarded-tool-identity',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'log:*',
    path: /\.tools\.[^.]+\.(\$tool|same)$/,
    reason:
      "With tool hooks or handlers registered, the SDK is given guarded copies of the tools (their `execute` runs the hooks), so callbacks that receive the tool set (onStart, onStepStart) see those copies, not the caller's objects. Every property of a copy is still compared with the original (`properties`).",
  },
  {
    id: 'replayed-approval-executes-once',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'log:execute',
    cases: ['resume-regenerate'],
    excludes: ['resume-replay'],
    reason:
      "The same resume request sent again (a regenerate, a retry, a double submit, or the same request reaching another instance): the raw SDK executes the approved call a second time; the wrappers execute it once and answer the replay with the recorded outcome, as an idempotency key does (the approval ledger). The model reads the same result, and the SDK's own callbacks (onToolExecutionStart / End) still run; only the tool's execute is not called again. With nothing registered (`idle`) the call is the SDK's own and re-executes.",
  },
  {
    id: 'replayed-approval-ui-decision',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'uiStream',
    cases: ['resume-regenerate'],
    excludes: ['resume-replay'],
    reason:
      "The replay above, in the UI message stream: the call was answered from the approval ledger, not executed again, and the stream says so with one `data-intervention` part after the call's result (its record: `approval-ledger`, `replayed: true`). Every chunk of the SDK's own stream is kept, in order.",
  },
  {
    id: 'approval-point-order',
    configurations: ['declared', 'declared-held'],
    observable: 'log order',
    value: /^"(needsApproval|repairToolCall)"$/,
    reason:
      "In streamText, when the run decides a streamed call at the SDK's approval point (nothing holds it), its toolApproval awaits the decision before it asks the tool's needsApproval, so that call can come after the SDK has parsed (and asked repairToolCall about) the step's next call, where raw asks it first. Both are called from the SDK's stream pipeline, as toolApproval is (stream-timed); each one's own calls and arguments are still compared exactly (`log:needsApproval`, `log:repairToolCall`).",
  },
  {
    id: 'stop-when-at-final-step',
    configurations: ['noop'],
    observable: 'log:stopWhen',
    reason:
      "With drainSteering / drainFollowUp hooks (or steering / followUp queues), the caller's stopWhen is also asked at a step that ends with a final answer, where the SDK does not ask it: a follow-up may continue the run there, but only under the step cap, and a queue must not be drained past it. It is asked once per step, never twice.",
  },
  {
    id: 'stop-when-at-final-step-order',
    configurations: ['noop'],
    observable: 'log order',
    value: /^"stopWhen"$/,
    reason: 'The same extra stopWhen call, as it shows in the order of callbacks.',
  },
  {
    id: 'iterable-after-preparing',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: '*',
    cases: ['class-generator-tool'],
    excludes: ['class-iterable-tools'],
    reason:
      'A tool whose execute is a plain function that returns an async iterable (not an async generator function) can only be told apart once it was called; when preToolCall or onStatus hooks must run first, or the approval ledger (a resumed approval: the ledger claims it before the tool runs once), the guarded execute has already returned a promise, so such a tool gives its final value without the preliminary ones. Async generator functions, and every tool when no hook must run first, keep streaming their preliminary results.',
  },
  {
    id: 'late-chunk-drops-undecided-calls',
    configurations: ['decides', 'declared', 'tools'],
    observable: '*',
    cases: ['chunk-timeout-after-tool-call'],
    excludes: ['chunk-timeout'],
    reason:
      'timeout.chunkMs / firstChunkMs firing while the runtime holds tool calls undecided: a call whose arguments are still streaming (beforeToolCall handlers hold each call until its arguments are complete and it is decided), or, with gateToolCalls hooks, every call of the turn until the step finishes (the gates see them together; as with the caller aborting there, see abort-drops-undecided-calls). A call no handler has decided is never handed to the SDK, and the step ends with the same `abort` part and onAbort as raw, without it (and without the `start-step` that only its release would have brought). Nothing executes in either.',
  },
  {
    id: 'held-stream-chunk-timeout-options',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: 'log:onStart',
    path: /\.timeout\.(firstChunkMs|chunkMs)$/,
    reason:
      "streamText's timeout.firstChunkMs / chunkMs, when the runtime holds the stream (a whole step for onResponse hooks or afterModelCall handlers, a turn's tool calls for beforeToolCall handlers or gates; with handlers that all declare toolCallActions without transform, only when a tool has no execute, since the app's client runs it): the SDK's timers would only see what is released, so the runtime applies them to the provider's stream itself and a late chunk aborts the SDK's signal with the SDK's own TimeoutError (the step ends with an `abort` part and onAbort, as raw). The `timeout` the SDK reports in onStart lacks the two fields it no longer times itself.",
  },
  {
    id: 'streaming-tool-values-through-result-hooks',
    configurations: ['noop', 'handler', 'tools', 'declared-held'],
    observable: '*',
    cases: [],
    excludes: ['parallel-streaming-calls'],
    reason:
      "When onToolCallResult hooks or afterToolCall handlers run, each value a streaming (async generator) tool yields passes through them before the SDK gets it (the client sees preliminary results, so they are transformed and redacted too): each value arrives a microtask or more later, so the results of tools running in parallel with it may interleave differently. Each tool's own values keep their order and content.",
  },
  {
    id: 'abort-in-flight-parts',
    configurations: ['noop', 'handler', 'decides', 'declared', 'tools', 'declared-held'],
    observable: '*',
    cases: ['abort-after-provider-executed-call'],
    excludes: ['abort'],
    reason:
      "Which of the provider's parts reach the stream before the caller's abort depends on delivery timing: the SDK drops the parts still in flight in its pipeline when it sees the abort, and any stream layer in front of it moves that by a part or so (an identity `wrapLanguageModel` middleware piping through an empty TransformStream does, as measured against this case), and so does a `toolApproval` that awaits (the run's, deciding a streamed call nothing holds). What reaches the stream is the provider's, in order, then the same `abort` part; nothing runs that raw would not run.",
  },
  ...['onInputAvailable', 'repairToolCall', 'toolApproval', 'needsApproval'].map((callback) => ({
    id: `abort-drops-undecided-calls:${callback}`,
    observable: `log:${callback}`,
    ...ABORT_DROPS_UNDECIDED_CALLS,
  })),
  {
    id: 'abort-drops-undecided-calls:onAbort-order',
    observable: 'log order',
    value: /^"onAbort"$/,
    ...ABORT_DROPS_UNDECIDED_CALLS,
  },
];
