/**
 * The approval inbox on a real `redis-server` (issue 37, item 7): a runtime
 * with its approval ledger and inbox on Redis, whose one handler asks a
 * manager to confirm every refund and lets every order lookup proceed. The
 * inbox holds `pending` requests waiting for an answer: most put directly
 * through the inbox's `put` (copies of a real request, for speed), the
 * newest asked through `interventions.generateText` by employees. Then, each
 * timed and its Redis commands counted (every command the store sends is one
 * round trip; a script's own calls inside Redis are not counted): a
 * manager's first page of their inbox; answering one request by id; the
 * employee's next request resuming an approved one (it runs once, through
 * the ledger); a call a handler lets proceed, with nothing pending and with
 * the caller's own request pending; and a call a handler confirms (its
 * request put in the inbox). With `newInstances`, only a manager's first
 * page on instances that never listed before (its own process: reading large
 * lists leaves a process slower for a while after, which the other rows
 * would pay).
 */
import { isStepCount, type ModelMessage, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import {
  type ApprovalInbox,
  createApprovalInbox,
  createApprovalLedger,
  createInterventions,
  createRedisStore,
  defineHandler,
  type InboxRequest,
  InterventionActions,
  type RedisStoreClient,
} from 'ai-interventions';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { redisServerVersion, startRedis } from '../lib/redis-server.ts';
import type { InboxRedisRow, Result } from '../lib/scenario.ts';

type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type Context = Record<string, unknown>;

const SECRET = 'the approval secret of the benchmark, 32 bytes or more';
const BOB = { userId: 'bob', role: 'manager' };
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
/** Requests put at once while the inbox is filled (a busy server asking many managers). */
const FILL_CONCURRENCY = 32;

/** A model that calls `toolName` with `input` once (none: no call), then answers "done"; `prompts`: what it was sent. */
function scriptedModel(toolName?: string, input?: unknown) {
  const prompts: unknown[] = [];
  const step = (): LanguageModelV4GenerateResult =>
    prompts.length === 1 && toolName !== undefined
      ? {
          content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        }
      : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      return step();
    },
  });
  return Object.assign(model, { prompts });
}

/** A client that counts the commands the store sends it, by name. */
function countingClient(redis: Redis): { readonly client: RedisStoreClient; readonly counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const count = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  const set = (key: string, value: string, mode?: 'PX', ms?: number) => {
    count('SET');
    return mode === undefined ? redis.set(key, value) : redis.set(key, value, mode, ms ?? 1);
  };
  const client: RedisStoreClient = {
    get: (key) => (count('GET'), redis.get(key)),
    set: set as RedisStoreClient['set'],
    del: (key) => (count('DEL'), redis.del(key)),
    eval: (script, numkeys, ...rest) => (count('EVAL'), redis.eval(script, numkeys, ...rest)),
    evalsha: (sha, numkeys, ...rest) => (count('EVALSHA'), redis.evalsha(sha, numkeys, ...rest)),
  };
  return { client, counts };
}

