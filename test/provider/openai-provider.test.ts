/**
 * The wrappers against the REAL `@ai-sdk/openai` provider, speaking the
 * OpenAI wire format to a loopback server (test/helpers/openai-compatible-server.ts).
 *
 * Every scenario runs for both APIs (Chat Completions: `provider.chat`,
 * Responses: `provider.responses`) and both wrappers (`generateText`,
 * `streamText`), and asserts on the exact JSON the provider put on the wire
 * in the request after the decision: what the model would really read.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AfterModelCallEvent,
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  InterventionActions,
  InterventionHandler,
} from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { replyText, replyToolCalls, startOpenAICompatibleServer, toolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, chatWire, outputsById, run, serve, type WireCall } from '../helpers/openai-wire.ts';

// ---------------------------------------------------------------------------
// handlers
// ---------------------------------------------------------------------------

const DENY_REASON = 'Deleting files is not allowed here';

/** deny: delete_file never runs. */
class ToolGuard extends InterventionHandler {
  readonly name = 'tool-guard';
  override beforeToolCall(event: BeforeToolCallEvent) {
    return event.toolCall.toolName === 'delete_file' ? InterventionActions.deny(DENY_REASON) : InterventionActions.proceed();
  }
}

/** guide: an email without a subject is sent back to the model. */
class EmailValidator extends InterventionHandler {
  readonly name = 'email-validator';
  override beforeToolCall(event: BeforeToolCallEvent) {
    const input = event.toolCall.input as Record<string, string>;
    return event.toolCall.toolName === 'send_email' && !input.subject
      ? InterventionActions.guide('All emails must include a subject line.')
      : InterventionActions.proceed();
  }
}

/** confirm: deleting a file needs a human. */
class DeleteApproval extends InterventionHandler {
  readonly name = 'delete-approval';
  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName !== 'delete_file') return InterventionActions.proceed();
    const input = event.toolCall.input as Record<string, string>;
    return InterventionActions.confirm(`Approve deleting "${input.path}"?`);
  }
}

/** transform: SSNs are redacted from outgoing email bodies. */
class PiiRedactor extends InterventionHandler {
  readonly name = 'pii-redactor';
  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName !== 'send_email') return InterventionActions.proceed();
    return InterventionActions.transform<BeforeToolCallEvent>((draft) => {
      const input = draft.toolCall.input as Record<string, string>;
      input.body = input.body!.replace(/\b\d{3}-\d{2}-\d{4}\b/g, '[REDACTED]');
    });
  }
}

/** The exact texts the README promises (defaultWording). */
const DENIED_TEXT =
  `The call to "delete_file" was blocked and was not executed. Reason: ${DENY_REASON}\n` +
  'Do not retry this call as it is; continue without it, or explain to the user why it cannot be done.';
const GUIDED_TEXT =
  'The call to "send_email" was not executed. Feedback:\n' +
  '[email-validator] All emails must include a subject line.\n' +
  'Revise the call according to this feedback and try again.';

// ---------------------------------------------------------------------------
// tools
// ---------------------------------------------------------------------------

const SECRET = 'sk-SECRET-123-with-at-least-32-bytes-for-hmac';

/** Tools whose executions are recorded. */
function countingTools() {
  const runs = {
    search: [] as { q: string }[],
    delete_file: [] as { path: string }[],
    send_email: [] as { to: string; subject?: string | undefined; body: string }[],
    read_config: [] as { name: string }[],
    flaky: [] as { n: number }[],
  };
  const tools = {
    search: tool({
      description: 'Search the files',
      inputSchema: z.object({ q: z.string() }),
      execute: async (input) => {
        runs.search.push(input);
        return `found ${input.q}`;
      },
    }),
    delete_file: tool({
      description: 'Delete a file',
      inputSchema: z.object({ path: z.string() }),
      execute: async (input) => {
        runs.delete_file.push(input);
        return `deleted ${input.path}`;
      },
    }),
    send_email: tool({
      description: 'Send an email',
      inputSchema: z.object({ to: z.string(), subject: z.string().optional(), body: z.string() }),
      execute: async (input) => {
        runs.send_email.push(input);
        return `sent to ${input.to}`;
      },
    }),
    read_config: tool({
      description: 'Read a configuration entry',
      inputSchema: z.object({ name: z.string() }),
      execute: async (input) => {
        runs.read_config.push(input);
        return { name: input.name, apiKey: SECRET, region: 'eu-west-1' };
      },
    }),
    flaky: tool({
      description: 'Always fails',
      inputSchema: z.object({ n: z.number() }),
      execute: async (input): Promise<string> => {
        runs.flaky.push(input);
        throw new Error('disk on fire');
      },
    }),
  };
  return { tools, runs };
}

