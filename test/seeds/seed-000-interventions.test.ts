/**
 * Parity tests for seed 000 (Interventions): every example of the seed, run
 * through the public API with a scripted model, asserting on what the model
 * was sent next and on whether tools actually executed.
 *
 * Name adaptation: the seed's `event.toolUse.name` / `.input` is
 * `event.toolCall.toolName` / `.input` here.
 */
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { isStepCount, type ModelMessage, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type AfterModelCallEvent,
  type BeforeToolCallEvent,
  createInterventions,
  type DecisionRecord,
  InterventionActions,
  InterventionHandler,
  InterventionHandlerError,
  type OnError,
} from '../../src/index.ts';
import { answeredHistory, approvalRequests } from '../helpers/approval-requests.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

// ---------------------------------------------------------------------------
// The seed's handlers, as close to the seed text as the AI SDK names allow
// ---------------------------------------------------------------------------

class ToolGuard extends InterventionHandler {
  readonly name = 'tool-guard';
  private blockedTools: string[];

  constructor(blockedTools: string[]) {
    super();
    this.blockedTools = blockedTools;
  }

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (this.blockedTools.includes(event.toolCall.toolName)) {
      return InterventionActions.deny(`Tool '${event.toolCall.toolName}' is not allowed in this environment`);
    }
    return InterventionActions.proceed();
  }
}

// deny — block tool calls that access production resources
class EnvironmentGuard extends InterventionHandler {
  readonly name = 'environment-guard';

  override beforeToolCall(event: BeforeToolCallEvent) {
    const input = event.toolCall.input as Record<string, string>;
    if (input.database?.includes('prod')) {
      return InterventionActions.deny('Production database access is not allowed');
    }
    return InterventionActions.proceed();
  }
}

// guide — steer the model when it tries to send emails without a subject
class EmailValidator extends InterventionHandler {
  readonly name = 'email-validator';

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName === 'send_email') {
      const input = event.toolCall.input as Record<string, string>;
      if (!input.subject) {
        return InterventionActions.guide('All emails must include a subject line.');
      }
    }
    return InterventionActions.proceed();
  }
}

// confirm — require human approval before deleting files
class DeleteApproval extends InterventionHandler {
  readonly name = 'delete-approval';

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName === 'delete_file') {
      const input = event.toolCall.input as Record<string, string>;
      return InterventionActions.confirm(`Approve deleting "${input.path}"?`);
    }
    return InterventionActions.proceed();
  }
}

// transform — redact PII from outgoing email bodies
class PiiRedactor extends InterventionHandler {
  readonly name = 'pii-redactor';

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName === 'send_email') {
      return InterventionActions.transform((e) => {
        const toolEvent = e as BeforeToolCallEvent;
        const input = toolEvent.toolCall.input as Record<string, string>;
        input.body = input.body!.replace(/\b\d{3}-\d{2}-\d{4}\b/g, '[REDACTED]');
      });
    }
    return InterventionActions.proceed();
  }
}

class RateLimiter extends InterventionHandler {
  readonly name = 'rate-limiter';
  private callCount = 0;

  override beforeToolCall(_event: BeforeToolCallEvent) {
    this.callCount++;
    if (this.callCount > 10) {
      // deny() short-circuits: handlers registered after this one are skipped
      return InterventionActions.deny('Rate limit exceeded');
    }
    return InterventionActions.proceed();
  }
}

class ToneSteeringHandler extends InterventionHandler {
  readonly name = 'tone-steering';

  override afterModelCall(_event: AfterModelCallEvent) {
    // This handler never runs for denied tool calls
    return InterventionActions.guide('Use a more professional tone.');
  }
}

// 'proceed' — if this handler throws, continue as if proceed() was returned
class BestEffortLogger extends InterventionHandler {
  readonly name = 'best-effort-logger';
  readonly onError: OnError = 'proceed';

  override beforeToolCall(event: BeforeToolCallEvent) {
    // If the logging service is unreachable, the agent continues normally
    console.log(`Tool called: ${event.toolCall.toolName}`);
    return InterventionActions.proceed();
  }
}

// 'deny' — if this handler throws, treat it as a deny (fail-closed)
class StrictAuth extends InterventionHandler {
  readonly name = 'strict-auth';
  readonly onError: OnError = 'deny';

  override beforeToolCall(event: BeforeToolCallEvent) {
    // If the auth service is down (throws), the operation is denied
    if (!this.checkPermission(event.toolCall.toolName)) {
      return InterventionActions.deny('Unauthorized');
    }
    return InterventionActions.proceed();
  }

  // `protected` (the seed has `private`) so a test can simulate the auth service
  protected checkPermission(_toolName: string): boolean {
    // ... call external auth service
    return true;
  }
}

