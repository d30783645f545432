/**
 * The programs of the README and the docs pages, run as they are written: `@ai-sdk/openai` answers
 * with a scripted model and `node:fs/promises` is a recording stand-in, the
 * rest is the real package. Each test checks what the text around the
 * program says it does.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { UIMessage, UIMessageChunk } from 'ai';
import * as ai from 'ai';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as zod from 'zod';
import * as aiInterventions from '../../src/index.ts';
import * as testing from '../../src/testing/index.ts';
import { runHandler, type ScriptedModel, scriptedModel, text, toolCall } from '../../src/testing/index.ts';
import { hasRedisServer, type RedisServer, startRedisServer } from '../helpers/redis-server.ts';
import { runSnippet } from './run-snippet.ts';
import { documentSnippets } from './snippets.ts';

const documents = documentSnippets(fileURLToPath(new URL('../..', import.meta.url)));

/** The one block of the README or a docs page that contains `marker` (wherever the page moved it). */
function program(marker: string): string {
  const found = documents.filter((snippet) => snippet.code.includes(marker));
  if (found.length !== 1) {
    throw new Error(
      `expected one documented block with ${JSON.stringify(marker)}, found ${found.map((snippet) => snippet.id).join(', ') || 'none'}`,
    );
  }
  return (found[0] as (typeof found)[number]).code;
}

/** `node:fs/promises` for the programs: it lists two files and records what it is asked to delete. */
const recordingFs = () => ({
  readdir: vi.fn(async (dir: string) => [`${dir}/build-cache`, `${dir}/session.log`]),
  rm: vi.fn(async (_path: string) => undefined),
});

/** Runs a README program against `model`, with a file system that records instead of deleting. */
async function run(code: string, model: ScriptedModel, expose: readonly string[] = []) {
  const fs = recordingFs();
  const printed: unknown[][] = [];
  vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values));
  const exposed = await runSnippet(
    code,
    {
      ai,
      zod,
      'ai-interventions': aiInterventions,
      'ai-interventions/testing': testing,
      '@ai-sdk/openai': { openai: () => model },
      'node:fs/promises': fs,
      'node:assert/strict': { default: assert },
    },
    expose,
  );
  return { fs, printed, exposed };
}

const sent = (model: ScriptedModel, call: number) => JSON.stringify(model.calls[call]?.prompt);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('the README programs', () => {
  it('the quick start, on its own scripted model (no API key): ToolGuard denies delete_file, the model reads why, the decisions say who decided', async () => {
    const { printed, exposed } = await run(program('class ToolGuard extends InterventionHandler'), scriptedModel(), ['result']);
    const { steps, responseMessages } = exposed.result as Awaited<ReturnType<typeof ai.generateText>>;

    // delete_file never ran; the history the model answered from says why
    expect(steps.flatMap((step) => step.content.filter((part) => part.type === 'tool-result'))).toEqual([]);
    expect(JSON.stringify(responseMessages)).toContain("Tool 'delete_file' is not allowed in this environment");
    expect(printed[0]).toEqual(['I may not delete files here.']);
    expect(printed[1]?.[0]).toEqual([
      expect.objectContaining({ handler: 'tool-guard', lifecycle: 'beforeToolCall', action: 'deny', toolName: 'delete_file' }),
    ]);
  });

  it('the testing page: a guard tried on the scripted model from start to finish, its assertions holding', async () => {
    const { exposed } = await run(program('assert.deepEqual(deleted, [])'), scriptedModel(), ['deleted', 'result']);
    expect(exposed.deleted).toEqual([]);
    expect((exposed.result as { text: string }).text).toBe('I may not delete files here.');
  });

  it('StrictAuth: the auth service decides; when it fails, the call is denied (fail closed)', async () => {
    const { exposed } = await run(program('class StrictAuth'), scriptedModel(), ['StrictAuth']);
    const StrictAuth = exposed.StrictAuth as new () => aiInterventions.InterventionHandler;
    const call = {
      lifecycle: 'beforeToolCall',
      toolCall: { toolName: 'delete_file', input: { path: '/tmp/x' } },
      runtimeContext: { userId: 'u1' },
    } as const;

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ allowed: true })),
    );
    expect((await runHandler(new StrictAuth(), call)).action).toBe('proceed');

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ allowed: false })),
    );
    expect((await runHandler(new StrictAuth(), call)).record).toMatchObject({ action: 'deny', reason: 'You may not use this tool.' });

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    const failed = await runHandler(new StrictAuth(), call);
    expect(failed.executed).toEqual([]);
    expect(failed.record).toMatchObject({
      action: 'deny',
      error: expect.objectContaining({ cause: new Error('auth service answered 503') }),
    });
  });

  it('human approval: the first call stops at the request, the second runs delete_file once', async () => {
    vi.stubEnv('APPROVAL_SECRET', 'a-long-random-secret-of-32-bytes-or-more');
    const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/tmp/report.txt' }), text('Deleted /tmp/report.txt.'));
    const { fs, printed } = await run(program('class DeleteApproval'), model);

    expect(printed[0]).toEqual([expect.any(String), 'Approve deleting "/tmp/report.txt"?']);
    expect(fs.rm.mock.calls).toEqual([['/tmp/report.txt']]);
    expect(printed[1]).toEqual(['Deleted /tmp/report.txt.']);
  });

  it('the testing kit: runHandler says the guard denied and nothing ran', async () => {
    const { exposed } = await run(program('runHandler(new EnvironmentGuard()'), scriptedModel(), ['action', 'record', 'executed']);
    expect(exposed).toEqual({
      action: 'deny',
      record: expect.objectContaining({ reason: 'Production database access is not allowed' }),
      executed: [],
    });
  });
});