export async function inboxRedis({
  pending,
  samples,
  newInstances = false,
}: {
  readonly pending: number;
  readonly samples: number;
  readonly newInstances?: boolean | undefined;
}): Promise<Result> {
  const server = await startRedis();
  const redis = new Redis({ host: '127.0.0.1', port: server.port, maxRetriesPerRequest: 1 });
  try {
    const { client, counts } = countingClient(redis);
    const store = createRedisStore({ client, prefix: 'bench:' });
    const inbox = createApprovalInbox({ store });
    let executed = 0;
    const runtime = (approvalInbox: ApprovalInbox) =>
      createInterventions({
        approvalSecret: SECRET,
        approvalLedger: createApprovalLedger({ store }),
        approvalInbox,
        handlers: [
          defineHandler({
            name: 'refunds',
            beforeToolCall: ({ toolCall }) =>
              toolCall.toolName === 'refund'
                ? InterventionActions.confirm('Refund it?', { approvers: { roles: ['manager'], label: 'a manager' } })
                : InterventionActions.proceed(),
          }),
        ],
      });
    const interventions = runtime(inbox);
    const tools = {
      refund: tool({
        inputSchema: z.object({ amount: z.number(), order: z.string() }),
        execute: async ({ amount, order }) => {
          executed++;
          return `refunded ${amount} for order ${order}`;
        },
      }),
      lookup: tool({ inputSchema: z.object({ order: z.string() }), execute: async ({ order }) => `order ${order}: shipped` }),
    };

    /** One operation, timed, with the commands it sent. */
    const rows = new Map<string, { samplesUs: number[]; commands: number[]; breakdown: Record<string, number> }>();
    const timed = async <T>(row: string | undefined, work: () => Promise<T>): Promise<T> => {
      counts.clear();
      const t0 = performance.now();
      const result = await work();
      const us = (performance.now() - t0) * 1e3;
      if (row === undefined) return result;
      const entry = rows.get(row) ?? { samplesUs: [], commands: [], breakdown: {} };
      entry.samplesUs.push(us);
      entry.commands.push([...counts.values()].reduce((sum, n) => sum + n, 0));
      entry.breakdown = Object.fromEntries(counts);
      rows.set(row, entry);
      return result;
    };

    let asks = 0;
    /** An employee's refund: the request is put in the inbox; the history the client keeps, and its approval id. */
    const ask = async (row?: string) => {
      const n = ++asks;
      const runtimeContext = { userId: `employee-${n % 40}`, role: 'employee', sessionId: `chat-${n}` };
      const messages: ModelMessage[] = [{ role: 'user', content: `Refund order A-${n}, it arrived broken.` }];
      const result = await timed(row, () =>
        interventions.generateText({
          model: scriptedModel('refund', { amount: 20 + (n % 180), order: `A-${n}` }),
          tools,
          stopWhen: isStepCount(3),
          messages,
          runtimeContext,
        }),
      );
      const request = result.content.find((part) => part.type === 'tool-approval-request');
      if (request?.type !== 'tool-approval-request') throw new Error('the refund asked for no approval');
      return { id: request.approvalId, history: [...messages, ...result.responseMessages], runtimeContext };
    };

    // the inbox: copies of a real request, asked over the last six days, most for the managers
    const template = await inbox.get((await ask()).id);
    if (template === undefined) throw new Error('the request is not in the inbox');
    const asked = samples * 2;
    const put = pending - asked - 1;
    const now = Date.now();
    const copy = (i: number): InboxRequest => {
      const audience = i % 20 < 17 ? ['role:manager'] : i % 20 < 19 ? ['role:finance'] : ['user:dana'];
      const input = { amount: 20 + (i % 180), order: `B-${i}` };
      return {
        ...template,
        id: `aitxt-bench-${String(i).padStart(6, '0')}`,
        toolCallId: `call-bench-${i}`,
        callInput: input,
        input,
        askedBy: `employee-${i % 40}`,
        askedAt: now - 6 * 86_400_000 + Math.floor((i * 6 * 86_400_000) / put),
        conversationId: `chat-b${i}`,
        audience,
      };
    };
    let next = 0;
    const fillStart = performance.now();
    await Promise.all(
      Array.from({ length: FILL_CONCURRENCY }, async () => {
        while (next < put) await inbox.put(copy(next++));
      }),
    );
    const fillMs = performance.now() - fillStart;
    const report = async (): Promise<Result> => {
      const lists = await Promise.all(['user:bob', 'role:manager', 'anyone'].map((key) => store.list(`approval-inbox:audience:${key}`)));
      return {
        kind: 'inbox-redis',
        redis: redisServerVersion() ?? 'redis-server',
        pending,
        fillMs,
        filledBy: put,
        fillConcurrency: FILL_CONCURRENCY,
        wallMs: performance.now(),
        audienceSize: lists.reduce((sum, entries) => sum + entries.length, 0),
        pageSize: 20,
        rows: [...rows].map(([name, row]): InboxRedisRow => ({ name, ...row })),
      };
    };
    // the newest, asked by employees: the ones answered below
    const waiting = [];
    for (let i = 0; i < asked; i++) waiting.push(await ask(newInstances || i < samples / 5 ? undefined : 'ask'));

    if (newInstances) {
      // a manager's first page on an instance that never listed before (a new process, after a deploy): it reads
      // the manager's lists whole; its own process, as the reads of large lists leave this process slower after
      for (let i = 0; i < samples / 4; i++) {
        const fresh = runtime(createApprovalInbox({ store }));
        const page = await timed('list-new', () => fresh.inbox.list({ runtimeContext: BOB, limit: 20 }));
        if (page.requests.length !== 20 || page.requests.some((request) => request.status !== 'pending')) throw new Error('not a page');
      }
      return await report();
    }

    // a manager's first page
    for (let i = 0; i < samples + 10; i++) {
      const page = await timed(i < 10 ? undefined : 'list', () => interventions.inbox.list({ runtimeContext: BOB, limit: 20 }));
      if (page.requests.length !== 20 || page.requests.some((request) => request.status !== 'pending')) throw new Error('not a page');
    }

    // answering by id: the newest half, the first few as warmup
    const answered = waiting.slice(samples);
    for (const [i, { id }] of answered.entries()) {
      const result = await timed(i < 10 ? undefined : 'answer', () =>
        interventions.inbox.answer(id, { approved: true, runtimeContext: BOB }),
      );
      if (result.type !== 'approved') throw new Error(`answer: ${result.type}`);
    }

    // the employee's next request resumes the approved call: it runs once
    const resume = async (row: string | undefined, { history, runtimeContext }: { history: ModelMessage[]; runtimeContext: Context }) => {
      const before = executed;
      const model = scriptedModel();
      await timed(row, async () =>
        interventions.generateText({
          model,
          tools,
          stopWhen: isStepCount(2),
          messages: await interventions.inbox.resume(history),
          runtimeContext,
        }),
      );
      if (executed !== before + 1 || !JSON.stringify(model.prompts[0]).includes('refunded')) {
        throw new Error('the approved refund did not run once, its result sent to the model');
      }
    };
    for (const [i, request] of answered.slice(0, samples / 2).entries()) await resume(i < 5 ? undefined : 'resume', request);

    // a call a handler lets proceed, with nothing pending for its caller, and with the caller's own request pending
    const lookup = async (row: string | undefined, runtimeContext: Context) => {
      const messages: ModelMessage[] = [{ role: 'user', content: 'Where is order C-7?' }];
      const result = await timed(row, async () =>
        interventions.generateText({
          model: scriptedModel('lookup', { order: 'C-7' }),
          tools,
          stopWhen: isStepCount(3),
          messages: await interventions.inbox.resume(messages),
          runtimeContext,
        }),
      );
      if (result.text !== 'done' || !result.toolResults.some((part) => part.toolName === 'lookup')) throw new Error('no lookup');
    };
    const stillWaiting = waiting[0]!.runtimeContext;
    for (let i = 0; i < samples + 10; i++) {
      await lookup(i < 10 ? undefined : 'proceed', { userId: 'erin', role: 'employee', sessionId: `chat-e${i}` });
      await lookup(i < 10 ? undefined : 'proceed-pending', { ...stillWaiting, sessionId: `chat-p${i}` });
    }

    return await report();
  } finally {
    redis.disconnect();
    await server.stop();
  }
}
