import type { Context } from '@ai-sdk/provider-utils';
import type { ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { BeforeToolCallEvent } from '../actions/intervention-events.ts';
import type { BeforeToolCallAction } from '../actions/lifecycle.ts';
import { sha256, stableJson } from '../data/stable-json.ts';
import { InvalidHandlerError } from '../errors/invalid-handler-error.ts';
import { markCountsPerRun } from '../handlers/counts-per-run.ts';
import { declareStores } from '../handlers/declared-stores.ts';
import type { InterventionHandlerLike, OnError } from '../handlers/intervention-handler.ts';
import { createMemoryStore } from '../store/create-memory-store.ts';
import type { Store } from '../store/store.ts';
import { declaredScope, declareScopes } from '../tools/declared-scopes.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import type { Awaitable } from '../util/awaitable.ts';
import { durationOf } from '../util/duration-of.ts';
import { knownOptions } from '../util/known-options.ts';
import { defaultUser, noUserReason } from './run-user.ts';

/**
 * What a {@link rateLimit} counts separately: `'run'` (each `generateText` /
 * `streamText` call, by `event.runId`), `'user'` (the run's user, from its
 * `runtimeContext`), `'tool'` (the tool's name), `'arguments'` (a SHA-256 of
 * the call's arguments as JSON with sorted keys).
 *
 * @example
 * ```ts
 * const per: RateLimitKeyPart[] = ['user', 'tool']; // each user, each tool: its own counter
 * interventions.use(rateLimit({ limit: 10, windowMs: 60_000, per }));
 * ```
 */
export type RateLimitKeyPart = 'run' | 'user' | 'tool' | 'arguments';

/**
 * Options of {@link rateLimit}.
 *
 * @example
 * ```ts
 * const options: RateLimitOptions = { name: 'email-rate', limit: 5, windowMs: 3_600_000, per: 'user', tools: ['send_email'] };
 * interventions.use(rateLimit(options));
 * ```
 */
export interface RateLimitOptions<TOOLS extends ToolSet = ToolSet> {
  /** The handler's name (unique in a `createInterventions`), also the counters' key prefix. Default `'rate-limit'`. */
  readonly name?: string;
  /** How many calls each counter allows per window (0 blocks every call). */
  readonly limit: number;
  /**
   * The window's length. Windows are fixed: aligned on multiples of
   * `windowMs` since the epoch (so every server agrees on them), each with
   * its own counter.
   */
  readonly windowMs: number;
  /**
   * What is counted separately: one {@link RateLimitKeyPart}, several (each
   * combination has its own counter), `[]` (one counter for every call), or a
   * function returning the key (e.g. a tenant id). A key with `'run'` needs
   * a run: tools guarded without one (`wrapTools`, `guardTools`) and
   * `interventions.middleware` refuse it with a `GuardNotEnforcedError`.
   */
  readonly per: RateLimitKeyPart | readonly RateLimitKeyPart[] | ((event: BeforeToolCallEvent) => Awaitable<string>);
  /**
   * The user of a run, for `per: 'user'`. Default: `runtimeContext.userId`.
   * A call without a user follows `onError`: with `'deny'` (default) it is denied, and the
   * model and the record read that `runtimeContext.userId` is missing.
   */
  readonly user?: (runtimeContext: Context) => string | undefined;
  /** Only calls in this scope ({@link ToolScope}) are counted and limited. Default: every tool. */
  readonly tools?: ToolScope<TOOLS>;
  /**
   * Where the counters live. Default: a memory store of this handler (one
   * process). Pass `createRedisStore(...)` to share the limit between
   * server instances.
   */
  readonly store?: Store;
  /**
   * A call over the limit is not run and: `'deny'` (default) the model reads
   * why, `'guide'` the model reads it as feedback to revise, `'confirm'` a
   * human may allow it anyway.
   */
  readonly exit?: 'deny' | 'guide' | 'confirm';
  /**
   * When the store fails (Redis down) or the key cannot be made (no user):
   * `'deny'` (default, fail closed), `'proceed'` (fail open) or `'throw'`.
   */
  readonly onError?: OnError;
  /** A check (store round trip) taking longer is treated as a failure (see `onError`). */
  readonly timeoutMs?: number;
  /** `'shadow'` counts and records without blocking anything. Default `'enforce'`. */
  readonly mode?: HandlerMode;
}

/** The keys of {@link RateLimitOptions}: `rateLimit` checks its options against them. */
export const RATE_LIMIT_OPTIONS = knownOptions<RateLimitOptions>({
  name: true,
  limit: true,
  windowMs: true,
  per: true,
  user: true,
  tools: true,
  store: true,
  exit: true,
  onError: true,
  timeoutMs: true,
  mode: true,
});

/**
 * A `beforeToolCall` handler limiting tool calls in fixed windows: at most
 * `limit` calls per `windowMs` for each key `per` makes (run, user, tool,
 * arguments, or your own). A call over the limit is not counted and is denied
 * (or guided, or sent to a human) with a reason that says how many calls in
 * what window, and when the window resets. The counters live in the `store`:
 * with `createRedisStore` every server instance shares them, atomically.
 *
 * A call is counted when this handler lets it through, even if a later
 * handler then blocks it. A call resumed after a human's approval is checked
 * (and counted) again, as every handler runs again on resume; with
 * `exit: 'confirm'`, the approval is what lets an over-limit call run.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({
 *   handlers: [
 *     // each user: 20 tool calls a minute, and 3 emails an hour
 *     rateLimit({ limit: 20, windowMs: 60_000, per: 'user' }),
 *     rateLimit({ name: 'email-rate', limit: 3, windowMs: 3_600_000, per: 'user', tools: ['send_email'], exit: 'guide' }),
 *   ],
 * });
 * await interventions.generateText({ model, tools, prompt, runtimeContext: { userId: session.userId } });
 * ```
 */
export function rateLimit<TOOLS extends ToolSet = ToolSet>(options: RateLimitOptions<NoInfer<TOOLS>>): InterventionHandlerLike<TOOLS> {
  RATE_LIMIT_OPTIONS.check(options, `rateLimit "${options.name ?? 'rate-limit'}"`);
  const {
    name = 'rate-limit',
    limit,
    windowMs,
    per,
    user = defaultUser,
    tools,
    store = createMemoryStore(),
    exit = 'deny',
    onError = 'deny',
    timeoutMs,
    mode,
  } = options;
  if (!(Number.isInteger(limit) && limit >= 0)) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `rateLimit "${name}": limit must be a whole number >= 0, got ${String(limit)}`,
    });
  }
  if (!(Number.isFinite(windowMs) && windowMs > 0)) {
    throw new InvalidHandlerError({
      handlerName: name,
      message: `rateLimit "${name}": windowMs must be a positive number, got ${String(windowMs)}`,
    });
  }
  const scope = tools === undefined ? undefined : declaredScope('tools', tools, name);
  const limited = scope?.matches ?? (() => true);
  const parts: readonly RateLimitKeyPart[] | undefined = typeof per === 'function' ? undefined : typeof per === 'string' ? [per] : per;

  // its tools scope is checked against the runs' tools, like a handler's own
  const handler = declareScopes<InterventionHandlerLike>(
    {
      name,
      onError,
      timeoutMs,
      // it never transforms a call: a streamed step's calls are not held for it
      toolCallActions: ['deny', 'guide', 'confirm'],
      ...(mode === undefined ? {} : { mode }),
      beforeToolCall: async (event): Promise<BeforeToolCallAction> => {
        const { toolName } = event.toolCall;
        if (!limited(toolName, event.tool)) return InterventionActions.proceed();
        if (parts?.includes('user') && !user(event.runtimeContext)) {
          // say what is missing, to the model and in the record, rather than "the check failed"
          const reason = noUserReason(name, 'counts calls per user');
          if (onError === 'deny') return InterventionActions.deny(reason);
          throw new Error(reason);
        }

        const now = Date.now();
        const window = Math.floor(now / windowMs);
        const key =
          parts === undefined
            ? `custom=${encodeURIComponent(await (per as (event: BeforeToolCallEvent) => Awaitable<string>)(event))}`
            : (await Promise.all(parts.map((part) => keyPart(part, event, user, name)))).join(':');
        const { taken } = await store.take(`${name}:${window}:${key}`, { amount: 1, limit, ttlMs: windowMs });
        if (taken) return InterventionActions.proceed();

        const resetsAt = (window + 1) * windowMs;
        const reason =
          `Rate limit reached: ${limit} ${limit === 1 ? 'call' : 'calls'}${scopeOf(parts, toolName)} per ${windowOf(windowMs)}` +
          `${ownerOf(parts)}. The limit resets in ${durationOf(resetsAt - now)} (at ${new Date(resetsAt).toISOString()}).`;
        switch (exit) {
          case 'guide':
            return InterventionActions.guide(`${reason} Do not make this call again before then; continue without it.`);
          case 'confirm':
            return InterventionActions.confirm(`${reason} Allow this call to "${toolName}" anyway?`);
          default:
            return InterventionActions.deny(reason);
        }
      },
    },
    [scope],
  );
  // a count per run needs a run: tools guarded without one refuse it (it would deny every call)
  if (parts?.includes('run') === true) return markCountsPerRun(handler);
  return declareStores(handler, [
    { option: 'store', store, perInstance: 'each instance counts its own calls, so the limit is multiplied by the number of instances' },
  ]);
}

