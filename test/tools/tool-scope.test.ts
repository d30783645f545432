import { dynamicTool, isStepCount, jsonSchema, type ModelMessage, type Tool, type ToolSet, tool } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  createInterventions,
  defineHandler,
  flowPolicy,
  guardTools,
  humanApproval,
  InterventionActions,
  type InterventionHandlerLike,
  type Interventions,
  InvalidHandlerError,
  loopGuard,
  type OnStatusContext,
  rateLimit,
  type ToolScope,
  type ToolSelector,
  toolAnnotations,
  toolPolicy,
  toolScope,
  truncateToolResult,
  trustToolAnnotations,
} from '../../src/index.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { inMemoryMcpTools } from '../helpers/in-memory-mcp.ts';
import { takeWarnings } from '../helpers/process-warnings.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

type Mode = 'generateText' | 'streamText';

/** A tool that records its calls and returns a long text (so truncation shows). */
function recorded(name: string, ran: string[], metadata?: Tool['metadata']): Tool {
  return tool({
    inputSchema: z.object({ target: z.string() }),
    execute: async ({ target }) => (ran.push(name), `${name} ${target} ${'.'.repeat(600)}`),
    ...(metadata === undefined ? {} : { metadata }),
  });
}

/** One call through the runtime, read to the end: what ran, what the model read, the approvals asked. */
async function turn(interventions: Interventions, mode: Mode, model: ReturnType<typeof scriptedModel>, tools: ToolSet) {
  const call = { model, tools, stopWhen: isStepCount(3), messages: [{ role: 'user', content: 'go' }] satisfies ModelMessage[] };
  if (mode === 'generateText') {
    const result = await interventions.generateText(call);
    return { content: result.content, decisions: result.interventions.decisions };
  }
  const result = interventions.streamText(call);
  return { content: await result.content, decisions: result.interventions.decisions };
}

/** A tool declaring `annotations`, from a server the app does not trust. */
const declaring = (annotations: Record<string, boolean>) => ({ metadata: { annotations } }) as unknown as Tool;
/** The same, from a server the app trusts (`trustToolAnnotations`). */
const withAnnotations = (annotations: Record<string, boolean>) => trustToolAnnotations({ tool: declaring(annotations) }).tool;