// 'throw' (default) — errors propagate and fail the invocation
class CriticalValidator extends InterventionHandler {
  readonly name = 'critical-validator';
  // onError defaults to 'throw'

  override beforeToolCall(_event: BeforeToolCallEvent) {
    // If this throws, the entire invocation fails
    return InterventionActions.proceed();
  }
}

// ---------------------------------------------------------------------------
// test-only variations (the seed's code, with its failure made to happen)
// ---------------------------------------------------------------------------

class StrictAuthServiceDown extends StrictAuth {
  protected override checkPermission(_toolName: string): boolean {
    throw new Error('auth service unreachable');
  }
}

class StrictAuthRefusing extends StrictAuth {
  protected override checkPermission(_toolName: string): boolean {
    return false;
  }
}

class CriticalValidatorBroken extends CriticalValidator {
  override beforeToolCall(_event: BeforeToolCallEvent): never {
    throw new Error('validator crashed');
  }
}

/** A handler registered after another one, counting the tool calls it sees. */
class ExpensiveSteering extends InterventionHandler {
  readonly name = 'expensive-steering';
  readonly seen: string[] = [];

  override beforeToolCall(event: BeforeToolCallEvent) {
    this.seen.push(event.toolCall.toolCallId);
    return InterventionActions.proceed();
  }
}

/** A second guide at the same point, to check that guidance accumulates. */
class BodyLengthValidator extends InterventionHandler {
  readonly name = 'body-length-validator';

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName === 'send_email') {
      const input = event.toolCall.input as Record<string, string>;
      if ((input.body ?? '').length < 10) {
        return InterventionActions.guide('Email bodies must be at least 10 characters long.');
      }
    }
    return InterventionActions.proceed();
  }
}

// ---------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------

/** Tools whose executions are counted (and whose inputs are recorded). */
function countingTools() {
  const runs = {
    search: [] as { q: string }[],
    delete_file: [] as { path: string }[],
    query_database: [] as { database: string; sql: string }[],
    send_email: [] as { to: string; subject?: string | undefined; body: string }[],
  };
  const tools = {
    search: tool({
      inputSchema: z.object({ q: z.string() }),
      execute: async (input) => {
        runs.search.push(input);
        return `found ${input.q}`;
      },
    }),
    delete_file: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async (input) => {
        runs.delete_file.push(input);
        return `deleted ${input.path}`;
      },
    }),
    query_database: tool({
      inputSchema: z.object({ database: z.string(), sql: z.string() }),
      execute: async (input) => {
        runs.query_database.push(input);
        return `rows from ${input.database}`;
      },
    }),
    send_email: tool({
      inputSchema: z.object({ to: z.string(), subject: z.string().optional(), body: z.string() }),
      execute: async (input) => {
        runs.send_email.push(input);
        return `sent to ${input.to}`;
      },
    }),
  };
  return { tools, runs };
}

/** The assistant tool-call parts of a prompt, by call id. */
function toolCallsInHistory(prompt: LanguageModelV4Prompt | undefined): Record<string, unknown> {
  const calls: Record<string, unknown> = {};
  for (const message of prompt ?? []) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls[part.toolCallId] = part.input;
    }
  }
  return calls;
}

/** The text of every user message in a prompt. */
function userTexts(prompt: LanguageModelV4Prompt | undefined): string[] {
  const texts: string[] = [];
  for (const message of prompt ?? []) {
    if (message.role !== 'user') continue;
    texts.push(message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
  }
  return texts;
}

function summary(decisions: readonly DecisionRecord[]) {
  return decisions.map((d) => ({
    handler: d.handler,
    lifecycle: d.lifecycle,
    action: d.action,
    toolCallId: d.toolCallId,
    enforced: d.enforced,
  }));
}

const USER: ModelMessage = { role: 'user', content: 'Do the task' };

// ---------------------------------------------------------------------------
// Basic usage: ToolGuard
// ---------------------------------------------------------------------------

describe('seed 000: ToolGuard', () => {
  it('should block delete_file before execution and tell the model why, while search runs freely', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'tmp' }), toolCall('c2', 'delete_file', { path: '/tmp/x' })),
      step(text('I searched but could not delete.')),
    );
    const interventions = createInterventions({ handlers: [new ToolGuard(['delete_file'])] });

    const result = await interventions.generateText({
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Clean up the temp directory',
    });

    expect(runs.delete_file).toHaveLength(0);
    expect(runs.search).toEqual([{ q: 'tmp' }]);
    expect(model.calls).toHaveLength(2);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'text', value: 'found tmp' });
    expect(sent.c2).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent.c2)).toContain("Tool 'delete_file' is not allowed in this environment");
    expect(JSON.stringify(sent.c2)).toMatch(/not executed/);
    expect(result.text).toBe('I searched but could not delete.');
    expect(summary(result.interventions.decisions)).toEqual([
      { handler: 'tool-guard', lifecycle: 'beforeToolCall', action: 'proceed', toolCallId: 'c1', enforced: true },
      { handler: 'tool-guard', lifecycle: 'beforeToolCall', action: 'deny', toolCallId: 'c2', enforced: true },
    ]);
    expect(result.interventions.decisions[1]?.reason).toBe("Tool 'delete_file' is not allowed in this environment");
  });

  it('should block delete_file the same way through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('c1', 'search', { q: 'tmp' }), toolCall('c2', 'delete_file', { path: '/tmp/x' })),
      step(text('I searched but could not delete.')),
    );
    const interventions = createInterventions({ handlers: [new ToolGuard(['delete_file'])] });

    const result = interventions.streamText({
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Clean up the temp directory',
    });

    expect(await result.text).toBe('I searched but could not delete.');
    expect(runs.delete_file).toHaveLength(0);
    expect(runs.search).toHaveLength(1);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'text', value: 'found tmp' });
    expect(sent.c2).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent.c2)).toContain("Tool 'delete_file' is not allowed in this environment");
    expect(result.interventions.decisions.map((d) => [d.toolCallId, d.action])).toEqual([
      ['c1', 'proceed'],
      ['c2', 'deny'],
    ]);
  });
});

