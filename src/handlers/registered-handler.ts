import type { HandlerMode } from '../actions/decision-record.ts';
import { LIFECYCLES, type Lifecycle } from '../actions/lifecycle.ts';
import { InvalidHandlerError } from '../errors/invalid-handler-error.ts';
import { HOOK_NAMES } from '../hooks/hook-registry.ts';
import { type ToolScopeMatcher, toolScope } from '../tools/tool-scope.ts';
import { closestName } from '../util/closest-name.ts';
import { isPlainObject, knownOptions } from '../util/known-options.ts';
import type { InterventionHandlerLike, OnError, ToolCallActionType } from './intervention-handler.ts';

/** A handler with its settings validated and resolved to their defaults. */
export interface RegisteredHandler {
  readonly handler: InterventionHandlerLike;
  readonly name: string;
  readonly onError: OnError;
  readonly timeoutMs: number | undefined;
  readonly mode: HandlerMode;
  /** Whether its tool lifecycle methods apply to a call (`undefined`: to every call). */
  readonly inScope: ToolScopeMatcher | undefined;
  /** The actions its `beforeToolCall` may return besides `proceed` (`undefined`: any). */
  readonly toolCallActions: ReadonlySet<ToolCallActionType> | undefined;
}

const ON_ERROR: readonly OnError[] = ['throw', 'proceed', 'deny'];
const MODES: readonly HandlerMode[] = ['enforce', 'shadow'];
const SETTINGS: readonly string[] = ['name', 'onError', 'timeoutMs', 'mode', 'tools', 'toolCallActions'];
const TOOL_CALL_ACTIONS: readonly ToolCallActionType[] = ['deny', 'guide', 'confirm', 'transform'];
/** What a redaction handler (`createRedactionHandler`'s `RedactionHandler`) adds to a handler's keys. */
interface RedactionHandlerKeys {
  readonly redactor: unknown;
  redactToolError(...args: never[]): unknown;
}

/**
 * Every key a handler written as a plain object may have: a handler's own
 * and a redaction handler's (its `redactor`, and `redactToolError`). Any
 * other key would be ignored: a typo of a setting (`tool`, `timeout`,
 * `onerror`) or a method that is never called.
 */
export const HANDLER_KEYS = knownOptions<InterventionHandlerLike | RedactionHandlerKeys>({
  name: true,
  onError: true,
  timeoutMs: true,
  mode: true,
  tools: true,
  toolCallActions: true,
  beforeInvocation: true,
  beforeModelCall: true,
  afterModelCall: true,
  beforeToolCall: true,
  afterToolCall: true,
  redactor: true,
  redactToolError: true,
});
const LIFECYCLE_LIST = 'beforeInvocation, beforeModelCall, afterModelCall, beforeToolCall or afterToolCall';

/**
 * Validates a handler's shape and settings; throws `InvalidHandlerError`.
 * `position` says where it was given (`handlers[2]`), for the messages;
 * `defaultTimeoutMs` is the timeout of a handler that sets none.
 *
 * A handler must have at least one lifecycle method, and no method that
 * looks like one but is not (a typo such as `beforeToolcall`, `afterToolUse`,
 * or a hook name such as `preToolCall`): either would make a guard that
 * never runs.
 */