describe.skipIf(!hasRedisServer)('the Next.js app of docs/chat-uis-and-nextjs.md (lib/…, app/api/chat/route.ts), on a real Redis', () => {
  let server: RedisServer | undefined;
  const clients: Redis[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server?.kill();
  });

  /** The route's POST (the method form, or the function form), with the page's lib files as its `@/lib/…` modules. */
  async function route(model: ScriptedModel, form: 'method' | 'function' = 'method') {
    vi.stubEnv('REDIS_URL', `redis://127.0.0.1:${server?.port}`);
    vi.stubEnv('APPROVAL_SECRET', 'a-long-random-secret-of-32-bytes-or-more');
    const ioredis = {
      Redis: class extends Redis {
        constructor(url: string) {
          super(url, { maxRetriesPerRequest: 0 });
          clients.push(this);
        }
      },
    };
    const lib = await runSnippet(program('// lib/interventions.ts'), { 'ai-interventions': aiInterventions, ioredis }, ['interventions']);
    const auth = await runSnippet(program('// lib/auth.ts'), {});
    const fs = recordingFs();
    const tools = await runSnippet(program('// lib/tools.ts'), { ai, zod, 'node:fs/promises': fs }, ['tools']);
    const { POST } = await runSnippet(
      program(form === 'method' ? '// app/api/chat/route.ts' : 'toInterventionsUIMessageStream({ stream: result.stream'),
      {
        ai,
        'ai-interventions': aiInterventions,
        '@ai-sdk/openai': { openai: () => model },
        '@/lib/auth': auth,
        '@/lib/interventions': lib,
        '@/lib/tools': tools,
      },
      ['POST'],
    );
    return { POST: POST as (request: Request) => Promise<Response>, fs };
  }

  const post = (body: unknown) => new Request('http://localhost/api/chat', { method: 'POST', body: JSON.stringify(body) });

  /** The conversation after a person answered the approval request in `assistant` (as addToolApprovalResponse leaves it). */
  const answer = (assistant: UIMessage, typed: aiInterventions.ApprovalAnswer) =>
    ({
      ...assistant,
      parts: assistant.parts.map((part) =>
        'approval' in part && part.state === 'approval-requested'
          ? {
              ...part,
              state: 'approval-responded' as const,
              approval: { ...part.approval, ...aiInterventions.approvalAnswer({ id: part.approval.id, ...typed }) },
            }
          : part,
      ),
    }) as UIMessage;

  /** The assistant message the client builds from the route's response (continuing `message`), as useChat does. */
  async function assistantOf(response: Response, message?: UIMessage): Promise<UIMessage> {
    const chunks = (await response.text())
      .split('\n\n')
      .map((event) => event.replace(/^data: /, ''))
      .filter((data) => data !== '' && data !== '[DONE]')
      .map((data) => JSON.parse(data) as UIMessageChunk);
    const stream = new ReadableStream<UIMessageChunk>({
      start: (controller) => {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    let last = message;
    for await (const update of ai.readUIMessageStream({
      message,
      stream,
      onError: (error) => {
        throw error;
      },
    }))
      last = update;
    if (last === undefined) throw new Error('no assistant message in the response');
    return last;
  }

  it('should ask before delete_file, resume from the answer on the next request, and run it once', async () => {
    const model = scriptedModel(
      toolCall('d1', 'delete_file', { path: '/tmp/report.txt' }),
      text('Deleted /tmp/report.txt.'),
      toolCall('d2', 'delete_file', { path: '/tmp/other.txt' }),
      text('Deleted /tmp/other.txt.'),
    );
    const { POST, fs } = await route(model);
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete /tmp/report.txt' }] };

    // `next dev` signs in the stand-in user (lib/auth.ts); the tests run as development from here on
    vi.stubEnv('NODE_ENV', 'development');
    const assistant = await assistantOf(await POST(post({ id: 'chat-1', messages: [user] })));
    expect(fs.rm).not.toHaveBeenCalled();
    const request = assistant.parts.find((part) => part.type === 'tool-delete_file');
    expect(request).toMatchObject({
      state: 'approval-requested',
      approval: { requestReason: 'Allow "delete_file" with {"path":"/tmp/report.txt"}?' },
    });
    // the decision, for the page: a data-intervention part after the tool part
    expect(assistant.parts).toContainEqual({
      type: 'data-intervention',
      id: expect.any(String),
      data: expect.objectContaining({ toolName: 'delete_file', action: 'confirm', handler: 'human-approval' }),
    });

    // what addToolApprovalResponse(approvalAnswer({ id, approved: true, remember: 'session' })) ("Approve for this chat")
    // does to the part, before useChat sends the conversation back
    const answered = answer(assistant, { approved: true, remember: 'session' });
    const resumed = await POST(post({ id: 'chat-1', messages: [user, answered] }));
    const done = await assistantOf(resumed, structuredClone(answered));
    expect(done.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'Deleted /tmp/report.txt.' }));
    expect(fs.rm.mock.calls).toEqual([['/tmp/report.txt']]);

    // the same chat (sessionId): the next deletion runs without asking
    const next: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Delete /tmp/other.txt' }] };
    const later = await assistantOf(await POST(post({ id: 'chat-1', messages: [user, done, next] })));
    expect(later.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'Deleted /tmp/other.txt.' }));
    expect(fs.rm.mock.calls).toEqual([['/tmp/report.txt'], ['/tmp/other.txt']]);

    // the same request replayed (to any instance sharing the Redis) runs nothing again
    const replayModel = scriptedModel(text('again'));
    const replay = await route(replayModel);
    await (await replay.POST(post({ id: 'chat-1', messages: [user, answered] }))).text();
    expect(replay.fs.rm).not.toHaveBeenCalled();
  });

  it('should tell a signed-out chat so: a 401 whose text useChat shows as the error, and nothing runs', async () => {
    vi.stubEnv('NODE_ENV', 'production'); // a production build, before authentication is wired in
    const model = scriptedModel(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' }), text('Deleted.'));
    const { POST, fs } = await route(model);
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete /tmp/report.txt' }] };

    const response = await POST(post({ id: 'chat-1', messages: [user] }));
    expect(response.status).toBe(401);
    expect(model.calls).toEqual([]);
    expect(fs.rm).not.toHaveBeenCalled();

    // what the page's useChat does with it: the request fails with the response's text as error.message
    const transport = new ai.DefaultChatTransport<UIMessage>({
      api: 'http://localhost/api/chat',
      fetch: async (input, init) => POST(new Request(input as string, init)),
    });
    const sending = transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages: [user],
      abortSignal: undefined,
    });
    await expect(sending).rejects.toThrow('You are signed out: sign in to use the chat.');
  });

  it.each(['method', 'function'] as const)('the %s form: after a deny, the model reads why and answers (stopWhen)', async (form) => {
    vi.stubEnv('NODE_ENV', 'development');
    // a refusal remembered 'always' holds for the user: each form starts from an empty Redis
    const admin = new Redis(`redis://127.0.0.1:${server?.port}`);
    await admin.flushdb();
    admin.disconnect();
    const model = scriptedModel(
      toolCall('d1', 'delete_file', { path: '/tmp/report.txt' }),
      text('I left /tmp/report.txt alone, as you asked.'),
      toolCall('d2', 'delete_file', { path: '/tmp/report.txt' }),
      text('You asked me never to delete it, so I did not.'),
    );
    const { POST, fs } = await route(model, form);
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete /tmp/report.txt' }] };
    const chatId = `chat-refused-${form}`;

    const assistant = await assistantOf(await POST(post({ id: chatId, messages: [user] })));
    expect(assistant.parts).toContainEqual(expect.objectContaining({ type: 'tool-delete_file', state: 'approval-requested' }));
    const refused = answer(assistant, { approved: false, reason: 'Keep it until Friday', remember: 'always' });
    const done = await assistantOf(await POST(post({ id: chatId, messages: [user, refused] })), structuredClone(refused));
    expect(done.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'I left /tmp/report.txt alone, as you asked.' }));

    // the remembered refusal denies the next call without asking: the model reads why in a second step and answers
    const again: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Delete it now' }] };
    const denied = await assistantOf(await POST(post({ id: chatId, messages: [user, done, again] })));
    expect(denied.parts).toContainEqual(expect.objectContaining({ type: 'tool-delete_file', state: 'output-denied' }));
    expect(sent(model, 3)).toContain('Keep it until Friday');
    expect(denied.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'You asked me never to delete it, so I did not.' }));
    expect(fs.rm).not.toHaveBeenCalled();
  });
});
