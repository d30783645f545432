import { emitWarningOnce } from '../errors/emit-warning.ts';
import { InterventionsWarning } from '../errors/interventions-warning.ts';
import { declaredStores } from '../handlers/declared-stores.ts';
import { declaredWarnings } from '../handlers/declared-warnings.ts';
import type { HookEntry } from '../hooks/hook-registry.ts';
import { notifyObservers } from '../hooks/run-hooks.ts';
import { isInMemory } from '../store/in-memory.ts';
import type { InterventionsOptions } from './interventions-options.ts';

/**
 * The configuration warnings of a runtime being created: emitted once per
 * process and code (`process.emitWarning`, or `console.warn` where there
 * is no `process`), and told to the `onStatus` hooks it was created with,
 * once per runtime. Hooks never break creation.
 */
export function warnAtCreation(options: InterventionsOptions, onStatus: ReadonlyArray<HookEntry<'onStatus'>>): void {
  for (const warning of creationWarnings(options)) {
    reportWarning(
      warning,
      onStatus,
      warning.code === 'state-in-memory' ? `${warning.code}:${warning.handlerName}:${warning.option}` : warning.code,
    );
  }
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

/** The options of runtimes made for tools guarded without a run (`guardTools`): the plain SDK call signs their approvals. */
const withoutRun = new WeakSet<InterventionsOptions>();

/** Marks `options` as those of a runtime made by `guardTools`, whose approvals the app's plain SDK call signs. Returns them. */
export function forToolsWithoutRun<OPTIONS extends InterventionsOptions>(options: OPTIONS): OPTIONS {
  withoutRun.add(options);
  return options;
}

/** Where some of a runtime's state lives: what a warning calls it, whether several instances share it, whether it holds approvals. */
interface State {
  readonly label: string;
  readonly shared: boolean;
  readonly approvals: boolean;
}

/**
 * What a runtime created with `options` warns about: each setup whose
 * guarantee silently holds on one instance only while the rest of the
 * runtime's state is shared by several (a store made by
 * `createMemoryStore`, or a built-in's default one, is this process's; any
 * other store counts as shared).
 */
function creationWarnings(options: InterventionsOptions): InterventionsWarning[] {
  const warnings: InterventionsWarning[] = [];
  const { approvalLedger: ledger, approvalSecret, trail } = options;
  const stores = (options.handlers ?? []).flatMap((handler) =>
    declaredStores(handler).map((declared) => ({
      ...declared,
      handlerName: handler.name,
      label: `the ${declared.option} of handler "${handler.name}"`,
      shared: !isInMemory(declared.store),
      approvals: declared.approvals === true,
    })),
  );
  const states: State[] = [
    ...(ledger === undefined || ledger === false ? [] : [{ label: 'the approval ledger', shared: !isInMemory(ledger), approvals: true }]),
    ...(trail === undefined ? [] : [{ label: 'the decision trail', shared: !isInMemory(trail), approvals: false }]),
    ...stores,
  ];
  const shared = states.filter((state) => state.shared);
  // approvals answered on any instance: the ledger, or a built-in's requests, on a shared store
  const sharedApprovals = shared.filter((state) => state.approvals);
  if (approvalSecret === undefined && sharedApprovals.length > 0 && !withoutRun.has(options)) {
    warnings.push(
      new InterventionsWarning({
        code: 'approval-secret-per-instance',
        message:
          `ai-interventions: ${listOf(sharedApprovals)} ${sharedApprovals.length === 1 ? 'is' : 'are'} on a shared store, so approvals are meant to be answered on any instance, ` +
          'but approvalSecret is not set: each instance signs its approval requests with a random key of its own, and an approval asked on one instance ' +
          'and answered on another (or after a restart) is refused as unverifiable, which shows only when a person answers. ' +
          'Pass the same approvalSecret (at least 32 bytes, e.g. openssl rand -base64 32) to createInterventions on every instance.',
      }),
    );
  }
  // a configured secret says approvals are resumed on any instance; the default ledger is this instance's memory
  if (ledger === undefined && (approvalSecret !== undefined || sharedApprovals.length > 0)) {
    warnings.push(
      new InterventionsWarning({
        code: 'approval-ledger-in-memory',
        message:
          `ai-interventions: ${approvalSecret === undefined ? `${listOf(sharedApprovals)} ${sharedApprovals.length === 1 ? 'is' : 'are'} on a shared store` : 'approvalSecret is set'} ` +
          'but the approval ledger is in memory, so an approved call executes once per instance only: ' +
          "a resume replayed on another instance (or after a restart) runs the tool again, and a quorum's approvals and who asked are counted per instance. " +
          'Pass approvalLedger: createApprovalLedger({ store: createRedisStore({ client }) }) (or a ledger on your database) to every instance; ' +
          'pass approvalLedger: createApprovalLedger() to keep it in memory on purpose (one instance) and silence this warning.',
      }),
    );
  }
  if (shared.length === 0) return warnings;
  for (const store of stores) {
    if (store.shared) continue;
    warnings.push(
      new InterventionsWarning({
        code: 'state-in-memory',
        handlerName: store.handlerName,
        option: store.option,
        message:
          `ai-interventions: ${store.label} is in this process's memory while ${listOf(shared)} ${shared.length === 1 ? 'is' : 'are'} shared by several instances: ` +
          `${store.perInstance}. Give it the shared store too (${store.option}: createRedisStore({ client }), or your own).`,
      }),
    );
  }
  if (trail !== undefined && isInMemory(trail)) {
    warnings.push(
      new InterventionsWarning({
        code: 'state-in-memory',
        option: 'trail',
        message:
          `ai-interventions: the decision trail is on a memory store while ${listOf(shared)} ${shared.length === 1 ? 'is' : 'are'} shared by several instances: ` +
          'each instance keeps a chain of its own under the same key, each valid on its own, so verifying one never sees the records of the others. ' +
          'Make it on the shared store: createDecisionTrail({ store: createRedisStore({ client }), key }).',
      }),
    );
  }
  return warnings;
}

/** `a`, `a and b`, `a, b and c`. */
function listOf(states: readonly State[]): string {
  const labels = states.map((state) => state.label);
  return labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}
