import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BeforeToolCallEvent,
  createApprovalLedger,
  defineHandler,
  InterventionActions,
  InterventionHandler,
  InvocationDeniedError,
} from '../../src/index.ts';
import { runHandler, step, text } from '../../src/testing/index.ts';

/** Denies deletes unless the runtime context says admin. */
class DeleteGuard extends InterventionHandler {
  readonly name = 'delete-guard';
  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName !== 'delete_file' || event.runtimeContext.role === 'admin') {
      return InterventionActions.proceed();
    }
    return InterventionActions.deny('Only admins may delete files');
  }
}

describe('runHandler', () => {
  describe('at beforeToolCall', () => {
    it('should return a deny with its record, and show the tool did not run and what the model read', async () => {
      const outcome = await runHandler(new DeleteGuard(), {
        lifecycle: 'beforeToolCall',
        toolCall: { toolName: 'delete_file', input: { path: '/tmp/x' } },
      });
      expect(outcome.action).toBe('deny');
      expect(outcome.record).toMatchObject({
        handler: 'delete-guard',
        lifecycle: 'beforeToolCall',
        reason: 'Only admins may delete files',
        enforced: true,
        toolName: 'delete_file',
        toolCallId: 'call-1',
      });
      expect(outcome.event).toBeUndefined();
      expect(outcome.executed).toEqual([]);
      expect(outcome.toolResult).toMatchObject({ type: 'execution-denied' });
      expect(JSON.stringify(outcome.toolResult)).toContain('Only admins may delete files');
      expect(outcome.error).toBeUndefined();
    });

    it('should pass the runtimeContext', async () => {
      const outcome = await runHandler(new DeleteGuard(), {
        lifecycle: 'beforeToolCall',
        toolCall: { toolName: 'delete_file', input: { path: '/tmp/x' } },
        runtimeContext: { role: 'admin' },
        result: 'deleted',
      });
      expect(outcome.action).toBe('proceed');
      expect(outcome.executed).toEqual([{ path: '/tmp/x' }]);
      expect(outcome.toolResult).toEqual({ type: 'text', value: 'deleted' });
    });

    it('should return the event as a transform left it, and run the tool with it', async () => {
      const redactor = defineHandler({
        name: 'redactor',
        beforeToolCall: () =>
          InterventionActions.transform<BeforeToolCallEvent>((draft) => {
            const input = draft.toolCall.input as { body: string };
            input.body = input.body.replace(/\d{3}-\d{2}-\d{4}/g, '[REDACTED]');
          }),
      });
      const send_email = tool({
        inputSchema: z.object({ body: z.string() }),
        execute: async ({ body }) => `sent: ${body}`,
      });
      const outcome = await runHandler(redactor, {
        lifecycle: 'beforeToolCall',
        toolCall: { toolName: 'send_email', input: { body: 'SSN 123-45-6789' } },
        tool: send_email,
      });
      expect(outcome.action).toBe('transform');
      expect(outcome.event?.toolCall.input).toEqual({ body: 'SSN [REDACTED]' });
      expect(outcome.executed).toEqual([{ body: 'SSN [REDACTED]' }]);
      expect(outcome.toolResult).toEqual({ type: 'text', value: 'sent: SSN [REDACTED]' });
    });

    it('should return a guide with the feedback the model read', async () => {
      const validator = defineHandler({
        name: 'email-validator',
        beforeToolCall: () => InterventionActions.guide('All emails must include a subject line.'),
      });
      const outcome = await runHandler(validator, {
        lifecycle: 'beforeToolCall',
        toolCall: { toolName: 'send_email', input: { body: 'hi' } },
      });
      expect(outcome.action).toBe('guide');
      expect(outcome.record?.feedback).toBe('All emails must include a subject line.');
      expect(JSON.stringify(outcome.toolResult)).toContain('[email-validator] All emails must include a subject line.');
      expect(outcome.event?.toolCall.input).toEqual({ body: 'hi' });
    });

    it('should return a confirm and the approval request the run ended with', async () => {
      const approval = defineHandler({ name: 'approval', beforeToolCall: () => InterventionActions.confirm('Delete it?') });
      const outcome = await runHandler(approval, {
        lifecycle: 'beforeToolCall',
        toolCall: { toolName: 'delete_file', input: { path: '/x' } },
        options: { approvalSecret: 'test-secret-with-at-least-32-bytes-for-hmac', approvalLedger: createApprovalLedger() },
      });
      expect(outcome.action).toBe('confirm');
      expect(outcome.record?.prompt).toBe('Delete it?');
      expect(outcome.result?.content).toContainEqual(expect.objectContaining({ type: 'tool-approval-request', reason: 'Delete it?' }));
      expect(outcome.executed).toEqual([]);
    });

    it('should record a shadow deny without enforcing it', async () => {
      const shadow = defineHandler({ name: 'shadow', mode: 'shadow', beforeToolCall: () => InterventionActions.deny('would block') });
      const outcome = await runHandler(shadow, {
        lifecycle: 'beforeToolCall',
        toolCall: { toolName: 'delete_file', input: {} },
      });
      expect(outcome.action).toBe('deny');
      expect(outcome.record?.enforced).toBe(false);
      expect(outcome.executed).toEqual([{}]);
    });

    it('should return the error of a handler that throws (onError: throw), with its record', async () => {
      const broken = defineHandler({
        name: 'broken',
        beforeToolCall: () => {
          throw new Error('policy service down');
        },
      });
      const outcome = await runHandler(broken, { lifecycle: 'beforeToolCall', toolCall: { toolName: 'x', input: {} } });
      expect(outcome.action).toBe('error');
      expect(outcome.error).toBeInstanceOf(Error);
      expect(outcome.result).toBeUndefined();
    });
  });

  describe('at the other lifecycle points', () => {
    it('should run afterToolCall on the scripted result', async () => {
      const redact = defineHandler({
        name: 'redact-result',
        afterToolCall: () =>
          InterventionActions.transform((event) => {
            if (event.lifecycle === 'afterToolCall') event.result = { name: 'Ada', ssn: '[REDACTED]' };
          }),
      });
      const outcome = await runHandler(redact, {
        lifecycle: 'afterToolCall',
        toolCall: { toolName: 'lookup_user', input: { id: 7 } },
        result: { name: 'Ada', ssn: '123-45-6789' },
      });
      expect(outcome.action).toBe('transform');
      expect(outcome.event?.result).toEqual({ name: 'Ada', ssn: '[REDACTED]' });
      expect(outcome.toolResult).toEqual({ type: 'json', value: { name: 'Ada', ssn: '[REDACTED]' } });
    });

    it('should run afterModelCall on the scripted response, and retry after a guide', async () => {
      const tone = defineHandler({
        name: 'tone',
        afterModelCall: ({ response }) =>
          JSON.stringify(response.content).includes('stupid')
            ? InterventionActions.guide('Use a professional tone.')
            : InterventionActions.proceed(),
      });
      const outcome = await runHandler(tone, { lifecycle: 'afterModelCall', response: text('That is a stupid question.') });
      expect(outcome.action).toBe('guide');
      expect(outcome.model.calls).toHaveLength(2);
      expect(JSON.stringify(outcome.model.calls[1]?.prompt.at(-1))).toContain('Use a professional tone.');
      expect(outcome.result?.text).toBe('Done.');
      expect(outcome.records.map((record) => record.action)).toEqual(['guide', 'proceed']);
    });

    it('should run beforeModelCall and return the event it left', async () => {
      const settings = defineHandler({
        name: 'cold',
        beforeModelCall: () =>
          InterventionActions.transform((event) => {
            if (event.lifecycle === 'beforeModelCall') event.settings = { ...event.settings, temperature: 0 };
          }),
      });
      const outcome = await runHandler(settings, { lifecycle: 'beforeModelCall', prompt: 'hello' });
      expect(outcome.action).toBe('transform');
      expect(outcome.event?.settings.temperature).toBe(0);
      expect(outcome.event?.stepNumber).toBe(0);
      expect(outcome.model.calls[0]?.temperature).toBe(0);
    });

    it('should return InvocationDeniedError for a beforeInvocation deny', async () => {
      const closed = defineHandler({ name: 'closed', beforeInvocation: () => InterventionActions.deny('Out of hours') });
      const outcome = await runHandler(closed, { lifecycle: 'beforeInvocation' });
      expect(outcome.action).toBe('deny');
      expect(InvocationDeniedError.isInstance(outcome.error)).toBe(true);
      expect(outcome.model.calls).toHaveLength(0);
    });

    it('should report undefined when the handler has no method at that point', async () => {
      const outcome = await runHandler(new DeleteGuard(), { lifecycle: 'beforeModelCall', response: step(text('hi')) });
      expect(outcome.action).toBeUndefined();
      expect(outcome.record).toBeUndefined();
      expect(outcome.result?.text).toBe('hi');
    });
  });

  describe('with hooks instead of a handler', () => {
    it('should return the record of a gateToolCalls hook', async () => {
      const outcome = await runHandler(
        { gateToolCalls: ({ calls }) => calls.map(() => InterventionActions.deny('one call per turn')) },
        { lifecycle: 'beforeToolCall', toolCall: { toolName: 'search', input: { q: 'x' } } },
      );
      expect(outcome.action).toBe('deny');
      expect(outcome.record?.handler).toMatch(/^gateToolCalls hook/);
      expect(outcome.executed).toEqual([]);
    });

    it('should show what a preToolCall hook did to the call', async () => {
      const outcome = await runHandler(
        { preToolCall: ({ call }) => (call.toolName === 'get_time' ? { result: '2026-01-01T00:00:00Z' } : undefined) },
        { lifecycle: 'beforeToolCall', toolCall: { toolName: 'get_time', input: {} } },
      );
      expect(outcome.record).toBeUndefined();
      expect(outcome.executed).toEqual([]);
      expect(outcome.toolResult).toEqual({ type: 'text', value: '2026-01-01T00:00:00Z' });
    });
  });

  it('should use the given tool call id and the scripted model a test can inspect', async () => {
    const outcome = await runHandler(new DeleteGuard(), {
      lifecycle: 'beforeToolCall',
      toolCall: { toolName: 'delete_file', input: { path: '/x' }, toolCallId: 'toolu_01' },
    });
    expect(outcome.record?.toolCallId).toBe('toolu_01');
    expect(outcome.model.calls[1]?.prompt.at(-1)).toMatchObject({ role: 'tool' });
  });
});
