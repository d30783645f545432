import { isStepCount, type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
} from '../../src/index.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

function fileTools(log: string[]) {
  return {
    read_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (log.push(`read ${path}`), `content of ${path}`),
    }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (log.push(`delete ${path}`), 'deleted'),
    }),
    send_email: tool({
      inputSchema: z.object({ to: z.string(), subject: z.string().optional() }),
      execute: async ({ to }) => (log.push(`email ${to}`), 'sent'),
    }),
  };
}

const policy = defineHandler({
  name: 'policy',
  beforeToolCall: (event: BeforeToolCallEvent) => {
    const input = event.toolCall.input as Record<string, string | undefined>;
    if (event.toolCall.toolName === 'delete_file') return InterventionActions.confirm(`Approve deleting "${input.path}"?`);
    if (event.toolCall.toolName === 'send_email' && !input.subject)
      return InterventionActions.guide('All emails must include a subject line.');
    if (input.path?.startsWith('/etc')) return InterventionActions.deny('System files are off limits');
    return InterventionActions.proceed();
  },
});

/** Every tool call in `messages` and how many results it has. */
function resultCounts(messages: readonly { role: string; content: unknown }[]) {
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId?: string }[]) {
      if (part.type === 'tool-call' && part.toolCallId) counts.set(part.toolCallId, counts.get(part.toolCallId) ?? 0);
      if (part.type === 'tool-result' && part.toolCallId) counts.set(part.toolCallId, (counts.get(part.toolCallId) ?? 0) + 1);
    }
  }
  return Object.fromEntries(counts);
}

describe('decisions on a turn of parallel tool calls', () => {
  it('should give every call exactly one result: ok, denied, guided, unknown and malformed alike', async () => {
    const log: string[] = [];
    const model = scriptedModel(
      step(
        toolCall('ok', 'read_file', { path: '/tmp/a' }),
        toolCall('denied', 'read_file', { path: '/etc/passwd' }),
        toolCall('guided', 'send_email', { to: 'a@b.c' }),
        toolCall('unknown', 'format_disk', {}),
        toolCall('malformed', 'read_file', '{"path":'),
        toolCall('invalid', 'read_file', { file: '/tmp/a' }),
      ),
      step(text('done')),
    );
    const interventions = createInterventions({ handlers: [policy] });
    await interventions.generateText({ model, tools: fileTools(log), stopWhen: isStepCount(3), prompt: 'go' });
    expect(log).toEqual(['read /tmp/a']);
    const next = model.calls[1]?.prompt ?? [];
    expect(resultCounts(next)).toEqual({ ok: 1, denied: 1, guided: 1, unknown: 1, malformed: 1, invalid: 1 });
    const sent = toolResultsSent(model, 1);
    expect(sent.denied).toMatchObject({ type: 'execution-denied', reason: expect.stringContaining('System files are off limits') });
    expect(sent.guided).toMatchObject({
      type: 'execution-denied',
      reason: expect.stringContaining('[policy] All emails must include a subject line.'),
    });
    expect(sent.unknown).toMatchObject({ type: 'error-text' });
  });

  it('should pause for the confirm while the other calls of the turn run, then resume it', async () => {
    const log: string[] = [];
    const tools = fileTools(log);
    const interventions = createInterventions({
      handlers: [policy],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });
    const first = await interventions.generateText({
      model: scriptedModel(step(toolCall('r', 'read_file', { path: '/tmp/a' }), toolCall('d', 'delete_file', { path: '/tmp/a' }))),
      tools,
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    expect(log).toEqual(['read /tmp/a']);
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ reason: 'Approve deleting "/tmp/a"?', toolCall: { toolCallId: 'd' } });

    const model = scriptedModel(step(text('deleted')));
    const history: ModelMessage[] = [
      { role: 'user', content: 'go' },
      ...first.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0]?.approvalId ?? '', approved: true }] },
    ];
    const second = await interventions.generateText({ model, tools, stopWhen: isStepCount(3), messages: history });
    expect(log).toEqual(['read /tmp/a', 'delete /tmp/a']);
    expect(second.text).toBe('deleted');
    expect(toolResultsSent(model, 0).d).toEqual({ type: 'text', value: 'deleted' });
    expect(resultCounts(model.calls[0]?.prompt ?? [])).toEqual({ r: 1, d: 1 });
  });

  it('should execute nothing when the approved arguments were edited after signing', async () => {
    const log: string[] = [];
    const tools = fileTools(log);
    const interventions = createInterventions({
      handlers: [policy],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });
    const first = await interventions.generateText({
      model: scriptedModel(step(toolCall('d', 'delete_file', { path: '/tmp/a' }))),
      tools,
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    const tampered = JSON.parse(JSON.stringify(first.responseMessages).replaceAll('/tmp/a', '/home')) as ModelMessage[];
    const model = scriptedModel(step(text('never')));
    const call = interventions.generateText({
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: [
        { role: 'user', content: 'go' },
        ...tampered,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }] },
      ],
    });
    // the approval no longer verifies: it answers no confirm, and the call is refused for the person, typed
    const result = await call;
    expect(log).toEqual([]);
    expect(result.interventions.decisions.some((record) => record.action === 'deny' && record.toolCallId === 'd')).toBe(true);
  });
});

