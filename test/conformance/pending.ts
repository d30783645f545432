/**
 * TEMPORARY: the differences the wrappers still show today, each a defect
 * to fix (not a deliberate choice: those are in `known-differences.ts`).
 * The lead empties this list as the runtime is fixed.
 *
 * How the suite reads an entry:
 * - every case in `shownBy` must still show the difference (at least one
 *   finding matching `differences`) in each listed configuration and mode;
 *   once it is fixed the case fails with "remove it from pending.ts";
 * - in those cases, findings matching `differences` are tolerated;
 * - `scope: 'everywhere'`: tolerated in every fixed case and every random
 *   script of those configurations and modes (for defects every call
 *   shows, matched by precise paths);
 * - `excludes`: the random scripts of those configurations and modes leave
 *   these features out while the entry is here.
 * Removing an entry re-enables every check it relaxed.
 */
import type { Feature } from './arbitraries.ts';
import type { DifferencePattern } from './compare.ts';
import type { Mode, Wrapped } from './configurations.ts';

export interface PendingDifference {
  readonly id: string;
  /** What differs, observably. */
  readonly what: string;
  /** Where the cause probably is in `src/`. */
  readonly cause: string;
  readonly configurations: readonly Wrapped[];
  readonly modes: readonly Mode[];
  /** The findings this entry covers. An observable pattern without a path on `log:<event>` drops that event from `log order` too. */
  readonly differences: readonly DifferencePattern[];
  /** The fixed cases (`cases.ts`) that show it: `id` (in every mode of the entry) or `id@mode`. */
  readonly shownBy: readonly string[];
  readonly scope: 'shown-by' | 'everywhere';
  readonly excludes?: readonly Feature[];
}

const BOTH: readonly Mode[] = ['generateText', 'streamText'];

