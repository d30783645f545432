import type { Context } from '@ai-sdk/provider-utils';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { PendingRecord } from '../handlers/record-of.ts';
import { runObservers } from '../hooks/run-hooks.ts';
import { onDemand } from '../util/on-demand.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/** A record's action digest: loads with the first record a runtime with a trail or `actionDigests` reports. */
const actionDigests = onDemand(() => import('../handlers/action-digest.ts'));
/** The run a batch of records was made in, and the arguments they decided. */
export interface RecordsContext {
  readonly runId: string | undefined;
  readonly runtimeContext: Context;
  /** The call's arguments as decided (`undefined` for records that are not about a tool call). */
  readonly input: unknown;
}

/**
 * Whether records are reported once final (see {@link reportRecords}):
 * something reads them as they are made (`onDecision` hooks), or they get
 * action digests (a trail, `actionDigests`).
 */
export function reportsRecords(snapshot: RuntimeSnapshot): boolean {
  return snapshot.actionDigests || snapshot.hooks.onDecision.length > 0;
}

/**
 * The one place a final record goes out: it gets its action digest (with
 * a trail or `actionDigests`), is appended to the trail (which sets
 * `record.trail`), then reaches the `onDecision` hooks, one record at a
 * time, in order. The digest is computed here only, and only then: a
 * runtime without a trail or `actionDigests` hashes nothing (Web Crypto's
 * digest settles on a later turn of the event loop, which would also move
 * what follows a decision in time). A trail that cannot be written throws
 * (the caller's call ends: nothing runs that the trail does not hold).
 */
export async function reportRecords(snapshot: RuntimeSnapshot, records: readonly DecisionRecord[], context: RecordsContext): Promise<void> {
  if (records.length === 0 || !reportsRecords(snapshot)) return;
  const { trail } = snapshot;
  const decisionHooks = snapshot.hooks.onDecision;
  const chain = trail?.keyOf(context);
  for (const record of records as readonly PendingRecord[]) {
    if (snapshot.actionDigests && record.actionDigest === undefined) {
      // the digest's code loads with the first record a runtime with a trail or actionDigests reports
      const { actionDigestOf } = await actionDigests();
      record.actionDigest ??= await actionDigestOf(record, context.input);
    }
    if (trail !== undefined && chain !== undefined) {
      const link = await trail.append(chain, record, { runId: context.runId });
      record.trail = { key: link.key, index: link.index, hash: link.hash, prev: link.prev };
    }
    if (decisionHooks.length > 0) await runObservers(decisionHooks, { record, runId: context.runId });
  }
}
