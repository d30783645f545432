/**
 * Providers that reuse tool call ids (some OpenAI-compatible servers send
 * `call_0` every turn), through the REAL `@ai-sdk/openai` provider on a
 * loopback server, for both APIs and both wrappers: `loopGuard` still counts
 * repeats and retries (calls and answers are paired by position, not by id
 * alone), and an approved call with a reused id resumes the right call,
 * once, replays included.
 */
import { type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions, loopGuard, toolPolicy } from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { replyText, replyToolCalls, toolCall } from '../helpers/openai-compatible-server.ts';
import { CASES, run, serve } from '../helpers/openai-wire.ts';

const USER: ModelMessage = { role: 'user', content: 'Do the task' };

function countingTools() {
  const runs = { search: [] as string[], delete_file: [] as string[] };
  const tools = {
    search: tool({
      inputSchema: z.object({ q: z.string() }),
      execute: async ({ q }) => (runs.search.push(q), `found ${q}`),
    }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (runs.delete_file.push(path), `deleted ${path}`),
    }),
  };
  return { runs, tools };
}

describe.each(CASES)('a provider sending call_0 every turn: $api API, $mode', ({ api, mode, wire }) => {
  it('should let loopGuard count the repeats: guide the 4th identical call, deny the 5th', async () => {
    const { runs, tools } = countingTools();
    const again = () => replyToolCalls(toolCall('call_0', 'search', { q: 'x' }));
    const { server, model } = await serve(api, again(), again(), again(), again(), again(), replyText('I give up.'));
    const interventions = createInterventions({ handlers: [loopGuard({ maxRepeats: 3 })] });

    const result = await run(mode, interventions, { model, tools, messages: [USER], steps: 10 });

    expect(runs.search).toEqual(['x', 'x', 'x']);
    expect(result.text).toBe('I give up.');
    const outputs = wire.toolOutputs(server.requests[5]);
    expect(outputs.map(([id]) => id)).toEqual(['call_0', 'call_0', 'call_0', 'call_0', 'call_0']);
    expect(outputs[3]?.[1]).toContain('with the same arguments 4 times in this run');
    expect(outputs[4]?.[1]).toContain('This is a loop: stop calling it with these arguments');
    expect(result.decisions.filter((record) => record.handler === 'loop-guard').map((record) => record.action)).toEqual([
      'proceed',
      'proceed',
      'proceed',
      'guide',
      'deny',
    ]);
  });

  it("should let loopGuard escalate retries of another handler's denial: guide, then deny", async () => {
    const { runs, tools } = countingTools();
    const again = () => replyToolCalls(toolCall('call_0', 'delete_file', { path: '/etc/hosts' }));
    const { server, model } = await serve(api, again(), again(), again(), replyText('I cannot delete it.'));
    const policy = toolPolicy({ rules: [{ deny: 'delete_file', reason: 'Deleting files is not allowed' }], default: 'allow' });
    const interventions = createInterventions({ handlers: [loopGuard(), policy] });

    const result = await run(mode, interventions, { model, tools, messages: [USER], steps: 10 });

    expect(runs.delete_file).toEqual([]);
    expect(result.decisions.map((record) => [record.handler, record.action])).toEqual([
      ['loop-guard', 'proceed'],
      ['tool-policy', 'deny'],
      ['loop-guard', 'guide'],
      ['tool-policy', 'deny'],
      ['loop-guard', 'deny'],
    ]);
    expect(wire.toolOutputs(server.requests[3]).at(-1)?.[1]).toContain('after being blocked 2 times');
  });

  it('should resume the approved call with the reused id, run it once with its own arguments, and answer a replay from the ledger', async () => {
    const { runs, tools } = countingTools();
    const { server, model } = await serve(
      api,
      replyToolCalls(toolCall('call_0', 'search', { q: 'report' })),
      replyToolCalls(toolCall('call_0', 'delete_file', { path: '/tmp/report.txt' })),
      // after the approved resume
      replyToolCalls(toolCall('call_0', 'search', { q: 'again' })),
      replyText('Done.'),
      // after a replay of the same resume request
      replyText('Already done.'),
    );
    const seen: unknown[] = [];
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'delete-approval',
          beforeToolCall: (event) => {
            if (event.toolCall.toolName !== 'delete_file') return InterventionActions.proceed();
            seen.push([event.toolCall.input, event.approved]);
            return InterventionActions.confirm('Delete it?');
          },
        }),
      ],
    });

    const first = await run(mode, interventions, { model, tools, messages: [USER], steps: 10 });
    const [request] = approvalRequests(first.content);
    expect(request?.toolCall).toMatchObject({ toolCallId: 'call_0', toolName: 'delete_file' });
    const resume: ModelMessage[] = [
      USER,
      ...first.responseMessages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
    ];

    const resumed = await run(mode, interventions, { model, tools, messages: resume, steps: 10 });
    const replayed = await run(mode, interventions, { model, tools, messages: resume, steps: 10 });

    expect(runs.search).toEqual(['report', 'again']);
    expect(runs.delete_file).toEqual(['/tmp/report.txt']);
    expect(seen).toEqual([
      [{ path: '/tmp/report.txt' }, false],
      [{ path: '/tmp/report.txt' }, true],
      [{ path: '/tmp/report.txt' }, true],
    ]);
    expect(resumed.text).toBe('Done.');
    expect(replayed.text).toBe('Already done.');
    expect(server.requests).toHaveLength(5);
    // every call_0 on the wire has its own answer, in order
    expect(wire.toolOutputs(server.requests[3])).toEqual([
      ['call_0', 'found report'],
      ['call_0', 'deleted /tmp/report.txt'],
      ['call_0', 'found again'],
    ]);
    expect(wire.toolOutputs(server.requests[4])).toEqual([
      ['call_0', 'found report'],
      ['call_0', 'deleted /tmp/report.txt'],
    ]);
    expect(replayed.decisions.filter((record) => record.replayed)).toHaveLength(1);
  });
});
