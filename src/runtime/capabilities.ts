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
 * redaction handler's `redactToolError`, a hook, the runtime's `redactors`,
 * or `'perRun'`: a handler that keeps its count per run (`callBudget` /
 * `rateLimit` with `per: 'run'`), which needs a run id. The built-ins are
 * handlers and hook sets: a built-in is what its methods and hooks are.
 *
 * @example
 * ```ts
 * const kinds: GuardKind[] = ['beforeToolCall', 'gateToolCalls', 'redactors', 'perRun'];
 * ```
 */
export type GuardKind = Lifecycle | 'redactToolError' | HookName | 'redactors' | 'perRun';

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
 * The tools an entry path cannot enforce a kind of guard on, though it
 * enforces it on the others: `'without-execute'`, a tool the app's client
 * runs (no `execute`; provider-executed tools aside). Such a tool in the
 * scope of such a guard is a `GuardNotEnforcedError` naming the tool (`why`,
 * `instead`) when the tools are wrapped, or when the guard is registered
 * once they are.
 *
 * @example
 * ```ts
 * const refusal = CAPABILITIES['plain-tools'].beforeToolCall;
 * if (refusal.type === 'enforced' && refusal.refusedFor !== undefined) console.log(refusal.refusedFor.instead);
 * ```
 */
export interface ToolRefusal {
  readonly tools: 'without-execute';
  readonly why: string;
  readonly instead: string;
}

/**
 * What an entry path does with a kind of guard:
 *
 * - `'enforced'`: always, by these layers (`note` says what it covers
 *   where that is less than on the wrappers; `refusedFor`, the tools it is
 *   refused for instead);
 * - `'with-middleware'`: enforced when the call's model is wrapped with
 *   `interventions.middleware` (read before `wrapTools`; each call of a
 *   wrapped tool is checked to come from that model), refused otherwise;
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
  | { readonly type: 'enforced'; readonly by: readonly Layer[]; readonly note?: string; readonly refusedFor?: ToolRefusal }
  | { readonly type: 'with-middleware'; readonly by: readonly Layer[] }
  | { readonly type: 'with-wrapped-tools'; readonly by: readonly Layer[] }
  | { readonly type: 'refused'; readonly why: string; readonly instead: string }
  | { readonly type: 'no-event' };

/**
 * One cell of {@link TABLE}: the layers that enforce the kind, separated by
 * spaces (`''`: by none, as for an observer of the records); with a prefix,
 * `with-middleware: ` or `with-wrapped-tools: ` and those layers; `refused: `
 * and one of {@link REFUSALS}; or `no-event`, for an observer only.
 */
type Layers = '' | Layer | `${Layer} ${Layer}` | `${Layer} ${Layer} ${Layer}`;
type Cell<KIND extends GuardKind> =
  | Layers
  | `${'with-middleware' | 'with-wrapped-tools'}: ${Layers}`
  | `refused: ${keyof typeof REFUSALS}`
  | (KIND extends ObserverHook ? 'no-event' : never);

const WRAPPERS = 'interventions.generateText / streamText';
const NO_RUN = 'there is no run around the call (no invocation, no steps, no loop)';
const AGENT_STEERING = 'a ToolLoopAgent takes its steering from whoever calls generate / stream, so the runtime cannot';

/** Why a path refuses a kind, and what to use instead. */
const REFUSALS = {
  'no-run': { why: NO_RUN, instead: `${WRAPPERS}, or agentSettings` },
  'per-run': {
    why: `it counts per run, and ${NO_RUN}: it would deny every call`,
    instead: `per: 'user' (or a key of your own), or ${WRAPPERS}, or agentSettings`,
  },
  'no-loop': { why: NO_RUN, instead: WRAPPERS },
  'agent-steering': { why: `${AGENT_STEERING} steer its loop`, instead: `${WRAPPERS} (with a steering queue or the drain hooks)` },
  'agent-follow-up': { why: `${AGENT_STEERING} continue its loop`, instead: `${WRAPPERS} (with a followUp queue or the drain hooks)` },
} as const;

