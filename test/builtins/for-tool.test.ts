/**
 * `forTool`: a handler scoped to some tools of a `ToolSet`, with
 * `toolCall.input` (and `result`) typed from the tools' schemas. Runtime
 * scenarios run through `interventions.generateText` and
 * `interventions.streamText` on a scripted model (seed 000's
 * `EmailValidator` and `PiiRedactor`, without the name checks and casts);
 * the type tests use `expectTypeOf` and `// @ts-expect-error` lines that
 * `tsc -p tsconfig.json` checks.
 */
import { dynamicTool, isStepCount, jsonSchema, type ToolSet, tool } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { forTool, type TypedAfterToolCallEvent, type TypedBeforeToolCallEvent, type TypedToolCall } from '../../src/builtins/for-tool.ts';
import { createInterventions, InterventionActions, type InterventionHandlerLike } from '../../src/index.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

// ---------------------------------------------------------------- the tool set

function appTools() {
  const ran: Array<{ readonly tool: string; readonly input: unknown }> = [];
  const tools = {
    send_email: tool({
      inputSchema: z.object({ to: z.string(), subject: z.string().optional(), body: z.string() }),
      execute: async (input) => {
        ran.push({ tool: 'send_email', input });
        return `sent to ${input.to}`;
      },
    }),
    send_sms: tool({
      inputSchema: z.object({ phone: z.string(), text: z.string() }),
      execute: async (input) => {
        ran.push({ tool: 'send_sms', input });
        return `texted ${input.phone}`;
      },
    }),
    lookup_user: tool({
      inputSchema: z.object({ id: z.number() }),
      execute: async ({ id }) => {
        ran.push({ tool: 'lookup_user', input: { id } });
        return { id, name: 'Ada', ssn: '123-45-6789' };
      },
    }),
    search: tool({
      inputSchema: z.object({ q: z.string() }),
      execute: async (input) => {
        ran.push({ tool: 'search', input });
        return `found ${input.q}`;
      },
    }),
    mcp_exec: dynamicTool({
      inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } } }),
      execute: async (input) => {
        ran.push({ tool: 'mcp_exec', input });
        return 'ok';
      },
    }),
  };
  const inputsOf = (name: string) => ran.filter((entry) => entry.tool === name).map((entry) => entry.input);
  return { tools, inputsOf };
}

type AppTools = ReturnType<typeof appTools>['tools'];
type EmailInput = { to: string; subject?: string | undefined; body: string };

// ---------------------------------------------------------------- runtime

