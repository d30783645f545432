/**
 * Existing tests rewritten with the test kit, to show what it saves: the
 * seed 000 EnvironmentGuard deny, the seed 000 approve-and-resume round trip,
 * and the seed 004 cache round trip (with the `cache()` builtin).
 * Originals: test/seeds/seed-000-interventions.test.ts ("should deny a query
 * on a prod database…", "should delete the file exactly once after the human
 * approves…"), test/seeds/seed-004-hooks.test.ts ("should round-trip the
 * seed cache example…").
 */
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cache } from '../../src/builtins/cache.ts';
import {
  type BeforeToolCallEvent,
  createApprovalLedger,
  createInterventions,
  InterventionActions,
  InterventionHandler,
} from '../../src/index.ts';
import { approvalRoundTrip, runHandler, scriptedModel, text, toolCall } from '../../src/testing/index.ts';

class EnvironmentGuard extends InterventionHandler {
  readonly name = 'environment-guard';
  override beforeToolCall(event: BeforeToolCallEvent) {
    const input = event.toolCall.input as Record<string, string>;
    return input.database?.includes('prod')
      ? InterventionActions.deny('Production database access is not allowed')
      : InterventionActions.proceed();
  }
}

class DeleteApproval extends InterventionHandler {
  readonly name = 'delete-approval';
  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName !== 'delete_file') return InterventionActions.proceed();
    const { path } = event.toolCall.input as { path: string };
    return InterventionActions.confirm(`Approve deleting ${JSON.stringify(path)}?`);
  }
}

describe('the kit in practice', () => {
  it('seed 000 EnvironmentGuard: denies a prod query (the model reads why) and lets staging run', async () => {
    const prod = await runHandler(new EnvironmentGuard(), {
      lifecycle: 'beforeToolCall',
      toolCall: { toolName: 'query_database', input: { database: 'prod-main', sql: 'select 1' } },
    });
    expect(prod.record).toMatchObject({ action: 'deny', reason: 'Production database access is not allowed' });
    expect(prod.executed).toEqual([]);
    expect(JSON.stringify(prod.toolResult)).toContain('Production database access is not allowed');

    const staging = await runHandler(new EnvironmentGuard(), {
      lifecycle: 'beforeToolCall',
      toolCall: { toolName: 'query_database', input: { database: 'staging', sql: 'select 2' } },
      result: 'rows from staging',
    });
    expect(staging.action).toBe('proceed');
    expect(staging.executed).toEqual([{ database: 'staging', sql: 'select 2' }]);
    expect(staging.toolResult).toEqual({ type: 'text', value: 'rows from staging' });
  });

  it('seed 000 DeleteApproval: deletes exactly once after the human approves, and the model sees the result', async () => {
    const deleted: string[] = [];
    const delete_file = tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        deleted.push(path);
        return `deleted ${path}`;
      },
    });
    const model = scriptedModel(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' }), text('The report is gone.'));
    const interventions = createInterventions({
      handlers: [new DeleteApproval()],
      approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac',
      approvalLedger: createApprovalLedger(),
    });

    const { requests, second } = await approvalRoundTrip({
      interventions,
      model,
      tools: { delete_file },
      prompt: 'Do the task',
      approve: true,
    });

    expect(requests.map((request) => request.reason)).toEqual(['Approve deleting "/tmp/report.txt"?']);
    expect(deleted).toEqual(['/tmp/report.txt']);
    expect(model.calls).toHaveLength(2);
    expect(JSON.stringify(model.calls[1]?.prompt.at(-1))).toContain('deleted /tmp/report.txt');
    expect(second.text).toBe('The report is gone.');
  });

  it('seed 004 cache example: onResponse stores, preRequest serves the second identical call', async () => {
    const responses = cache();
    const interventions = createInterventions({ hooks: responses });
    const model = scriptedModel(text('fresh answer'), text('(the provider was called twice)'));

    const first = await interventions.generateText({ model, prompt: 'same question' });
    const second = await interventions.generateText({ model, prompt: 'same question' });

    expect([first.text, second.text]).toEqual(['fresh answer', 'fresh answer']);
    expect(model.calls).toHaveLength(1);
    expect(responses.stats).toMatchObject({ hits: 1, misses: 1 });
  });
});
