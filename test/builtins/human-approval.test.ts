import {
  convertToModelMessages,
  isStepCount,
  type LanguageModel,
  type ModelMessage,
  readUIMessageStream,
  type ToolSet,
  tool,
  toUIMessageStream,
  type UIMessage,
} from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { humanApproval } from '../../src/builtins/human-approval.ts';
import type { HumanApprovalOptions } from '../../src/builtins/human-approval-options.ts';
import {
  type ApprovalRemember,
  approvalAnswer,
  createApprovalLedger,
  createInterventions,
  type DecisionRecord,
  type Interventions,
  InterventionsWarning,
  InvalidOptionError,
  type OnStatusContext,
} from '../../src/index.ts';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import { createRedisStore } from '../../src/store/create-redis-store.ts';
import type { Store } from '../../src/store/store.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { processWarnings } from '../helpers/process-warnings.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

type Mode = 'generateText' | 'streamText';

interface Turn {
  readonly content: ReadonlyArray<{ type: string }>;
  readonly responseMessages: ModelMessage[];
  readonly text: string;
  readonly decisions: readonly DecisionRecord[];
}

/** Files and deletions, counted. */
function fileTools() {
  const deleted: string[] = [];
  const searched: string[] = [];
  const tools = {
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        deleted.push(path);
        return `deleted ${path}`;
      },
    }),
    search: tool({
      inputSchema: z.object({ q: z.string() }),
      execute: async ({ q }) => {
        searched.push(q);
        return `found ${q}`;
      },
    }),
    drop_table: tool({
      inputSchema: z.object({ table: z.string() }),
      execute: async ({ table }) => {
        deleted.push(`table ${table}`);
        return `dropped ${table}`;
      },
    }),
  };
  return { tools, deleted, searched };
}

/** One call through the runtime, by `generateText` or `streamText`, read to the end. */
async function turn(
  interventions: Interventions,
  mode: Mode,
  options: {
    model: LanguageModel;
    tools: ToolSet;
    messages: ModelMessage[];
    runtimeContext?: Record<string, unknown>;
  },
): Promise<Turn> {
  const call = { ...options, stopWhen: isStepCount(5) };
  if (mode === 'generateText') {
    const result = await interventions.generateText(call);
    return {
      content: result.content,
      responseMessages: result.responseMessages,
      text: result.text,
      decisions: result.interventions.decisions,
    };
  }
  const result = interventions.streamText(call);
  return {
    content: await result.content,
    responseMessages: await result.responseMessages,
    text: await result.text,
    decisions: result.interventions.decisions,
  };
}

/** A person's answer: typed (`approvalAnswer`) when it asks to remember something, plain otherwise. */
function answer(approvalId: string, approved: boolean, remember?: ApprovalRemember): ModelMessage {
  const typed = remember === undefined ? undefined : approvalAnswer({ id: approvalId, approved, remember });
  return {
    role: 'tool',
    content: [{ type: 'tool-approval-response', approvalId, approved, ...(typed === undefined ? {} : { reason: typed.reason }) }],
  };
}

const user = (content: string): ModelMessage => ({ role: 'user', content });

