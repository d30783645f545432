import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApprovalLedger, createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';
import { approvalRoundTrip, scriptedModel, step, text, toolCall } from '../../src/testing/index.ts';

/** A file tool that records what it deleted. */
function files() {
  const deleted: string[] = [];
  const delete_file = tool({
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  });
  return { deleted, tools: { delete_file } };
}

const askFirst = defineHandler({
  name: 'delete-approval',
  beforeToolCall: ({ toolCall: call }) =>
    InterventionActions.confirm(`Approve deleting ${JSON.stringify((call.input as { path: string }).path)}?`),
});

describe('approvalRoundTrip', () => {
  it('should stop at the approval request, approve it, and resume: the tool runs once and the model reads its result', async () => {
    const { deleted, tools } = files();
    const model = scriptedModel(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' }), text('The report is gone.'));
    const interventions = createInterventions({
      handlers: [askFirst],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });

    const { first, second, requests, messages } = await approvalRoundTrip({
      interventions,
      model,
      tools,
      prompt: 'Delete the report',
      approve: true,
    });

    expect(requests).toHaveLength(1);
    expect(requests[0]?.reason).toBe('Approve deleting "/tmp/report.txt"?');
    expect(requests[0]?.toolCall).toMatchObject({ toolName: 'delete_file', input: { path: '/tmp/report.txt' } });
    expect(first.interventions.decisions).toMatchObject([{ action: 'confirm', toolCallId: 'd1' }]);
    expect(deleted).toEqual(['/tmp/report.txt']);
    expect(second.text).toBe('The report is gone.');
    expect(messages.at(-1)).toMatchObject({ role: 'tool', content: [{ type: 'tool-approval-response', approved: true }] });
  });

  it('should refuse with a reason the model reads', async () => {
    const { deleted, tools } = files();
    const model = scriptedModel(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' }), text('Kept it.'));
    const interventions = createInterventions({ handlers: [askFirst] });

    const { second } = await approvalRoundTrip({
      interventions,
      model,
      tools,
      prompt: 'Delete the report',
      approve: false,
      reason: 'keep it',
    });

    expect(deleted).toEqual([]);
    expect(second.text).toBe('Kept it.');
    const read = JSON.stringify(model.calls[1]?.prompt.at(-1));
    expect(read).toContain('execution-denied');
    expect(read).toContain('keep it');
  });

  it('should answer each request with approve(request) when several calls wait', async () => {
    const { deleted, tools } = files();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/a' }), toolCall('d2', 'delete_file', { path: '/etc/passwd' })),
      text('Deleted /tmp/a only.'),
    );
    const interventions = createInterventions({
      handlers: [askFirst],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });

    const { requests } = await approvalRoundTrip({
      interventions,
      model,
      tools,
      prompt: 'Delete both',
      approve: ({ toolCall: call }) => (call.input as { path: string }).path.startsWith('/tmp/'),
    });

    expect(requests).toHaveLength(2);
    expect(deleted).toEqual(['/tmp/a']);
  });

  it('should keep the runtimeContext for both calls, so a handler sees it on resume', async () => {
    const { tools } = files();
    const seen: unknown[] = [];
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'context-check',
          beforeToolCall: ({ runtimeContext, approved }) => {
            seen.push([runtimeContext.userId, approved]);
            return InterventionActions.confirm('ok?');
          },
        }),
      ],
    });
    const model = scriptedModel(toolCall('d1', 'delete_file', { path: '/x' }), text('done'));
    await approvalRoundTrip({ interventions, model, tools, prompt: 'go', approve: true, runtimeContext: { userId: 'u-1' } });
    expect(seen).toEqual([
      ['u-1', false],
      ['u-1', true],
    ]);
  });

  it('should throw when the first call asks for nothing', async () => {
    const { tools } = files();
    const interventions = createInterventions();
    const model = scriptedModel(text('Nothing to delete.'));
    await expect(approvalRoundTrip({ interventions, model, tools, prompt: 'hi', approve: true })).rejects.toThrow(/asked for no approval/);
  });
});