describe('toolScope', () => {
  it('should match names, globs and negations, one syntax', () => {
    expect(toolScope('search')('search')).toBe(true);
    expect(toolScope('search')('search2')).toBe(false);
    expect(toolScope('delete_*')('delete_file')).toBe(true);
    expect(toolScope('delete_*')('undelete_file')).toBe(false);
    expect(toolScope('fs_?')('fs_a')).toBe(true);
    expect(toolScope('fs_?')('fs_ab')).toBe(false);
    expect(toolScope('a.b')('axb')).toBe(false); // regex characters are literal
    expect(toolScope('github/*')('github/create_issue')).toBe(true);
    expect(toolScope('!poll_*')('search')).toBe(true);
    expect(toolScope('!poll_*')('poll_status')).toBe(false);
    expect(toolScope(['fs_*', '!fs_delete*'])('fs_read')).toBe(true);
    expect(toolScope(['fs_*', '!fs_delete*'])('fs_delete_dir')).toBe(false);
    expect(toolScope(['fs_*', '!fs_delete*'])('search')).toBe(false);
    expect(toolScope('constructor')('toString')).toBe(false);
  });

  it('should match annotation selectors on the hints, with the MCP defaults for hints a tool does not declare', () => {
    const destructive = toolScope({ annotations: { destructiveHint: true } });
    const readOnly = toolScope({ annotations: { readOnlyHint: true } });
    const closedWorld = toolScope({ annotations: { openWorldHint: false } });
    // declared
    expect(destructive('x', withAnnotations({ destructiveHint: true }))).toBe(true);
    expect(destructive('x', withAnnotations({ destructiveHint: false }))).toBe(false);
    expect(readOnly('x', withAnnotations({ readOnlyHint: true }))).toBe(true);
    expect(closedWorld('x', withAnnotations({ openWorldHint: false }))).toBe(true);
    // not declared: the spec's defaults (may destroy, not read-only, open world), also for no tool at all
    for (const tool of [withAnnotations({}), tool_({}), undefined]) {
      expect(destructive('x', tool)).toBe(true);
      expect(readOnly('x', tool)).toBe(false);
      expect(closedWorld('x', tool)).toBe(false);
    }
    // a read-only tool is not destructive unless it says so
    expect(destructive('x', withAnnotations({ readOnlyHint: true }))).toBe(false);
    expect(toolAnnotations(withAnnotations({ readOnlyHint: true }))).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    // several hints: all must hold; combined with names and negations
    const writesOutside = toolScope({ annotations: { readOnlyHint: false, openWorldHint: true } });
    expect(writesOutside('x', withAnnotations({ openWorldHint: false }))).toBe(false);
    expect(writesOutside('x', withAnnotations({}))).toBe(true);
    const destructiveButDrafts = toolScope([{ annotations: { destructiveHint: true } }, 'search', '!delete_draft']);
    expect(destructiveButDrafts('delete_draft', withAnnotations({}))).toBe(false);
    expect(destructiveButDrafts('search', withAnnotations({ readOnlyHint: true }))).toBe(true);
  });

  it("should read a tool the app does not trust as declaring nothing: its server's claims never loosen a scope", () => {
    const destructive = toolScope({ annotations: { destructiveHint: true } });
    const readOnly = toolScope({ annotations: { readOnlyHint: true } });
    const closedWorld = toolScope({ annotations: { openWorldHint: false } });
    const claims = declaring({ readOnlyHint: true, destructiveHint: false, openWorldHint: false, idempotentHint: true });
    expect(destructive('wipe_disk', claims)).toBe(true);
    expect(readOnly('wipe_disk', claims)).toBe(false);
    expect(closedWorld('wipe_disk', claims)).toBe(false);
    expect(toolAnnotations(claims)).toEqual(toolAnnotations(undefined));
    // the same claims, trusted, count
    const trusted = trustToolAnnotations({ wipe_disk: claims }).wipe_disk;
    expect(readOnly('wipe_disk', trusted)).toBe(true);
    expect(toolAnnotations(trusted)).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false, idempotentHint: true });
    // the mark is the app's: a copy of the tool keeps it, the tool's data cannot carry it, the input is left as it was
    expect(readOnly('wipe_disk', { ...trusted })).toBe(true);
    expect(readOnly('wipe_disk', JSON.parse(JSON.stringify(trusted)) as Tool)).toBe(false);
    expect(readOnly('wipe_disk', claims)).toBe(false);
  });

  it('should reject a scope that cannot be valid with an InvalidHandlerError naming its owner', () => {
    const invalid: ReadonlyArray<readonly [unknown, RegExp]> = [
      [[], /empty list/],
      ['', /is empty/],
      ['!', /negation of nothing/],
      ['!!delete_*', /negates twice/],
      ['delete_* ', /whitespace/],
      ['!*', /excludes every tool/],
      [['search', '!search'], /every name it lists is also excluded .*leave the negations out to match those tools/],
      [['delete_file', '!delete_*'], /every name it lists is also excluded/],
      [{ annotations: {} }, /names no hint/],
      [
        { annotations: { destructive: true } },
        /"destructive" is not an annotation hint \(did you mean destructiveHint\?\); the hints are /,
      ],
      [{ annotations: { readOnlyHint: 'yes' } }, /must be true or false/],
      [{ annotation: { readOnlyHint: true } }, /only an `annotations` key/],
      [{ name: 'x', annotations: { readOnlyHint: true } }, /only an `annotations` key/],
      [42, /neither a tool name/],
      [undefined, /neither a tool name/],
    ];
    for (const [scope, message] of invalid) {
      let thrown: unknown;
      try {
        toolScope(scope as ToolScope, { owner: 'no-deletes' });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidHandlerError.isInstance(thrown), String(JSON.stringify(scope))).toBe(true);
      expect(thrown).toMatchObject({ code: 'invalid-tools', handlerName: 'no-deletes', key: 'tools' });
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).toContain('"no-deletes"');
    }
  });
});