describe("the caller's own approvals", () => {
  it("should keep a toolApproval option and tools' needsApproval working alongside the handlers", async () => {
    const log: string[] = [];
    const interventions = createInterventions({ handlers: [policy] });
    const tools = {
      ...fileTools(log),
      wire_money: tool({
        inputSchema: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: async () => (log.push('wired'), 'ok'),
      }),
    };
    const result = await interventions.generateText({
      model: scriptedModel(step(toolCall('r', 'read_file', { path: '/tmp/a' }), toolCall('w', 'wire_money', { amount: 5 }))),
      tools,
      toolApproval: { read_file: () => ({ type: 'user-approval', reason: 'Reading needs a human today' }) },
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    expect(log).toEqual([]);
    const reasons = result.content
      .filter((part) => part.type === 'tool-approval-request')
      .map((part) => [part.toolCall.toolCallId, part.reason]);
    expect(reasons).toEqual([
      ['r', 'Reading needs a human today'],
      ['w', undefined],
    ]);
  });

  it("should let a handler deny what the caller's toolApproval approves", async () => {
    const log: string[] = [];
    const interventions = createInterventions({ handlers: [policy] });
    const model = scriptedModel(step(toolCall('x', 'read_file', { path: '/etc/shadow' })), step(text('ok')));
    await interventions.generateText({
      model,
      tools: fileTools(log),
      toolApproval: () => 'approved',
      stopWhen: isStepCount(3),
      prompt: 'go',
    });
    expect(log).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 1).x)).toContain('System files are off limits');
  });
});

describe('a call the SDK repaired, decided in toolApproval, whose handler fails with onError: throw', () => {
  it.each(['generateText', 'streamText'] as const)('should end the run with exactly one onChatError (%s)', async (mode) => {
    const ran: string[] = [];
    const ends: string[] = [];
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'hangs', onError: 'throw', timeoutMs: 5, beforeToolCall: () => new Promise<never>(() => {}) })],
      hooks: {
        onChatError: () => void ends.push('error'),
        onChatDone: () => void ends.push('done'),
        onChatAbort: () => void ends.push('abort'),
      },
    });
    const tools = { lookup: tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => (ran.push('lookup'), 'ok') }) };
    // arguments that are not JSON: the SDK repairs the call, and toolApproval decides it
    const model = scriptedModel(step({ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"tag": x' }), step(text('done')));
    const options = {
      model,
      tools,
      stopWhen: isStepCount(3),
      prompt: 'go',
      repairToolCall: async ({ toolCall: call }: { toolCall: { input: string } }) => ({ ...call, input: '{"tag":"r"}' }),
    };
    let failed: unknown;
    try {
      if (mode === 'generateText') await interventions.generateText(options as never);
      else for await (const _ of interventions.streamText({ ...options, onError: () => {} } as never).fullStream);
    } catch (error) {
      failed = error;
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(String(failed)).toContain('did not settle within 5 ms');
    expect(ran).toEqual([]);
    // streamText errors its stream with the throw and tells no callback: no end observer fired before the fix
    expect(ends).toEqual(['error']);
  });
});