// ---------------------------------------------------------------------------
// deny: EnvironmentGuard
// ---------------------------------------------------------------------------

describe('seed 000: EnvironmentGuard', () => {
  it('should deny a query on a prod database and let a staging query run', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(
        toolCall('q1', 'query_database', { database: 'prod-main', sql: 'select 1' }),
        toolCall('q2', 'query_database', { database: 'staging', sql: 'select 2' }),
      ),
      step(text('Only staging was queried.')),
    );
    const interventions = createInterventions({ handlers: [new EnvironmentGuard()] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Count users' });

    expect(runs.query_database).toEqual([{ database: 'staging', sql: 'select 2' }]);
    const sent = toolResultsSent(model, 1);
    expect(sent.q1).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent.q1)).toContain('Production database access is not allowed');
    expect(sent.q2).toEqual({ type: 'text', value: 'rows from staging' });
    expect(result.text).toBe('Only staging was queried.');
    const deny = result.interventions.decisions.find((d) => d.toolCallId === 'q1');
    expect(deny).toMatchObject({ handler: 'environment-guard', action: 'deny', reason: 'Production database access is not allowed' });
  });

  it('should deny the prod query through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('q1', 'query_database', { database: 'prod-eu', sql: 'drop table users' })),
      step(text('I may not touch production.')),
    );
    const interventions = createInterventions({ handlers: [new EnvironmentGuard()] });

    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'Drop users' });

    expect(await result.text).toBe('I may not touch production.');
    expect(runs.query_database).toHaveLength(0);
    expect(JSON.stringify(toolResultsSent(model, 1).q1)).toContain('Production database access is not allowed');
  });
});

// ---------------------------------------------------------------------------
// guide: EmailValidator
// ---------------------------------------------------------------------------

