/**
 * The guard-coverage property test's scenarios and its oracle: what a call
 * should come to, worked out here from the scenario alone (its own scope and
 * annotation matcher and precedence, never the library's matcher or
 * reducer), and which of the other guards a scenario registers must have
 * acted in a phase.
 */
import fc from 'fast-check';
import type { GuardKind } from '../../src/index.ts';

/** The tools the scripted provider may call: four static ones (`crash` throws when it runs) and a dynamic one. */
export const TOOLS = ['alpha', 'beta', 'bravo', 'dyn', 'crash'] as const;
/** The tools that may carry MCP annotations (the dynamic tool has none). */
export const ANNOTATED = ['alpha', 'beta', 'bravo', 'crash'] as const;

/** What a handler does in `beforeToolCall`: `throw` fails at once, `hang` never settles (its timeout fails it). */
export type Behaviour = 'deny' | 'guide' | 'confirm' | 'transform' | 'proceed' | 'throw' | 'hang';

/** The hints a scope may select on (idempotency is left out: nothing here depends on it). */
export type Hint = 'readOnlyHint' | 'destructiveHint' | 'openWorldHint';

export type Scope =
  | { readonly kind: 'all' }
  | { readonly kind: 'exact'; readonly name: string }
  | { readonly kind: 'glob'; readonly prefix: string }
  | { readonly kind: 'not'; readonly prefix: string }
  | { readonly kind: 'hint'; readonly hint: Hint; readonly value: boolean };

export interface HandlerSpec {
  readonly behaviour: Behaviour;
  readonly scope: Scope;
  readonly mode: 'enforce' | 'shadow';
  readonly onError: 'deny' | 'proceed' | 'throw';
  /** Whether it declares the one action it returns (`toolCallActions`): with every handler declaring no transform, a streamed step's calls are not held. */
  readonly declares: boolean;
}

/** A `gateToolCalls` hook: its action for each call in its scope (every other call proceeds). */
export interface GateSpec {
  readonly behaviour: 'deny' | 'guide' | 'confirm' | 'transform' | 'proceed';
  readonly scope: Scope;
}

/** A tool's MCP annotations, and whether the app trusts them (`trustToolAnnotations`). */
export interface ToolAnnotation {
  readonly trusted: boolean;
  readonly hints: Readonly<Partial<Record<Hint, boolean>>>;
}

/** One tool call the provider sends: its id (from a small pool), tool, whether its input is JSON, and a tag. */
export interface CallSpec {
  readonly id: string;
  readonly tool: string;
  readonly json: boolean;
  readonly tag: string;
}

/** How a person answers an approval request: approve, refuse, or approve an edit (`{ tag: 'e' }`). */
export type Answer = 'approve' | 'refuse' | 'edit';

/**
 * The guards a scenario registers besides the deciding handlers and gates,
 * each recording when it is called: every kind of the capability table but
 * `gateToolCalls` (the gates decide) and `onDecision` (the records are read
 * through it). Their oracle: a registered guard acts when its event happens,
 * or its registration (or the path) was refused.
 */
export const PROBE_KINDS = [
  'beforeInvocation',
  'beforeModelCall',
  'afterModelCall',
  'beforeToolCall',
  'afterToolCall',
  'redactToolError',
  'preRequest',
  'onResponse',
  'transformContext',
  'preToolCall',
  'onToolCallResult',
  'onToolCallError',
  'drainSteering',
  'drainFollowUp',
  'onChatStart',
  'onChatDone',
  'onChatAbort',
  'onChatError',
  'onMessage',
  'onStatus',
  'redactors',
] as const satisfies readonly GuardKind[];
export type ProbeKind = (typeof PROBE_KINDS)[number];