/**
 * The one table: for each kind of guard, what the wrappers, the middleware
 * and tools guarded without a run do with it (an agent, and its UI stream,
 * do what the wrappers do but for {@link AGENT_REFUSES}).
 */
const TABLE: { readonly [KIND in GuardKind]: readonly [wrappers: Layers, middleware: Cell<KIND>, plainTools: Cell<KIND>] } = {
  beforeInvocation: ['model prepareStep tools', 'refused: no-run', 'refused: no-run'],
  beforeModelCall: ['prepareStep', 'refused: no-run', 'refused: no-run'],
  afterModelCall: ['model', 'model', 'with-middleware: model'],
  beforeToolCall: ['model toolApproval', 'with-wrapped-tools: needsApproval tools', 'needsApproval tools'],
  afterToolCall: ['tools', 'with-wrapped-tools: tools', 'tools'],
  redactToolError: ['tools', 'with-wrapped-tools: tools', 'tools'],
  preRequest: ['model', 'model', 'with-middleware: model'],
  onResponse: ['model', 'model', 'with-middleware: model'],
  transformContext: ['prepareStep', 'refused: no-run', 'refused: no-run'],
  gateToolCalls: ['model toolApproval', 'with-wrapped-tools: needsApproval tools', 'needsApproval tools'],
  preToolCall: ['tools', 'with-wrapped-tools: tools', 'tools'],
  onToolCallResult: ['tools', 'with-wrapped-tools: tools', 'tools'],
  onToolCallError: ['tools repairToolCall', 'with-wrapped-tools: tools', 'tools'],
  drainSteering: ['loop callbacks', 'refused: no-loop', 'refused: no-loop'],
  drainFollowUp: ['loop callbacks', 'refused: no-loop', 'refused: no-loop'],
  onChatStart: ['prepareStep', 'no-event', 'no-event'],
  onChatDone: ['callbacks', 'no-event', 'no-event'],
  onChatAbort: ['callbacks', 'no-event', 'no-event'],
  onChatError: ['model callbacks', 'no-event', 'no-event'],
  onMessage: ['callbacks', 'no-event', 'no-event'],
  onDecision: ['', '', ''],
  onStatus: ['model tools', 'model', 'tools'],
  redactors: ['model tools', 'model', 'with-middleware: model tools'],
  perRun: ['model prepareStep toolApproval', 'refused: per-run', 'refused: per-run'],
};

/**
 * Tools guarded without a run decide a call in the tool's `needsApproval`
 * and stop it in its `execute`: a tool without `execute` (the app's client
 * runs it) cannot be stopped there, so the kinds of guard deciding calls
 * (`kinds`) are refused for such a tool in their scope.
 */
export const CLIENT_TOOLS = {
  kinds: ['beforeToolCall', 'gateToolCalls'] as readonly GuardKind[],
  why: 'its needsApproval can ask a person but never deny: the SDK hands the call to the client',
  instead: `${WRAPPERS}, or agentSettings, or leave the tool out`,
};

/** A `ToolLoopAgent` takes `experimental_steering` from whoever calls it: the drain hooks cannot reach its loop. */
const AGENT_REFUSES: { readonly [KIND in GuardKind]?: Cell<KIND> } = {
  drainSteering: 'refused: agent-steering',
  drainFollowUp: 'refused: agent-follow-up',
};

/** What `path` does with `kind`: what the runtime reads ({@link CAPABILITIES} is this for every path and kind, with the notes). */
export function capabilityOf(path: EntryPath, kind: GuardKind): Capability {
  const [wrappers, middleware, plainTools] = TABLE[kind];
  const cell: string =
    path === 'middleware'
      ? middleware
      : path === 'plain-tools'
        ? plainTools
        : path === 'wrappers'
          ? wrappers
          : (AGENT_REFUSES[kind] ?? wrappers);
  if (cell === 'no-event') return { type: 'no-event' };
  const [type, layers] = cell.includes(': ') ? cell.split(': ') : ['enforced', cell];
  if (type === 'refused') return { type, ...REFUSALS[layers as keyof typeof REFUSALS] };
  return { type: type as 'enforced' | 'with-middleware' | 'with-wrapped-tools', by: layers === '' ? [] : (layers?.split(' ') as Layer[]) };
}