describe('seed 000: EmailValidator', () => {
  it('should not send an email without a subject and give the model tagged feedback to retry with', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('e1', 'send_email', { to: 'bob@example.com', body: 'Hello Bob, see you soon.' })),
      step(toolCall('e2', 'send_email', { to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob, see you soon.' })),
      step(text('Sent.')),
    );
    const interventions = createInterventions({ handlers: [new EmailValidator()] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Email Bob' });

    // the first attempt was not sent; the model got the feedback and retried
    const guided = toolResultsSent(model, 1).e1;
    expect(guided).toBeDefined();
    expect(JSON.stringify(guided)).toContain('[email-validator] All emails must include a subject line.');
    expect(JSON.stringify(guided)).toMatch(/not executed/);
    expect(guided).not.toEqual({ type: 'text', value: 'sent to bob@example.com' });
    // the revised call ran, exactly once
    expect(runs.send_email).toEqual([{ to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob, see you soon.' }]);
    expect(toolResultsSent(model, 2).e2).toEqual({ type: 'text', value: 'sent to bob@example.com' });
    expect(result.text).toBe('Sent.');
    expect(result.interventions.decisions.map((d) => [d.toolCallId, d.action, d.feedback])).toEqual([
      ['e1', 'guide', 'All emails must include a subject line.'],
      ['e2', 'proceed', undefined],
    ]);
  });

  it('should guide the same way through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('e1', 'send_email', { to: 'bob@example.com', body: 'Hello Bob, see you soon.' })),
      step(text('I need a subject first.')),
    );
    const interventions = createInterventions({ handlers: [new EmailValidator()] });

    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'Email Bob' });

    expect(await result.text).toBe('I need a subject first.');
    expect(runs.send_email).toHaveLength(0);
    expect(JSON.stringify(toolResultsSent(model, 1).e1)).toContain('[email-validator] All emails must include a subject line.');
  });
});

// ---------------------------------------------------------------------------
// confirm: DeleteApproval
// ---------------------------------------------------------------------------

describe('seed 000: DeleteApproval', () => {
  it('should end the run with a tool-approval-request whose reason is the prompt, without deleting', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })));
    const interventions = createInterventions({ handlers: [new DeleteApproval()] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(runs.delete_file).toHaveLength(0);
    expect(model.calls).toHaveLength(1);
    const requests = approvalRequests(result.content);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.reason).toBe('Approve deleting "/tmp/report.txt"?');
    expect(requests[0]?.toolCall).toMatchObject({ toolCallId: 'd1', toolName: 'delete_file', input: { path: '/tmp/report.txt' } });
    expect(result.interventions.decisions).toMatchObject([
      { handler: 'delete-approval', action: 'confirm', prompt: 'Approve deleting "/tmp/report.txt"?', toolCallId: 'd1' },
    ]);
  });

  it('should delete the file exactly once after the human approves, and the model then sees the result', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })), step(text('The report is gone.')));
    const interventions = createInterventions({ handlers: [new DeleteApproval()] });

    const first = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });
    const [request] = approvalRequests(first.content);
    expect(request).toBeDefined();
    expect(runs.delete_file).toHaveLength(0);

    const resumed = await interventions.generateText({
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: [
        USER,
        ...first.responseMessages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
      ],
    });

    expect(runs.delete_file).toEqual([{ path: '/tmp/report.txt' }]);
    expect(model.calls).toHaveLength(2);
    expect(toolResultsSent(model, 1).d1).toEqual({ type: 'text', value: 'deleted /tmp/report.txt' });
    expect(resumed.text).toBe('The report is gone.');
    expect(approvalRequests(resumed.content)).toHaveLength(0);
  });

  it('should never delete when the human denies, and the model sees the denial', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })),
      step(text('Understood, I kept the report.')),
    );
    const interventions = createInterventions({ handlers: [new DeleteApproval()] });

    const first = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });
    const [request] = approvalRequests(first.content);
    expect(request).toBeDefined();

    const resumed = await interventions.generateText({
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: [
        USER,
        ...first.responseMessages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: false, reason: 'keep it' }],
        },
      ],
    });

    expect(runs.delete_file).toHaveLength(0);
    expect(model.calls).toHaveLength(2);
    const sent = toolResultsSent(model, 1).d1;
    expect(sent).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent)).toContain('keep it');
    expect(resumed.text).toBe('Understood, I kept the report.');
  });

  it('should ask for approval and resume after approval through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })), step(text('The report is gone.')));
    const interventions = createInterventions({ handlers: [new DeleteApproval()] });

    const first = interventions.streamText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });
    const requests = approvalRequests(await first.content);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.reason).toBe('Approve deleting "/tmp/report.txt"?');
    expect(runs.delete_file).toHaveLength(0);

    const resumed = interventions.streamText({
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: [
        USER,
        ...(await first.responseMessages),
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0]!.approvalId, approved: true }] },
      ],
    });

    expect(await resumed.text).toBe('The report is gone.');
    expect(runs.delete_file).toEqual([{ path: '/tmp/report.txt' }]);
    expect(toolResultsSent(model, 1).d1).toEqual({ type: 'text', value: 'deleted /tmp/report.txt' });
  });
});

// ---------------------------------------------------------------------------
// transform: PiiRedactor
// ---------------------------------------------------------------------------