describe.each<Mode>(['generateText', 'streamText'])("a handler's tools scope through interventions.%s", (mode) => {
  it("should deny delete_file with tools: ['delete_*'] and leave other tools alone", async () => {
    const ran: string[] = [];
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'no-deletes',
          tools: ['delete_*'],
          beforeToolCall: () => InterventionActions.deny('Deleting is not allowed.'),
        }),
      ],
    });
    const model = scriptedModel(
      step(toolCall('c1', 'delete_file', { target: '/etc' }), toolCall('c2', 'search', { target: 'x' })),
      step(text('done')),
    );
    const { decisions } = await turn(interventions, mode, model, {
      delete_file: recorded('delete_file', ran),
      search: recorded('search', ran),
    });
    expect(ran).toEqual(['search']);
    expect(decisions.map((record) => [record.handler, record.toolCallId, record.action])).toEqual([['no-deletes', 'c1', 'deny']]);
    expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain('Deleting is not allowed.');
  });

  it("should scope tools: ['mcp_*'] to a dynamicTool", async () => {
    const ran: string[] = [];
    const interventions = createInterventions({
      handlers: [defineHandler({ name: 'no-mcp', tools: 'mcp_*', beforeToolCall: () => InterventionActions.deny('No MCP today.') })],
    });
    const mcpFetch = dynamicTool({
      inputSchema: jsonSchema({ type: 'object', properties: { target: { type: 'string' } } }),
      execute: async () => (ran.push('mcp_fetch'), 'fetched'),
    });
    const model = scriptedModel(step(toolCall('c1', 'mcp_fetch', { target: 'https://example.com' })), step(text('done')));
    const { decisions } = await turn(interventions, mode, model, { mcp_fetch: mcpFetch });
    expect(ran).toEqual([]);
    expect(decisions.map((record) => [record.handler, record.action])).toEqual([['no-mcp', 'deny']]);
  });

  it('should scope a handler by the annotations @ai-sdk/mcp carries on its tools', async () => {
    const mcp = await inMemoryMcpTools([
      { name: 'drop_table', annotations: { destructiveHint: true } },
      { name: 'read_rows', annotations: { readOnlyHint: true } },
      { name: 'archive_rows' }, // no annotations: the spec's defaults say it may destroy
      { name: 'add_tag', annotations: { destructiveHint: false } },
    ]);
    const interventions = createInterventions({
      handlers: [
        defineHandler({
          name: 'no-destruction',
          tools: { annotations: { destructiveHint: true } },
          beforeToolCall: () => InterventionActions.deny('Destructive tools are off.'),
        }),
      ],
    });
    const model = scriptedModel(
      step(
        toolCall('c1', 'drop_table', { target: 't' }),
        toolCall('c2', 'read_rows', { target: 't' }),
        toolCall('c3', 'archive_rows', { target: 't' }),
        toolCall('c4', 'add_tag', { target: 't' }),
      ),
      step(text('done')),
    );
    const { decisions } = await turn(interventions, mode, model, trustToolAnnotations(mcp.tools));
    await mcp.close();
    expect(mcp.called.sort()).toEqual(['add_tag', 'read_rows']);
    expect(decisions.map((record) => [record.toolCallId, record.action])).toEqual([
      ['c1', 'deny'],
      ['c3', 'deny'],
    ]);
  });
});