describe.each(MODES)('forTool through %s', (mode) => {
  it("should guide send_email without a subject (seed 000's EmailValidator) and leave other tools to proceed", async () => {
    const { tools, inputsOf } = appTools();
    const called: string[] = [];
    const emailValidator = forTool(tools, 'send_email', {
      name: 'email-validator',
      beforeToolCall: ({ toolCall }) => {
        called.push(toolCall.toolCallId);
        return toolCall.input.subject
          ? InterventionActions.proceed()
          : InterventionActions.guide('All emails must include a subject line.');
      },
    });
    const model = scriptedModel(
      step(toolCall('e1', 'send_email', { to: 'bob@example.com', body: 'Hello Bob' }), toolCall('s1', 'search', { q: 'bob' })),
      step(toolCall('e2', 'send_email', { to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob' })),
      step(text('Sent.')),
    );

    const result = await run(createInterventions({ handlers: [emailValidator] }), mode, {
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Email Bob',
    });

    expect(called).toEqual(['e1', 'e2']); // never called for search
    expect(inputsOf('search')).toEqual([{ q: 'bob' }]);
    expect(inputsOf('send_email')).toEqual([{ to: 'bob@example.com', subject: 'Hi', body: 'Hello Bob' }]);
    expect(JSON.stringify(toolResultsSent(model, 1).e1)).toContain('[email-validator] All emails must include a subject line.');
    expect(toolResultsSent(model, 2).e2).toEqual({ type: 'text', value: 'sent to bob@example.com' });
    // scoped: the call to search is not evaluated at all, so it leaves no record
    expect(result.decisions.map((d) => [d.toolCallId, d.action])).toEqual([
      ['e1', 'guide'],
      ['e2', 'proceed'],
    ]);
  });

  it("should transform the typed input (seed 000's PiiRedactor), with the draft typed from the return type", async () => {
    const { tools, inputsOf } = appTools();
    const redactor = forTool(tools, 'send_email', {
      name: 'pii-redactor',
      beforeToolCall: () =>
        InterventionActions.transform((draft) => {
          expectTypeOf(draft.toolCall.input).toEqualTypeOf<EmailInput>();
          draft.toolCall.input.body = draft.toolCall.input.body.replace(/\b\d{3}-\d{2}-\d{4}\b/g, '[REDACTED]');
        }),
    });
    const model = scriptedModel(
      step(toolCall('e1', 'send_email', { to: 'hr@example.com', subject: 'SSN', body: 'My SSN is 123-45-6789.' })),
      step(text('Sent.')),
    );

    await run(createInterventions({ handlers: [redactor] }), mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Send my SSN' });

    expect(inputsOf('send_email')).toEqual([{ to: 'hr@example.com', subject: 'SSN', body: 'My SSN is [REDACTED].' }]);
    expect(JSON.stringify(model.calls[1]?.prompt)).not.toContain('123-45-6789');
  });

  it('should give afterToolCall the typed result to transform, for that tool only', async () => {
    const { tools } = appTools();
    const redactResult = forTool(tools, 'lookup_user', {
      name: 'redact-ssn',
      afterToolCall: (event) => {
        expectTypeOf(event.result).toEqualTypeOf<{ id: number; name: string; ssn: string }>();
        return InterventionActions.transform((draft) => {
          draft.result = { ...draft.result, ssn: '[REDACTED]' };
        });
      },
    });
    const model = scriptedModel(step(toolCall('u1', 'lookup_user', { id: 7 }), toolCall('s1', 'search', { q: 'ada' })), step(text('Ada.')));

    const result = await run(createInterventions({ handlers: [redactResult] }), mode, {
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Who is 7?',
    });

    const sent = toolResultsSent(model, 1);
    expect(sent.u1).toEqual({ type: 'json', value: { id: 7, name: 'Ada', ssn: '[REDACTED]' } });
    expect(sent.s1).toEqual({ type: 'text', value: 'found ada' });
    expect(Object.fromEntries(result.decisions.map((d) => [d.toolCallId, [d.lifecycle, d.action]]))).toEqual({
      u1: ['afterToolCall', 'transform'],
    });
  });

  it('should scope one handler to several tools, narrowing the input on toolName', async () => {
    const { tools, inputsOf } = appTools();
    const outbound = forTool(tools, ['send_email', 'send_sms'], {
      name: 'outbound',
      beforeToolCall: ({ toolCall }) => {
        if (toolCall.toolName === 'send_email') {
          expectTypeOf(toolCall.input).toEqualTypeOf<EmailInput>();
          return toolCall.input.to.endsWith('@example.com')
            ? InterventionActions.proceed()
            : InterventionActions.deny(`No email to ${toolCall.input.to}`);
        }
        expectTypeOf(toolCall.input).toEqualTypeOf<{ phone: string; text: string }>();
        return toolCall.input.phone.startsWith('+1')
          ? InterventionActions.proceed()
          : InterventionActions.deny(`No SMS to ${toolCall.input.phone}`);
      },
    });
    const model = scriptedModel(
      step(
        toolCall('e1', 'send_email', { to: 'eve@evil.example', body: 'x' }),
        toolCall('m1', 'send_sms', { phone: '+15550100', text: 'hi' }),
        toolCall('m2', 'send_sms', { phone: '+445550100', text: 'hi' }),
      ),
      step(text('Done.')),
    );

    await run(createInterventions({ handlers: [outbound] }), mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Notify' });

    expect(inputsOf('send_email')).toEqual([]);
    expect(inputsOf('send_sms')).toEqual([{ phone: '+15550100', text: 'hi' }]);
    const sent = toolResultsSent(model, 1);
    expect(JSON.stringify(sent.e1)).toContain('No email to eve@evil.example');
    expect(JSON.stringify(sent.m2)).toContain('No SMS to +445550100');
  });
});

// ---------------------------------------------------------------- construction

describe('forTool', () => {
  it('should define only the lifecycle methods the handler has, and keep its settings', () => {
    const { tools } = appTools();
    const handler = forTool(tools, 'search', {
      name: 'search-only',
      onError: 'deny',
      timeoutMs: 500,
      mode: 'shadow',
      beforeToolCall: () => InterventionActions.proceed(),
    });
    expect(handler).toMatchObject({ name: 'search-only', onError: 'deny', timeoutMs: 500, mode: 'shadow' });
    expect('toolCallActions' in handler).toBe(false);
    expect(handler.beforeToolCall).toBeTypeOf('function');
    expect('afterToolCall' in handler).toBe(false);
    expectTypeOf(handler).toEqualTypeOf<InterventionHandlerLike>();
  });

  it('should keep the actions the handler declares, so a streamed step is not held for it and no other action is taken', async () => {
    const { tools, inputsOf } = appTools();
    const declared = forTool(tools, 'search', {
      name: 'declares-deny',
      toolCallActions: ['deny'],
      beforeToolCall: () =>
        InterventionActions.transform<TypedBeforeToolCallEvent<AppTools, 'search'>>((draft) => {
          draft.toolCall.input.q = 'changed';
        }),
    });
    expect(declared.toolCallActions).toEqual(['deny']);
    const model = scriptedModel(step(toolCall('c1', 'search', { q: 'cats' })), step(text('done')));

    await expect(run(createInterventions({ handlers: [declared] }), 'generateText', { model, tools, prompt: 'go' })).rejects.toThrow(
      /"declares-deny" returned transform from beforeToolCall, which its toolCallActions \(deny\) do not include/,
    );
    expect(inputsOf('search')).toEqual([]);
  });

  it('should reject a name that is not in the tool set, and an empty list', () => {
    const { tools } = appTools();
    expect(() =>
      // @ts-expect-error: 'delete_file' is not a tool of the set
      forTool(tools, 'delete_file', { name: 'x', beforeToolCall: () => InterventionActions.proceed() }),
    ).toThrow(/"delete_file" is not a tool of the set given/);
    expect(() => forTool(tools, [], { name: 'x' })).toThrow(TypeError);
    // an own property only: a prototype name is not a tool
    expect(() => forTool(tools as ToolSet, 'toString', { name: 'x' })).toThrow(TypeError);
  });

  it('should keep `this` for handlers with state of their own (a class)', async () => {
    const { tools } = appTools();
    class WithThis {
      readonly name = 'with-this';
      readonly blocked = 'secret';
      beforeToolCall(event: TypedBeforeToolCallEvent<AppTools, 'search'>) {
        return event.toolCall.input.q === this.blocked ? InterventionActions.deny('No') : InterventionActions.proceed();
      }
    }
    const scoped = forTool(tools, 'search', new WithThis());
    const action = await scoped.beforeToolCall!({
      lifecycle: 'beforeToolCall',
      runId: 'r',
      runtimeContext: {},
      abortSignal: undefined,
      stepNumber: 0,
      toolCall: { toolCallId: 'c', toolName: 'search', input: { q: 'secret' } },
      tool: tools.search,
      messages: [],
      approved: false,
      approval: undefined,
    });
    expect(action).toEqual(InterventionActions.deny('No'));
  });
});

// ---------------------------------------------------------------- types (checked by tsc)

describe('forTool types', () => {
  it('should type inputs and results from the tool set', () => {
    expectTypeOf<TypedToolCall<AppTools, 'send_email'>['input']>().toEqualTypeOf<EmailInput>();
    expectTypeOf<TypedToolCall<AppTools, 'send_email'>['toolName']>().toEqualTypeOf<'send_email'>();
    expectTypeOf<TypedToolCall<AppTools, 'send_email' | 'send_sms'>['toolName']>().toEqualTypeOf<'send_email' | 'send_sms'>();
    expectTypeOf<TypedBeforeToolCallEvent<AppTools, 'search'>['toolCall']['input']>().toEqualTypeOf<{ q: string }>();
    expectTypeOf<TypedAfterToolCallEvent<AppTools, 'search'>['result']>().toEqualTypeOf<string>();
    // a dynamic (MCP) tool's input is unknown: nothing is invented
    expectTypeOf<TypedToolCall<AppTools, 'mcp_exec'>['input']>().toEqualTypeOf<unknown>();
    // the typed event is still a beforeToolCall event, so the library's own helpers accept it
    expectTypeOf<TypedBeforeToolCallEvent<AppTools, 'search'>>().toHaveProperty('runId').toEqualTypeOf<string | undefined>();
  });

  it('should reject wrong names, wrong fields and actions a lifecycle may not return', () => {
    const { tools } = appTools();
    forTool(tools, 'send_email', {
      name: 'typed',
      beforeToolCall: ({ toolCall }) => {
        // @ts-expect-error: send_email has no `phone`
        void toolCall.input.phone;
        // @ts-expect-error: `to` is a string, not a number
        const to: number = toolCall.input.to;
        void to;
        // @ts-expect-error: the name is known exactly
        const name: 'send_sms' = toolCall.toolName;
        void name;
        return InterventionActions.proceed();
      },
      // @ts-expect-error: afterToolCall may not ask for confirmation
      afterToolCall: () => InterventionActions.confirm('Really?'),
    });
    forTool(tools, 'send_email', {
      name: 'bad-transform',
      beforeToolCall: () =>
        InterventionActions.transform((draft) => {
          // @ts-expect-error: the draft's input is typed too
          draft.toolCall.input.body = 42;
        }),
    });
    // @ts-expect-error: every name must be a tool of the set
    void (() => forTool(tools, ['send_email', 'fax'], { name: 'x' }));
    expect(true).toBe(true);
  });
});