describe('seed 000: PiiRedactor', () => {
  const body = 'My SSN is 123-45-6789, call me.';
  const redacted = 'My SSN is [REDACTED], call me.';

  it('should send the redacted body and show the redacted input in the next request history', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('e1', 'send_email', { to: 'hr@example.com', subject: 'SSN', body })), step(text('Sent.')));
    const interventions = createInterventions({ handlers: [new PiiRedactor()] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Send my SSN to HR' });

    expect(runs.send_email).toEqual([{ to: 'hr@example.com', subject: 'SSN', body: redacted }]);
    const history = toolCallsInHistory(model.calls[1]?.prompt);
    expect(history.e1).toEqual({ to: 'hr@example.com', subject: 'SSN', body: redacted });
    expect(JSON.stringify(model.calls[1]?.prompt)).not.toContain('123-45-6789');
    expect(toolResultsSent(model, 1).e1).toEqual({ type: 'text', value: 'sent to hr@example.com' });
    expect(result.interventions.decisions).toMatchObject([
      { handler: 'pii-redactor', action: 'transform', toolCallId: 'e1', enforced: true },
    ]);
  });

  it('should let a later handler see the redacted draft', async () => {
    const { tools } = countingTools();
    const seen: unknown[] = [];
    class Observer extends InterventionHandler {
      readonly name = 'observer';
      override beforeToolCall(event: BeforeToolCallEvent) {
        seen.push(structuredClone(event.toolCall.input));
        return InterventionActions.proceed();
      }
    }
    const model = scriptedModel(step(toolCall('e1', 'send_email', { to: 'hr@example.com', subject: 'SSN', body })), step(text('Sent.')));
    const interventions = createInterventions({ handlers: [new PiiRedactor(), new Observer()] });

    await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Send my SSN to HR' });

    expect(seen).toEqual([{ to: 'hr@example.com', subject: 'SSN', body: redacted }]);
  });

  it('should redact the same way through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('e1', 'send_email', { to: 'hr@example.com', subject: 'SSN', body })), step(text('Sent.')));
    const interventions = createInterventions({ handlers: [new PiiRedactor()] });

    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'Send my SSN to HR' });

    expect(await result.text).toBe('Sent.');
    expect(runs.send_email).toEqual([{ to: 'hr@example.com', subject: 'SSN', body: redacted }]);
    expect(toolCallsInHistory(model.calls[1]?.prompt).e1).toEqual({ to: 'hr@example.com', subject: 'SSN', body: redacted });
    expect(JSON.stringify(model.calls[1]?.prompt)).not.toContain('123-45-6789');
  });
});

// ---------------------------------------------------------------------------
// Evaluation order and short-circuiting: RateLimiter + ToneSteeringHandler
// ---------------------------------------------------------------------------

describe('seed 000: RateLimiter + ToneSteeringHandler', () => {
  const elevenSearches = () => Array.from({ length: 11 }, (_, index) => toolCall(`s${index + 1}`, 'search', { q: `term ${index + 1}` }));

  it('should skip the handlers registered after a deny for that tool call', async () => {
    const { tools, runs } = countingTools();
    const steering = new ExpensiveSteering();
    const model = scriptedModel(step(...elevenSearches()), step(text('Done searching.')));
    const interventions = createInterventions({ handlers: [new RateLimiter(), steering] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Search a lot' });

    // the first ten calls ran, the eleventh was rate limited
    expect(runs.search).toHaveLength(10);
    expect(runs.search.map((input) => input.q)).not.toContain('term 11');
    const sent = toolResultsSent(model, 1);
    expect(sent.s10).toEqual({ type: 'text', value: 'found term 10' });
    expect(sent.s11).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent.s11)).toContain('Rate limit exceeded');
    // the later handler was never evaluated for the denied call
    expect(steering.seen).toHaveLength(10);
    expect(steering.seen).not.toContain('s11');
    const forDenied = result.interventions.decisions.filter((d) => d.toolCallId === 's11');
    expect(summary(forDenied)).toEqual([
      { handler: 'rate-limiter', lifecycle: 'beforeToolCall', action: 'deny', toolCallId: 's11', enforced: true },
    ]);
    const forAllowed = result.interventions.decisions.filter((d) => d.toolCallId === 's1');
    expect(forAllowed.map((d) => d.handler)).toEqual(['rate-limiter', 'expensive-steering']);
  });

  it('should skip the later handlers for the denied call through streamText', async () => {
    const { tools, runs } = countingTools();
    const steering = new ExpensiveSteering();
    const model = scriptedModel(step(...elevenSearches()), step(text('Done searching.')));
    const interventions = createInterventions({ handlers: [new RateLimiter(), steering] });

    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'Search a lot' });

    expect(await result.text).toBe('Done searching.');
    expect(runs.search).toHaveLength(10);
    expect(steering.seen).not.toContain('s11');
    expect(JSON.stringify(toolResultsSent(model, 1).s11)).toContain('Rate limit exceeded');
    expect(result.interventions.decisions.filter((d) => d.toolCallId === 's11').map((d) => d.handler)).toEqual(['rate-limiter']);
  });

  it('should discard a guided model response and call the model again with the feedback as a user message', async () => {
    const model = scriptedModel(step(text('yo, whatever, here it is')), step(text('Dear customer, here is the summary.')));
    const interventions = createInterventions({
      handlers: [new RateLimiter(), new ToneSteeringHandler()],
      maxGuideRetries: 1,
    });

    const result = await interventions.generateText({ model, prompt: 'Summarize the ticket' });

    expect(model.calls).toHaveLength(2);
    // the retry carries the feedback as the last user message, tagged with the handler
    const retry = model.calls[1]?.prompt;
    expect(retry?.at(-1)).toMatchObject({ role: 'user' });
    expect(userTexts(retry).at(-1)).toBe('[tone-steering] Use a more professional tone.');
    // the discarded response is not part of what the model is sent
    expect(JSON.stringify(retry)).not.toContain('yo, whatever');
    expect(result.text).toBe('Dear customer, here is the summary.');
    expect(result.text).not.toContain('yo, whatever');
    const records = result.interventions.decisions.filter((d) => d.handler === 'tone-steering');
    expect(records.map((d) => [d.lifecycle, d.action, d.enforced])).toEqual([
      ['afterModelCall', 'guide', true],
      ['afterModelCall', 'guide', false],
    ]);
    expect(records[1]?.warning).toMatch(/maxGuideRetries/);
  });

  it('should bound the afterModelCall guide retries by maxGuideRetries (default 2)', async () => {
    const model = scriptedModel(step(text('first')), step(text('second')), step(text('third')), step(text('fourth')));
    const interventions = createInterventions({ handlers: [new ToneSteeringHandler()] });

    const result = await interventions.generateText({ model, prompt: 'Summarize the ticket' });

    // attempt 0 and 1 are discarded, attempt 2 is kept: never a fourth call
    expect(model.calls).toHaveLength(3);
    expect(result.text).toBe('third');
    expect(userTexts(model.calls[1]?.prompt).filter((t) => t.includes('[tone-steering]'))).toHaveLength(1);
    expect(userTexts(model.calls[2]?.prompt).filter((t) => t.includes('[tone-steering]')).length).toBeGreaterThanOrEqual(1);
    expect(userTexts(model.calls[0]?.prompt).some((t) => t.includes('[tone-steering]'))).toBe(false);
  });

  it('should retry a guided response through streamText', async () => {
    const model = scriptedModel(step(text('yo, whatever, here it is')), step(text('Dear customer, here is the summary.')));
    const interventions = createInterventions({ handlers: [new ToneSteeringHandler()], maxGuideRetries: 1 });

    const result = interventions.streamText({ model, prompt: 'Summarize the ticket' });

    expect(await result.text).toBe('Dear customer, here is the summary.');
    expect(model.calls).toHaveLength(2);
    expect(userTexts(model.calls[1]?.prompt).at(-1)).toBe('[tone-steering] Use a more professional tone.');
  });
});