export function registerHandler(
  handler: unknown,
  position?: string,
  { defaultTimeoutMs }: { readonly defaultTimeoutMs?: number | undefined } = {},
): RegisteredHandler {
  if (handler == null || typeof handler !== 'object') {
    throw new InvalidHandlerError({
      handlerName: undefined,
      message: `${position === undefined ? 'An intervention handler' : `The intervention handler ${position}`} must be an object, received ${handler === null ? 'null' : typeof handler}.`,
    });
  }
  const { name, onError = 'throw', timeoutMs, mode = 'enforce', tools, toolCallActions } = handler as Partial<InterventionHandlerLike>;

  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidHandlerError({
      handlerName: undefined,
      message: `${position === undefined ? 'An intervention handler' : `The intervention handler ${position}`} (${kindOf(handler)}) has no name: give it a unique, non-empty string \`name\` (it tags its decision records and feedback).`,
    });
  }
  // a named handler is known by its name; the position only locates nameless ones
  const label = `Intervention handler "${name}"`;
  if (!ON_ERROR.includes(onError)) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `${label} has an invalid onError ${JSON.stringify(onError)}; expected 'throw', 'proceed' or 'deny'.`,
    });
  }
  if (timeoutMs !== undefined && timeoutMs !== false && !(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `${label} has an invalid timeoutMs ${String(timeoutMs)}; expected a positive number of milliseconds, or false for no timeout.`,
    });
  }
  if (!MODES.includes(mode)) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `${label} has an invalid mode ${JSON.stringify(mode)}; expected 'enforce' or 'shadow'.`,
    });
  }
  if (
    toolCallActions !== undefined &&
    !(Array.isArray(toolCallActions) && toolCallActions.every((action) => TOOL_CALL_ACTIONS.includes(action as ToolCallActionType)))
  ) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `${label} has invalid toolCallActions ${JSON.stringify(toolCallActions)}; expected a list of ${TOOL_CALL_ACTIONS.map((action) => `'${action}'`).join(', ')} (proceed is always allowed).`,
    });
  }
  // one matcher for every scope: a pattern that cannot be valid throws here, naming the handler
  const inScope = tools === undefined ? undefined : toolScope(tools, { owner: name });
  const methods = handler as Record<string, unknown>;
  let lifecycles = 0;
  for (const lifecycle of LIFECYCLES) {
    const method = methods[lifecycle];
    if (method !== undefined && typeof method !== 'function') {
      throw new InvalidHandlerError({
        handlerName: name,
        message: `${label} has a ${lifecycle} that is not a function (received ${method === null ? 'null' : typeof method}): a lifecycle method takes its event and returns an action made by InterventionActions.`,
      });
    }
    if (method !== undefined) lifecycles++;
  }
  for (const key of methodNames(handler)) {
    const mistake = misnamedLifecycle(key);
    if (mistake === undefined) continue;
    throw new InvalidHandlerError({
      handlerName: name,
      code: 'unknown-lifecycle',
      key,
      message: `${label} has a method "${key}", which is not a lifecycle method, so it would never be called. ${mistake}`,
    });
  }
  checkPlainKeys(handler, name, label);
  // a handler that only redacts the errors tools throw (`redactToolError`) is called too
  if (lifecycles === 0 && typeof methods.redactToolError !== 'function') {
    throw new InvalidHandlerError({
      handlerName: name,
      code: 'no-lifecycle',
      message: `${label} has no lifecycle method, so it would never be called: define ${LIFECYCLE_LIST}.`,
    });
  }

  return {
    handler: handler as InterventionHandlerLike,
    name,
    onError,
    // a handler without its own timeout gets the runtime's; `false` turns it off
    timeoutMs: timeoutMs === false ? undefined : (timeoutMs ?? defaultTimeoutMs),
    mode,
    inScope,
    toolCallActions: toolCallActions === undefined ? undefined : new Set(toolCallActions),
  };
}

/**
 * What is wrong with a method named `key`, when it looks like a lifecycle
 * method (a hook name, a `before…` / `after…` name, or a near miss of a
 * lifecycle name); `undefined` for any other method (a class's own helpers).
 */
function misnamedLifecycle(key: string): string | undefined {
  if ((LIFECYCLES as readonly string[]).includes(key) || SETTINGS.includes(key)) return undefined;
  if ((HOOK_NAMES as readonly string[]).includes(key)) {
    return `${key} is a hook, not a handler method: register it with interventions.addHook('${key}', …) or createInterventions({ hooks: { ${key} } }).`;
  }
  const near = closestName(key, LIFECYCLES);
  if (near === undefined && !/^(before|after)/i.test(key)) return undefined;
  const suggestion = near ?? closestName(key, LIFECYCLES, { within: Number.POSITIVE_INFINITY });
  return `Did you mean ${suggestion}? The lifecycle methods are ${LIFECYCLE_LIST}.`;
}

/**
 * A handler written as a plain object (`defineHandler`, a literal) has only
 * the keys of {@link HANDLER_KEYS}: any other is an error that suggests the
 * closest. A class's instances keep fields and helpers of their own (their
 * methods are checked by {@link misnamedLifecycle}).
 */
export function checkPlainKeys(handler: object, name: string, label = `Intervention handler "${name}"`): void {
  if (!isPlainObject(handler)) return;
  for (const key of Object.keys(handler)) {
    if (HANDLER_KEYS.keys.includes(key)) continue;
    const near = closestName(key, HANDLER_KEYS.keys);
    throw new InvalidHandlerError({
      handlerName: name,
      code: 'unknown-key',
      key,
      message: `${label} has a key "${key}" that no handler has, so it would be ignored${near === undefined ? '' : ` (did you mean ${near}?)`}. A handler's keys are ${HANDLER_KEYS.keys.join(', ')}.`,
    });
  }
}

/**
 * The names of the handler's function-valued properties: its own, and its
 * class's methods up the prototype chain (below `Object.prototype`). Getters
 * are not called.
 */
function methodNames(handler: object): string[] {
  const names = new Set<string>();
  for (let level: object | null = handler; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level)) {
    for (const key of Object.getOwnPropertyNames(level)) {
      if (key !== 'constructor' && typeof Object.getOwnPropertyDescriptor(level, key)?.value === 'function') names.add(key);
    }
  }
  return [...names];
}

/** `an instance of ToolGuard`, or `an object with beforeToolCall`, to say which handler a message is about. */
function kindOf(handler: object): string {
  const prototype: unknown = Object.getPrototypeOf(handler);
  const constructorName =
    prototype === null || prototype === Object.prototype
      ? undefined
      : (prototype as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof constructorName === 'string' && constructorName !== '') return `an instance of ${constructorName}`;
  const keys = Object.keys(handler);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.join(', ')}`;
}

/** Whether the handler defines the lifecycle method. */
export function handles(registered: RegisteredHandler, lifecycle: Lifecycle): boolean {
  return typeof registered.handler[lifecycle] === 'function';
}