export interface Scenario {
  readonly handlers: readonly HandlerSpec[];
  readonly gates: readonly GateSpec[];
  /** A `preToolCall` hook answering the calls in this scope with `{ error }`: their tool does not run. */
  readonly block: Scope | undefined;
  readonly annotations: Readonly<Record<string, ToolAnnotation>>;
  readonly probes: readonly ProbeKind[];
  /** Whether the probes are registered once the path is in use (tools wrapped, agent built), not at creation. */
  readonly late: boolean;
  /** For a plain call: whether the model is wrapped with `interventions.middleware`, and the tools with `wrapTools`. */
  readonly wrapsModel: boolean;
  readonly wrapsTools: boolean;
  readonly turns: readonly (readonly CallSpec[])[];
  /** Whether the app repairs calls (`repairToolCall`): unparsable input becomes `{ tag: 'r' }`, an unknown tool `beta`. */
  readonly repair: boolean;
  /** The answer to the n-th approval request. */
  readonly answers: readonly Answer[];
  /** Whether the resume is sent a second time, with these (possibly different) answers. */
  readonly replay: readonly Answer[] | undefined;
}

/** A tool's hints as a selector reads them: its own where the app trusts them, the specification's defaults otherwise. */
export function hintsOf(annotations: Scenario['annotations'], toolName: string): Readonly<Record<Hint, boolean>> {
  const given = annotations[toolName];
  const declared = given?.trusted === true ? given.hints : {};
  const readOnlyHint = declared.readOnlyHint ?? false;
  return {
    readOnlyHint,
    destructiveHint: declared.destructiveHint ?? !readOnlyHint,
    openWorldHint: declared.openWorldHint ?? true,
  };
}

/** The oracle's own scope matcher (names, prefix globs and hints, as the generators write them). */
export function inScope(scope: Scope, toolName: string, annotations: Scenario['annotations']): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'exact':
      return toolName === scope.name;
    case 'glob':
      return toolName.startsWith(scope.prefix);
    case 'not':
      return !toolName.startsWith(scope.prefix);
    case 'hint':
      return hintsOf(annotations, toolName)[scope.hint] === scope.value;
  }
}

/** A scope as a handler's `tools` entry. */
export function patternOf(scope: Scope): string | { readonly annotations: Readonly<Partial<Record<Hint, boolean>>> } | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'exact':
      return scope.name;
    case 'glob':
      return `${scope.prefix}*`;
    case 'not':
      return `!${scope.prefix}*`;
    case 'hint':
      return { annotations: { [scope.hint]: scope.value } };
  }
}

/** The decisions about calls: the gates first (the reducer evaluates their actions before the handlers), then the handlers. */
export function deciders(scenario: Pick<Scenario, 'gates' | 'handlers'>): readonly HandlerSpec[] {
  return [
    ...scenario.gates.map((gate) => ({ ...gate, mode: 'enforce', onError: 'throw', declares: false }) as const),
    ...scenario.handlers,
  ];
}

const fails = (handler: HandlerSpec) => handler.behaviour === 'throw' || handler.behaviour === 'hang';

/** The oracle for one scenario's calls. */
export class Judge {
  private readonly handlers: readonly HandlerSpec[];
  private readonly annotations: Scenario['annotations'];
  private readonly block: Scope | undefined;

  constructor(scenario: Scenario) {
    this.handlers = deciders(scenario);
    this.annotations = scenario.annotations;
    this.block = scenario.block;
  }

  private enforcedIn(toolName: string) {
    return this.handlers.filter((handler) => handler.mode === 'enforce' && inScope(handler.scope, toolName, this.annotations));
  }

  /** Whether an enforced handler in scope denies a call: a deny, or a failure failing closed. */
  denies(toolName: string): boolean {
    return this.enforcedIn(toolName).some((handler) => handler.behaviour === 'deny' || (fails(handler) && handler.onError === 'deny'));
  }

  /** Whether an enforced handler in scope guides a call (a person's approval outranks it: see `fateOf`). */
  guides(toolName: string): boolean {
    return this.enforcedIn(toolName).some((handler) => handler.behaviour === 'guide');
  }

  /** Whether an enforced handler in scope asks a person about a call. */
  asks(toolName: string): boolean {
    return this.enforcedIn(toolName).some((handler) => handler.behaviour === 'confirm');
  }

  /** Whether a handler in scope may end the run with its error (`onError: 'throw'`). */
  mayThrow(toolName: string): boolean {
    return this.enforcedIn(toolName).some((handler) => fails(handler) && handler.onError === 'throw');
  }

