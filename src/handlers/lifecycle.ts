import type { ActionType } from '../actions/intervention-actions.ts';

/**
 * The five points in a run where intervention handlers are evaluated.
 *
 * @example
 * ```ts
 * const point: Lifecycle = 'beforeToolCall';
 * ```
 */
export type Lifecycle = 'beforeInvocation' | 'beforeModelCall' | 'afterModelCall' | 'beforeToolCall' | 'afterToolCall';

/**
 * What an action does at each lifecycle point: `'apply'` (it takes effect),
 * `'warn'` (allowed, recorded with a warning, no effect) or absent (an
 * `InvalidActionError`). This is the lifecycle × action table of the design.
 *
 * @example
 * ```ts
 * ACTION_EFFECTS.beforeToolCall.confirm; // 'apply'
 * ACTION_EFFECTS.afterToolCall.deny; // 'warn': recorded with a warning, no effect
 * ACTION_EFFECTS.afterModelCall.confirm; // undefined: returning it is an InvalidActionError
 * ```
 */
export const ACTION_EFFECTS: Readonly<Record<Lifecycle, Partial<Record<ActionType, 'apply' | 'warn'>>>> = {
  beforeInvocation: {
    proceed: 'apply',
    deny: 'apply',
    guide: 'apply',
    transform: 'apply',
  },
  beforeModelCall: {
    proceed: 'apply',
    deny: 'apply',
    guide: 'apply',
    transform: 'apply',
  },
  afterModelCall: {
    proceed: 'apply',
    deny: 'warn',
    guide: 'apply',
    transform: 'apply',
  },
  beforeToolCall: {
    proceed: 'apply',
    deny: 'apply',
    guide: 'apply',
    confirm: 'apply',
    transform: 'apply',
  },
  afterToolCall: { proceed: 'apply', deny: 'warn', transform: 'apply' },
};

/**
 * Every lifecycle point, in the order they occur in a run.
 *
 * @example
 * ```ts
 * const result = await interventions.generateText({ model, tools, prompt });
 * for (const lifecycle of LIFECYCLES) {
 *   const count = result.interventions.decisions.filter((record) => record.lifecycle === lifecycle).length;
 *   console.log(`${lifecycle}: ${count} decisions`);
 * }
 * ```
 */
export const LIFECYCLES: readonly Lifecycle[] = [
  'beforeInvocation',
  'beforeModelCall',
  'afterModelCall',
  'beforeToolCall',
  'afterToolCall',
];