// ---------------------------------------------------------------------------
// Error handling: BestEffortLogger, StrictAuth, CriticalValidator
// ---------------------------------------------------------------------------

describe('seed 000: BestEffortLogger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("should let the call proceed when the handler throws (onError 'proceed') and record the error", async () => {
    const logging = vi.spyOn(console, 'log').mockImplementation(() => {
      throw new Error('logging service unreachable');
    });
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'docs' })), step(text('Found the docs.')));
    const interventions = createInterventions({ handlers: [new BestEffortLogger()] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Find docs' });
    const logged = logging.mock.calls.map((args) => args[0]);
    logging.mockRestore();

    expect(logged).toContain('Tool called: search');
    expect(runs.search).toEqual([{ q: 'docs' }]);
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'text', value: 'found docs' });
    expect(result.text).toBe('Found the docs.');
    const [record] = result.interventions.decisions;
    expect(record).toMatchObject({ handler: 'best-effort-logger', lifecycle: 'beforeToolCall', action: 'proceed', toolCallId: 'c1' });
    expect(record?.error).toBeDefined();
    expect(InterventionHandlerError.isInstance(record?.error)).toBe(true);
    expect(String((record?.error as Error).message)).toContain('logging service unreachable');
  });

  it('should proceed despite the throw through streamText', async () => {
    const logging = vi.spyOn(console, 'log').mockImplementation(() => {
      throw new Error('logging service unreachable');
    });
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'docs' })), step(text('Found the docs.')));
    const interventions = createInterventions({ handlers: [new BestEffortLogger()] });

    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'Find docs' });
    const finalText = await result.text;
    logging.mockRestore();

    expect(finalText).toBe('Found the docs.');
    expect(runs.search).toHaveLength(1);
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'text', value: 'found docs' });
    expect(result.interventions.decisions[0]?.error).toBeDefined();
  });
});