  /** The `+t` each enforced transform in scope appends to a call's tag. */
  transformSuffix(toolName: string): string {
    return '+t'.repeat(this.enforcedIn(toolName).filter((handler) => handler.behaviour === 'transform').length);
  }

  /** Whether the `preToolCall` hook answers a call to this tool itself: its tool does not run. */
  blocks(toolName: string): boolean {
    return this.block !== undefined && inScope(this.block, toolName, this.annotations);
  }

  /**
   * The precedence is seed 000's, deny > confirm > guide > transform > proceed. Through
   * the wrappers, a call the SDK repaired and a handler transformed is not
   * put to a person (the history they would approve holds arguments the
   * model never sent): it is denied. Tools guarded for the plain SDK
   * (`plain`) do not see the repair: the SDK asks about the repaired call.
   */
  fateOf(call: { readonly tool: string; readonly repaired: boolean }, plain = false): Fate {
    if (this.denies(call.tool)) return 'stopped';
    // a confirm outranks a guide: the person is asked, shown the guide's feedback
    if (this.asks(call.tool)) return call.repaired && !plain && this.transformSuffix(call.tool) !== '' ? 'stopped' : 'asks';
    if (this.guides(call.tool)) return 'stopped';
    return this.blocks(call.tool) ? 'blocked' : 'runs';
  }
}

/** A call as the tools see it: after the app's repair, if it repairs. `undefined` when no tool can run it. */
export function effectiveCall(
  call: CallSpec,
  repair: boolean,
): { readonly tool: string; readonly tag: string; readonly repaired: boolean } | undefined {
  const known = (TOOLS as readonly string[]).includes(call.tool);
  if (known && call.json) return { tool: call.tool, tag: call.tag, repaired: false };
  if (!repair) return undefined;
  return { tool: known ? call.tool : 'beta', tag: call.json ? call.tag : 'r', repaired: true };
}

/** What the deciders make of a call: it runs, it waits for a person, it is stopped, or the `preToolCall` hook answers it. */
export type Fate = 'runs' | 'asks' | 'stopped' | 'blocked';

/** What happened in a phase, as far as the probes' events go. */
export interface PhaseEvents {
  /** Whether the phase is the first (the provider's turns), whose loop the drain hooks see. */
  readonly first: boolean;
  /** The tools executed, in order. */
  readonly ran: readonly string[];
  /** How many calls the `preToolCall` hook answered itself. */
  readonly blocked: number;
  readonly asked: number;
  /** How many model calls the phase made, and how many its script had. */
  readonly modelCalls: number;
  readonly scripted: number;
  /** Whether the run failed (a handler failing with `onError: 'throw'`). */
  readonly failed: boolean;
}

/**
 * Whether a probe of `kind` must have been called in a phase where its
 * path enforces it: when its event happened. (A probe is only ever asserted
 * to act, never not to: an event may happen more often than this says.)
 */
export function mustAct(
  kind: ProbeKind,
  events: PhaseEvents,
  { modelLayer, runLayer }: { modelLayer: boolean; runLayer: boolean },
): boolean {
  const executed = events.ran.length > 0;
  const succeeded = events.ran.some((tool) => tool !== 'crash');
  const crashed = events.ran.includes('crash');
  // the model gave its final text (with the secret): nothing asked, nothing failed, every scripted answer used
  const finished = !events.failed && events.asked === 0 && events.modelCalls === events.scripted;
  switch (kind) {
    case 'beforeInvocation':
    case 'onChatStart':
    case 'onMessage':
    case 'beforeModelCall':
    case 'transformContext':
      return runLayer;
    case 'preRequest':
    case 'onResponse':
    case 'afterModelCall':
      return modelLayer && events.modelCalls > 0;
    case 'onStatus':
      return (modelLayer && events.modelCalls > 0) || executed || events.asked > 0;
    case 'beforeToolCall':
    case 'preToolCall':
      return executed;
    case 'afterToolCall':
    case 'onToolCallResult':
      return succeeded;
    case 'onToolCallError':
      return crashed || events.blocked > 0;
    case 'redactToolError':
      return crashed;
    case 'drainSteering':
      // drained at the end of a turn that waits for nobody, under the cap: the first turn, when the loop went on
      return runLayer && events.first && events.modelCalls >= 2;
    case 'drainFollowUp':
      return runLayer && events.first && finished;
    case 'onChatDone':
      return runLayer && !events.failed;
    case 'onChatError':
      return runLayer && events.failed;
    case 'onChatAbort':
      return false;
    case 'redactors':
      return modelLayer && finished;
  }
}

