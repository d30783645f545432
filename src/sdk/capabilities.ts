import type { Lifecycle } from '../actions/lifecycle.ts';
import type { HookName } from '../hooks/hook-types.ts';

/**
 * The ways a runtime's guards reach an AI SDK call:
 *
 * - `'wrappers'`: `interventions.generateText` / `streamText`;
 * - `'agent'`: `new ToolLoopAgent(interventions.agentSettings(settings))`;
 * - `'agent-ui-stream'`: `interventions.createAgentUIStream` /
 *   `createAgentUIStreamResponse` with such an agent;
 * - `'middleware'`: `wrapLanguageModel({ model, middleware: interventions.middleware })`
 *   in a plain `generateText` / `streamText`;
 * - `'plain-tools'`: `interventions.wrapTools(tools)`, `guardTools`,
 *   `guardTool` in a plain `generateText` / `streamText`.
 *
 * @example
 * ```ts
 * const path: EntryPath = 'plain-tools';
 * console.log(CAPABILITIES[path].gateToolCalls); // { type: 'enforced', by: ['tools'], note: '…' }
 * ```
 */
export type EntryPath = 'wrappers' | 'agent' | 'agent-ui-stream' | 'middleware' | 'plain-tools';

/**
 * Every entry path, in the order of the table.
 *
 * @example
 * ```ts
 * const refusedSomewhere = ENTRY_PATHS.filter((path) => CAPABILITIES[path].transformContext.type === 'refused');
 * ```
 */
export const ENTRY_PATHS: readonly EntryPath[] = ['wrappers', 'agent', 'agent-ui-stream', 'middleware', 'plain-tools'];

/**
 * The hooks that only observe: on a path without their event (no chat
 * around a plain tool call) they are not called, and that is no guard
 * failing.
 *
 * @example
 * ```ts
 * const observer: ObserverHook = 'onDecision';
 * ```
 */
export type ObserverHook = 'onChatStart' | 'onChatDone' | 'onChatAbort' | 'onChatError' | 'onMessage' | 'onDecision' | 'onStatus';

/**
 * Every kind of guard a runtime can hold: a handler's lifecycle method, a
 * redaction handler's `redactToolError`, a hook, or the runtime's
 * `redactors`. The built-ins are handlers and hook sets: a built-in is what
 * its methods and hooks are.
 *
 * @example
 * ```ts
 * const kinds: GuardKind[] = ['beforeToolCall', 'gateToolCalls', 'redactors'];
 * ```
 */
export type GuardKind = Lifecycle | 'redactToolError' | HookName | 'redactors';

/**
 * Where a layer of the runtime sits in an AI SDK call: the model
 * (`wrapLanguageModel`), `prepareStep`, `toolApproval`, the tools' `execute`,
 * the tools' `needsApproval`, `repairToolCall`, the loop (`stopWhen`,
 * `experimental_steering`), or the call's callbacks (`onStart`,
 * `onStepEnd`, `onEnd`, `onError`, `onAbort`).
 *
 * @example
 * ```ts
 * const layers: Layer[] = ['model', 'toolApproval'];
 * ```
 */
export type Layer = 'model' | 'prepareStep' | 'toolApproval' | 'tools' | 'needsApproval' | 'repairToolCall' | 'loop' | 'callbacks';

/**
 * What an entry path does with a kind of guard:
 *
 * - `'enforced'`: always, by these layers (`note` says what it covers
 *   where that is less than on the wrappers);
 * - `'with-middleware'`: enforced when the call's model is wrapped with
 *   `interventions.middleware` (read before `wrapTools`), refused otherwise;
 * - `'with-wrapped-tools'`: enforced for the call's tools wrapped with
 *   `interventions.wrapTools`, refused for any other tool;
 * - `'refused'`: registering it while the path is in use, or using the path
 *   while it is registered, is a `GuardNotEnforcedError` (`why`, `instead`);
 * - `'no-event'`: an observer whose event the path does not have (no chat
 *   around a plain tool call): it is not called there.
 *
 * @example
 * ```ts
 * function enforces(capability: Capability): boolean {
 *   return capability.type === 'enforced';
 * }
 * ```
 */