const USER_TEXT = 'Do the task';
const USER: ModelMessage = { role: 'user', content: USER_TEXT };

// ---------------------------------------------------------------------------
// the scenarios, for each API and each wrapper
// ---------------------------------------------------------------------------

describe.each(CASES)('real @ai-sdk/openai provider: $api API, $mode', ({ api, mode, wire }) => {
  const stream = mode === 'streamText';

  it('should round-trip tool calls and text through the wire format (finish reasons, usage, requests)', async () => {
    const { tools, runs } = countingTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_s1', 'search', { q: 'tmp' }), toolCall('call_s2', 'search', { q: 'logs' })),
      replyText('Found both.', { input: 42, output: 7 }),
    );
    const interventions = createInterventions({ handlers: [new ToolGuard()] });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(result.text).toBe('Found both.');
    expect(runs.search).toEqual([{ q: 'tmp' }, { q: 'logs' }]);
    expect(result.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    if (api === 'chat') expect(result.steps.map((s) => s.rawFinishReason)).toEqual(['tool_calls', 'stop']);
    expect(result.steps.map((s) => [s.usage.inputTokens, s.usage.outputTokens])).toEqual([
      [10, 5],
      [42, 7],
    ]);
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.path).toBe(wire.path);
      expect(request.headers.authorization).toBe('Bearer test');
      expect(request.body.model).toBe('gpt-test');
      expect(request.body.stream).toBe(stream ? true : undefined);
    }
    if (api === 'chat' && stream) expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    // the tools were declared to the provider as functions
    const declared = (server.requests[0]!.body.tools as Array<{ name?: string; function?: { name: string } }>).map(
      (t) => t.name ?? t.function?.name,
    );
    expect(declared).toEqual(['search', 'delete_file', 'send_email', 'read_config', 'flaky']);
    expect(wire.items(server.requests[0])).toEqual([wire.user(USER_TEXT)]);
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([
        { id: 'call_s1', name: 'search', args: { q: 'tmp' } },
        { id: 'call_s2', name: 'search', args: { q: 'logs' } },
      ]),
      ...wire.outputs([
        ['call_s1', 'found tmp'],
        ['call_s2', 'found logs'],
      ]),
    ]);
  });

  it('deny: the next request carries the denial text as the tool output, and the tool never ran', async () => {
    const { tools, runs } = countingTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_d1', 'delete_file', { path: '/tmp/x' })),
      replyText('I may not delete that.'),
    );
    const interventions = createInterventions({ handlers: [new ToolGuard()] });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(runs.delete_file).toHaveLength(0);
    expect(result.text).toBe('I may not delete that.');
    expect(server.requests).toHaveLength(2);
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_d1', name: 'delete_file', args: { path: '/tmp/x' } }]),
      ...wire.outputs([['call_d1', DENIED_TEXT]]),
    ]);
    expect(result.decisions.map((d) => [d.handler, d.action, d.toolCallId, d.enforced])).toEqual([['tool-guard', 'deny', 'call_d1', true]]);
  });

  it('guide: the next request carries the feedback, and the revised call runs exactly once', async () => {
    const { tools, runs } = countingTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_e1', 'send_email', { to: 'bob@example.com', body: 'Hello Bob' })),
      replyToolCalls(toolCall('call_e2', 'send_email', { to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob' })),
      replyText('Sent.'),
    );
    const interventions = createInterventions({ handlers: [new EmailValidator()] });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(result.text).toBe('Sent.');
    expect(runs.send_email).toEqual([{ to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob' }]);
    expect(server.requests).toHaveLength(3);
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_e1', name: 'send_email', args: { to: 'bob@example.com', body: 'Hello Bob' } }]),
      ...wire.outputs([['call_e1', GUIDED_TEXT]]),
    ]);
    expect(wire.items(server.requests[2])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_e1', name: 'send_email', args: { to: 'bob@example.com', body: 'Hello Bob' } }]),
      ...wire.outputs([['call_e1', GUIDED_TEXT]]),
      ...wire.assistantCalls([{ id: 'call_e2', name: 'send_email', args: { to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob' } }]),
      ...wire.outputs([['call_e2', 'sent to bob@example.com']]),
    ]);
  });

  it('confirm: the first call ends with an approval request and sends nothing more; the approved resume runs the tool once', async () => {
    const { tools, runs } = countingTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_d1', 'delete_file', { path: '/tmp/report.txt' })),
      replyText('The report is gone.'),
    );
    const interventions = createInterventions({
      handlers: [new DeleteApproval()],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });

    const first = await run(mode, interventions, { model, tools, messages: [USER] });

    const requests = approvalRequests(first.content);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.reason).toBe('Approve deleting "/tmp/report.txt"?');
    expect(requests[0]?.toolCall).toMatchObject({ toolCallId: 'call_d1', toolName: 'delete_file' });
    expect(runs.delete_file).toHaveLength(0);
    expect(server.requests).toHaveLength(1);

    const resumed = await run(mode, interventions, {
      model,
      tools,
      messages: [
        USER,
        ...first.responseMessages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0]!.approvalId, approved: true }] },
      ],
    });

    expect(runs.delete_file).toEqual([{ path: '/tmp/report.txt' }]);
    expect(resumed.text).toBe('The report is gone.');
    expect(approvalRequests(resumed.content)).toHaveLength(0);
    expect(server.requests).toHaveLength(2);
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_d1', name: 'delete_file', args: { path: '/tmp/report.txt' } }]),
      ...wire.outputs([['call_d1', 'deleted /tmp/report.txt']]),
    ]);
  });

  it('confirm, denied by the human with a plain reason: the next request carries their reason as the SDK sends it, and the tool never ran', async () => {
    const { tools, runs } = countingTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_d1', 'delete_file', { path: '/tmp/report.txt' })),
      replyText('Understood, I kept it.'),
    );
    const interventions = createInterventions({
      handlers: [new DeleteApproval()],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });

    const first = await run(mode, interventions, { model, tools, messages: [USER] });
    const [request] = approvalRequests(first.content);
    expect(request).toBeDefined();

    const resumed = await run(mode, interventions, {
      model,
      tools,
      messages: [
        USER,
        ...first.responseMessages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: false, reason: 'Keep the report' }],
        },
      ],
    });

    expect(runs.delete_file).toHaveLength(0);
    expect(resumed.text).toBe('Understood, I kept it.');
    expect(server.requests).toHaveLength(2);
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_d1', name: 'delete_file', args: { path: '/tmp/report.txt' } }]),
      ...wire.outputs([['call_d1', 'Keep the report']]),
    ]);
  });

  it('transform: the next request shows the transformed arguments, and the tool got them', async () => {
    const { tools, runs } = countingTools();
    const original = { to: 'hr@example.com', subject: 'SSN', body: 'My SSN is 123-45-6789, call me.' };
    const redacted = { to: 'hr@example.com', subject: 'SSN', body: 'My SSN is [REDACTED], call me.' };
    const { server, model } = await serve(api, replyToolCalls(toolCall('call_e1', 'send_email', original)), replyText('Sent.'));
    const interventions = createInterventions({ handlers: [new PiiRedactor()] });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(result.text).toBe('Sent.');
    expect(runs.send_email).toEqual([redacted]);
    expect(server.requests).toHaveLength(2);
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_e1', name: 'send_email', args: redacted }]),
      ...wire.outputs([['call_e1', 'sent to hr@example.com']]),
    ]);
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain('123-45-6789');
    if (stream) expect(result.streamedToolCalls).toEqual([{ toolCallId: 'call_e1', input: redacted }]);
    expect(result.decisions).toMatchObject([{ handler: 'pii-redactor', action: 'transform', toolCallId: 'call_e1', enforced: true }]);
  });

  it('preRequest short-circuit: the server receives no request for that step', async () => {
    const { tools, runs } = countingTools();
    // only one turn is scripted: a second provider call would get a 400 and fail the run
    const { server, model } = await serve(api, replyToolCalls(toolCall('call_s1', 'search', { q: 'docs' })));
    const seen: LanguageModelV4CallOptions['prompt'][] = [];
    const cached: LanguageModelV4GenerateResult = {
      content: [{ type: 'text', text: 'Served from the cache.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    };
    const interventions = createInterventions({
      hooks: {
        preRequest: ({ request }) => {
          seen.push(request.prompt);
          return request.prompt.some((message) => message.role === 'tool') ? { response: cached } : undefined;
        },
      },
    });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(result.text).toBe('Served from the cache.');
    expect(runs.search).toEqual([{ q: 'docs' }]);
    expect(seen).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
    expect(wire.items(server.requests[0])).toEqual([wire.user(USER_TEXT)]);
  });

  it('onToolCallResult redaction: the server never receives the secret', async () => {
    const { tools, runs } = countingTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_c1', 'read_config', { name: 'billing' })),
      replyText('The billing service runs in eu-west-1.'),
    );
    const interventions = createInterventions({
      hooks: {
        onToolCallResult: ({ result }) => ({
          result: JSON.parse(JSON.stringify(result).replaceAll(SECRET, '[REDACTED]')) as unknown,
        }),
      },
    });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(runs.read_config).toEqual([{ name: 'billing' }]);
    expect(result.text).toBe('The billing service runs in eu-west-1.');
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests)).not.toContain(SECRET);
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_c1', name: 'read_config', args: { name: 'billing' } }]),
      ...wire.outputs([['call_c1', JSON.stringify({ name: 'billing', apiKey: '[REDACTED]', region: 'eu-west-1' })]]),
    ]);
  });

  it('parallel turn (deny, guide, allow): every call id gets exactly one output in the next request', async () => {
    const { tools, runs } = countingTools();
    const calls: WireCall[] = [
      { id: 'call_d1', name: 'delete_file', args: { path: '/tmp/x' } },
      { id: 'call_e1', name: 'send_email', args: { to: 'bob@example.com', body: 'Hello Bob' } },
      { id: 'call_s1', name: 'search', args: { q: 'tmp' } },
    ];
    const { server, model } = await serve(
      api,
      replyToolCalls(...calls.map((c) => toolCall(c.id, c.name, c.args))),
      replyText('One search ran.'),
    );
    const interventions = createInterventions({ handlers: [new ToolGuard(), new EmailValidator()] });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(result.text).toBe('One search ran.');
    expect(runs.delete_file).toHaveLength(0);
    expect(runs.send_email).toHaveLength(0);
    expect(runs.search).toEqual([{ q: 'tmp' }]);
    expect(server.requests).toHaveLength(2);
    const next = server.requests[1];
    expect(outputsById(wire.toolOutputs(next))).toEqual({
      call_d1: [DENIED_TEXT],
      call_e1: [GUIDED_TEXT],
      call_s1: ['found tmp'],
    });
    expect(wire.toolCalls(next)).toEqual(calls);
    expect(wire.items(next)).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls(calls),
      ...wire.outputs([
        ['call_d1', DENIED_TEXT],
        ['call_e1', GUIDED_TEXT],
        ['call_s1', 'found tmp'],
      ]),
    ]);
    expect(result.decisions.map((d) => [d.handler, d.action, d.toolCallId])).toEqual([
      ['tool-guard', 'deny', 'call_d1'],
      ['tool-guard', 'proceed', 'call_e1'],
      ['email-validator', 'guide', 'call_e1'],
      ['tool-guard', 'proceed', 'call_s1'],
      ['email-validator', 'proceed', 'call_s1'],
    ]);
  });

  it('parallel turn with a confirm: the sibling runs at once, and after the resume every call id has exactly one output', async () => {
    const { tools, runs } = countingTools();
    const calls: WireCall[] = [
      { id: 'call_s1', name: 'search', args: { q: 'reports' } },
      { id: 'call_d1', name: 'delete_file', args: { path: '/tmp/report.txt' } },
    ];
    const { server, model } = await serve(
      api,
      replyToolCalls(...calls.map((c) => toolCall(c.id, c.name, c.args))),
      replyText('Searched and deleted.'),
    );
    const interventions = createInterventions({
      handlers: [new DeleteApproval()],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });

    const first = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(runs.search).toEqual([{ q: 'reports' }]);
    expect(runs.delete_file).toHaveLength(0);
    const [request] = approvalRequests(first.content);
    expect(request?.toolCall.toolCallId).toBe('call_d1');
    expect(server.requests).toHaveLength(1);

    const resumed = await run(mode, interventions, {
      model,
      tools,
      messages: [
        USER,
        ...first.responseMessages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
      ],
    });

    expect(resumed.text).toBe('Searched and deleted.');
    expect(runs.search).toHaveLength(1);
    expect(runs.delete_file).toEqual([{ path: '/tmp/report.txt' }]);
    expect(server.requests).toHaveLength(2);
    const next = server.requests[1];
    expect(outputsById(wire.toolOutputs(next))).toEqual({
      call_s1: ['found reports'],
      call_d1: ['deleted /tmp/report.txt'],
    });
    expect(wire.items(next)).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls(calls),
      ...wire.outputs([
        ['call_s1', 'found reports'],
        ['call_d1', 'deleted /tmp/report.txt'],
      ]),
    ]);
  });

  it('afterModelCall transform of the text: the next request carries the rewritten text, never the original', async () => {
    const { tools } = countingTools();
    const { server, model } = await serve(
      api,
      { text: 'Call me at 555-1234.', toolCalls: [toolCall('call_s1', 'search', { q: 'phones' })] },
      replyText('Done.'),
    );
    class PhoneRedactor extends InterventionHandler {
      readonly name = 'phone-redactor';
      override afterModelCall() {
        return InterventionActions.transform<AfterModelCallEvent>((draft) => {
          for (const part of draft.response.content) {
            if (part.type === 'text') part.text = part.text.replaceAll('555-1234', '[PHONE]');
          }
        });
      }
    }
    const interventions = createInterventions({ handlers: [new PhoneRedactor()] });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(result.text).toBe('Done.');
    expect(JSON.stringify(result.responseMessages)).not.toContain('555-1234');
    expect(server.requests).toHaveLength(2);
    // What the model reads next must be the rewritten text. On the Responses API
    // an `item_reference` to the model's own output item would make OpenAI use
    // the stored original ("Call me at 555-1234.") instead.
    const calls: WireCall[] = [{ id: 'call_s1', name: 'search', args: { q: 'phones' } }];
    const items = wire.items(server.requests[1]);
    expect(JSON.stringify(items)).toContain('Call me at [PHONE].');
    expect(items.filter((item) => (item as { type?: string }).type === 'item_reference')).toEqual([]);
    expect(wire.toolCalls(server.requests[1])).toEqual(calls);
    expect(wire.toolOutputs(server.requests[1])).toEqual([['call_s1', 'found phones']]);
    if (api === 'chat') {
      expect(items).toEqual([
        wire.user(USER_TEXT),
        { ...(chatWire.assistantCalls(calls)[0] as object), content: 'Call me at [PHONE].' },
        ...wire.outputs([['call_s1', 'found phones']]),
      ]);
    }
  });

  it('a tool that throws, with an onToolCallError replacement: the model reads the replacement, wrapped as an error', async () => {
    const { tools, runs } = countingTools();
    const { server, model } = await serve(api, replyToolCalls(toolCall('call_f1', 'flaky', { n: 1 })), replyText('It failed.'));
    const interventions = createInterventions({
      hooks: { onToolCallError: () => ({ error: 'The flaky service is down; try later.' }) },
    });

    const result = await run(mode, interventions, { model, tools, messages: [USER] });

    expect(runs.flaky).toEqual([{ n: 1 }]);
    expect(result.text).toBe('It failed.');
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain('disk on fire');
    // both APIs render an error result as JSON `{"error": …}`, unlike a denial (plain text)
    expect(wire.items(server.requests[1])).toEqual([
      wire.user(USER_TEXT),
      ...wire.assistantCalls([{ id: 'call_f1', name: 'flaky', args: { n: 1 } }]),
      ...wire.outputs([['call_f1', JSON.stringify({ error: 'The flaky service is down; try later.' })]]),
    ]);
  });
});

describe('openai-compatible test server', () => {
  it('should answer past the end of its script with a 400 OpenAI error, and release its port on close', async () => {
    const server = await startOpenAICompatibleServer({ script: [] });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', messages: [] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/no turn scripted/);
    expect(server.requests).toHaveLength(1);
    await server.close();
    await expect(fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