describe('seed 000: StrictAuth', () => {
  it("should block the call when the handler throws (onError 'deny', fail closed) and tell the model", async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/etc/hosts' })), step(text('I could not do that.')));
    const interventions = createInterventions({ handlers: [new StrictAuthServiceDown()] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Delete hosts' });

    expect(runs.delete_file).toHaveLength(0);
    const sent = toolResultsSent(model, 1).d1;
    expect(sent).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent)).toMatch(/not executed/);
    expect(JSON.stringify(sent)).toContain('strict-auth');
    expect(result.text).toBe('I could not do that.');
    const [record] = result.interventions.decisions;
    expect(record).toMatchObject({ handler: 'strict-auth', action: 'deny', toolCallId: 'd1', enforced: true });
    expect(record?.error).toBeDefined();
  });

  it('should deny with the reason when the permission check says no, and run the tool when it says yes', async () => {
    const refused = countingTools();
    const refusedModel = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/a' })), step(text('no')));
    await createInterventions({ handlers: [new StrictAuthRefusing()] }).generateText({
      model: refusedModel,
      tools: refused.tools,
      stopWhen: isStepCount(5),
      prompt: 'Delete a',
    });
    expect(refused.runs.delete_file).toHaveLength(0);
    expect(JSON.stringify(toolResultsSent(refusedModel, 1).d1)).toContain('Unauthorized');

    const allowed = countingTools();
    const allowedModel = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/a' })), step(text('yes')));
    await createInterventions({ handlers: [new StrictAuth()] }).generateText({
      model: allowedModel,
      tools: allowed.tools,
      stopWhen: isStepCount(5),
      prompt: 'Delete a',
    });
    expect(allowed.runs.delete_file).toHaveLength(1);
    expect(toolResultsSent(allowedModel, 1).d1).toEqual({ type: 'text', value: 'deleted /tmp/a' });
  });

  it('should fail closed through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/etc/hosts' })), step(text('I could not do that.')));
    const interventions = createInterventions({ handlers: [new StrictAuthServiceDown()] });

    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'Delete hosts' });

    expect(await result.text).toBe('I could not do that.');
    expect(runs.delete_file).toHaveLength(0);
    expect(toolResultsSent(model, 1).d1).toMatchObject({ type: 'execution-denied' });
  });
});