export const PENDING: readonly PendingDifference[] = [
  {
    id: 'own-abort-signal',
    what:
      'Without a caller abortSignal or timeout, the raw SDK gives the model and the tools no signal (`abortSignal: undefined` in doGenerate/doStream options, in `execute` options, in onInputStart/onInputDelta/onInputAvailable, repairToolCall); the wrapped call gives them a live signal of its own.',
    cause:
      'src/runtime/compose-run-options.ts: `composed.abortSignal = run.abortSignal` whenever the run made its own AbortController (`ownAbort: true` in run-generate-text.ts / run-stream-text.ts), so the SDK forwards it everywhere.',
    configurations: ['noop', 'handler', 'tools'],
    modes: BOTH,
    differences: [{ observable: 'log:*', path: /\.abortSignal$/ }],
    shownBy: ['no-caller-signal'],
    scope: 'everywhere',
  },
  {
    id: 'prepare-step-wrapped-model',
    what: "prepareStep's `model` is a wrapLanguageModel(...) object, not the caller's model (identity differs).",
    cause: 'src/runtime/compose-run-options.ts: `composed.model = wrapModel(options.model)`; the SDK hands prepareStep the model it was called with.',
    configurations: ['noop', 'handler', 'tools'],
    modes: BOTH,
    differences: [{ observable: 'log:prepareStep', path: /^\[\d+\]\.model\b/ }],
    shownBy: ['multi-step-prepare-step', 'no-caller-signal'],
    scope: 'everywhere',
  },
  {
    id: 'stop-when-twice',
    what: "The caller's stopWhen runs more often than in the raw SDK (again at the end of each step from the loop control, and in steps where the SDK would not ask it).",
    cause:
      'src/runtime/loop-control.ts: the composed `stopWhen` calls `userStops`, and `endTurn` → `underCap()` calls `userStops` again; installed whenever drainSteering/drainFollowUp hooks exist (needsLoopControl).',
    configurations: ['noop'],
    modes: BOTH,
    differences: [{ observable: 'log:stopWhen' }],
    shownBy: ['stop-when-calls'],
    scope: 'everywhere',
  },
  {
    id: 'own-response-messages-property',
    what: 'The result gets an own, non-enumerable `responseMessages` property (a getter) besides the prototype one.',
    cause: 'src/runtime/keep-injections.ts: installed by run-generate-text.ts / run-stream-text.ts whenever loop control is on (drain hooks), even when nothing was injected.',
    configurations: ['noop'],
    modes: BOTH,
    differences: [
      { observable: 'result.(hidden) responseMessages' },
      { observable: 'result.ownProperties', path: /^\.responseMessages$/ },
    ],
    shownBy: ['stop-when-calls'],
    scope: 'everywhere',
  },
  {
    id: 'held-stream-reencoded',
    what:
      'streamText with a handler: the step is held and re-encoded, so the stream parts differ from the provider\'s: text and reasoning deltas merged into one per block, block ids replaced by indexes ("0", "1"), provider metadata on deltas dropped, raw chunks and tool-input-start/delta/end parts dropped, parts reordered (tool calls after text); textStream, the UI message stream and onChunk follow; onChunk / onLanguageModelCallEnd arrive in another order.',
    cause:
      'src/runtime/create-model-middleware.ts `wrapStream`: with onResponse hooks or afterModelCall handlers (`holdResponse`) the stream is read whole by src/model/collect-stream.ts and replayed by src/model/response-to-stream.ts `responseToParts` (one delta per block, index ids, no raw/tool-input parts, metadata of start/end only).',
    configurations: ['noop', 'handler'],
    modes: ['streamText'],
    differences: [
      { observable: 'stream' },
      { observable: 'textStream' },
      { observable: 'uiStream' },
      { observable: 'partialOutputStream' },
      { observable: 'log:onChunk' },
      // the tool-input parts are gone, so the tools' own input callbacks never fire
      { observable: 'log:onInputStart' },
      { observable: 'log:onInputDelta' },
      { observable: '*', path: /\.performance\.timeBetweenOutputChunksMs$/ },
      // the held step reaches the SDK at once: its tool callbacks run before onLanguageModelCallEnd instead of as the calls stream
      { observable: 'log order', value: /^"(toolApproval|needsApproval|onInputAvailable|onLanguageModelCallEnd|repairToolCall)"$/ },
      // the SDK draws its own ids (a step's response id when the provider sent none) in another sequence
      { observable: 'result.response', path: /^\.id$/ },
      { observable: '*', path: /\.response\.id$/ },
    ],
    shownBy: ['text-deltas', 'delta-provider-metadata', 'interleaved-text-blocks', 'raw-chunks', 'tool-input-deltas'],
    scope: 'everywhere',
  },
  {
    id: 'held-stream-reasoning-end-metadata',
    what:
      "streamText with a handler: a reasoning block's provider metadata is taken from reasoning-start, not reasoning-end (the raw SDK keeps the end's, e.g. a signature), so content, reasoning, steps, responseMessages (providerOptions) and the next step's prompt carry the wrong metadata.",
    cause: 'src/model/collect-stream.ts: `reasoning-end` is ignored (only `text-end` metadata is applied to its block).',
    configurations: ['noop', 'handler'],
    modes: ['streamText'],
    differences: [
      { observable: 'result.*', path: /\.(providerMetadata|providerOptions)\b/ },
      { observable: 'log:*', path: /\.(providerMetadata|providerOptions)\b/ },
      // a resume starts from those response messages
      { observable: 'input', path: /\.(providerMetadata|providerOptions)\b/ },
    ],
    shownBy: ['delta-provider-metadata'],
    scope: 'everywhere',
  },
  {
    id: 'held-tool-calls-reencoded',
    what:
      "streamText with tool-level hooks (gateToolCalls): a step's tool calls are held until the provider finishes and re-emitted with synthesized tool-input-start / one tool-input-delta / tool-input-end parts: the provider's own input deltas (and their provider metadata) are replaced, calls the provider never streamed get input parts, onInputDelta fires once with the whole input, onChunk and the UI stream follow, and the extra parts change the chunk timing stats.",
    cause:
      'src/runtime/create-model-middleware.ts `holdToolCalls`: drops tool-input-* parts of SDK-executed calls and `release` writes new ones from the decided call.',
    configurations: ['tools'],
    modes: ['streamText'],
    differences: [
      { observable: 'stream' },
      { observable: 'uiStream' },
      { observable: 'log:onChunk' },
      { observable: 'log:onInputStart' },
      { observable: 'log:onInputDelta' },
      { observable: '*', path: /\.performance\.timeBetweenOutputChunksMs$/ },
      // the SDK sees each call only after the provider finished: its approval policy runs later
      { observable: 'log order', value: /^"(toolApproval|needsApproval|onInputAvailable|onLanguageModelCallEnd|repairToolCall)"$/ },
    ],
    shownBy: ['tool-input-deltas', 'parallel-tool-calls', 'no-caller-signal', 'approval-request@streamText'],
    scope: 'everywhere',
  },
  {
    id: 'held-tool-calls-reordered',
    what:
      "streamText with tool-level hooks: held tool calls are released at the finish part, after the text and other parts the provider sent after them, so the step's content, response messages and the next step's prompt have the parts in another order than the provider's.",
    cause: 'src/runtime/create-model-middleware.ts `holdToolCalls`: every `tool-call` waits for `finish`, the other parts pass through.',
    configurations: ['tools'],
    modes: ['streamText'],
    differences: [
      { observable: 'result.content' },
      { observable: 'result.steps' },
      { observable: 'result.finalStep' },
      { observable: 'result.responseMessages' },
      { observable: 'result.response' },
      { observable: 'log:onStepStart' },
      { observable: 'log:onLanguageModelCallStart' },
      { observable: 'log:doStream', path: /\.prompt\b/ },
      { observable: 'log:onLanguageModelCallEnd' },
      { observable: 'log:onStepEnd' },
      { observable: 'log:onEnd' },
    ],
    shownBy: ['tool-call-provider-metadata'],
    scope: 'shown-by',
    excludes: ['parts-after-tool-calls'],
  },
  {
    id: 'provider-executed-out-of-order',
    what:
      "streamText with tool-level hooks: a provider-executed call is held like the others but its result (and a provider's tool-approval-request) is not, so the result precedes its call in the stream and the content; a provider approval request then refers to a call the SDK has not seen and the step fails with AI_ToolCallNotFoundForApprovalError (the resume never happens).",
    cause:
      'src/runtime/create-model-middleware.ts `holdToolCalls`: `tool-call` parts with `providerExecuted: true` are pushed to `held` too, while `tool-result` / `tool-approval-request` parts pass through at once.',
    configurations: ['tools'],
    modes: ['streamText'],
    differences: [
      { observable: 'phases' },
      { observable: 'result.*' },
      { observable: 'log:onLanguageModelCallEnd' },
      { observable: 'log:onStepEnd' },
      { observable: 'log:onEnd' },
      { observable: 'log:onError' },
    ],
    shownBy: ['provider-executed-tool', 'resume-provider-executed-refused', 'resume-provider-executed-approved', 'empty-text-block@streamText', 'held-stream-random-1234'],
    scope: 'shown-by',
    excludes: ['provider-executed'],
  },
  {
    id: 'tool-prototype-lost',
    what:
      "A tool written as a class loses what is on its prototype when guarded: the description getter (so the model is sent no description), toModelOutput (the model reads the default JSON output instead of the tool's own text), and a prototype execute returning an async iterable loses its preliminary results.",
    cause:
      'src/runtime/guard-tool-set.ts `guardTool`: `{ ...tool, ...extra, execute }` copies own enumerable properties only; src/runtime/guard-execute.ts `single` collapses a returned async iterable to its last value (only AsyncGeneratorFunction stays streaming).',
    configurations: ['noop', 'handler', 'tools'],
    modes: BOTH,
    differences: [
      { observable: 'result.steps' },
      { observable: 'result.finalStep' },
      { observable: 'result.responseMessages' },
      { observable: 'log:onStart' },
      { observable: 'log:onStepStart' },
      { observable: 'log:onLanguageModelCallStart' },
      { observable: 'log:onLanguageModelCallEnd' },
      { observable: 'log:doGenerate' },
      { observable: 'log:doStream' },
      { observable: 'log:toModelOutput' },
      { observable: 'log:onStepEnd' },
      { observable: 'log:onEnd' },
      { observable: 'stream', path: /\.(preliminary|output)\b/ },
    ],
    shownBy: ['class-tool', 'class-generator-tool'],
    scope: 'shown-by',
    excludes: ['class-tools'],
  },
  {
    id: 'stream-throw-no-output',
    what:
      'streamText with a handler: when the provider stream throws mid-stream, the raw SDK rejects the result promises with the provider\'s error; the wrapped call rejects them with AI_NoOutputGeneratedError ("No output generated. Check the stream for errors.").',
    cause:
      'src/runtime/create-model-middleware.ts `wrapStream` (held path): `collectStream` (src/model/collect-stream.ts) lets the reader\'s throw escape instead of replaying it as an error part, so the SDK sees a failed call without the error.',
    configurations: ['noop', 'handler'],
    modes: ['streamText'],
    differences: [{ observable: 'result.*', path: /^\.\$rejected\b/ }, { observable: 'log:console.error' }, { observable: 'log:onError' }],
    shownBy: ['stream-throws', 'stream-error-default-on-error', 'stream-throws-after-finish@streamText'],
    scope: 'shown-by',
    excludes: ['provider-failures'],
  },
  {
    id: 'chunk-timeout-broken',
    what:
      'streamText with a handler and timeout.chunkMs: the raw SDK aborts the stalled stream with "Chunk timeout of 50ms exceeded" (TimeoutError) after streaming the first chunks; the wrapped call streams nothing of the step and its result promises reject with AI_NoOutputGeneratedError.',
    cause:
      'src/runtime/create-model-middleware.ts `wrapStream` (held path): the whole provider stream is read inside the middleware before the SDK sees a chunk, so the SDK\'s chunk timer never starts and the abort surfaces as a failed collect.',
    configurations: ['noop', 'handler'],
    modes: ['streamText'],
    differences: [
      { observable: 'result.*', path: /^\.\$rejected\b/ },
      { observable: 'log:onAbort' },
      { observable: 'log:onStepError' },
      { observable: 'log:onError' },
    ],
    shownBy: ['chunk-timeout', 'chunk-timeout-after-tool-call'],
    scope: 'shown-by',
    excludes: ['chunk-timeout'],
  },
  {
    id: 'resume-refusal-reworded',
    what:
      "Resuming from a refused tool-approval-response: the raw SDK sends the model `execution-denied` with the human's bare reason (or none); the wrapped call sends a reworded text (\"The user did not approve the call to …\"), and for a provider-executed call it drops the output's providerOptions (the `openai.approvalId` the provider needs). Even with nothing registered.",
    cause:
      'src/runtime/is-idle.ts `needsRun` starts a run for any approval response; src/runtime/run-prepare-step.ts `rewordRejections` replaces the output with `{ type, reason }` built from src/runtime/wording.ts.',
    configurations: ['idle', 'noop', 'handler', 'tools'],
    modes: BOTH,
    differences: [{ observable: 'log:*', path: /\.output\.(reason|providerOptions)$/ }],
    shownBy: ['resume-refused', 'resume-provider-options', 'resume-tool-approval-function', 'resume-provider-executed-refused@generateText'],
    scope: 'everywhere',
  },
  {
    id: 'resume-own-abort-signal',
    what:
      'With nothing registered, a resume (an approval response in the history) gives the model and the tools an abort signal the caller never gave (the first call, without a resume, gives none).',
    cause: 'src/runtime/is-idle.ts `needsRun` → a run with `ownAbort: true` (run-generate-text.ts / run-stream-text.ts) → compose-run-options.ts sets `abortSignal`.',
    configurations: ['idle'],
    modes: BOTH,
    differences: [{ observable: 'log:*', path: /\.abortSignal$/ }],
    shownBy: ['resume-approved'],
    scope: 'everywhere',
  },
  {
    id: 'resume-replay-refused',
    what:
      'The same resume request sent a second time (a regenerate from the same history): the raw SDK runs the approved call again; the wrapped call refuses it as a replayed approval ("This approval was already used…"), so the tool does not run and the model reads an execution-denied result. Even with nothing registered.',
    cause: 'src/runtime/run-tool-approval.ts → InterventionsRun.consumeApproval with the default in-memory approval ledger (src/runtime/approval-ledger.ts), on for every runtime.',
    configurations: ['idle', 'noop', 'handler', 'tools'],
    modes: BOTH,
    differences: [
      { observable: 'stream' },
      { observable: 'uiStream' },
      { observable: 'result.*' },
      { observable: 'log order' },
      { observable: 'log:onChunk' },
      { observable: 'log:onToolExecutionStart' },
      { observable: 'log:execute' },
      { observable: 'log:onToolExecutionEnd' },
      { observable: 'log:onStepStart' },
      { observable: 'log:onLanguageModelCallStart' },
      { observable: 'log:doGenerate' },
      { observable: 'log:doStream' },
      { observable: 'log:onEnd' },
    ],
    shownBy: ['resume-regenerate'],
    scope: 'shown-by',
    excludes: ['resume-replay'],
  },
  {
    id: 'resume-execute-later',
    what:
      'streamText, nothing registered, resuming an approved call: the raw SDK runs the approved tool before the stream\'s first part (onChunk); the wrapped call runs it after.',
    cause: 'src/runtime/is-idle.ts `needsRun` → a run for the resume; its ensureStarted / approval checks (src/runtime/run-tool-approval.ts) add awaits before the SDK executes the approved call.',
    configurations: ['idle'],
    modes: ['streamText'],
    differences: [{ observable: 'log order', value: /^"(execute|onChunk|onToolExecutionStart|onToolExecutionEnd)"$/ }],
    shownBy: ['resume-tool-approval-function@streamText'],
    scope: 'everywhere',
  },
  {
    id: 'response-messages-rejection',
    what:
      'streamText with drain hooks: when the raw result.responseMessages rejects with its own error (e.g. AI_MissingToolResultsError after an approved call to a tool without execute), the wrapped one rejects with AI_NoOutputGeneratedError (the error of result.steps).',
    cause: 'src/runtime/keep-injections.ts: the responseMessages getter awaits `Promise.all([original, steps])`, so the steps rejection wins.',
    configurations: ['noop'],
    modes: ['streamText'],
    differences: [{ observable: 'result.responseMessages', path: /^\.\$rejected\b/ }],
    shownBy: ['resume-approved-client-tool@streamText'],
    scope: 'everywhere',
  },
  {
    id: 'abort-drops-held-calls',
    what:
      "streamText with a handler or tool-level hooks, the caller aborting after a tool call streamed but before the step finished: the raw SDK has already parsed the call (onInputAvailable, repairToolCall, toolApproval run, with the aborted signal) and calls onAbort right after; the wrapped call never hands the held call to the SDK, so none of those run, and onAbort comes later.",
    cause: 'src/runtime/create-model-middleware.ts: the held step (`holdResponse`) and `holdToolCalls` keep tool calls until the provider\'s finish part, which never comes after an abort.',
    configurations: ['noop', 'handler', 'tools'],
    modes: ['streamText'],
    differences: [
      { observable: 'log:onInputAvailable' },
      { observable: 'log:repairToolCall' },
      { observable: 'log:toolApproval' },
      { observable: 'log:needsApproval' },
      { observable: 'log order', value: /^"onAbort"$/ },
    ],
    shownBy: ['abort-after-tool-call@streamText'],
    scope: 'shown-by',
    excludes: ['abort'],
  },
  {
    id: 'trailing-stream-error-drops-held-calls',
    what:
      "streamText with a handler or tool-level hooks, a provider stream that throws after its finish part: the raw SDK has the step's finish and tool calls (onLanguageModelCallEnd fires, the tools execute, then onStepError); the wrapped call loses the held calls and the finish (no onLanguageModelCallEnd, the tool never runs).",
    cause:
      'src/runtime/create-model-middleware.ts: `holdToolCalls` enqueues the calls and the finish part only after the async decision on `finish`, and the upstream error that follows errors the piped stream first; the held step (`collectStream`) treats any throw as a failed step and replays nothing.',
    configurations: ['noop', 'handler', 'tools'],
    modes: ['streamText'],
    differences: [
      { observable: 'log:onLanguageModelCallEnd' },
      { observable: 'log:onToolExecutionStart' },
      { observable: 'log:execute' },
      { observable: 'log:onToolExecutionEnd' },
      { observable: 'log:toolApproval' },
      { observable: 'log:onInputAvailable' },
      { observable: 'log order', value: /^"(onLanguageModelCallEnd|onToolExecutionStart|execute|onToolExecutionEnd|onStepError|toolApproval|onInputAvailable)"$/ },
      { observable: 'result.*', path: /^\.\$rejected\b/ },
    ],
    shownBy: ['stream-throws-after-finish@streamText'],
    scope: 'shown-by',
    excludes: ['provider-failures'],
  },
  {
    id: 'held-tool-call-first-chunk-timeout',
    what:
      'streamText with tool-level hooks, timeout.chunkMs and firstChunkMs, a provider that stalls right after a tool call: the raw SDK fails with "Chunk timeout of 40ms exceeded" (the call was its first chunk); the wrapped call holds the call, so the SDK has seen no chunk and fails with "First chunk timeout of 40ms exceeded".',
    cause: 'src/runtime/create-model-middleware.ts `holdToolCalls`: a held call does not reach the SDK, which arms its chunk timers on what it receives.',
    configurations: ['tools'],
    modes: ['streamText'],
    differences: [{ observable: 'result.*', path: /^\.\$rejected\.message$/ }, { observable: 'log:*', path: /\.(error|reason)\.message$/ }],
    shownBy: ['chunk-timeout-after-tool-call'],
    scope: 'shown-by',
    excludes: ['chunk-timeout'],
  },
  {
    id: 'held-stream-empty-text-dropped',
    what:
      'streamText with a handler: a text block whose only delta is empty but carries provider metadata stays in the raw response messages (an empty text part, before the calls); the held step loses the delta metadata and the SDK leaves the empty part out, so the assistant message of the step and the next prompt differ.',
    cause: 'src/model/collect-stream.ts / src/model/response-to-stream.ts: delta provider metadata is not kept when the step is re-encoded.',
    configurations: ['noop', 'handler'],
    modes: ['streamText'],
    differences: [
      { observable: 'result.response' },
      { observable: 'result.steps' },
      { observable: 'result.finalStep' },
      { observable: 'result.responseMessages' },
      { observable: 'log:onStepEnd' },
      { observable: 'log:onEnd' },
    ],
    shownBy: ['held-stream-random-1234'],
    scope: 'shown-by',
    excludes: ['empty-deltas'],
  },
];