function setup(options: Partial<HumanApprovalOptions> = {}) {
  const approval = humanApproval({ tools: 'delete_*', ...options });
  const interventions = createInterventions({
    handlers: [approval],
    approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
    approvalLedger: createApprovalLedger(),
  });
  return { interventions, ...fileTools() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each<Mode>(['generateText', 'streamText'])('humanApproval through interventions.%s', (mode) => {
  it("should ask, run once approved with 'always', then run later matching calls of that user without asking", async () => {
    const { interventions, tools, deleted } = setup();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
      step(text('Deleted a.')),
      step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
      step(text('Deleted b.')),
      step(toolCall('d3', 'delete_file', { path: '/tmp/c' })),
    );
    const alice = { userId: 'alice' };
    const history = [user('Delete /tmp/a')];

    const first = await turn(interventions, mode, { model, tools, messages: history, runtimeContext: alice });
    const [request] = approvalRequests(first.content);
    expect(request?.reason).toBe('Allow "delete_file" with {"path":"/tmp/a"}?');
    expect(deleted).toEqual([]);
    expect(model.calls).toHaveLength(1);

    const resumed = await turn(interventions, mode, {
      model,
      tools,
      messages: [...history, ...first.responseMessages, answer(request?.approvalId ?? '', true, 'always')],
      runtimeContext: alice,
    });
    expect(deleted).toEqual(['/tmp/a']);
    expect(toolResultsSent(model, 1).d1).toEqual({ type: 'text', value: 'deleted /tmp/a' });
    expect(resumed.text).toBe('Deleted a.');

    // a new conversation of the same user: no question
    const later = await turn(interventions, mode, { model, tools, messages: [user('Delete /tmp/b')], runtimeContext: alice });
    expect(approvalRequests(later.content)).toEqual([]);
    expect(deleted).toEqual(['/tmp/a', '/tmp/b']);
    expect(later.text).toBe('Deleted b.');
    expect(later.decisions.filter((d) => d.lifecycle === 'beforeToolCall')).toMatchObject([
      { handler: 'human-approval', action: 'proceed', toolCallId: 'd2' },
    ]);

    // another user is asked
    const bob = await turn(interventions, mode, { model, tools, messages: [user('Delete /tmp/c')], runtimeContext: { userId: 'bob' } });
    expect(approvalRequests(bob.content)).toHaveLength(1);
    expect(deleted).toEqual(['/tmp/a', '/tmp/b']);
  });

  it("should ask again after an approval with 'once' (or no reason)", async () => {
    const { interventions, tools, deleted } = setup();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
      step(text('Deleted a.')),
      step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
    );
    const first = await turn(interventions, mode, { model, tools, messages: [user('go')] });
    const [request] = approvalRequests(first.content);
    await turn(interventions, mode, {
      model,
      tools,
      messages: [user('go'), ...first.responseMessages, answer(request?.approvalId ?? '', true, 'once')],
    });
    expect(deleted).toEqual(['/tmp/a']);
    const later = await turn(interventions, mode, { model, tools, messages: [user('again')] });
    expect(approvalRequests(later.content)).toHaveLength(1);
    expect(deleted).toEqual(['/tmp/a']);
  });

  it("should remember nothing for a plain reason that reads like one ('always'): only a typed answer asks to remember", async () => {
    const { interventions, tools, deleted } = setup();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
      step(text('Deleted a.')),
      step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
    );
    const alice = { userId: 'alice' };
    const first = await turn(interventions, mode, { model, tools, messages: [user('go')], runtimeContext: alice });
    const [request] = approvalRequests(first.content);
    const plain: ModelMessage = {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true, reason: 'always' }],
    };
    await turn(interventions, mode, { model, tools, messages: [user('go'), ...first.responseMessages, plain], runtimeContext: alice });
    expect(deleted).toEqual(['/tmp/a']);
    const later = await turn(interventions, mode, { model, tools, messages: [user('again')], runtimeContext: alice });
    expect(approvalRequests(later.content)).toHaveLength(1);
    expect(deleted).toEqual(['/tmp/a']);
  });

  it("should deny matching calls of the conversation, and only there, after a refusal with remember: 'session'", async () => {
    const { interventions, tools, deleted } = setup();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
      step(text('Not deleted.')),
      step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
      step(text('I may not delete files in this chat.')),
      step(toolCall('d3', 'delete_file', { path: '/tmp/c' })),
    );
    const chat1 = { userId: 'alice', sessionId: 'chat-1' };
    const first = await turn(interventions, mode, { model, tools, messages: [user('a')], runtimeContext: chat1 });
    const [request] = approvalRequests(first.content);
    await turn(interventions, mode, {
      model,
      tools,
      messages: [user('a'), ...first.responseMessages, answer(request?.approvalId ?? '', false, 'session')],
      runtimeContext: chat1,
    });
    const sameChat = await turn(interventions, mode, { model, tools, messages: [user('b')], runtimeContext: chat1 });
    expect(approvalRequests(sameChat.content)).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 3).d2)).toContain(
      'The user chose not to allow \\"delete_file\\" calls in this conversation.',
    );
    expect(sameChat.decisions).toContainEqual(
      expect.objectContaining({ handler: 'human-approval', action: 'deny', display: 'You chose not to allow this in this chat.' }),
    );
    const otherChat = await turn(interventions, mode, {
      model,
      tools,
      messages: [user('c')],
      runtimeContext: { userId: 'alice', sessionId: 'chat-2' },
    });
    expect(approvalRequests(otherChat.content)).toHaveLength(1);
    expect(deleted).toEqual([]);
  });

  it("should remember 'session' for the conversation's sessionId only", async () => {
    const { interventions, tools, deleted } = setup();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
      step(text('ok')),
      step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
      step(text('ok')),
      step(toolCall('d3', 'delete_file', { path: '/tmp/c' })),
    );
    const chat1 = { userId: 'alice', sessionId: 'chat-1' };
    const first = await turn(interventions, mode, { model, tools, messages: [user('a')], runtimeContext: chat1 });
    const [request] = approvalRequests(first.content);
    await turn(interventions, mode, {
      model,
      tools,
      messages: [user('a'), ...first.responseMessages, answer(request?.approvalId ?? '', true, 'session')],
      runtimeContext: chat1,
    });
    const sameChat = await turn(interventions, mode, { model, tools, messages: [user('b')], runtimeContext: chat1 });
    expect(approvalRequests(sameChat.content)).toEqual([]);
    expect(deleted).toEqual(['/tmp/a', '/tmp/b']);
    const otherChat = await turn(interventions, mode, {
      model,
      tools,
      messages: [user('c')],
      runtimeContext: { userId: 'alice', sessionId: 'chat-2' },
    });
    expect(approvalRequests(otherChat.content)).toHaveLength(1);
    expect(deleted).toEqual(['/tmp/a', '/tmp/b']);
  });

  it("should remember a refusal with remember: 'always' and deny later matching calls without asking", async () => {
    const { interventions, tools, deleted } = setup();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
      step(text('I did not delete it.')),
      step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
      step(text('I may not delete files.')),
    );
    const first = await turn(interventions, mode, { model, tools, messages: [user('a')], runtimeContext: { userId: 'alice' } });
    const [request] = approvalRequests(first.content);
    await turn(interventions, mode, {
      model,
      tools,
      messages: [user('a'), ...first.responseMessages, answer(request?.approvalId ?? '', false, 'always')],
      runtimeContext: { userId: 'alice' },
    });
    expect(deleted).toEqual([]);

    const later = await turn(interventions, mode, { model, tools, messages: [user('b')], runtimeContext: { userId: 'alice' } });
    expect(approvalRequests(later.content)).toEqual([]);
    expect(deleted).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 3).d2)).toContain('The user chose never to allow \\"delete_file\\" calls.');
    expect(later.text).toBe('I may not delete files.');
  });

  it.each([
    ['the default store', undefined],
    ['a store whose entries never expire', createMemoryStore({ now: () => 0 })],
  ])('should refuse an approval answered after expiresInMs (fail closed), and accept one in time, with %s', async (_name, store) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    const { interventions, tools, deleted } = setup({ expiresInMs: 15 * 60_000, ...(store === undefined ? {} : { remember: { store } }) });
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
      step(text('The approval expired.')),
      step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
      step(text('Deleted b.')),
    );
    const late = await turn(interventions, mode, { model, tools, messages: [user('a')] });
    const [lateRequest] = approvalRequests(late.content);
    vi.setSystemTime(new Date('2026-01-01T10:15:01Z'));
    const expired = await turn(interventions, mode, {
      model,
      tools,
      messages: [user('a'), ...late.responseMessages, answer(lateRequest?.approvalId ?? '', true, 'always')],
    });
    expect(deleted).toEqual([]);
    // the runtime judges the expiry (on the approval ledger's clock) before the handler decides again
    expect(JSON.stringify(toolResultsSent(model, 1).d1)).toContain(
      'The approval of the call to \\"delete_file\\" expired (it had to be given within 15 minutes of the request)',
    );
    expect(expired.decisions.filter((d) => d.lifecycle === 'beforeToolCall')).toMatchObject([
      { handler: 'approval-expiry', action: 'deny', toolCallId: 'd1', approval: { status: 'expired' } },
    ]);

    // a late 'always' was not remembered; an answer in time runs
    const onTime = await turn(interventions, mode, { model, tools, messages: [user('b')] });
    const [request] = approvalRequests(onTime.content);
    expect(request).toBeDefined();
    vi.setSystemTime(new Date('2026-01-01T10:29:00Z'));
    await turn(interventions, mode, {
      model,
      tools,
      messages: [user('b'), ...onTime.responseMessages, answer(request?.approvalId ?? '', true)],
    });
    expect(deleted).toEqual(['/tmp/b']);
  });

  describe('with a provider that numbers calls call_0 every turn', () => {
    /** One turn of a conversation: the model's call (always `call_0`) is asked, run or refused. */
    const ask = (
      interventions: Interventions,
      model: LanguageModel,
      tools: ToolSet,
      runtimeContext: Record<string, unknown>,
      prompt: string,
    ) => turn(interventions, mode, { model, tools, messages: [user(prompt)], runtimeContext });
    const resume = async (
      interventions: Interventions,
      model: LanguageModel,
      tools: ToolSet,
      runtimeContext: Record<string, unknown>,
      prompt: string,
      asked: Turn,
      remember: ApprovalRemember,
    ) => {
      const [request] = approvalRequests(asked.content);
      expect(request).toBeDefined();
      return turn(interventions, mode, {
        model,
        tools,
        messages: [user(prompt), ...asked.responseMessages, answer(request?.approvalId ?? '', true, remember)],
        runtimeContext,
      });
    };
    const humanRecords = (decisions: readonly DecisionRecord[]) =>
      decisions.filter((record) => record.handler === 'human-approval' && record.lifecycle === 'beforeToolCall');

    it("should keep 'allow for this chat' in the chat it was given in", async () => {
      const { interventions, tools, deleted } = setup();
      const model = scriptedModel(
        step(toolCall('call_0', 'delete_file', { path: '/a' })), // chat A asks
        step(toolCall('call_0', 'delete_file', { path: '/b' })), // chat B asks, same call id
        step(text('Deleted /a.')), // chat A: approved for this chat
        step(toolCall('call_0', 'delete_file', { path: '/b2' })), // chat B, a later turn
        step(toolCall('call_0', 'delete_file', { path: '/a2' })), // chat A, a later turn
        step(text('Deleted /a2.')),
      );
      const chatA = { userId: 'alice', sessionId: 'A' };
      const chatB = { userId: 'alice', sessionId: 'B' };
      const askedA = await ask(interventions, model, tools, chatA, 'delete /a');
      await ask(interventions, model, tools, chatB, 'delete /b');
      await resume(interventions, model, tools, chatA, 'delete /a', askedA, 'session');
      expect(deleted).toEqual(['/a']);

      const laterB = await ask(interventions, model, tools, chatB, 'delete /b2');
      expect(approvalRequests(laterB.content).map((request) => request.toolCall.input)).toEqual([{ path: '/b2' }]);
      expect(deleted).toEqual(['/a']);

      const laterA = await ask(interventions, model, tools, chatA, 'delete /a2');
      expect(approvalRequests(laterA.content)).toEqual([]);
      expect(deleted).toEqual(['/a', '/a2']);
      expect(humanRecords(laterA.decisions)).toMatchObject([
        { action: 'proceed', reason: 'Allowed without asking: remembered, the user chose to allow "delete_file" in this conversation.' },
      ]);
    });

    it("should remember 'always allow delete_file' for delete_file, not for the tool another chat asked about", async () => {
      const { interventions, tools, deleted } = setup({ tools: ['delete_*', 'drop_*'] });
      const model = scriptedModel(
        step(toolCall('call_0', 'delete_file', { path: '/a' })), // chat A asks
        step(toolCall('call_0', 'drop_table', { table: 'users' })), // chat C asks, same call id
        step(text('Deleted /a.')), // chat A: always allow delete_file
        step(toolCall('call_0', 'drop_table', { table: 'orders' })), // chat D
        step(toolCall('call_0', 'delete_file', { path: '/d' })), // chat E
        step(text('Deleted /d.')),
      );
      const chat = (sessionId: string) => ({ userId: 'alice', sessionId });
      const askedA = await ask(interventions, model, tools, chat('A'), 'delete /a');
      await ask(interventions, model, tools, chat('C'), 'drop users');
      const resumedA = await resume(interventions, model, tools, chat('A'), 'delete /a', askedA, 'always');
      expect(humanRecords(resumedA.decisions)).toMatchObject([
        { action: 'proceed', reason: 'Approved by the user; remembered for every conversation of this user ("always").' },
      ]);

      const dropAgain = await ask(interventions, model, tools, chat('D'), 'drop orders');
      expect(approvalRequests(dropAgain.content).map((request) => request.toolCall.toolName)).toEqual(['drop_table']);
      const deleteAgain = await ask(interventions, model, tools, chat('E'), 'delete /d');
      expect(approvalRequests(deleteAgain.content)).toEqual([]);
      expect(deleted).toEqual(['/a', '/d']);
      expect(humanRecords(deleteAgain.decisions)).toMatchObject([
        { action: 'proceed', reason: 'Allowed without asking: remembered, the user chose to always allow "delete_file".' },
      ]);
    });

    it("should count 'always' as 'session' when no user is known, and say so on the record", async () => {
      const { interventions, tools, deleted } = setup();
      const model = scriptedModel(
        step(toolCall('call_0', 'delete_file', { path: '/a' })),
        step(text('Deleted /a.')),
        step(toolCall('call_0', 'delete_file', { path: '/b' })), // another chat: asked
        step(toolCall('call_0', 'delete_file', { path: '/a2' })), // the same chat: remembered
        step(text('Deleted /a2.')),
      );
      const chatA = { sessionId: 'A' };
      const askedA = await ask(interventions, model, tools, chatA, 'delete /a');
      const resumedA = await resume(interventions, model, tools, chatA, 'delete /a', askedA, 'always');
      expect(humanRecords(resumedA.decisions)).toMatchObject([
        {
          action: 'proceed',
          reason:
            'Approved by the user; "always" was remembered for this conversation only: no user is known (set runtimeContext.userId or remember.scope).',
        },
      ]);
      const otherChat = await ask(interventions, model, tools, { sessionId: 'B' }, 'delete /b');
      expect(approvalRequests(otherChat.content)).toHaveLength(1);
      const sameChat = await ask(interventions, model, tools, chatA, 'delete /a2');
      expect(approvalRequests(sameChat.content)).toEqual([]);
      expect(deleted).toEqual(['/a', '/a2']);
    });
  });
});