describe.each<Mode>(['generateText', 'streamText'])('annotation selectors in the built-ins through interventions.%s', (mode) => {
  const server = () =>
    inMemoryMcpTools([
      { name: 'drop_table', annotations: { destructiveHint: true } },
      { name: 'read_rows', annotations: { readOnlyHint: true } },
      { name: 'archive_rows' },
      { name: 'add_tag', annotations: { destructiveHint: false, openWorldHint: false } },
    ]);
  const everyTool = () =>
    step(
      toolCall('c1', 'drop_table', { target: 't' }),
      toolCall('c2', 'read_rows', { target: 't' }),
      toolCall('c3', 'archive_rows', { target: 't' }),
      toolCall('c4', 'add_tag', { target: 't' }),
    );

  it('should have humanApproval confirm every destructive MCP tool, and run the approved one once', async () => {
    const mcp = await server();
    const interventions = createInterventions({ handlers: [humanApproval({ tools: { annotations: { destructiveHint: true } } })] });
    const model = scriptedModel(everyTool(), step(text('done')));
    const history: ModelMessage[] = [{ role: 'user', content: 'tidy up' }];
    const call = { model, tools: trustToolAnnotations(mcp.tools), stopWhen: isStepCount(3) };
    const first =
      mode === 'generateText'
        ? await interventions.generateText({ ...call, messages: history })
        : interventions.streamText({ ...call, messages: history });
    const requests = approvalRequests(await first.content);
    expect(requests.map((request) => request.toolCall.toolName)).toEqual(['drop_table', 'archive_rows']);
    expect(mcp.called.sort()).toEqual(['add_tag', 'read_rows']);

    const answers: ModelMessage = {
      role: 'tool',
      content: requests.map((request) => ({
        type: 'tool-approval-response',
        approvalId: request.approvalId,
        approved: request.toolCall.toolName === 'drop_table',
      })),
    };
    const messages = [...history, ...(await first.responseMessages), answers];
    const resumed =
      mode === 'generateText' ? await interventions.generateText({ ...call, messages }) : interventions.streamText({ ...call, messages });
    await resumed.text;
    await mcp.close();
    expect(mcp.called.sort()).toEqual(['add_tag', 'drop_table', 'read_rows']);
  });

  it('should have toolPolicy allow read-only tools, confirm destructive ones and deny the rest', async () => {
    const mcp = await server();
    const interventions = createInterventions({
      handlers: [
        toolPolicy({
          rules: [{ allow: { annotations: { readOnlyHint: true } } }, { confirm: { annotations: { destructiveHint: true } } }],
          default: 'deny',
        }),
      ],
    });
    const model = scriptedModel(everyTool(), step(text('done')));
    const { content, decisions } = await turn(interventions, mode, model, trustToolAnnotations(mcp.tools));
    await mcp.close();
    expect(approvalRequests(content).map((request) => request.toolCall.toolName)).toEqual(['drop_table', 'archive_rows']);
    expect(mcp.called).toEqual(['read_rows']);
    expect(decisions.filter((record) => record.action === 'deny').map((record) => record.toolCallId)).toEqual(['c4']);
  });

  it('should read a server the app does not trust as declaring nothing: humanApproval asks for all its tools, an allow-read-only rule allows none', async () => {
    const policy = toolPolicy({
      rules: [{ allow: { annotations: { readOnlyHint: true } } }, { confirm: { annotations: { destructiveHint: true } } }],
      default: 'deny',
    });
    const mcp = await server();
    const emitted = takeWarnings();
    const told: string[] = [];
    const onStatus = ({ status }: OnStatusContext) => void (status.type === 'warning' && told.push(status.message));
    const byPolicy = await turn(
      createInterventions({ handlers: [policy], hooks: { onStatus } }),
      mode,
      scriptedModel(everyTool(), step(text('done'))),
      mcp.tools,
    );
    expect(mcp.called).toEqual([]);
    expect(approvalRequests(byPolicy.content).map((request) => request.toolCall.toolName)).toEqual([
      'drop_table',
      'read_rows',
      'archive_rows',
      'add_tag',
    ]);
    const asking = createInterventions({ handlers: [humanApproval({ tools: { annotations: { destructiveHint: true } } })] });
    const byApproval = await turn(asking, mode, scriptedModel(everyTool(), step(text('done'))), mcp.tools);
    await mcp.close();
    expect(mcp.called).toEqual([]);
    expect(approvalRequests(byApproval.content)).toHaveLength(4);
    // the app is told that its "allow read-only" rule matches none of them (through process.emitWarning once per process)
    expect(told).toEqual([
      expect.stringContaining('{"annotations":{"readOnlyHint":true}} of "tool-policy" (rules[0].allow) matches no tool'),
    ]);
    for (const warning of emitted) expect(warning).toMatchObject({ code: 'scope-matches-no-tool', message: told[0] });
  });
});

