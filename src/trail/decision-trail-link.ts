import type { DecisionRecord } from '../actions/decision-record.ts';
import { sha256, stableJson } from '../data/stable-json.ts';

/** The `prev` of a chain's first link: 64 zeros. */
export const GENESIS = '0'.repeat(64);

/**
 * A decision record as its trail keeps it: JSON, with `error` as its text
 * (`name: message`) and without `trail` (the link says where it is).
 *
 * @example
 * ```ts
 * const { links } = await verifyDecisionTrail({ trail, key: `chat:${chatId}` });
 * const denials = links.map((link): DecisionTrailRecord => link.record).filter((record) => record.action === 'deny');
 * ```
 */
export type DecisionTrailRecord = Omit<DecisionRecord, 'error' | 'trail'> & { readonly error?: string };

/**
 * One link of a decision trail, as stored (JSON): the chain's `key`, its
 * place in the chain (`index`, from 0), the hash of the link before it
 * (`prev`; 64 zeros for the first), when it was written (`at`, ISO
 * 8601), the run, the record, and its own `hash`: the SHA-256 (lower-case
 * hex) of the canonical JSON (keys sorted) of
 * `['ai-interventions-trail-v1', <every other field>]`. Changing any field
 * of a link changes its hash, and so breaks the `prev` of the link after it.
 *
 * @example
 * ```ts
 * const { links } = await verifyDecisionTrail({ trail, key: 'chat:42' });
 * for (const link of links as readonly DecisionTrailLink[]) console.log(link.index, link.record.handler, link.record.action, link.hash);
 * ```
 */
export interface DecisionTrailLink {
  readonly key: string;
  readonly index: number;
  readonly prev: string;
  readonly at: string;
  readonly runId?: string;
  readonly record: DecisionTrailRecord;
  readonly hash: string;
}

/** A link's hash: of every field but `hash` (see {@link DecisionTrailLink}). */
export function linkHash(link: Omit<DecisionTrailLink, 'hash'> & { readonly hash?: string }): Promise<string> {
  const { hash: _, ...content } = link;
  return sha256(stableJson(['ai-interventions-trail-v1', content]));
}

/** The record as a trail keeps it (see {@link DecisionTrailRecord}). */
export function trailRecordOf(record: DecisionRecord): DecisionTrailRecord {
  const { error, trail: _, ...rest } = record;
  return error === undefined ? rest : { ...rest, error: errorText(error) };
}

const HASH = /^[0-9a-f]{64}$/;

/** Whether `value` is a hash as links carry them. */
export function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

/**
 * `entry` as a link (a stored JSON text, or the parsed object), or why it
 * is not one. Only the shape is checked here; the hash and the chaining are
 * `verifyDecisionTrail`'s.
 */
export function parseLink(entry: unknown): DecisionTrailLink | string {
  let value: unknown = entry;
  if (typeof entry === 'string') {
    try {
      value = JSON.parse(entry);
    } catch {
      return 'it is not JSON';
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'it is not a link object';
  const link = value as Record<string, unknown>;
  if (typeof link.key !== 'string') return 'it has no chain key';
  if (!Number.isSafeInteger(link.index) || (link.index as number) < 0) return 'it has no index';
  if (!isHash(link.prev)) return 'it has no previous hash';
  if (!isHash(link.hash)) return 'it has no hash';
  if (typeof link.at !== 'string') return 'it has no time';
  if (link.runId !== undefined && typeof link.runId !== 'string') return 'its run id is not a string';
  if (link.record === null || typeof link.record !== 'object' || Array.isArray(link.record)) return 'it has no record';
  return value as DecisionTrailLink;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return stableJson(error);
  } catch {
    return String(error);
  }
}
