import type { Context } from '@ai-sdk/provider-utils';
import type { LanguageModelUsage, StepResult, ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { BeforeModelCallEvent, BeforeToolCallEvent } from '../actions/intervention-events.ts';
import type { BeforeModelCallAction, BeforeToolCallAction } from '../actions/lifecycle.ts';
import { InvalidHandlerError } from '../errors/invalid-handler-error.ts';
import { markCountsPerRun } from '../handlers/counts-per-run.ts';
import { declareStores } from '../handlers/declared-stores.ts';
import type { InterventionHandlerLike, OnError } from '../handlers/intervention-handler.ts';
import { createMemoryStore } from '../store/create-memory-store.ts';
import type { Store } from '../store/store.ts';
import { durationOf } from '../util/duration-of.ts';
import { knownOptions } from '../util/known-options.ts';
import { defaultUser, noUserReason } from './run-user.ts';

/**
 * Options of {@link callBudget}. Set at least one of `maxToolCalls`,
 * `maxTokens`, `maxCost` (with `cost`).
 *
 * @example
 * ```ts
 * const options: CallBudgetOptions = { per: 'run', maxToolCalls: 25, maxTokens: 200_000, exit: 'guide' };
 * interventions.use(callBudget(options));
 * ```
 */
export interface CallBudgetOptions {
  /** The handler's name (unique in a `createInterventions`), also the budgets' key prefix. Default `'call-budget'`. */
  readonly name?: string;
  /** Tool calls allowed; the next ones are not run (see `exit`). */
  readonly maxToolCalls?: number;
  /**
   * Tokens allowed (each step's `usage.totalTokens`, or input + output);
   * once used up, no further model call is made (see `exit`).
   */
  readonly maxTokens?: number;
  /** Cost allowed, in the unit `cost` returns; once used up, no further model call is made. */
  readonly maxCost?: number;
  /**
   * The cost of one step from its usage (and the step, e.g. for
   * `step.model.modelId`). Required with `maxCost`.
   */
  readonly cost?: (usage: LanguageModelUsage, step: StepResult<ToolSet>) => number;
  /**
   * Whose budget: `'run'` (each `generateText` / `streamText` call) or
   * `'user'` (the run's user, shared by all their runs, on every server
   * instance sharing the `store`). Tools guarded without a run (`wrapTools`,
   * `guardTools`) and `interventions.middleware` have no run: a budget per
   * run is a `GuardNotEnforcedError` there (count per user instead).
   */
  readonly per: 'run' | 'user';
  /**
   * The user of a run, for `per: 'user'`. Default: `runtimeContext.userId`.
   * A run without a user follows `onError`: with `'deny'` (default) its calls are denied,
   * and the model and the record read that `runtimeContext.userId` is missing.
   */
  readonly user?: (runtimeContext: Context) => string | undefined;
  /**
   * Renews the budgets in fixed windows of this length (e.g. a day),
   * aligned on multiples of `windowMs` since the epoch. Default: never
   * (a `'run'` budget's entries expire after a day).
   */
  readonly windowMs?: number;
  /**
   * Where usage is counted. Default: a memory store of this handler (one
   * process). Pass `createRedisStore(...)` for `per: 'user'` across servers.
   */
  readonly store?: Store;
  /**
   * What happens past a budget. Tool calls: `'deny'` (default, the model
   * reads why), `'guide'` (the model reads it as feedback), `'confirm'` (a
   * human may allow the call). Model calls (tokens, cost): `'deny'` ends the
   * run with the reason as its text; `'guide'` gives the model one more call
   * to wrap up (told why; a tool it calls anyway is not run), then ends the
   * run like `'deny'` (a run that starts with its budget used up ends at
   * once); `'confirm'` is
   * not possible before a model call and is a `'deny'` there.
   */
  readonly exit?: 'deny' | 'guide' | 'confirm';
  /**
   * When the store fails (Redis down) or there is no user:
   * `'deny'` (default, fail closed), `'proceed'` (fail open) or `'throw'`.
   */
  readonly onError?: OnError;
  /** A check (store round trip) taking longer is treated as a failure (see `onError`). */
  readonly timeoutMs?: number;
  /** `'shadow'` counts and records without blocking anything. Default `'enforce'`. */
  readonly mode?: HandlerMode;
}

/** The keys of {@link CallBudgetOptions}: `callBudget` checks its options against them. */
export const CALL_BUDGET_OPTIONS = knownOptions<CallBudgetOptions>({
  name: true,
  maxToolCalls: true,
  maxTokens: true,
  maxCost: true,
  cost: true,
  per: true,
  user: true,
  windowMs: true,
  store: true,
  exit: true,
  onError: true,
  timeoutMs: true,
  mode: true,
});

const RUN_TTL_MS = 86_400_000;
const REMEMBERED_RUNS = 10_000;

/**
 * Budgets for a run or a user: tool calls (counted in `beforeToolCall`),
 * tokens and cost (read from each completed step's `usage` in
 * `beforeModelCall`, each step counted once). Past a budget the next tool
 * calls are not run, and no further model call is made: the run ends with
 * the reason, or the model is first told to wrap up (`exit: 'guide'`: one
 * last model call, whose tool calls are not run).
 *
 * Usage is known only once a model call is done: a budget can be overshot
 * by the calls already made (or in flight, for a user's concurrent runs)
 * when it runs out. A step's usage is counted before the next model call, so
 * the last step of a run (which has no next call) does not count towards a
 * `per: 'user'` budget. A call resumed after a human's approval is counted again;
 * with `exit: 'confirm'`, the approval is what lets an over-budget call run.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({
 *   handlers: [
 *     callBudget({ per: 'run', maxToolCalls: 20, maxTokens: 100_000, exit: 'guide' }),
 *     callBudget({
 *       name: 'daily-spend', per: 'user', windowMs: 86_400_000, store: createRedisStore({ client: redis }),
 *       maxCost: 5, cost: (usage) => ((usage.inputTokens ?? 0) * 0.25 + (usage.outputTokens ?? 0) * 2) / 1e6,
 *     }),
 *   ],
 * });
 * ```
 */
export function callBudget(options: CallBudgetOptions): InterventionHandlerLike {
  CALL_BUDGET_OPTIONS.check(options, `callBudget "${options.name ?? 'call-budget'}"`);
  const {
    name = 'call-budget',
    maxToolCalls,
    maxTokens,
    maxCost,
    cost,
    per,
    user = defaultUser,
    windowMs,
    store = createMemoryStore(),
    exit = 'deny',
    onError = 'deny',
    timeoutMs,
    mode,
  } = options;
  const invalid = (message: string) => new InvalidHandlerError({ handlerName: name, message: `callBudget "${name}": ${message}` });
  if (maxToolCalls === undefined && maxTokens === undefined && maxCost === undefined) {
    throw invalid('set at least one of maxToolCalls, maxTokens, maxCost');
  }
  for (const [option, value] of [
    ['maxToolCalls', maxToolCalls],
    ['maxTokens', maxTokens],
    ['maxCost', maxCost],
  ] as const) {
    if (value !== undefined && !(value >= 0)) throw invalid(`${option} must be a number >= 0, got ${String(value)}`);
  }
  if (maxCost !== undefined && cost === undefined) throw invalid('maxCost needs cost: (usage) => number');
  if (windowMs !== undefined && !(Number.isFinite(windowMs) && windowMs > 0)) {
    throw invalid(`windowMs must be a positive number, got ${String(windowMs)}`);
  }
  if (per !== 'run' && per !== 'user') throw invalid(`per must be 'run' or 'user', got ${JSON.stringify(per)}`);

  const ttlMs = windowMs ?? (per === 'run' ? RUN_TTL_MS : undefined);
  const counted = new WeakSet<object>();
  /** Runs given a last model call to wrap up: its step, and why. */
  const wrappedUp = new Map<string, { readonly stepNumber: number; readonly reason: string }>();

  /** The budgets' key for this event, and how to describe its owner and window. */
  const scopeOf = (event: BeforeToolCallEvent | BeforeModelCallEvent) => {
    const now = Date.now();
    const window = windowMs === undefined ? undefined : Math.floor(now / windowMs);
    let owner: string;
    if (per === 'run') {
      if (event.runId === undefined) throw new Error(`callBudget "${name}" counts per run, but this call is not part of a run`);
      owner = `run=${encodeURIComponent(event.runId)}`;
    } else {
      const id = user(event.runtimeContext);
      if (!id) throw new Error(noUserReason(name, 'budgets per user'));
      owner = `user=${encodeURIComponent(id)}`;
    }
    const resets =
      window === undefined || windowMs === undefined
        ? ''
        : ` It resets in ${durationOf((window + 1) * windowMs - now)} (at ${new Date((window + 1) * windowMs).toISOString()}).`;
    return {
      key: (budget: string) => `${name}:${owner}${window === undefined ? '' : `:${window}`}:${budget}`,
      /** `this run has used … of its`, `this user has used … of their`. */
      used: (amount: string) => (per === 'run' ? `this run has used ${amount} of its` : `this user has used ${amount} of their`),
      resets,
    };
  };

  /** A deny that says the run has no user (fail closed), or a throw for the other `onError` policies. */
  const withoutUser = (event: BeforeToolCallEvent | BeforeModelCallEvent) => {
    if (per !== 'user' || user(event.runtimeContext)) return undefined;
    const reason = noUserReason(name, 'budgets per user');
    if (onError === 'deny') return InterventionActions.deny(reason);
    throw new Error(reason);
  };

  const beforeToolCall = async (event: BeforeToolCallEvent): Promise<BeforeToolCallAction> => {
    // the wrap-up call was told to answer without tools: a call it makes anyway is not run
    const wrapUp = wrappedUp.get(event.runId ?? '');
    if (wrapUp !== undefined && event.stepNumber !== undefined && event.stepNumber >= wrapUp.stepNumber) {
      return InterventionActions.deny(`${wrapUp.reason} That was the last model call, so its tool calls are not run.`);
    }
    if (maxToolCalls === undefined) return InterventionActions.proceed();
    const missing = withoutUser(event);
    if (missing) return missing;
    const scope = scopeOf(event);
    const { taken } = await store.take(scope.key('tool-calls'), { amount: 1, limit: maxToolCalls, ttlMs });
    if (taken) return InterventionActions.proceed();
    const reason = `Tool-call budget exhausted: ${scope.used('all')} ${maxToolCalls} tool calls.${scope.resets}`;
    switch (exit) {
      case 'guide':
        return InterventionActions.guide(`${reason} Do not call tools any more; answer with what you have.`);
      case 'confirm':
        return InterventionActions.confirm(`${reason} Allow this call to "${event.toolCall.toolName}" anyway?`);
      default:
        return InterventionActions.deny(reason);
    }
  };

  const beforeModelCall = async (event: BeforeModelCallEvent): Promise<BeforeModelCallAction> => {
    const missing = withoutUser(event);
    if (missing) return missing;
    const scope = scopeOf(event);
    const fresh = event.steps.filter((step) => !counted.has(step));
    const used = async (budget: string, amountOf: (step: StepResult<ToolSet>) => number) => {
      const amount = fresh.reduce((sum, step) => sum + amountOf(step), 0);
      if (amount > 0) {
        return (await store.take(scope.key(budget), { amount, limit: Number.POSITIVE_INFINITY, ttlMs })).value;
      }
      return Number((await store.get(scope.key(budget))) ?? 0);
    };
    const [tokens, spent] = await Promise.all([
      maxTokens === undefined ? undefined : used('tokens', (step) => tokensOf(step.usage)),
      maxCost === undefined || cost === undefined ? undefined : used('cost', (step) => cost(step.usage, step)),
    ]);
    // counted once stored: a failed store leaves them to be counted next time
    for (const step of fresh) counted.add(step);

    let reason: string;
    if (maxTokens !== undefined && tokens !== undefined && tokens >= maxTokens) {
      reason = `Token budget exhausted: ${scope.used(formatNumber(tokens))} ${formatNumber(maxTokens)} tokens.${scope.resets}`;
    } else if (maxCost !== undefined && spent !== undefined && spent >= maxCost) {
      reason = `Cost budget exhausted: ${scope.used(formatNumber(spent))} ${formatNumber(maxCost)} cost budget.${scope.resets}`;
    } else {
      return InterventionActions.proceed();
    }
    const runId = event.runId ?? '';
    // a wrap-up needs something to wrap up: not before the run's first model call
    if (exit === 'guide' && event.stepNumber > 0 && !wrappedUp.has(runId)) {
      wrappedUp.set(runId, { stepNumber: event.stepNumber, reason });
      if (wrappedUp.size > REMEMBERED_RUNS) wrappedUp.delete(wrappedUp.keys().next().value ?? runId);
      return InterventionActions.guide(`${reason} This is your last model call: answer now with what you have, without calling tools.`);
    }
    return InterventionActions.deny(`${reason} No further model calls are made.`);
  };

  const handler: InterventionHandlerLike = {
    name,
    onError,
    timeoutMs,
    // it never transforms a call: a streamed step's calls are not held for it
    toolCallActions: ['deny', 'guide', 'confirm'],
    ...(mode === undefined ? {} : { mode }),
    // a wrap-up (`exit: 'guide'` on tokens or cost) also needs beforeToolCall: the last call's tools do not run
    ...(maxToolCalls === undefined && !(exit === 'guide' && (maxTokens !== undefined || maxCost !== undefined)) ? {} : { beforeToolCall }),
    ...(maxTokens === undefined && maxCost === undefined ? {} : { beforeModelCall }),
  };
  // a budget per run needs a run: tools guarded without one refuse it (it would deny every call)
  if (per === 'run') return markCountsPerRun(handler);
  return declareStores(handler, [
    {
      option: 'store',
      store,
      perInstance: "each instance counts its own usage, so a user's budget is multiplied by the number of instances",
    },
  ]);
}

function tokensOf(usage: LanguageModelUsage): number {
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}