describe("'!poll_*' means the same in every option that takes a scope", () => {
  /** Each handler acts on the calls in its scope; how it shows, per handler. */
  const cases: ReadonlyArray<{
    readonly name: string;
    readonly handler: (scope: ToolScope) => InterventionHandlerLike;
    /** Whether the handler acted on the calls of `toolName` (c1/c2 for search, p1/p2 for poll_status). */
    readonly acted: (outcome: { ran: string[]; sent: Record<string, unknown>; asked: string[] }, toolName: string) => boolean;
  }> = [
    {
      name: 'a handler',
      handler: (scope) => defineHandler({ name: 'h', tools: scope, beforeToolCall: () => InterventionActions.deny('no') }),
      acted: ({ ran }, toolName) => !ran.includes(toolName),
    },
    {
      name: 'toolPolicy',
      handler: (scope) => toolPolicy({ rules: [{ deny: scope }], default: 'allow' }),
      acted: ({ ran }, toolName) => !ran.includes(toolName),
    },
    {
      name: 'rateLimit',
      handler: (scope) => rateLimit({ limit: 0, windowMs: 60_000, per: 'run', tools: scope }),
      acted: ({ ran }, toolName) => !ran.includes(toolName),
    },
    {
      name: 'humanApproval',
      handler: (scope) => humanApproval({ tools: scope }),
      acted: ({ asked }, toolName) => asked.includes(toolName),
    },
    {
      name: 'loopGuard',
      handler: (scope) => loopGuard({ maxRepeats: 1, tools: scope }),
      // the second identical call is not run
      acted: ({ ran }, toolName) => ran.filter((name) => name === toolName).length === 1,
    },
    {
      name: 'truncateToolResult',
      handler: (scope) => truncateToolResult({ maxChars: 300, tools: scope }),
      acted: ({ sent }, toolName) => JSON.stringify(sent[toolName === 'search' ? 's1' : 'p1']).includes('omitted'),
    },
  ];

  it.each(cases)('$name', async ({ handler, acted }) => {
    const ran: string[] = [];
    const interventions = createInterventions({ handlers: [handler('!poll_*')] });
    const model = scriptedModel(
      step(
        toolCall('s1', 'search', { target: 'x' }),
        toolCall('s2', 'search', { target: 'x' }),
        toolCall('p1', 'poll_status', { target: 'x' }),
        toolCall('p2', 'poll_status', { target: 'x' }),
      ),
      step(text('done')),
    );
    const { content } = await turn(interventions, 'generateText', model, {
      search: recorded('search', ran),
      poll_status: recorded('poll_status', ran),
    });
    const asked = approvalRequests(content).map((request) => request.toolCall.toolName);
    const outcome = { ran, sent: model.calls.length > 1 ? toolResultsSent(model, 1) : {}, asked };
    expect(acted(outcome, 'search')).toBe(true);
    expect(acted(outcome, 'poll_status')).toBe(false);
  });
});