export type Capability =
  | { readonly type: 'enforced'; readonly by: readonly Layer[]; readonly note?: string }
  | { readonly type: 'with-middleware'; readonly by: readonly Layer[] }
  | { readonly type: 'with-wrapped-tools'; readonly by: readonly Layer[] }
  | { readonly type: 'refused'; readonly why: string; readonly instead: string }
  | { readonly type: 'no-event' };

/**
 * What a path does with each kind: an observer may have no event on a path,
 * a guard is enforced or refused (`'no-event'` for a guard does not compile).
 *
 * @inline
 */
type PathCapabilities = {
  readonly [KIND in GuardKind]: KIND extends ObserverHook ? Capability : Exclude<Capability, { readonly type: 'no-event' }>;
};

const enforced = (
  by: readonly Layer[],
  note?: string,
): { readonly type: 'enforced'; readonly by: readonly Layer[]; readonly note?: string } =>
  note === undefined ? { type: 'enforced', by } : { type: 'enforced', by, note };
const refused = (why: string, instead: string): { readonly type: 'refused'; readonly why: string; readonly instead: string } => ({
  type: 'refused',
  why,
  instead,
});
const NO_EVENT = { type: 'no-event' } as const;

const WRAPPERS = 'interventions.generateText / streamText, or agentSettings';
const NO_RUN = 'there is no run around the call (no invocation, no steps, no loop)';

/** What the wrappers enforce: everything, and by which layer (the layers a run installs follow from it). */
const WRAPPED: PathCapabilities = {
  beforeInvocation: enforced(['model', 'prepareStep', 'tools']),
  beforeModelCall: enforced(['prepareStep']),
  afterModelCall: enforced(['model']),
  beforeToolCall: enforced(['model', 'toolApproval']),
  afterToolCall: enforced(['tools']),
  redactToolError: enforced(['tools']),
  preRequest: enforced(['model']),
  onResponse: enforced(['model']),
  transformContext: enforced(['prepareStep']),
  gateToolCalls: enforced(['model', 'toolApproval']),
  preToolCall: enforced(['tools']),
  onToolCallResult: enforced(['tools']),
  onToolCallError: enforced(['tools', 'repairToolCall']),
  drainSteering: enforced(['loop', 'callbacks']),
  drainFollowUp: enforced(['loop', 'callbacks']),
  onChatStart: enforced(['prepareStep']),
  onChatDone: enforced(['callbacks']),
  onChatAbort: enforced(['callbacks']),
  onChatError: enforced(['model', 'callbacks']),
  onMessage: enforced(['callbacks']),
  onDecision: enforced([]),
  onStatus: enforced(['model', 'tools']),
  redactors: enforced(['model', 'tools']),
};

/** A `ToolLoopAgent` takes `experimental_steering` from whoever calls it: the drain hooks cannot reach its loop. */
const AGENT: PathCapabilities = {
  ...WRAPPED,
  drainSteering: refused(
    'a ToolLoopAgent takes its steering from whoever calls generate / stream, so the runtime cannot steer its loop',
    'interventions.generateText / streamText (with a steering queue or the drain hooks)',
  ),
  drainFollowUp: refused(
    'a ToolLoopAgent takes its steering from whoever calls generate / stream, so the runtime cannot continue its loop',
    'interventions.generateText / streamText (with a followUp queue or the drain hooks)',
  ),
};

const MODEL_LAYER = 'the model is not wrapped';
const TOOL_LAYER = 'its tools are not wrapped';

/**
 * For every entry path and every kind of guard: enforced, or refused when
 * registered (or when the path is used while it is registered). The one
 * place that says it: `use`, `addHook`, `wrapTools`, `agentSettings`, the
 * middleware and the agent UI streams check against it, and the Guarantees
 * page shows it (generated from this table and tested against it).
 *
 * @example
 * ```ts
 * for (const path of ENTRY_PATHS) console.log(path, CAPABILITIES[path].beforeModelCall.type);
 * // wrappers enforced, agent enforced, agent-ui-stream enforced, middleware refused, plain-tools refused
 * ```
 */
