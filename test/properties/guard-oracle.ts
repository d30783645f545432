/**
 * The guard-coverage property test's scenarios and its oracle: what a call
 * should come to, worked out here from the scenario alone (its own scope
 * matcher and precedence, never the library's matcher or reducer).
 */
import fc from 'fast-check';

/** The tools the scripted provider may call: three static ones and a dynamic one. */
export const TOOLS = ['alpha', 'beta', 'bravo', 'dyn'] as const;

/** What a handler does in `beforeToolCall`: `throw` fails at once, `hang` never settles (its timeout fails it). */
export type Behaviour = 'deny' | 'guide' | 'confirm' | 'transform' | 'proceed' | 'throw' | 'hang';

export type Scope =
  | { readonly kind: 'all' }
  | { readonly kind: 'exact'; readonly name: string }
  | { readonly kind: 'glob'; readonly prefix: string }
  | { readonly kind: 'not'; readonly prefix: string };

export interface HandlerSpec {
  readonly behaviour: Behaviour;
  readonly scope: Scope;
  readonly mode: 'enforce' | 'shadow';
  readonly onError: 'deny' | 'proceed' | 'throw';
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

export interface Scenario {
  readonly handlers: readonly HandlerSpec[];
  readonly turns: readonly (readonly CallSpec[])[];
  /** Whether the app repairs calls (`repairToolCall`): unparsable input becomes `{ tag: 'r' }`, an unknown tool `beta`. */
  readonly repair: boolean;
  /** The answer to the n-th approval request. */
  readonly answers: readonly Answer[];
  /** Whether the resume is sent a second time, with these (possibly different) answers. */
  readonly replay: readonly Answer[] | undefined;
}

/** The oracle's own scope matcher (names and prefix globs, as the generators write them). */
export function inScope(scope: Scope, toolName: string): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'exact':
      return toolName === scope.name;
    case 'glob':
      return toolName.startsWith(scope.prefix);
    case 'not':
      return !toolName.startsWith(scope.prefix);
  }
}

/** A scope as a handler's `tools` pattern. */
export function patternOf(scope: Scope): string | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'exact':
      return scope.name;
    case 'glob':
      return `${scope.prefix}*`;
    case 'not':
      return `!${scope.prefix}*`;
  }
}

const fails = (handler: HandlerSpec) => handler.behaviour === 'throw' || handler.behaviour === 'hang';
const enforcedIn = (handlers: readonly HandlerSpec[], toolName: string) =>
  handlers.filter((handler) => handler.mode === 'enforce' && inScope(handler.scope, toolName));

/** Whether an enforced handler in scope denies a call: a deny, or a failure failing closed. */
export function denies(handlers: readonly HandlerSpec[], toolName: string): boolean {
  return enforcedIn(handlers, toolName).some((handler) => handler.behaviour === 'deny' || (fails(handler) && handler.onError === 'deny'));
}

/** Whether an enforced handler in scope guides a call (after a person approved it, too: the handlers decide again). */
export function guides(handlers: readonly HandlerSpec[], toolName: string): boolean {
  return enforcedIn(handlers, toolName).some((handler) => handler.behaviour === 'guide');
}

/** Whether an enforced handler in scope asks a person about a call. */
export function asks(handlers: readonly HandlerSpec[], toolName: string): boolean {
  return enforcedIn(handlers, toolName).some((handler) => handler.behaviour === 'confirm');
}

/** Whether a handler in scope may end the run with its error (`onError: 'throw'`). */
export function mayThrow(handlers: readonly HandlerSpec[], toolName: string): boolean {
  return enforcedIn(handlers, toolName).some((handler) => fails(handler) && handler.onError === 'throw');
}

/** The `+t` each enforced transform in scope appends to a call's tag. */
export function transformSuffix(handlers: readonly HandlerSpec[], toolName: string): string {
  return '+t'.repeat(enforcedIn(handlers, toolName).filter((handler) => handler.behaviour === 'transform').length);
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

/** What the handlers make of a call: it runs, it waits for a person, or it is stopped. */
export type Fate = 'runs' | 'asks' | 'stopped';

/**
 * The precedence is deny > guide > confirm > transform > proceed. Through the
 * wrappers, a call the SDK repaired and a handler transformed is not put to a
 * person (the history they would approve holds arguments the model never
 * sent): it is denied. Tools guarded for the plain SDK (`plain`) do not see
 * the repair: the SDK asks about the repaired call.
 */
export function fateOf(handlers: readonly HandlerSpec[], call: { readonly tool: string; readonly repaired: boolean }, plain = false): Fate {
  if (denies(handlers, call.tool)) return 'stopped';
  // a guided call does not run whatever a person answers: nobody is asked
  if (guides(handlers, call.tool)) return 'stopped';
  if (asks(handlers, call.tool)) return call.repaired && !plain && transformSuffix(handlers, call.tool) !== '' ? 'stopped' : 'asks';
  return 'runs';
}

const scopeArb: fc.Arbitrary<Scope> = fc.oneof(
  fc.constant({ kind: 'all' } as const),
  fc.constantFrom(...TOOLS).map((name) => ({ kind: 'exact', name }) as const),
  fc.constantFrom('a', 'b', 'br', 'd').map((prefix) => ({ kind: 'glob', prefix }) as const),
  fc.constantFrom('a', 'b').map((prefix) => ({ kind: 'not', prefix }) as const),
);

const handlerArb: fc.Arbitrary<HandlerSpec> = fc.record({
  behaviour: fc.constantFrom<Behaviour>('deny', 'guide', 'confirm', 'confirm', 'transform', 'transform', 'proceed', 'throw', 'hang'),
  scope: scopeArb,
  mode: fc.constantFrom<'enforce' | 'shadow'>('enforce', 'enforce', 'enforce', 'shadow'),
  onError: fc.constantFrom<'deny' | 'proceed' | 'throw'>('deny', 'deny', 'proceed', 'throw'),
});

/** One turn: 1–3 calls, ids drawn from a small pool (so one turn may repeat an id), tools known or not. */
const turnArb: fc.Arbitrary<CallSpec[]> = fc.array(
  fc.record({
    id: fc.constantFrom('call_0', 'call_1', 'call_2'),
    tool: fc.constantFrom('alpha', 'beta', 'bravo', 'dyn', 'ghost'),
    json: fc.constantFrom(true, true, true, false),
    tag: fc.constantFrom('x', 'y', 'z'),
  }),
  { minLength: 1, maxLength: 3 },
);

const answersArb = fc.array(fc.constantFrom<Answer>('approve', 'refuse', 'edit'), { minLength: 6, maxLength: 6 });

/** Ids reused across turns (a provider numbering calls call_0 every turn) come from the shared pool. */
export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  handlers: fc.array(handlerArb, { minLength: 1, maxLength: 3 }),
  turns: fc.array(turnArb, { minLength: 1, maxLength: 2 }),
  repair: fc.boolean(),
  answers: answersArb,
  replay: fc.option(answersArb, { nil: undefined }),
});