describe('a tools scope that cannot be valid', () => {
  const bad = { name: 'no-deletes', tools: ['delete_* '], beforeToolCall: () => InterventionActions.deny('no') };
  const expectInvalid = (register: () => unknown, handlerName = 'no-deletes') => {
    let thrown: unknown;
    try {
      register();
    } catch (error) {
      thrown = error;
    }
    expect(InvalidHandlerError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'invalid-tools', handlerName });
  };

  it('should throw when the handler is registered, named', () => {
    expectInvalid(() => createInterventions({ handlers: [bad] }));
    expectInvalid(() => createInterventions().use(bad));
    expectInvalid(() => defineHandler(bad));
    expectInvalid(() => guardTools({ search: recorded('search', []) }, [bad]));
    expectInvalid(() => createInterventions({ handlers: [{ ...bad, tools: [] }] }));
  });

  it('should throw when a built-in is created, naming it', () => {
    expectInvalid(() => toolPolicy({ name: 'policy', rules: [{ confirm: '!' }], default: 'allow' }), 'policy');
    expectInvalid(() => humanApproval({ name: 'ask', tools: [] }), 'ask');
    expectInvalid(() => rateLimit({ name: 'limit', limit: 1, windowMs: 1_000, per: 'run', tools: ['!*'] }), 'limit');
    expectInvalid(() => loopGuard({ name: 'loops', tools: { annotations: { destructive: true } } as never }), 'loops');
    expectInvalid(() => truncateToolResult({ name: 'cap', tools: '' }), 'cap');
  });
});

function tool_(metadata: Record<string, unknown>): Tool {
  return { ...recorded('t', []), metadata } as Tool;
}

describe('a scope typed by the tool set', () => {
  const appTools = {
    deleteFile: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'deleted' }),
    send_email: tool({ inputSchema: z.object({ to: z.string() }), execute: async () => 'sent' }),
  };
  type AppTools = typeof appTools;

  it('should accept the names of the set, globs, negations and annotation selectors', () => {
    const scope: ToolScope<AppTools> = ['deleteFile', '!send_email', 'send_*', 'delete?ile', { annotations: { destructiveHint: true } }];
    expect(toolScope<AppTools>(scope)('deleteFile')).toBe(true);
    expectTypeOf<'deleteFile'>().toExtend<ToolSelector<AppTools>>();
    expectTypeOf<'delete_file'>().not.toExtend<ToolSelector<AppTools>>();
    expectTypeOf<'!delete_file'>().not.toExtend<ToolSelector<AppTools>>();
    // untyped, any name is a scope (checked against each run's tools instead)
    expectTypeOf<'delete_file'>().toExtend<ToolSelector>();
  });

  it('should make a name that is not a tool of the set a compile error in every option that takes a scope', () => {
    // each line below compiles only because of its @ts-expect-error (npm run typecheck checks them)
    const mistakes = () => [
      // @ts-expect-error the AI SDK's docs name it deleteFile
      defineHandler<AppTools>({ name: 'no-deletes', tools: 'delete_file', beforeToolCall: () => InterventionActions.deny('no') }),
      // @ts-expect-error a rule naming no tool of the set
      toolPolicy<AppTools>({ rules: [{ deny: 'delete_file' }], default: 'allow' }),
      // @ts-expect-error
      humanApproval<AppTools>({ tools: ['delete_file'] }),
      // @ts-expect-error a negated name is checked too
      flowPolicy<AppTools>({ sinks: ['!send_mail'] }),
      // @ts-expect-error
      rateLimit<AppTools>({ limit: 1, windowMs: 1_000, per: 'tool', tools: 'sendEmail' }),
      // @ts-expect-error
      loopGuard<AppTools>({ tools: 'deletefile' }),
      // @ts-expect-error
      truncateToolResult<AppTools>({ maxChars: 10, tools: ['send-email'] }),
      // @ts-expect-error
      toolScope<AppTools>('delete_file'),
    ];
    expect(mistakes).toBeTypeOf('function');
    // the same with the names of the set compiles, and the handlers are handlers
    const handlers: InterventionHandlerLike[] = [
      defineHandler<AppTools>({ name: 'no-deletes', tools: 'deleteFile', beforeToolCall: () => InterventionActions.deny('no') }),
      toolPolicy<AppTools>({ rules: [{ deny: 'deleteFile' }, { confirm: 'send_*' }], default: 'allow' }),
      humanApproval<AppTools>({ tools: ['deleteFile'] }),
      flowPolicy<AppTools>({ sinks: ['send_email'], trusted: '!deleteFile' }),
    ];
    expect(() => createInterventions({ handlers })).not.toThrow();
  });
});