/** What an enforced kind covers on a path, where that is less than on the wrappers (docs only: the runtime reads no note). */
const NOTES: { readonly [PATH in EntryPath]?: { readonly [KIND in GuardKind]?: string } } = {
  middleware: { redactors: "the model's text and reasoning; a tool's errors where its tools are wrapped" },
  'plain-tools': {
    redactToolError: 'errors the tools throw; a call the SDK rejects before any tool runs gets its own error',
    gateToolCalls:
      "each call alone, as a batch of one (tools guarded without a run never see the turn): a gate that weighs a turn's calls together sees them one at a time",
    onToolCallError: 'errors the tools throw; a call the SDK rejects before any tool runs gets its own error',
  },
};

/**
 * What a path does with each kind: an observer may have no event on a path,
 * a guard is enforced or refused (`'no-event'` for a guard does not compile).
 *
 * @inline
 */
type PathCapabilities = {
  readonly [KIND in GuardKind]: KIND extends ObserverHook ? Capability : Exclude<Capability, { readonly type: 'no-event' }>;
};

/**
 * For every entry path and every kind of guard: enforced, or refused when
 * registered (or when the path is used while it is registered). The one
 * place that says it is the table behind `capabilityOf` (internal): `use`,
 * `addHook`, `wrapTools`, `agentSettings`, the middleware and the agent UI
 * streams check against it, and the Guarantees page shows it (generated from
 * this table and tested against it).
 *
 * @example
 * ```ts
 * for (const path of ENTRY_PATHS) console.log(path, CAPABILITIES[path].beforeModelCall.type);
 * // wrappers enforced, agent enforced, agent-ui-stream enforced, middleware refused, plain-tools refused
 * ```
 */
export const CAPABILITIES: { readonly [PATH in EntryPath]: PathCapabilities } = /* @__PURE__ */ capabilitiesOfEveryPath();

function capabilitiesOfEveryPath(): { readonly [PATH in EntryPath]: PathCapabilities } {
  const ofPath = (path: EntryPath) =>
    Object.fromEntries(
      (Object.keys(TABLE) as GuardKind[]).map((kind) => {
        const capability = capabilityOf(path, kind);
        const note = NOTES[path]?.[kind];
        if (capability.type !== 'enforced') return [kind, capability];
        const { why, instead } = CLIENT_TOOLS;
        const refusedFor =
          path === 'plain-tools' && CLIENT_TOOLS.kinds.includes(kind) ? { tools: 'without-execute', why, instead } : undefined;
        return [kind, { ...capability, ...(note === undefined ? {} : { note }), ...(refusedFor === undefined ? {} : { refusedFor }) }];
      }),
    ) as PathCapabilities;
  return Object.fromEntries(ENTRY_PATHS.map((path) => [path, ofPath(path)])) as { readonly [PATH in EntryPath]: PathCapabilities };
}

/** Why a layer a capability needs is missing, and what to do (for `'with-middleware'` / `'with-wrapped-tools'`). */
export const MISSING_LAYER = {
  'with-middleware': {
    why: "the model is not wrapped: tools guarded without a run never see the model's requests and responses",
    instead: `wrapLanguageModel({ model, middleware: interventions.middleware }) for the model (read interventions.middleware before wrapTools), or ${WRAPPERS}`,
  },
  'with-wrapped-tools': {
    why: "its tools are not wrapped: the middleware sees the model's requests and responses, never a tool run",
    instead: `interventions.wrapTools(tools) for the tools of the call, or ${WRAPPERS}`,
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
  wrappers: WRAPPERS,
  agent: 'a ToolLoopAgent built with interventions.agentSettings',
  'agent-ui-stream': 'interventions.createAgentUIStream / createAgentUIStreamResponse',
  middleware: 'interventions.middleware on a plain generateText / streamText',
  'plain-tools': 'tools guarded without a run (wrapTools / guardTools / guardTool) in a plain generateText / streamText',
};