describe('seed 000: CriticalValidator', () => {
  it('should let the call through when it does not throw', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('ok')));
    const result = await createInterventions({ handlers: [new CriticalValidator()] }).generateText({
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Search',
    });
    expect(runs.search).toHaveLength(1);
    expect(result.interventions.decisions).toMatchObject([{ handler: 'critical-validator', action: 'proceed' }]);
  });

  it("should make generateText reject with InterventionHandlerError when it throws (onError 'throw' default)", async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('should never be reached')));
    const interventions = createInterventions({ handlers: [new CriticalValidatorBroken()] });

    const error = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Search' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );

    expect(error).toBeDefined();
    expect(InterventionHandlerError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(InterventionHandlerError);
    expect((error as InterventionHandlerError).handlerName).toBe('critical-validator');
    expect((error as InterventionHandlerError).lifecycle).toBe('beforeToolCall');
    expect(((error as Error).cause as Error).message).toBe('validator crashed');
    expect(runs.search).toHaveLength(0);
    expect(model.calls).toHaveLength(1);
  });

  it('should end the stream with the InterventionHandlerError through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'x' })), step(text('should never be reached')));
    const interventions = createInterventions({ handlers: [new CriticalValidatorBroken()] });
    const reported: unknown[] = [];

    const result = interventions.streamText({
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Search',
      onError: ({ error }) => {
        reported.push(error);
      },
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'error') errors.push(part.error);
    }

    const handlerError = [...errors, ...reported].find((e) => InterventionHandlerError.isInstance(e));
    expect(handlerError).toBeDefined();
    expect((handlerError as InterventionHandlerError).handlerName).toBe('critical-validator');
    expect(runs.search).toHaveLength(0);
    expect(model.calls).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------
// Resolved precedence
// ---------------------------------------------------------------------------

describe('seed 000: precedence', () => {
  it('should accumulate guide feedback from several handlers into one message, in registration order', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('e1', 'send_email', { to: 'bob@example.com', body: 'Hi' })), step(text('Will fix.')));
    const interventions = createInterventions({ handlers: [new EmailValidator(), new BodyLengthValidator()] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Email Bob' });

    expect(runs.send_email).toHaveLength(0);
    const sent = toolResultsSent(model, 1).e1 as { type: string; reason?: string; value?: string };
    const message = sent.reason ?? sent.value ?? JSON.stringify(sent);
    const first = message.indexOf('[email-validator] All emails must include a subject line.');
    const second = message.indexOf('[body-length-validator] Email bodies must be at least 10 characters long.');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    // one result for the call, carrying both lines
    const toolMessages = model.calls[1]!.prompt.filter((m) => m.role === 'tool');
    const resultsForCall = toolMessages.flatMap((m) => m.content).filter((p) => p.type === 'tool-result' && p.toolCallId === 'e1');
    expect(resultsForCall).toHaveLength(1);
    expect(result.interventions.decisions.map((d) => [d.handler, d.action, d.enforced])).toEqual([
      ['email-validator', 'guide', true],
      ['body-length-validator', 'guide', true],
    ]);
  });

  it('should accumulate afterModelCall guides into one user message', async () => {
    class Brevity extends InterventionHandler {
      readonly name = 'brevity';
      override afterModelCall(_event: AfterModelCallEvent) {
        return InterventionActions.guide('Be brief.');
      }
    }
    const model = scriptedModel(step(text('yo, a very long rambling answer')), step(text('Dear customer: done.')));
    const interventions = createInterventions({ handlers: [new ToneSteeringHandler(), new Brevity()], maxGuideRetries: 1 });

    await interventions.generateText({ model, prompt: 'Summarize' });

    expect(model.calls).toHaveLength(2);
    const added = userTexts(model.calls[1]?.prompt).slice(userTexts(model.calls[0]?.prompt).length);
    expect(added).toEqual(['[tone-steering] Use a more professional tone.\n[brevity] Be brief.']);
  });

  it('should let a later deny win over an earlier confirm: no approval request, the call is denied', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })),
      step(text('Deleting is not allowed here.')),
    );
    const interventions = createInterventions({ handlers: [new DeleteApproval(), new ToolGuard(['delete_file'])] });

    const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(approvalRequests(result.content)).toHaveLength(0);
    expect(runs.delete_file).toHaveLength(0);
    expect(model.calls).toHaveLength(2);
    const sent = toolResultsSent(model, 1).d1;
    expect(sent).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent)).toContain("Tool 'delete_file' is not allowed in this environment");
    expect(result.text).toBe('Deleting is not allowed here.');
    expect(result.interventions.decisions.map((d) => [d.handler, d.action, d.enforced])).toEqual([
      ['delete-approval', 'confirm', false],
      ['tool-guard', 'deny', true],
    ]);
  });

  it('should let a later deny win over an earlier confirm through streamText', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(
      step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })),
      step(text('Deleting is not allowed here.')),
    );
    const interventions = createInterventions({ handlers: [new DeleteApproval(), new ToolGuard(['delete_file'])] });

    const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });

    expect(await result.text).toBe('Deleting is not allowed here.');
    expect(approvalRequests(await result.content)).toHaveLength(0);
    expect(runs.delete_file).toHaveLength(0);
    expect(toolResultsSent(model, 1).d1).toMatchObject({ type: 'execution-denied' });
  });

  it('should rank confirm above guide: the person is asked, shown the guide, and their approval runs the call', async () => {
    // seed 000: deny > confirm > guide > transform > proceed; the person's answer counts
    const { tools, runs } = countingTools();
    class PathGuide extends InterventionHandler {
      readonly name = 'path-guide';
      override beforeToolCall(_event: BeforeToolCallEvent) {
        return InterventionActions.guide('Prefer absolute paths.');
      }
    }
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })), step(text('Deleted.')));
    const interventions = createInterventions({ handlers: [new PathGuide(), new DeleteApproval()] });

    const first = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });

    const [request] = approvalRequests(first.content);
    expect(request?.reason).toContain('[path-guide] Prefer absolute paths.');
    expect(runs.delete_file).toHaveLength(0);
    expect(first.interventions.decisions.map((d) => [d.handler, d.action, d.enforced])).toEqual([
      ['path-guide', 'guide', true],
      ['delete-approval', 'confirm', true],
    ]);

    await interventions.generateText({
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: answeredHistory([USER], first.responseMessages, { id: request?.approvalId ?? '', approved: true }),
    });

    expect(runs.delete_file).toHaveLength(1);
  });

  it('should still let a deny win on resume after a human approved', async () => {
    const { tools, runs } = countingTools();
    const model = scriptedModel(step(toolCall('d1', 'delete_file', { path: '/tmp/report.txt' })), step(text('It was blocked after all.')));
    const blockAfterApproval = { blocked: false };
    class LateGuard extends InterventionHandler {
      readonly name = 'late-guard';
      override beforeToolCall(_event: BeforeToolCallEvent) {
        return blockAfterApproval.blocked ? InterventionActions.deny('Deletes are frozen') : InterventionActions.proceed();
      }
    }
    const interventions = createInterventions({ handlers: [new DeleteApproval(), new LateGuard()] });

    const first = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });
    const [request] = approvalRequests(first.content);
    expect(request).toBeDefined();
    blockAfterApproval.blocked = true;

    await interventions.generateText({
      model,
      tools,
      stopWhen: isStepCount(5),
      messages: [
        USER,
        ...first.responseMessages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
      ],
    });

    expect(runs.delete_file).toHaveLength(0);
    expect(JSON.stringify(toolResultsSent(model, 1).d1)).toContain('Deletes are frozen');
  });
});