const scopeArb: fc.Arbitrary<Scope> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'all' } as const) },
  { weight: 3, arbitrary: fc.constantFrom(...TOOLS).map((name) => ({ kind: 'exact', name }) as const) },
  { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'br', 'd', 'c').map((prefix) => ({ kind: 'glob', prefix }) as const) },
  { weight: 1, arbitrary: fc.constantFrom('a', 'b').map((prefix) => ({ kind: 'not', prefix }) as const) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('hint' as const),
      hint: fc.constantFrom<Hint>('readOnlyHint', 'destructiveHint', 'openWorldHint'),
      value: fc.boolean(),
    }),
  },
);

const handlerArb: fc.Arbitrary<HandlerSpec> = fc.record({
  behaviour: fc.constantFrom<Behaviour>('deny', 'guide', 'confirm', 'confirm', 'transform', 'transform', 'proceed', 'throw', 'hang'),
  scope: scopeArb,
  mode: fc.constantFrom<'enforce' | 'shadow'>('enforce', 'enforce', 'enforce', 'shadow'),
  onError: fc.constantFrom<'deny' | 'proceed' | 'throw'>('deny', 'deny', 'proceed', 'throw'),
  declares: fc.boolean(),
});

const gateArb: fc.Arbitrary<GateSpec> = fc.record({
  behaviour: fc.constantFrom<GateSpec['behaviour']>('deny', 'guide', 'confirm', 'transform', 'proceed'),
  scope: scopeArb,
});

const hintsArb = fc.record(
  { readOnlyHint: fc.boolean(), destructiveHint: fc.boolean(), openWorldHint: fc.boolean() },
  { requiredKeys: [] },
) as fc.Arbitrary<Partial<Record<Hint, boolean>>>;

const annotationsArb: fc.Arbitrary<Scenario['annotations']> = fc
  .tuple(...ANNOTATED.map(() => fc.record({ trusted: fc.boolean(), hints: hintsArb })))
  .map((each) => Object.fromEntries(ANNOTATED.map((name, index) => [name, each[index] as ToolAnnotation])));

/** One turn: 1–3 calls, ids drawn from a small pool (so one turn may repeat an id), tools known or not. */
const turnArb: fc.Arbitrary<CallSpec[]> = fc.array(
  fc.record({
    id: fc.constantFrom('call_0', 'call_1', 'call_2'),
    tool: fc.constantFrom('alpha', 'beta', 'bravo', 'dyn', 'ghost', 'alpha', 'crash'),
    json: fc.constantFrom(true, true, true, false),
    tag: fc.constantFrom('x', 'y', 'z'),
  }),
  { minLength: 1, maxLength: 3 },
);

const answersArb = fc.array(fc.constantFrom<Answer>('approve', 'refuse', 'edit'), { minLength: 6, maxLength: 6 });

/** Ids reused across turns (a provider numbering calls call_0 every turn) come from the shared pool. */
export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  handlers: fc.array(handlerArb, { minLength: 1, maxLength: 3 }),
  gates: fc.array(gateArb, { minLength: 0, maxLength: 2 }),
  block: fc.option(scopeArb, { nil: undefined, freq: 4 }),
  annotations: annotationsArb,
  probes: fc.uniqueArray(fc.constantFrom(...PROBE_KINDS), { minLength: 0, maxLength: 4 }),
  late: fc.boolean(),
  wrapsModel: fc.boolean(),
  wrapsTools: fc.constantFrom(true, true, true, false),
  turns: fc.array(turnArb, { minLength: 1, maxLength: 2 }),
  repair: fc.boolean(),
  answers: answersArb,
  replay: fc.option(answersArb, { nil: undefined }),
});
