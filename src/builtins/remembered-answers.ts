import type { RunEventContext, ToolCallInfo } from '../actions/intervention-events.ts';
import { sha256, stableJson } from '../data/stable-json.ts';

/** A request this handler made, kept in the store until it is answered. */
export interface PendingRequest {
  readonly requestedAt: number;
  readonly key: string;
  readonly session: string | undefined;
}

/** What the first resume of an approved call decided, for its replays. */
export type Answered = 'approved' | 'expired';

export const DAY_MS = 24 * 60 * 60_000;

/** How long an unanswered request is kept when there is no `timeoutMs`. */
export const PENDING_TTL_MS = 7 * DAY_MS;

/** How long replays of an answered request get the first resume's decision (as long as the approval ledger keeps outcomes). */
export const ANSWERED_TTL_MS = DAY_MS;

/** Whose answers these are, and whether that tells people apart (a user id, or the app's own `remember.scope`). */
export interface Owner {
  readonly scope: string;
  readonly known: boolean;
}

/** A remembered answer: allowed or refused, for every conversation (`'always'`) or this one. */
export interface Memory {
  readonly approved: boolean;
  readonly remember: 'always' | 'session';
}

export function defaultOwner({ runtimeContext }: RunEventContext): Owner {
  const userId = runtimeContext.userId;
  return typeof userId === 'string' || typeof userId === 'number'
    ? { scope: String(userId), known: true }
    : { scope: 'anyone', known: false };
}

/**
 * What identifies a request this handler made, across requests and
 * instances: the conversation, the call's id, its tool and its arguments
 * (a provider that numbers calls `call_0` every turn repeats the id alone,
 * in every conversation).
 */
export async function requestId(session: string | undefined, toolCall: ToolCallInfo, input: unknown): Promise<string> {
  let text: string;
  try {
    text = stableJson([session ?? null, toolCall.toolCallId, toolCall.toolName, input]);
  } catch {
    text = JSON.stringify([session ?? null, toolCall.toolCallId, toolCall.toolName, String(input)]);
  }
  return sha256(text);
}

export function defaultSession({ runtimeContext }: RunEventContext): string | undefined {
  const sessionId = runtimeContext.sessionId;
  return typeof sessionId === 'string' || typeof sessionId === 'number' ? String(sessionId) : undefined;
}

export function parseAnswered(stored: string | undefined): Answered | undefined {
  return stored === 'approved' || stored === 'expired' ? stored : undefined;
}

export function parsePending(stored: string): PendingRequest | undefined {
  try {
    const value: unknown = JSON.parse(stored);
    if (value === null || typeof value !== 'object') return undefined;
    const { requestedAt, key, session } = value as Record<string, unknown>;
    if (typeof requestedAt !== 'number' || typeof key !== 'string') return undefined;
    return { requestedAt, key, session: typeof session === 'string' ? session : undefined };
  } catch {
    return undefined;
  }
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} hour${ms === 3_600_000 ? '' : 's'}`;
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms % 1_000 === 0) return `${ms / 1_000} second${ms === 1_000 ? '' : 's'}`;
  return `${ms} ms`;
}
