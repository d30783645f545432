/**
 * createApprovalInbox on a store: what it asks of the store when many
 * requests are put at once on one instance (a busy server asking several
 * managers at the same moment), and what is listed after.
 */
import { describe, expect, it } from 'vitest';
import { createApprovalInbox, createMemoryStore, type InboxRequest, type Store } from '../../src/index.ts';

/** A memory store that counts the appends it is asked for. */
function countingStore(): { readonly store: Store; readonly appends: () => number } {
  const store = createMemoryStore();
  let appends = 0;
  return {
    store: {
      ...store,
      append: (key, value, options) => {
        appends++;
        return store.append(key, value, options);
      },
    },
    appends: () => appends,
  };
}

function request(index: number, audience: readonly string[] = ['role:manager']): InboxRequest {
  return {
    id: `approval-${index}`,
    toolCallId: `call-${index}`,
    toolName: 'refund',
    callInput: { amount: index },
    input: { amount: index },
    pin: 'sealed',
    askedBy: 'alice',
    askedAt: 1_000 + index,
    approvers: [{ roles: ['manager'] }],
    quorum: 1,
    conversationId: `chat-${index}`,
    audience,
  };
}

async function listed(inbox: ReturnType<typeof createApprovalInbox>, audience: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for await (const kept of inbox.list(audience)) ids.push(kept.id);
  return ids;
}

describe('createApprovalInbox', () => {
  it('should append each request once to each of its lists, though 40 are put at once on one instance', async () => {
    const { store, appends } = countingStore();
    const inbox = createApprovalInbox({ store });
    await Promise.all(Array.from({ length: 40 }, (_, index) => inbox.put(request(index))));
    // one append to the audience's list and one to the conversation's, each: none lost to another put of this instance
    expect(appends()).toBe(80);
    expect(await listed(inbox, ['role:manager'])).toEqual(Array.from({ length: 40 }, (_, index) => `approval-${39 - index}`));
    expect(await inbox.inConversation('chat-7')).toEqual(['approval-7']);
  });

  it('should list every request once, newest first, when two instances put into the same lists at once', async () => {
    const { store, appends } = countingStore();
    const [one, two] = [createApprovalInbox({ store }), createApprovalInbox({ store })];
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? one : two).put(request(index, ['role:manager', 'user:bob']))),
    );
    expect(await listed(one, ['role:manager', 'user:bob'])).toEqual(Array.from({ length: 20 }, (_, index) => `approval-${19 - index}`));
    // what one instance does not know of the other's appends costs a retry, not a lost entry
    expect(appends()).toBeGreaterThanOrEqual(60);
  });

  it('should keep appending after an append fails, and report the failure to its put', async () => {
    const store = createMemoryStore();
    let failures = 1;
    const inbox = createApprovalInbox({
      store: {
        ...store,
        append: (key, value, options) => (failures-- > 0 ? Promise.reject(new Error('Redis away')) : store.append(key, value, options)),
      },
    });
    const results = await Promise.allSettled([inbox.put(request(1)), inbox.put(request(2))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect(await listed(inbox, ['role:manager'])).toEqual(['approval-2']);
  });
});
