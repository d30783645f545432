/**
 * createApprovalInbox on a store: what it asks of the store when many
 * requests are put at once on one instance (a busy server asking several
 * managers at the same moment), and what is listed after.
 */
import { describe, expect, it } from 'vitest';
import { type ApprovalInbox, createApprovalInbox, createMemoryStore, type InboxRequest, type Store } from '../../src/index.ts';

/** A memory store that counts the appends it is asked for, and the list entries it returns. */
function countingStore(): { readonly store: Store; readonly appends: () => number; readonly read: () => number } {
  const store = createMemoryStore();
  let appends = 0;
  let read = 0;
  return {
    store: {
      ...store,
      append: (key, value, options) => {
        appends++;
        return store.append(key, value, options);
      },
      list: async (key, options) => {
        const entries = await store.list(key, options);
        read += entries.length;
        return entries;
      },
    },
    appends: () => appends,
    read: () => read,
  };
}

function request(index: number, audience: readonly string[] = ['role:manager'], askedAt = 1_000 + index * 10): InboxRequest {
  return {
    id: `approval-${index}`,
    toolCallId: `call-${index}`,
    toolName: 'refund',
    callInput: { amount: index },
    input: { amount: index },
    pin: 'sealed',
    askedBy: 'alice',
    askedAt,
    approvers: [{ roles: ['manager'] }],
    quorum: 1,
    conversationId: `chat-${index}`,
    audience,
  };
}

async function listed(inbox: ApprovalInbox, audience: readonly string[], options: { before?: string } = {}): Promise<string[]> {
  const ids: string[] = [];
  for await (const kept of inbox.list(audience, options)) ids.push(kept.id);
  return ids;
}

/** Approval ids `approval-<from>` down to `approval-<to>`. */
const newestFirst = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, index) => `approval-${from - index}`);

describe('createApprovalInbox', () => {
  it('should append each request once to each of its lists, though 40 are put at once on one instance', async () => {
    const { store, appends } = countingStore();
    const inbox = createApprovalInbox({ store });
    await Promise.all(Array.from({ length: 40 }, (_, index) => inbox.put(request(index))));
    // one append to the audience's list and one to the conversation's, each: none lost to another put of this instance
    expect(appends()).toBe(80);
    expect(await listed(inbox, ['role:manager'])).toEqual(newestFirst(39, 0));
    expect(await inbox.inConversation('chat-7')).toEqual(['approval-7']);
  });

  it('should list every request once, newest first, when two instances put into the same lists at once', async () => {
    const { store, appends } = countingStore();
    const [one, two] = [createApprovalInbox({ store }), createApprovalInbox({ store })];
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? one : two).put(request(index, ['role:manager', 'user:bob']))),
    );
    expect(await listed(one, ['role:manager', 'user:bob'])).toEqual(newestFirst(19, 0));
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

  it('should read a list whole once, then only what was appended to it since', async () => {
    const { store, read } = countingStore();
    const inbox = createApprovalInbox({ store });
    for (let index = 0; index < 30; index++) await inbox.put(request(index));
    expect(await listed(inbox, ['role:manager'])).toEqual(newestFirst(29, 0));
    expect(read()).toBe(30);
    await inbox.put(request(30));
    await inbox.put(request(31));
    expect(await listed(inbox, ['role:manager', 'anyone'])).toEqual(newestFirst(31, 0));
    // the last entry it knew (to tell the list is the one it read), and the two new ones
    expect(read()).toBe(33);
  });

  it('should page newest first, each request once, though another instance lists an older request between two pages', async () => {
    const store = createMemoryStore();
    const [one, two] = [createApprovalInbox({ store }), createApprovalInbox({ store })];
    for (let index = 0; index < 10; index++) await one.put(request(index));
    const first = (await listed(one, ['role:manager'])).slice(0, 4);
    expect(first).toEqual(newestFirst(9, 6));
    // asked before the page's last request, listed after it (a slow step on another instance), and a new one
    await two.put(request(10, ['role:manager'], 1_055));
    await two.put(request(11));
    const cursor = `${String(1_060).padStart(16, '0')}:approval-6`;
    expect(await listed(one, ['role:manager'], { before: cursor })).toEqual(['approval-10', ...newestFirst(5, 0)]);
    expect((await listed(one, ['role:manager'])).slice(0, 2)).toEqual(['approval-11', 'approval-9']);
  });

  it('should read a list whole again when it is not the list it read (deleted, written anew)', async () => {
    const store = createMemoryStore();
    const inbox = createApprovalInbox({ store });
    for (let index = 0; index < 5; index++) await inbox.put(request(index));
    expect(await listed(inbox, ['role:manager'])).toEqual(newestFirst(4, 0));
    await store.delete('approval-inbox:audience:role:manager');
    await store.append('approval-inbox:audience:role:manager', `${String(1_030).padStart(16, '0')}:approval-3`, { length: 0 });
    expect(await listed(inbox, ['role:manager'])).toEqual(['approval-3']);
  });

  it('should list every request once in two listings at once on one instance', async () => {
    const inbox = createApprovalInbox();
    for (let index = 0; index < 5; index++) await inbox.put(request(index));
    await listed(inbox, ['role:manager']);
    for (let index = 5; index < 60; index++) await inbox.put(request(index, index % 2 === 0 ? ['role:manager'] : ['user:bob']));
    const both = await Promise.all([listed(inbox, ['role:manager', 'user:bob']), listed(inbox, ['user:bob', 'role:manager'])]);
    expect(both).toEqual([newestFirst(59, 0), newestFirst(59, 0)]);
  });
});