describe('humanApproval', () => {
  describe('when the approval matches no request it made (a restarted server, another user)', () => {
    it('should run the call once but remember nothing, and refuse it when expiresInMs is set', async () => {
      const { tools, deleted } = fileTools();
      const model = scriptedModel(
        step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
        step(text('ok')),
        step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
        step(toolCall('d3', 'delete_file', { path: '/tmp/c' })),
        step(text('expired')),
      );
      const asking = createInterventions({
        handlers: [humanApproval({ tools: ['delete_file'] })],
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      const first = await turn(asking, 'generateText', { model, tools, messages: [user('a')] });
      const [request] = approvalRequests(first.content);
      const approved = [user('a'), ...first.responseMessages, answer(request?.approvalId ?? '', true, 'always')];

      // same secret, new handler and store: the approval is valid, the request is unknown
      const restarted = createInterventions({
        handlers: [humanApproval({ tools: ['delete_file'] })],
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      await turn(restarted, 'generateText', { model, tools, messages: approved });
      expect(deleted).toEqual(['/tmp/a']);
      const later = await turn(restarted, 'generateText', { model, tools, messages: [user('b')] });
      expect(approvalRequests(later.content)).toHaveLength(1); // 'always' was not remembered

      const strict = createInterventions({
        handlers: [humanApproval({ tools: ['delete_file'], expiresInMs: 60_000 })],
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      const third = await turn(strict, 'generateText', { model, tools, messages: [user('c')] });
      const [thirdRequest] = approvalRequests(third.content);
      const otherServer = createInterventions({
        handlers: [humanApproval({ tools: ['delete_file'], expiresInMs: 60_000 })],
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      await turn(otherServer, 'generateText', {
        model,
        tools,
        messages: [user('c'), ...third.responseMessages, answer(thirdRequest?.approvalId ?? '', true)],
      });
      expect(deleted).toEqual(['/tmp/a']);
      expect(JSON.stringify(toolResultsSent(model, 4).d3)).toContain('expired');
    });
  });

  describe('remember options', () => {
    it('should share decisions through a shared store, remember per key, and ask every time with accept: []', async () => {
      const store = createMemoryStore();
      const perPath = (toolCall: { toolName: string; input: unknown }) =>
        `${toolCall.toolName}:${(toolCall.input as { path: string }).path}`;
      const { tools, deleted } = fileTools();
      const model = scriptedModel(
        step(toolCall('d1', 'delete_file', { path: '/tmp/a' })),
        step(text('ok')),
        step(toolCall('d2', 'delete_file', { path: '/tmp/a' })),
        step(text('ok')),
        step(toolCall('d3', 'delete_file', { path: '/tmp/b' })),
      );
      const server1 = createInterventions({
        handlers: [humanApproval({ tools: 'delete_*', remember: { store, key: perPath } })],
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      const server2 = createInterventions({
        handlers: [humanApproval({ tools: 'delete_*', remember: { store, key: perPath } })],
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      // 'always' needs a user to remember it for
      const alice = { userId: 'alice' };
      const first = await turn(server1, 'generateText', { model, tools, messages: [user('a')], runtimeContext: alice });
      const [request] = approvalRequests(first.content);
      await turn(server2, 'generateText', {
        model,
        tools,
        messages: [user('a'), ...first.responseMessages, answer(request?.approvalId ?? '', true, 'always')],
        runtimeContext: alice,
      });
      const sameFile = await turn(server1, 'generateText', { model, tools, messages: [user('a again')], runtimeContext: alice });
      expect(approvalRequests(sameFile.content)).toEqual([]);
      const otherFile = await turn(server2, 'generateText', { model, tools, messages: [user('b')], runtimeContext: alice });
      expect(approvalRequests(otherFile.content)).toHaveLength(1);
      expect(deleted).toEqual(['/tmp/a', '/tmp/a']);

      const { tools: moreTools } = fileTools();
      const forgetful = createInterventions({
        handlers: [humanApproval({ tools: 'delete_*', remember: { accept: [] } })],
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        approvalLedger: createApprovalLedger(),
      });
      const model2 = scriptedModel(
        step(toolCall('d1', 'delete_file', { path: '/x' })),
        step(text('ok')),
        step(toolCall('d2', 'delete_file', { path: '/x' })),
      );
      const asked = await turn(forgetful, 'generateText', { model: model2, tools: moreTools, messages: [user('x')] });
      const [askedRequest] = approvalRequests(asked.content);
      await turn(forgetful, 'generateText', {
        model: model2,
        tools: moreTools,
        messages: [user('x'), ...asked.responseMessages, answer(askedRequest?.approvalId ?? '', true, 'always')],
      });
      const again = await turn(forgetful, 'generateText', { model: model2, tools: moreTools, messages: [user('x')] });
      expect(approvalRequests(again.content)).toHaveLength(1);
    });
  });

  describe('matching', () => {
    it('should ask only for matching tools: globs, lists, predicates; others run freely', async () => {
      for (const tools of [
        'delete_*',
        ['search', 'nothing'],
        ({ toolCall: call }: { toolCall: { toolName: string } }) => call.toolName.startsWith('dele'),
      ] as const) {
        const { tools: set, deleted, searched } = fileTools();
        const interventions = createInterventions({
          handlers: [humanApproval({ tools, prompt: ({ toolCall: call }) => `May I run ${call.toolName}?` })],
          approvalSecret: 's-with-at-least-32-bytes-for-hmac',
          approvalLedger: createApprovalLedger(),
        });
        const model = scriptedModel(
          step(toolCall('s1', 'search', { q: 'x' }), toolCall('d1', 'delete_file', { path: '/x' })),
          step(text('done')),
        );
        const result = await turn(interventions, 'generateText', { model, tools: set, messages: [user('go')] });
        const asked = approvalRequests(result.content).map((request) => [request.toolCall.toolCallId, request.reason]);
        if (tools === 'delete_*' || typeof tools === 'function') {
          expect(asked).toEqual([['d1', 'May I run delete_file?']]);
          expect(searched).toEqual(['x']);
        } else {
          expect(asked).toEqual([['s1', 'May I run search?']]);
          expect(deleted).toEqual(['/x']);
        }
      }
    });

    it('should treat glob characters other than * and ? literally', async () => {
      const approval = humanApproval({ tools: 'mcp.fs.(delete)' });
      const event = (toolName: string) =>
        ({ toolCall: { toolCallId: 'c', toolName, input: {} }, runtimeContext: {}, approved: false }) as unknown as Parameters<
          NonNullable<typeof approval.beforeToolCall>
        >[0];
      expect((await approval.beforeToolCall?.(event('mcp.fs.(delete)')))?.type).toBe('confirm');
      expect((await approval.beforeToolCall?.(event('mcpXfsX(delete)')))?.type).toBe('proceed');
    });
  });

  describe('in the UI (useChat)', () => {
    it("should remember 'always' sent with addToolApprovalResponse(approvalAnswer({ id, approved: true, remember: 'always' }))", async () => {
      const { interventions, tools, deleted } = setup();
      const context = { userId: 'alice', sessionId: 'chat-9' };
      const first = interventions.streamText({
        model: scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/a' }))),
        tools,
        stopWhen: isStepCount(3),
        messages: [user('delete a')],
        runtimeContext: context,
      });
      let assistant: UIMessage | undefined;
      for await (const update of readUIMessageStream({ stream: toUIMessageStream({ stream: first.stream }) })) assistant = update;
      if (assistant === undefined) throw new Error('no assistant message');
      // what addToolApprovalResponse(approvalAnswer({ id: part.approval.id, approved: true, remember: 'always' })) does to the part
      const answered: UIMessage = {
        ...assistant,
        id: 'a1',
        parts: assistant.parts.map((part) =>
          'approval' in part && part.state === 'approval-requested'
            ? {
                ...part,
                state: 'approval-responded' as const,
                approval: { ...part.approval, ...approvalAnswer({ id: part.approval.id, approved: true, remember: 'always' }) },
              }
            : part,
        ) as UIMessage['parts'],
      };
      const userMessage: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'delete a' }] };
      const model = scriptedModel(
        step(text('Deleted.')),
        step(toolCall('d2', 'delete_file', { path: '/tmp/b' })),
        step(text('Deleted b.')),
      );
      const second = interventions.streamText({
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: await convertToModelMessages([userMessage, answered], { tools }),
        runtimeContext: context,
      });
      expect(await second.text).toBe('Deleted.');
      const third = interventions.streamText({
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: [user('delete b')],
        runtimeContext: context,
      });
      expect(await third.text).toBe('Deleted b.');
      expect(deleted).toEqual(['/tmp/a', '/tmp/b']);
    });
  });
});

/**
 * Two server instances (two runtimes) sharing one store and one approval
 * ledger answer the same approval at the same time.
 */
function acrossInstances(makeStore: () => Store): void {
  /** The store, and every key written to it. */
  function recordingStore() {
    const store = makeStore();
    const written: string[] = [];
    const recording: Store = {
      ...store,
      set: (key, value, options) => (written.push(key), store.set(key, value, options)),
      setIfAbsent: async (key, value, options) => {
        const set = await store.setIfAbsent(key, value, options);
        if (set) written.push(key);
        return set;
      },
    };
    return { store: recording, written };
  }

  function instances(store: Store) {
    const approvalLedger = createApprovalLedger({ store });
    const instance = () =>
      createInterventions({
        handlers: [humanApproval({ tools: 'delete_*', expiresInMs: 60_000, remember: { store } })],
        approvalSecret: 'shared-secret-with-at-least-32-bytes-for-hmac',
        approvalLedger,
      });
    return [instance(), instance()] as const;
  }

  const alice = { userId: 'alice', sessionId: 'chat-1' };
  const ask = async (instance: Interventions, tools: ReturnType<typeof fileTools>['tools']) => {
    const first = await turn(instance, 'generateText', {
      model: scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/a' }))),
      tools,
      messages: [user('delete a')],
      runtimeContext: alice,
    });
    const [request] = approvalRequests(first.content);
    if (request === undefined) throw new Error('no approval request');
    return { history: [user('delete a'), ...first.responseMessages], approvalId: request.approvalId };
  };
  const resumeOn = (instance: Interventions, tools: ReturnType<typeof fileTools>['tools'], messages: ModelMessage[]) =>
    turn(instance, 'generateText', { model: scriptedModel(step(text('ok'))), tools, messages, runtimeContext: alice });
  const handlerActions = (result: Turn) =>
    result.decisions.filter((record) => record.handler === 'human-approval' && record.toolCallId === 'd1').map((record) => record.action);

  it("should answer once when both resume the same 'always' approval at once: one remembers, every resume proceeds, the call runs once", async () => {
    const { store, written } = recordingStore();
    const [a, b] = instances(store);
    const { tools, deleted } = fileTools();
    const { history, approvalId } = await ask(a, tools);
    const resume = [...history, answer(approvalId, true, 'always')];

    const results = await Promise.all([a, b, a, b].map((instance) => resumeOn(instance, tools, resume)));

    expect(deleted).toEqual(['/tmp/a']);
    // no resume was refused as expired: the replays got the first resume's decision
    expect(results.map(handlerActions)).toEqual([['proceed'], ['proceed'], ['proceed'], ['proceed']]);
    expect(written.filter((key) => key.startsWith('human-approval:always:'))).toEqual(['human-approval:always:alice:delete_file']);
    expect(written.filter((key) => key.startsWith('human-approval:answered:'))).toEqual([
      `human-approval:answered:alice:${encodeURIComponent(approvalId)}`,
    ]);
    expect(await store.get('human-approval:pending:alice:d1')).toBeUndefined();
    // remembered for both instances
    const later = await turn(b, 'generateText', {
      model: scriptedModel(step(toolCall('d2', 'delete_file', { path: '/tmp/b' })), step(text('done'))),
      tools,
      messages: [user('delete b')],
      runtimeContext: alice,
    });
    expect(approvalRequests(later.content)).toEqual([]);
    expect(deleted).toEqual(['/tmp/a', '/tmp/b']);
  });

  it("should take a refused request once when both receive the same refusal (remember: 'always') at once, and deny later calls on both", async () => {
    const { store, written } = recordingStore();
    const [a, b] = instances(store);
    const { tools, deleted } = fileTools();
    const { history, approvalId } = await ask(b, tools);
    const refusal = [...history, answer(approvalId, false, 'always')];

    await Promise.all([a, b, a, b].map((instance) => resumeOn(instance, tools, refusal)));

    expect(deleted).toEqual([]);
    expect(written.filter((key) => key.startsWith('human-approval:never:'))).toEqual(['human-approval:never:alice:delete_file']);
    for (const instance of [a, b]) {
      const model = scriptedModel(step(toolCall('d2', 'delete_file', { path: '/tmp/b' })), step(text('refused')));
      const later = await turn(instance, 'generateText', { model, tools, messages: [user('delete b')], runtimeContext: alice });
      expect(approvalRequests(later.content)).toEqual([]);
      expect(JSON.stringify(toolResultsSent(model, 1).d2)).toContain('The user chose never to allow');
    }
    expect(deleted).toEqual([]);
  });

  it('should give a replay arriving after the first resume the same decision, on the other instance', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    const { store } = recordingStore();
    const [a, b] = instances(store);
    const { tools, deleted } = fileTools();

    const onTime = await ask(a, tools);
    const approved = [...onTime.history, answer(onTime.approvalId, true)];
    expect(handlerActions(await resumeOn(a, tools, approved))).toEqual(['proceed']);
    vi.setSystemTime(new Date('2026-01-01T10:30:00Z')); // past expiresInMs: an unanswered request would have expired
    expect(handlerActions(await resumeOn(b, tools, approved))).toEqual(['proceed']);
    expect(deleted).toEqual(['/tmp/a']);

    // and an approval answered too late stays refused on every replay (a new approval of the same call id)
    const { tools: lateTools, deleted: lateDeleted } = fileTools();
    const late = await ask(b, lateTools);
    vi.setSystemTime(new Date('2026-01-01T11:31:00Z'));
    const lateAnswer = [...late.history, answer(late.approvalId, true)];
    // refused as expired: by the runtime on the ledger's clock (the store's: a real redis-server's is not the faked one)
    // before the handler decides, or else by the handler on its store; the replay on the other instance proceeds nowhere
    const first = await resumeOn(b, lateTools, lateAnswer);
    const expired = first.decisions.filter(
      (record) => record.toolCallId === 'd1' && record.action === 'deny' && ['approval-expiry', 'human-approval'].includes(record.handler),
    );
    expect(expired).toHaveLength(1);
    expect(handlerActions(first)).not.toContain('proceed');
    expect(handlerActions(await resumeOn(a, lateTools, lateAnswer))).not.toContain('proceed');
    expect(lateDeleted).toEqual([]);
  });
}

describe('humanApproval on several instances sharing a store', () => {
  describe('the memory store', () => {
    acrossInstances(() => createMemoryStore());
  });

  describe.skipIf(!hasRedisServer)(redisTitle('a real redis-server'), () => {
    const redis = useRedisServer();
    acrossInstances(() => createRedisStore({ client: redis.client, prefix: uniquePrefix() }));
  });
});

describe('humanApproval with approvers and a quorum', () => {
  it('should hold an answer from the person who asked and run the call once two managers approved, as the asker', async () => {
    const executions: string[] = [];
    const hookSaw: unknown[] = [];
    const tools = {
      deploy: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => (executions.push(to), `deployed to ${to}`) }),
    };
    const interventions = createInterventions({
      approvalSecret: 'a human approval secret of at least 32 bytes',
      approvalLedger: createApprovalLedger(),
      handlers: [humanApproval({ tools: ['deploy'], approvers: { roles: ['manager'], excludeAsker: true }, quorum: 2 })],
      hooks: { preToolCall: [({ runtimeContext }) => void hookSaw.push(runtimeContext.userId)] },
    });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'deploy' }];
    const first = await interventions.generateText({
      model: scriptedModel(step(toolCall('d1', 'deploy', { to: 'prod' }))),
      tools,
      stopWhen: isStepCount(2),
      messages: prompt,
      runtimeContext: { userId: 'alice', role: 'manager' },
    });
    const [request] = approvalRequests(first.content);
    const messages: ModelMessage[] = [
      ...prompt,
      ...first.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }] },
    ];
    const answer = (runtimeContext: Record<string, unknown>) =>
      interventions.generateText({ model: scriptedModel(step(text('done'))), tools, stopWhen: isStepCount(2), messages, runtimeContext });
    await answer({ userId: 'alice', role: 'manager' }); // the asker: not admitted
    await answer({ userId: 'bob', role: 'manager' }); // 1 of 2
    expect(executions).toEqual([]);
    const last = await answer({ userId: 'carol', role: 'manager' });
    expect(executions).toEqual(['prod']);
    expect(hookSaw).toEqual(['alice']);
    expect(last.interventions.decisions).toContainEqual(
      expect.objectContaining({
        handler: 'approval-approvers',
        approval: expect.objectContaining({ status: 'approved', approvedBy: ['bob', 'carol'] }),
      }),
    );
  });
});

describe('issue 36 finding 11: one name per meaning, expiresInMs for the expiry of a request', () => {
  const { warnings, settled } = processWarnings();
  const deprecations = () => warnings.filter((warning) => InterventionsWarning.isInstance(warning) && warning.code === 'deprecated-option');

  /** An approval asked at 10:00 and answered at 10:01:01, under `options`. */
  async function answeredLate(options: Partial<HumanApprovalOptions>, onStatus: (context: OnStatusContext) => void = () => {}) {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    const { tools, deleted } = fileTools();
    const interventions = createInterventions({ handlers: [humanApproval({ tools: 'delete_*', ...options })], hooks: { onStatus } });
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/a' })), step(text('It expired.')));
    const asked = await turn(interventions, 'generateText', { model, tools, messages: [user('a')] });
    vi.setSystemTime(new Date('2026-01-01T10:01:01Z'));
    const [request] = approvalRequests(asked.content);
    await turn(interventions, 'generateText', {
      model,
      tools,
      messages: [user('a'), ...asked.responseMessages, answer(request?.approvalId ?? '', true)],
    });
    return { deleted, sent: JSON.stringify(toolResultsSent(model, 1).d1) };
  }

  it('should expire a request after expiresInMs, without a warning', async () => {
    const { deleted, sent } = await answeredLate({ expiresInMs: 60_000 });
    await settled();
    expect(deleted).toEqual([]);
    expect(sent).toContain('expired (it had to be given within 60 seconds of the request)');
    expect(deprecations()).toEqual([]);
  });

  it('should still take timeoutMs as its deprecated name: the same expiry, one warning per process, told to each runtime', async () => {
    const statuses: OnStatusContext[] = [];
    const { deleted, sent } = await answeredLate({ timeoutMs: 60_000 }, (context) => void statuses.push(context));
    createInterventions({
      handlers: [humanApproval({ name: 'second', tools: 'delete_*', timeoutMs: 60_000 })],
      hooks: { onStatus: (context) => void statuses.push(context) },
    });
    await settled();
    expect(deleted).toEqual([]);
    expect(sent).toContain('expired (it had to be given within 60 seconds of the request)');
    expect(deprecations()).toHaveLength(1);
    expect(deprecations()[0]).toMatchObject({ name: 'AIInterventionsWarning', handlerName: 'human-approval', option: 'timeoutMs' });
    expect(deprecations()[0]?.message).toContain('timeoutMs is deprecated, use expiresInMs');
    const told = statuses.filter(({ status }) => status.type === 'warning' && status.code === 'deprecated-option');
    expect(told).toHaveLength(2);
  });

  it('should refuse both names at once', () => {
    let error: unknown;
    try {
      humanApproval({ tools: 'delete_*', expiresInMs: 60_000, timeoutMs: 60_000 });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid-option', option: 'timeoutMs' });
  });
});