export const CAPABILITIES: { readonly [PATH in EntryPath]: PathCapabilities } = {
  wrappers: WRAPPED,
  agent: AGENT,
  'agent-ui-stream': AGENT,
  middleware: {
    beforeInvocation: refused(NO_RUN, WRAPPERS),
    beforeModelCall: refused(NO_RUN, WRAPPERS),
    afterModelCall: enforced(['model']),
    beforeToolCall: { type: 'with-wrapped-tools', by: ['needsApproval', 'tools'] },
    afterToolCall: { type: 'with-wrapped-tools', by: ['tools'] },
    redactToolError: { type: 'with-wrapped-tools', by: ['tools'] },
    preRequest: enforced(['model']),
    onResponse: enforced(['model']),
    transformContext: refused(NO_RUN, WRAPPERS),
    gateToolCalls: { type: 'with-wrapped-tools', by: ['needsApproval', 'tools'] },
    preToolCall: { type: 'with-wrapped-tools', by: ['tools'] },
    onToolCallResult: { type: 'with-wrapped-tools', by: ['tools'] },
    onToolCallError: { type: 'with-wrapped-tools', by: ['tools'] },
    drainSteering: refused(NO_RUN, 'interventions.generateText / streamText'),
    drainFollowUp: refused(NO_RUN, 'interventions.generateText / streamText'),
    onChatStart: NO_EVENT,
    onChatDone: NO_EVENT,
    onChatAbort: NO_EVENT,
    onChatError: NO_EVENT,
    onMessage: NO_EVENT,
    onDecision: enforced([]),
    onStatus: enforced(['model']),
    redactors: enforced(['model'], "the model's text and reasoning; a tool's errors where its tools are wrapped"),
  },
  'plain-tools': {
    beforeInvocation: refused(NO_RUN, WRAPPERS),
    beforeModelCall: refused(NO_RUN, WRAPPERS),
    afterModelCall: { type: 'with-middleware', by: ['model'] },
    beforeToolCall: enforced(['needsApproval', 'tools']),
    afterToolCall: enforced(['tools']),
    redactToolError: enforced(['tools'], 'errors the tools throw; a call the SDK rejects before any tool runs gets its own error'),
    preRequest: { type: 'with-middleware', by: ['model'] },
    onResponse: { type: 'with-middleware', by: ['model'] },
    transformContext: refused(NO_RUN, WRAPPERS),
    gateToolCalls: enforced(
      ['needsApproval', 'tools'],
      "each call alone, as a batch of one (tools guarded without a run never see the turn): a gate that weighs a turn's calls together sees them one at a time",
    ),
    preToolCall: enforced(['tools']),
    onToolCallResult: enforced(['tools']),
    onToolCallError: enforced(['tools'], 'errors the tools throw; a call the SDK rejects before any tool runs gets its own error'),
    drainSteering: refused(NO_RUN, 'interventions.generateText / streamText'),
    drainFollowUp: refused(NO_RUN, 'interventions.generateText / streamText'),
    onChatStart: NO_EVENT,
    onChatDone: NO_EVENT,
    onChatAbort: NO_EVENT,
    onChatError: NO_EVENT,
    onMessage: NO_EVENT,
    onDecision: enforced([]),
    onStatus: enforced(['tools']),
    redactors: { type: 'with-middleware', by: ['model', 'tools'] },
  },
};

/** Why a layer a capability needs is missing, and what to do (for `'with-middleware'` / `'with-wrapped-tools'`). */
export const MISSING_LAYER = {
  'with-middleware': {
    why: `${MODEL_LAYER}: tools guarded without a run never see the model's requests and responses`,
    instead:
      'wrapLanguageModel({ model, middleware: interventions.middleware }) for the model (read interventions.middleware before wrapTools), or interventions.generateText / streamText',
  },
  'with-wrapped-tools': {
    why: `${TOOL_LAYER}: the middleware sees the model's requests and responses, never a tool run`,
    instead: 'interventions.wrapTools(tools) for the tools of the call, or interventions.generateText / streamText',
  },
} as const;

/**
 * How each entry path is named in messages and docs.
 *
 * @example
 * ```ts
 * console.log(PATH_LABELS['plain-tools']); // 'tools guarded without a run (wrapTools / guardTools / guardTool) in a plain …'
 * ```
 */
export const PATH_LABELS: { readonly [PATH in EntryPath]: string } = {
  wrappers: 'interventions.generateText / streamText',
  agent: 'a ToolLoopAgent built with interventions.agentSettings',
  'agent-ui-stream': 'interventions.createAgentUIStream / createAgentUIStreamResponse',
  middleware: 'interventions.middleware on a plain generateText / streamText',
  'plain-tools': 'tools guarded without a run (wrapTools / guardTools / guardTool) in a plain generateText / streamText',
};
