import type { Context } from '@ai-sdk/provider-utils';
import { userIdOf } from '../actions/user-id-of.ts';

/** The run's user for the per-user built-ins: `runtimeContext.userId`, as a string. */
export function defaultUser(runtimeContext: Context): string | undefined {
  return userIdOf(runtimeContext);
}

/**
 * What the model and the decision record read when a per-user built-in runs
 * without a user: what is missing and how to give it, rather than "the check
 * failed".
 */
export function noUserReason(name: string, what: string): string {
  return (
    `"${name}" needs runtimeContext.userId (it ${what}), and this run has none, so the call was not run. ` +
    'Pass runtimeContext: { userId } with the call, or a `user` option.'
  );
}