async function keyPart(
  part: RateLimitKeyPart,
  event: BeforeToolCallEvent,
  user: (runtimeContext: Context) => string | undefined,
  name: string,
): Promise<string> {
  switch (part) {
    case 'run':
      if (event.runId === undefined) {
        throw new Error(`rateLimit "${name}" counts per run, but this tool call is not part of a run`);
      }
      return `run=${encodeURIComponent(event.runId)}`;
    case 'user': {
      const id = user(event.runtimeContext);
      if (!id) throw new Error(noUserReason(name, 'counts calls per user'));
      return `user=${encodeURIComponent(id)}`;
    }
    case 'tool':
      return `tool=${encodeURIComponent(event.toolCall.toolName)}`;
    case 'arguments':
      return `arguments=${await sha256(stableJson(event.toolCall.input))}`;
    default:
      throw new Error(`rateLimit "${name}": unknown key part ${JSON.stringify(part)}`);
  }
}

/** `to "search" with these arguments`, from what the key is made of. */
function scopeOf(parts: readonly RateLimitKeyPart[] | undefined, toolName: string): string {
  if (parts === undefined) return '';
  return `${parts.includes('tool') ? ` to "${toolName}"` : ''}${parts.includes('arguments') ? ' with these arguments' : ''}`;
}

/** ` in this run for this user`, from what the key is made of. */
function ownerOf(parts: readonly RateLimitKeyPart[] | undefined): string {
  if (parts === undefined) return '';
  return `${parts.includes('run') ? ' in this run' : ''}${parts.includes('user') ? ' for this user' : ''}`;
}

const UNITS = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
] as const;

/** `minute`, `90 seconds`, `2 hours`, `250 ms`. */
function windowOf(ms: number): string {
  for (const [unit, size] of UNITS) {
    if (ms % size === 0) {
      const count = ms / size;
      return count === 1 ? unit : `${count} ${unit}s`;
    }
  }
  return `${ms} ms`;
}
