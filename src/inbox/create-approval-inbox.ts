import { createMemoryStore } from '../store/create-memory-store.ts';
import { isInMemory, markInMemory } from '../store/in-memory.ts';
import type { Store } from '../store/store.ts';
import { inTurn } from '../util/in-turn.ts';
import { onDemand } from '../util/on-demand.ts';
import type { InboxGrant } from './approval-grant.ts';
import type { ApprovalInbox, ApprovalInboxOptions, InboxAnswer, InboxRequest } from './approval-inbox.ts';

const WEEK_MS = 7 * 24 * 60 * 60_000;
/** How many requests are read from the store at once while a list is walked. */
const BATCH = 25;
/** Listing, loaded with the first list (most instances put requests and never list them). */
const listing = onDemand(() => import('./sorted-lists.ts'));

/**
 * An {@link ApprovalInbox} on a {@link Store}: each request is a key
 * (expiring after `ttlMs`), listed under its audience (`user:<id>`,
 * `role:<role>`, `anyone`) and its conversation in the store's lists; the
 * answer that closes it is the store's atomic `setIfAbsent`, so with a
 * shared store (Redis) the first answer admitted on any instance stands. In
 * memory by default (this process only); for several instances give every
 * one the same shared store.
 *
 * @example
 * ```ts
 * const store = createRedisStore({ client: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 }) });
 * const interventions = createInterventions({
 *   handlers,
 *   approvalSecret: process.env.APPROVAL_SECRET,
 *   approvalLedger: createApprovalLedger({ store }),
 *   approvalInbox: createApprovalInbox({ store }),
 * });
 * ```
 */
export function createApprovalInbox({
  store = createMemoryStore(),
  ttlMs = WEEK_MS,
  prefix = 'approval-inbox:',
  notify,
  notifyTimeoutMs = 10_000,
}: ApprovalInboxOptions = {}): ApprovalInbox {
  if (!(notifyTimeoutMs > 0)) {
    throw new TypeError(`createApprovalInbox: notifyTimeoutMs must be a positive number, received ${String(notifyTimeoutMs)}.`);
  }
  if (!(ttlMs > 0)) throw new TypeError(`createApprovalInbox: ttlMs must be a positive number, received ${String(ttlMs)}.`);
  const requestKey = (id: string) => `${prefix}request:${id}`;
  const answerKey = (id: string) => `${prefix}answer:${id}`;
  const listKey = (audience: string) => `${prefix}audience:${audience}`;
  const conversationKey = (id: string) => `${prefix}conversation:${id}`;
  // the length each list had when this instance last appended to it: an append at the right length takes one round trip
  const lengths = new Map<string, number>();
  const appendAt = async (key: string, value: string) => {
    let length = lengths.get(key) ?? 0;
    for (;;) {
      const appended = await store.append(key, value, { length });
      lengths.set(key, appended.length);
      if (appended.appended) return;
      length = appended.length;
    }
  };
  // this instance's appends to a list, one after the other: appends racing at one length would all but one
  // retry, so n requests put at once would cost about n²/2 appends instead of n
  const queues = new Map<string, Promise<void>>();
  const push = (key: string, value: string) => inTurn(queues, key, () => appendAt(key, value));
  // the lists as this instance last read them, sorted: a page reads only what was appended since
  let sorted: ((key: string) => Promise<readonly string[]>) | undefined;
  const read = async (id: string) => parse<InboxRequest>(await store.get(requestKey(id)));

  const inbox: ApprovalInbox = {
    async put(request) {
      if (!(await store.setIfAbsent(requestKey(request.id), JSON.stringify(request), { ttlMs }))) return;
      const entry = `${sortable(request.askedAt)}:${request.id}`;
      await Promise.all(request.audience.map((audience) => push(listKey(audience), entry)));
      if (request.conversationId !== undefined) await push(conversationKey(request.conversationId), request.id);
    },

    get: read,

    async close(id, answer) {
      const json = JSON.stringify(answer);
      if (await store.setIfAbsent(answerKey(id), json, { ttlMs })) return answer;
      return parse<InboxAnswer>(await store.get(answerKey(id))) ?? answer;
    },

    async answerOf(id) {
      return parse<InboxAnswer>(await store.get(answerKey(id)));
    },

    async noteApprovals(id, approvedBy) {
      await store.set(`${prefix}approvals:${id}`, JSON.stringify(approvedBy), { ttlMs });
    },

    async approvalsOf(id) {
      return parse<string[]>(await store.get(`${prefix}approvals:${id}`)) ?? [];
    },

    async *list(audience, { before } = {}) {
      const { newestFirst, sortedLists } = await listing();
      const readSorted = (sorted ??= sortedLists(store));
      const lists = await Promise.all([...new Set(audience)].map((key) => readSorted(listKey(key))));
      let batch: string[] = [];
      for (const entry of newestFirst(lists, before)) {
        batch.push(entry.slice(entry.indexOf(':') + 1));
        if (batch.length < BATCH) continue;
        for (const request of await Promise.all(batch.map(read))) if (request !== undefined) yield request;
        batch = [];
      }
      for (const request of await Promise.all(batch.map(read))) if (request !== undefined) yield request;
    },

    async inConversation(conversationId) {
      return store.list(conversationKey(conversationId));
    },

    async putGrant(grant) {
      // kept as long as the inbox keeps requests (listed as expired after its time), or as long as it holds
      const ttl = { ttlMs: Math.max(ttlMs, grant.expiresAt - grant.grantedAt) };
      await store.set(`${prefix}grant:${grant.id}`, JSON.stringify(grant), ttl);
      await Promise.all([push(`${prefix}grants:to:${grant.grantedTo}`, grant.id), push(`${prefix}grants:by:${grant.grantedBy}`, grant.id)]);
    },

    async grantsOf(holder) {
      const ids = await store.list(`${prefix}grants:${holder}`);
      const grants = await Promise.all(ids.map(async (id) => parse<InboxGrant>(await store.get(`${prefix}grant:${id}`))));
      return grants.filter((grant): grant is InboxGrant => grant !== undefined);
    },

    async takeGrantUse(id, uses) {
      const taken = await store.take(`${prefix}grant-uses:${id}`, { amount: 1, limit: uses, ttlMs });
      return taken.taken ? taken.value : undefined;
    },

    async usesOf(id) {
      return (await store.take(`${prefix}grant-uses:${id}`, { amount: 0, limit: Number.MAX_SAFE_INTEGER, ttlMs })).value;
    },

    async revokeGrant(id, by) {
      const key = `${prefix}grant-revoked:${id}`;
      if (await store.setIfAbsent(key, by, { ttlMs })) return by;
      return (await store.get(key)) ?? by;
    },

    async revokedBy(id) {
      return store.get(`${prefix}grant-revoked:${id}`);
    },

    ...(notify === undefined ? {} : { notify, notifyTimeoutMs }),
  };
  return isInMemory(store) ? markInMemory(inbox) : inbox;
}

/** A time as a string that sorts as the time does. */
function sortable(time: number): string {
  return String(Math.max(0, Math.floor(time))).padStart(16, '0');
}

/** The cursor after a request: where the next page of a list starts. */
export function cursorOf(request: Pick<InboxRequest, 'askedAt' | 'id'>): string {
  return `${sortable(request.askedAt)}:${request.id}`;
}

function parse<T>(stored: string | undefined): T | undefined {
  if (stored === undefined) return undefined;
  try {
    return JSON.parse(stored) as T;
  } catch {
    return undefined;
  }
}
