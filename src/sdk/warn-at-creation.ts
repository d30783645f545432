import { emitWarningOnce } from '../errors/emit-warning.ts';
import { InterventionsWarning } from '../errors/interventions-warning.ts';
import { declaredWarnings } from '../handlers/declared-warnings.ts';
import type { HookEntry } from '../hooks/hook-registry.ts';
import { notifyObservers } from '../hooks/run-hooks.ts';
import type { InterventionsOptions } from './interventions.ts';

/**
 * The configuration warnings of a runtime being created: emitted once per
 * process and code (`process.emitWarning`, or `console.warn` where there
 * is no `process`), and told to the `onStatus` hooks it was created with,
 * once per runtime. Hooks never break creation.
 */
export function warnAtCreation(options: InterventionsOptions, onStatus: ReadonlyArray<HookEntry<'onStatus'>>): void {
  for (const warning of creationWarnings(options)) reportWarning(warning, onStatus);
}

/**
 * Reports what a handler's options warn about (a deprecated option, filed
 * by `declareWarnings`) as it is registered: once per process and option,
 * and to the runtime's `onStatus` hooks.
 */
export function warnAtRegistration(handler: object, onStatus: ReadonlyArray<HookEntry<'onStatus'>>): void {
  for (const warning of declaredWarnings(handler)) reportWarning(warning, onStatus, `${warning.code}:${warning.option}`);
}

/**
 * Reports a configuration warning: emitted once per process and `key` (the
 * warning's code unless said otherwise), and told to the `onStatus` hooks
 * given (the caller tells each runtime once). Hooks never throw here.
 */
export function reportWarning(
  warning: InterventionsWarning,
  onStatus: ReadonlyArray<HookEntry<'onStatus'>>,
  key: string = warning.code,
): void {
  emitWarningOnce(warning, key);
  if (onStatus.length > 0) {
    void notifyObservers(onStatus, {
      runId: undefined,
      runtimeContext: {},
      status: { type: 'warning', code: warning.code, message: warning.message },
    });
  }
}

/** What a runtime created with `options` warns about. */
function creationWarnings(options: InterventionsOptions): InterventionsWarning[] {
  const warnings: InterventionsWarning[] = [];
  // a configured secret says approvals are resumed on any instance; the default ledger is this instance's memory
  if (options.approvalSecret !== undefined && options.approvalLedger === undefined) {
    warnings.push(
      new InterventionsWarning({
        code: 'approval-ledger-in-memory',
        message:
          'ai-interventions: approvalSecret is set but the approval ledger is in memory, so an approved call executes once per instance only: ' +
          'a resume replayed on another instance (or after a restart) runs the tool again. ' +
          'Pass approvalLedger: createApprovalLedger({ store: createRedisStore({ client }) }) (or a ledger on your database) to every instance; ' +
          'pass approvalLedger: createApprovalLedger() to keep it in memory on purpose (one instance) and silence this warning.',
      }),
    );
  }
  return warnings;
}
