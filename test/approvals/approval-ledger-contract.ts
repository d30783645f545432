/**
 * What `createApprovalLedger` must do on any `Store`, as tests: run by
 * `approval-ledger.test.ts` on the memory store and on a real Redis.
 */
import { expect, it } from 'vitest';
import { ApprovalOutcomeUnavailableError, InterventionsError } from '../../src/index.ts';
import type { ApprovalLedgerOptions, ApprovalOutcome } from '../../src/ledger/approval-ledger.ts';
import { createApprovalLedger } from '../../src/ledger/create-approval-ledger.ts';
import { executeOnce } from '../../src/ledger/execute-once.ts';
import type { Store } from '../../src/store/store.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise and its resolve, to hold a tool's execution until the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

export function approvalLedgerContract(makeStore: () => Store): void {
  const ledgerOn = (options: ApprovalLedgerOptions = {}) => {
    const store = options.store ?? makeStore();
    return { store, ledger: createApprovalLedger({ ...options, store }) };
  };

  it('should claim once, say running while it executes, then give the outcome to every replay', async () => {
    const { ledger } = ledgerOn();
    expect(await ledger.claim('a1')).toEqual({ type: 'claimed' });
    expect(await ledger.claim('a1')).toEqual({ type: 'running' });
    const outcome: ApprovalOutcome = { type: 'result', output: { deleted: '/tmp/x', sizes: [1, 2] } };
    expect(await ledger.complete('a1', outcome)).toEqual(outcome);
    expect(await ledger.claim('a1')).toEqual({ type: 'done', outcome });
    expect(await ledger.claim('a1')).toEqual({ type: 'done', outcome });
    expect(await ledger.waitFor('a1')).toEqual(outcome);
    // another approval is another key
    expect(await ledger.claim('a2')).toEqual({ type: 'claimed' });
  });

  it('should execute once among 200 concurrent resumes of one approval, and give all of them its outcome', async () => {
    const { ledger } = ledgerOn();
    let executions = 0;
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        executeOnce({
          ledger,
          approvalId: 'contended',
          execute: async () => {
            executions++;
            await sleep(30);
            return { sent: 'to ada@example.com' };
          },
        }),
      ),
    );
    expect(executions).toBe(1);
    expect(results.filter((result) => result.type === 'executed')).toEqual([{ type: 'executed', output: { sent: 'to ada@example.com' } }]);
    const replays = results.filter((result) => result.type === 'replayed');
    expect(replays).toHaveLength(199);
    expect(new Set(replays.map((replay) => JSON.stringify(replay.outcome)))).toEqual(
      new Set([JSON.stringify({ type: 'result', output: { sent: 'to ada@example.com' } })]),
    );
  });

  it('should make a replay that arrives during the execution wait for its outcome', async () => {
    const { ledger } = ledgerOn();
    const { open, opened } = gate();
    const first = executeOnce({ ledger, approvalId: 'slow', execute: async () => (await opened, 'done at last') });
    await sleep(20);
    let replayed: unknown;
    const replay = executeOnce({ ledger, approvalId: 'slow', execute: () => 'must not run', timeoutMs: 5_000 }).then((result) => {
      replayed = result;
    });
    await sleep(100);
    expect(replayed).toBeUndefined(); // still waiting
    open();
    await replay;
    expect(await first).toEqual({ type: 'executed', output: 'done at last' });
    expect(replayed).toEqual({ type: 'replayed', outcome: { type: 'result', output: 'done at last' } });
  });

  it('should record a thrown error as the text the model reads, rethrow it to the first caller, and replay the text', async () => {
    const { ledger } = ledgerOn();
    const failure = new Error('disk full');
    await expect(
      executeOnce({
        ledger,
        approvalId: 'fails',
        execute: () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    const replay = await executeOnce({ ledger, approvalId: 'fails', execute: () => 'must not run' });
    // the AI SDK's getErrorMessage: what the model read in the tool-error result
    expect(replay).toEqual({ type: 'replayed', outcome: { type: 'error', text: 'Error: disk full' } });
    await expect(executeOnce({ ledger, approvalId: 'fails-too', execute: () => Promise.reject('plain text') })).rejects.toBe('plain text');
    expect(await ledger.claim('fails-too')).toEqual({ type: 'done', outcome: { type: 'error', text: 'plain text' } });
  });

  it('should record a result as the model reads it (JSON), and one that is not JSON as an error outcome saying so', async () => {
    const { ledger } = ledgerOn();
    const when = new Date('2026-08-01T12:00:00.000Z');
    const live = { when, note: undefined, tags: new Set(['a']), nested: { ok: true } };
    const executed = await executeOnce({ ledger, approvalId: 'dated', execute: () => live });
    expect(executed).toEqual({ type: 'executed', output: live }); // the first caller keeps the tool's own value
    expect(await ledger.claim('dated')).toEqual({
      type: 'done',
      outcome: { type: 'result', output: { when: '2026-08-01T12:00:00.000Z', tags: {}, nested: { ok: true } } },
    });

    await executeOnce({ ledger, approvalId: 'nothing', execute: () => undefined });
    expect(await ledger.claim('nothing')).toEqual({ type: 'done', outcome: { type: 'result', output: null } });

    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    for (const [approvalId, output] of [
      ['big', { count: 10n }],
      ['cyclic', cyclic],
    ] as const) {
      const result = await executeOnce({ ledger, approvalId, execute: () => output });
      expect(result).toEqual({ type: 'executed', output });
      const claim = await ledger.claim(approvalId);
      expect(claim.type).toBe('done');
      const outcome = claim.type === 'done' ? claim.outcome : undefined;
      expect(outcome?.type).toBe('error');
      expect(outcome?.type === 'error' ? outcome.text : '').toMatch(
        /^The tool ran, but its result cannot be recorded as JSON for a replay of its approval \(.*(BigInt|circular).*\)\.$/i,
      );
    }
  });

  it('should say what it recorded from complete', async () => {
    const { ledger } = ledgerOn();
    await ledger.claim('c1');
    expect(await ledger.complete('c1', { type: 'result', output: { at: new Date(0) } as never })).toEqual({
      type: 'result',
      output: { at: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('should stop waiting after timeoutMs with ApprovalOutcomeUnavailableError, and never execute the replay', async () => {
    const { ledger } = ledgerOn({ waitTimeoutMs: 150 });
    expect(await ledger.claim('stuck')).toEqual({ type: 'claimed' }); // claimed, never completed (the instance died)
    let ran = false;
    const started = Date.now();
    const error = await executeOnce({ ledger, approvalId: 'stuck', execute: () => (ran = true) }).catch((caught: unknown) => caught);
    const waited = Date.now() - started;
    expect(ran).toBe(false);
    expect(ApprovalOutcomeUnavailableError.isInstance(error)).toBe(true);
    expect(InterventionsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'AIInterventions_ApprovalOutcomeUnavailableError',
      code: 'approval-outcome-unavailable',
      approvalId: 'stuck',
      reason: 'timeout',
      timeoutMs: 150,
    });
    expect((error as Error).message).toBe(
      'The call approved by "stuck" is still executing elsewhere: no outcome within 150 ms. It is not executed again.',
    );
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(1_500);
    // the per-call timeout wins over the ledger's
    const quick = Date.now();
    await expect(ledger.waitFor('stuck', { timeoutMs: 30 })).rejects.toMatchObject({ reason: 'timeout', timeoutMs: 30 });
    expect(Date.now() - quick).toBeLessThan(1_000);
  });

  it('should stop waiting when the abort signal fires, with its reason', async () => {
    const { ledger } = ledgerOn();
    await ledger.claim('aborted');
    const controller = new AbortController();
    const waiting = ledger.waitFor('aborted', { timeoutMs: 60_000, abortSignal: controller.signal });
    await sleep(30);
    const started = Date.now();
    controller.abort(new Error('the user went away'));
    await expect(waiting).rejects.toThrow('the user went away');
    expect(Date.now() - started).toBeLessThan(500);
    // already aborted: rejects at once
    await expect(
      executeOnce({ ledger, approvalId: 'aborted', execute: () => 'x', abortSignal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('should fail a waiter whose claim disappears without an outcome (expired), and never execute it', async () => {
    const { ledger, store } = ledgerOn({ prefix: 'ledger:' });
    await ledger.claim('vanishing');
    expect(await store.get('ledger:vanishing')).toBeDefined();
    const waiting = ledger.waitFor('vanishing', { timeoutMs: 5_000 });
    await sleep(30);
    await store.delete('ledger:vanishing');
    await expect(waiting).rejects.toMatchObject({ code: 'approval-outcome-unavailable', reason: 'expired', approvalId: 'vanishing' });
    await expect(ledger.waitFor('never-claimed')).rejects.toMatchObject({ reason: 'expired' });
  });

  it('should expire entries after ttlMs: the approval is then a first resume again', async () => {
    const { ledger } = ledgerOn({ ttlMs: 150 });
    await executeOnce({ ledger, approvalId: 'short', execute: () => 'first' });
    expect((await ledger.claim('short')).type).toBe('done');
    await sleep(250);
    expect(await ledger.claim('short')).toEqual({ type: 'claimed' });
    expect(() => createApprovalLedger({ store: makeStore(), ttlMs: 0 })).toThrow(/ttlMs must be a positive number/);
  });

  it('should keep its entries under the prefix, and count an unreadable entry as running', async () => {
    const { ledger, store } = ledgerOn({ prefix: 'tenant-7:approvals:' });
    await executeOnce({ ledger, approvalId: 'id-1', execute: () => 42 });
    expect(JSON.parse((await store.get('tenant-7:approvals:id-1')) ?? 'null')).toEqual({
      state: 'done',
      outcome: { type: 'result', output: 42 },
    });
    for (const garbage of ['not json', '{"state":"done","outcome":{"type":"weird"}}', 'null']) {
      await store.set('tenant-7:approvals:odd', garbage);
      expect(await ledger.claim('odd')).toEqual({ type: 'running' });
    }
  });

  it('should return the executed result even when recording it fails; replays then time out instead of executing', async () => {
    const store = makeStore();
    let failSets = true;
    const flaky: Store = {
      ...store,
      set: (key, value, options) => (failSets ? Promise.reject(new Error('store down')) : store.set(key, value, options)),
    };
    const ledger = createApprovalLedger({ store: flaky, waitTimeoutMs: 100 });
    expect(await executeOnce({ ledger, approvalId: 'unrecorded', execute: () => 'sent' })).toEqual({ type: 'executed', output: 'sent' });
    failSets = false;
    let ran = false;
    await expect(executeOnce({ ledger, approvalId: 'unrecorded', execute: () => (ran = true) })).rejects.toMatchObject({
      reason: 'timeout',
    });
    expect(ran).toBe(false);
  });

  it('should claim before the deadline, and from the deadline on record the approval as expired for every later claim', async () => {
    const { ledger } = ledgerOn();
    expect(await ledger.claim('in-time', { expiresAt: Date.now() + 60_000 })).toEqual({ type: 'claimed' });
    expect(await ledger.claim('late', { expiresAt: Date.now() - 1 })).toEqual({ type: 'expired' });
    expect(await ledger.claim('late')).toEqual({ type: 'expired' });
    expect(await ledger.claim('late', { expiresAt: Date.now() + 60_000 })).toEqual({ type: 'expired' });
    await expect(ledger.waitFor('late', { timeoutMs: 50 })).rejects.toSatisfy(ApprovalOutcomeUnavailableError.isInstance);
  });

  it('should say an approval expired only past its deadline and unclaimed, and then keep it expired', async () => {
    const { ledger } = ledgerOn();
    expect(await ledger.expired?.('open', Date.now() + 60_000)).toBe(false);
    expect(await ledger.claim('open', { expiresAt: Date.now() + 60_000 })).toEqual({ type: 'claimed' });
    expect(await ledger.expired?.('open', Date.now() - 1)).toBe(false);
    expect(await ledger.expired?.('gone', Date.now() - 1)).toBe(true);
    expect(await ledger.claim('gone', { expiresAt: Date.now() + 60_000 })).toEqual({ type: 'expired' });
  });

  it('should let exactly one of 100 concurrent claims at the deadline win, or none: never both a claim and an expiry', async () => {
    const { ledger } = ledgerOn();
    const expiresAt = Date.now() + 20;
    const claims = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        await sleep(index % 40);
        return ledger.claim('boundary', { expiresAt });
      }),
    );
    const types = new Set(claims.map((claim) => claim.type));
    if (types.has('claimed')) {
      expect(claims.filter((claim) => claim.type === 'claimed')).toHaveLength(1);
      expect(types.has('expired')).toBe(false);
    } else {
      expect(types).toEqual(new Set(['expired']));
    }
  });

  it('should count each approver of an approval once', async () => {
    const { ledger } = ledgerOn();
    expect(await ledger.vote?.('v1', 'bob')).toEqual(['bob']);
    expect(await ledger.vote?.('v1', 'bob')).toEqual(['bob']);
    expect([...((await ledger.vote?.('v1', 'carol')) ?? [])].sort()).toEqual(['bob', 'carol']);
    expect(await ledger.vote?.('v2', 'dave')).toEqual(['dave']);
  });

  it('should keep the first refusal of an approval, for every later reader', async () => {
    const { ledger } = ledgerOn();
    expect(await ledger.refusedBy?.('f1')).toBeUndefined();
    expect(await ledger.refuse?.('f1', 'carol')).toBe('carol');
    expect(await ledger.refuse?.('f1', 'dave')).toBe('carol');
    expect(await ledger.refusedBy?.('f1')).toBe('carol');
    expect(await ledger.refusedBy?.('f2')).toBeUndefined();
  });
}
