/**
 * The capability table, by construction: for every entry path and every kind
 * of guard, what `CAPABILITIES` says is what happens, through the public API.
 *
 * - `enforced`: a guard of that kind, registered, is called on that path (a
 *   scenario with a tool that works, a tool that throws and a final text
 *   with a secret reaches every event but an abort and a failed run);
 * - `with-middleware` / `with-wrapped-tools`: called when the other layer
 *   is there, refused (typed, naming the guard and the path) when it is not;
 * - `refused`: using the path with the guard registered is a
 *   `GuardNotEnforcedError`, and so is registering it once the path is in
 *   use (the guard is then not registered);
 * - `no-event`: an observer the path has no event for: never refused.
 */
import {
  createAgentUIStream,
  defaultSettingsMiddleware,
  generateText,
  isStepCount,
  type LanguageModel,
  type LanguageModelMiddleware,
  ToolLoopAgent,
  type ToolSet,
  tool,
  wrapLanguageModel,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CAPABILITIES,
  callBudget,
  createInterventions,
  createRedactor,
  ENTRY_PATHS,
  type EntryPath,
  type GuardKind,
  GuardNotEnforcedError,
  guardTools,
  type HookName,
  InterventionActions,
  type InterventionHandlerLike,
  type Interventions,
  type InterventionsOptions,
  type InterventionUIMessage,
  type LIFECYCLES,
  rateLimit,
  trustToolAnnotations,
} from '../../src/index.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

type Hit = (kind: GuardKind) => void;

/** What registers one guard of a kind (and what else it needs to be observable). */
interface Probe {
  /** The kinds registered: the kind probed, and what makes its event happen (a record for onDecision). */
  readonly kinds: readonly GuardKind[];
  /** Registered at creation. */
  readonly options: (hit: Hit) => InterventionsOptions;
  /** Registered on a runtime in use; `undefined` for what can only be given at creation (redactors). */
  readonly register?: (interventions: Interventions, hit: Hit) => unknown;
}

const proceed = () => InterventionActions.proceed();

function handlerProbe(kind: (typeof LIFECYCLES)[number]): Probe {
  const handler = (hit: Hit): InterventionHandlerLike => ({ name: `probe-${kind}`, [kind]: () => (hit(kind), proceed()) });
  return {
    kinds: [kind],
    options: (hit) => ({ handlers: [handler(hit)] }),
    register: (interventions, hit) => interventions.use(handler(hit)),
  };
}

function hookProbe(kind: HookName, extra: readonly GuardKind[] = []): Probe {
  const hook = (hit: Hit) =>
    kind === 'gateToolCalls'
      ? ({ calls }: { calls: readonly unknown[] }) => (hit(kind), calls.map(proceed))
      : () => {
          hit(kind);
        };
  // a decision record needs a decision: a proceeding afterToolCall handler makes one per tool call
  const recorder: InterventionHandlerLike = { name: 'records', afterToolCall: proceed };
  return {
    kinds: [kind, ...extra],
    options: (hit) => ({ hooks: { [kind]: hook(hit) }, ...(extra.length > 0 ? { handlers: [recorder] } : {}) }),
    register: (interventions, hit) => interventions.addHook(kind, hook(hit) as never),
  };
}

/** A count per run: a rateLimit counting per run (it never runs out here), called when its record is made. */
function perRunProbe(): Probe {
  const limit = () => rateLimit({ name: 'probe-per-run', limit: 100, windowMs: 60_000, per: 'run' });
  const onDecision =
    (hit: Hit) =>
    ({ record }: { record: { handler: string } }) => {
      if (record.handler === 'probe-per-run') hit('perRun');
    };
  return {
    kinds: ['perRun', 'onDecision'],
    options: (hit) => ({ handlers: [limit()], hooks: { onDecision: onDecision(hit) } }),
    register: (interventions, hit) => {
      interventions.use(limit());
      interventions.addHook('onDecision', onDecision(hit));
    },
  };
}

const PROBES: { readonly [KIND in GuardKind]: Probe } = {
  beforeInvocation: handlerProbe('beforeInvocation'),
  beforeModelCall: handlerProbe('beforeModelCall'),
  afterModelCall: handlerProbe('afterModelCall'),
  beforeToolCall: handlerProbe('beforeToolCall'),
  afterToolCall: handlerProbe('afterToolCall'),
  redactToolError: {
    kinds: ['redactToolError'],
    options: (hit) => ({
      handlers: [{ name: 'probe-redact-tool-error', redactToolError: (error: unknown) => (hit('redactToolError'), error) } as never],
    }),
    register: (interventions, hit) =>
      interventions.use({ name: 'probe-redact-tool-error', redactToolError: (error: unknown) => (hit('redactToolError'), error) } as never),
  },
  preRequest: hookProbe('preRequest'),
  onResponse: hookProbe('onResponse'),
  transformContext: hookProbe('transformContext'),
  gateToolCalls: hookProbe('gateToolCalls'),
  preToolCall: hookProbe('preToolCall'),
  onToolCallResult: hookProbe('onToolCallResult'),
  onToolCallError: hookProbe('onToolCallError'),
  drainSteering: hookProbe('drainSteering'),
  drainFollowUp: hookProbe('drainFollowUp'),
  onChatStart: hookProbe('onChatStart'),
  onChatDone: hookProbe('onChatDone'),
  onChatAbort: hookProbe('onChatAbort'),
  onChatError: hookProbe('onChatError'),
  onMessage: hookProbe('onMessage'),
  onDecision: hookProbe('onDecision', ['afterToolCall']),
  onStatus: hookProbe('onStatus'),
  perRun: perRunProbe(),
  redactors: {
    kinds: ['redactors'],
    options: (hit) => ({
      redactors: [createRedactor({ name: 'probe', rules: [{ pattern: /SECRET/, replacement: () => (hit('redactors'), '[X]') }] })],
    }),
  },
};

/** Events the scenario does not cause: an abort, a failed run. */
const NOT_CAUSED: readonly GuardKind[] = ['onChatAbort', 'onChatError'];

const scenarioModel = () =>
  scriptedModel(step(toolCall('c1', 'lookup', { q: 'x' }), toolCall('c2', 'broken', { q: 'y' })), step(text('done SECRET')));
const scenarioTools = (): ToolSet => ({
  lookup: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'found' }),
  broken: tool({
    inputSchema: z.object({ q: z.string() }),
    execute: async (): Promise<string> => {
      throw new Error('broken');
    },
  }),
});
const uiMessages: InterventionUIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] }];

/** The layers a plain call is given: the model wrapped with the middleware, the tools wrapped. */
interface Layers {
  readonly middleware: boolean;
  readonly wrappedTools: boolean;
}

/** Uses the runtime through `path` once, with the scenario: what the caller got (text or error). */
async function through(path: EntryPath, interventions: Interventions, layers: Layers): Promise<unknown> {
  const stopWhen = isStepCount(4);
  const model = scenarioModel();
  const tools = scenarioTools();
  const agent = () => new ToolLoopAgent(interventions.agentSettings({ model, tools, stopWhen }));
  switch (path) {
    case 'wrappers':
      return (await interventions.generateText({ model, tools, stopWhen, prompt: 'go' })).text;
    case 'agent':
      return (await agent().generate({ prompt: 'go' })).text;
    case 'agent-ui-stream': {
      const stream = await interventions.createAgentUIStream({ agent: agent(), uiMessages });
      let shown = '';
      for await (const chunk of stream) if (chunk.type === 'text-delta') shown += chunk.delta;
      return shown;
    }
    case 'middleware':
    case 'plain-tools': {
      // the model layer first: reading interventions.middleware says the model is wrapped
      const wrappedModel: LanguageModel =
        path === 'middleware' || layers.middleware ? wrapLanguageModel({ model, middleware: interventions.middleware }) : model;
      const callTools = path === 'plain-tools' || layers.wrappedTools ? interventions.wrapTools(tools) : tools;
      return (await generateText({ model: wrappedModel, tools: callTools, stopWhen, prompt: 'go' })).text;
    }
  }
}

/** The layers every kind of `kinds` needs on `path`. */
function layersFor(path: EntryPath, kinds: readonly GuardKind[]): Layers {
  const types = kinds.map((kind) => CAPABILITIES[path][kind].type);
  return { middleware: types.includes('with-middleware'), wrappedTools: types.includes('with-wrapped-tools') };
}

async function refusal(work: () => unknown): Promise<GuardNotEnforcedError> {
  let error: unknown;
  try {
    await work();
  } catch (thrown) {
    error = thrown;
  }
  if (!GuardNotEnforcedError.isInstance(error)) throw new Error(`expected a GuardNotEnforcedError, got ${String(error)}`);
  return error;
}

/** The path a refusal names: an agent's UI stream is refused where its agent is built. */
const refusedAt = (path: EntryPath): EntryPath => (path === 'agent-ui-stream' ? 'agent' : path);

describe('CAPABILITIES', () => {
  for (const path of ENTRY_PATHS) {
    describe(`through ${path}`, () => {
      for (const kind of Object.keys(PROBES) as GuardKind[]) {
        const capability = CAPABILITIES[path][kind];
        const probe = PROBES[kind];
        switch (capability.type) {
          case 'enforced':
          case 'no-event':
            it(`should ${capability.type === 'enforced' ? 'call' : 'take'} a registered ${kind} (${capability.type})`, async () => {
              const hits = new Set<GuardKind>();
              const interventions = createInterventions(probe.options((hit) => hits.add(hit)));
              const shown = await through(path, interventions, layersFor(path, probe.kinds));
              if (capability.type === 'enforced' && !NOT_CAUSED.includes(kind)) expect([...hits]).toContain(kind);
              if (kind === 'redactors') expect(shown).toBe('done [X]');
            });
            break;
          case 'with-middleware':
          case 'with-wrapped-tools': {
            const layer = capability.type === 'with-middleware' ? 'middleware' : 'wrappedTools';
            it(`should call a registered ${kind} when the ${layer === 'middleware' ? 'model is wrapped' : 'tools are wrapped'}`, async () => {
              const hits = new Set<GuardKind>();
              const interventions = createInterventions(probe.options((hit) => hits.add(hit)));
              await through(path, interventions, { ...layersFor(path, probe.kinds), [layer]: true });
              expect([...hits]).toContain(kind);
            });
            it(`should refuse a registered ${kind} when ${layer === 'middleware' ? 'the model is not wrapped' : 'the tools are not wrapped'}`, async () => {
              const hits = new Set<GuardKind>();
              const interventions = createInterventions(probe.options((hit) => hits.add(hit)));
              const error = await refusal(() => through(path, interventions, { ...layersFor(path, probe.kinds), [layer]: false }));
              expect(error).toMatchObject({ code: 'guard-not-enforced', kind, path });
              expect(error.message).toContain(`Use ${error.instead}`);
              expect(hits.has(kind)).toBe(false);
            });
            break;
          }
          case 'refused':
            it(`should refuse a registered ${kind} when the path is used`, async () => {
              const hits = new Set<GuardKind>();
              const interventions = createInterventions(probe.options((hit) => hits.add(hit)));
              const error = await refusal(() => through(path, interventions, layersFor(path, probe.kinds)));
              expect(error).toMatchObject({ code: 'guard-not-enforced', kind, path: refusedAt(path), instead: capability.instead });
              expect(error.message).toContain(kind);
              expect(hits.size).toBe(0);
            });
            if (probe.register !== undefined) {
              const register = probe.register;
              it(`should refuse ${kind} registered once the path is in use, and leave it unregistered`, async () => {
                const hits = new Set<GuardKind>();
                const interventions = createInterventions();
                await through(path, interventions, layersFor(path, []));
                const error = await refusal(() => register(interventions, (hit) => hits.add(hit)));
                expect(error).toMatchObject({ kind, path: refusedAt(path) });
                expect(interventions.handlers).toEqual([]);
                // the wrappers enforce everything: the refused guard is not there either
                await interventions.generateText({
                  model: scenarioModel(),
                  tools: scenarioTools(),
                  stopWhen: isStepCount(4),
                  prompt: 'go',
                });
                expect(hits.size).toBe(0);
              });
            }
            break;
        }
      }
    });
  }

  describe("an agent's UI stream", () => {
    it("should refuse an agent not built with this runtime's agentSettings while a guard is registered", async () => {
      const ran: string[] = [];
      const tools = { wipe: tool({ inputSchema: z.object({}), execute: async () => (ran.push('wipe'), 'wiped') }) };
      const interventions = createInterventions({ handlers: [{ name: 'no-wipes', beforeToolCall: () => InterventionActions.deny('no') }] });
      const foreign = new ToolLoopAgent({ model: scriptedModel(step(toolCall('c1', 'wipe', {})), step(text('done'))), tools });
      const error = await refusal(() => interventions.createAgentUIStream({ agent: foreign, uiMessages }));
      expect(error).toMatchObject({ path: 'agent-ui-stream', guard: 'beforeToolCall of handler "no-wipes"' });
      expect(error.instead).toContain('agentSettings');
      expect(ran).toEqual([]);
      // with nothing registered it is the SDK's own
      const idle = createInterventions();
      const chunks = [];
      for await (const chunk of await idle.createAgentUIStream({ agent: foreign, uiMessages })) chunks.push(chunk);
      const raw = [];
      const again = new ToolLoopAgent({ model: scriptedModel(step(toolCall('c1', 'wipe', {})), step(text('done'))), tools });
      for await (const chunk of await createAgentUIStream({ agent: again, uiMessages })) raw.push(chunk);
      expect(chunks.map((chunk) => chunk.type)).toEqual(raw.map((chunk) => chunk.type));
    });
  });

  describe('a gate given to tools guarded without a run', () => {
    const shell = (ran: string[]) => ({
      run_shell: tool({ inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => (ran.push(command), 'ok') }),
      search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => (ran.push(`search ${q}`), 'found') }),
    });
    const noShell = ({ calls }: { calls: ReadonlyArray<{ toolName: string }> }) =>
      calls.map((call) => (call.toolName === 'run_shell' ? InterventionActions.deny('No shell access') : InterventionActions.proceed()));
    const turn = () =>
      scriptedModel(
        step(toolCall('c1', 'run_shell', { command: 'rm -rf /srv' }), toolCall('c2', 'search', { q: 'x' })),
        step(text('done')),
      );

    it.each(['guardTools', 'wrapTools after addHook', 'wrapTools before addHook'] as const)(
      'should never let a denied shell command run with the plain SDK (%s): each call meets the gate alone',
      async (how) => {
        const ran: string[] = [];
        const batches: number[] = [];
        const gate = (context: { calls: ReadonlyArray<{ toolName: string }> }) => (batches.push(context.calls.length), noShell(context));
        let guarded: ToolSet;
        if (how === 'guardTools') guarded = guardTools(shell(ran), { hooks: { gateToolCalls: gate } });
        else {
          const interventions = createInterventions();
          if (how === 'wrapTools after addHook') interventions.addHook('gateToolCalls', gate);
          guarded = interventions.wrapTools(shell(ran));
          // the wrapped tools read the live registry: a gate added now applies to them
          if (how === 'wrapTools before addHook') interventions.addHook('gateToolCalls', gate);
        }
        const model = turn();
        await generateText({ model, tools: guarded, stopWhen: isStepCount(3), prompt: 'go' });
        expect(ran).toEqual(['search x']);
        expect(batches.every((size) => size === 1)).toBe(true);
        expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain('No shell access');
      },
    );
  });

  describe("a tool without execute (the app's client runs it) with tools guarded without a run", () => {
    // a client-side tool: the model calls it, the app's UI runs it (useChat's onToolCall) and sends the result back
    const clientTools = (ran: string[]) => ({
      getLocation: tool({ inputSchema: z.object({ precise: z.boolean() }) }),
      search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => (ran.push(`search ${q}`), 'found') }),
    });
    const noLocation = { name: 'no-location', beforeToolCall: () => InterventionActions.deny('Location is off') };
    const gate = ({ calls }: { calls: readonly unknown[] }) => calls.map(() => InterventionActions.deny('No tools'));

    it.each([
      [
        'a beforeToolCall handler given to guardTools',
        () => guardTools(clientTools([]), [noLocation]),
        'beforeToolCall of handler "no-location"',
      ],
      [
        'a gateToolCalls hook given to guardTools',
        () => guardTools(clientTools([]), { hooks: { gateToolCalls: gate } }),
        'gateToolCalls hook',
      ],
      [
        'a handler registered before wrapTools',
        () => createInterventions({ handlers: [noLocation] }).wrapTools(clientTools([])),
        'beforeToolCall of handler "no-location"',
      ],
    ] as const)(
      'should refuse to wrap it in the scope of %s, naming the tool, the guard and what to use instead',
      async (_, wrap, guard) => {
        const error = await refusal(wrap);
        expect(error).toMatchObject({ code: 'guard-not-enforced', path: 'plain-tools', guard: expect.stringContaining(guard) });
        expect(error.message).toContain('the tool "getLocation" has no execute');
        expect(error.message).toContain('never deny');
        expect(error.instead).toContain('interventions.generateText / streamText');
        expect(error.instead).toBe((CAPABILITIES['plain-tools'].beforeToolCall as { refusedFor: { instead: string } }).refusedFor.instead);
      },
    );

    it('should refuse a deciding guard registered once it is wrapped, and leave it unregistered', async () => {
      const interventions = createInterventions();
      const ran: string[] = [];
      const tools = interventions.wrapTools(clientTools(ran));
      const error = await refusal(() => interventions.use(noLocation));
      expect(error).toMatchObject({ path: 'plain-tools', guard: 'beforeToolCall of handler "no-location"' });
      await refusal(() => interventions.addHook('gateToolCalls', gate));
      expect(interventions.handlers).toEqual([]);
      // nothing decides: the plain SDK hands the call to the client, as it would raw
      const model = scriptedModel(step(toolCall('c1', 'getLocation', { precise: true })), step(text('done')));
      const result = await generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'where am I?' });
      expect(result.toolCalls.map((call) => call.toolName)).toEqual(['getLocation']);
    });

    it('should wrap it when no deciding guard is in scope, and decide the tools in scope', async () => {
      const ran: string[] = [];
      const noSearch = { name: 'no-search', tools: 'search', beforeToolCall: () => InterventionActions.deny('No search') };
      const tools = guardTools(clientTools(ran), [noSearch]);
      const model = scriptedModel(
        step(toolCall('c1', 'search', { q: 'x' }), toolCall('c2', 'getLocation', { precise: true })),
        step(text('done')),
      );
      const result = await generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });
      expect(ran).toEqual([]);
      const denied = result.content.find((part) => part.type === 'tool-error');
      expect(denied).toMatchObject({ toolName: 'search', error: { decision: 'deny' } });
      expect(String((denied as { error: Error }).error.message)).toContain('No search');
      // the client tool's call is the client's to run
      expect(result.toolCalls.map((call) => call.toolName)).toEqual(['search', 'getLocation']);
    });
  });

  describe("a count per run (per: 'run') with tools guarded without a run", () => {
    it.each([
      ['callBudget', () => callBudget({ per: 'run', maxToolCalls: 5 }), 'call-budget'],
      ['rateLimit', () => rateLimit({ per: ['run', 'tool'], limit: 5, windowMs: 60_000 }), 'rate-limit'],
    ] as const)(
      "should refuse %s with per: 'run' (it would deny every call), saying to count per user instead",
      async (_, handler, name) => {
        const ran: string[] = [];
        const tools = { a: tool({ inputSchema: z.object({}), execute: async () => (ran.push('a'), 'ok') }) };
        const error = await refusal(() => guardTools(tools, [handler()]));
        expect(error).toMatchObject({ code: 'guard-not-enforced', path: 'plain-tools', kind: 'perRun' });
        expect(error.guard).toBe(`perRun (per: 'run') of handler "${name}"`);
        expect(error.message).toContain('it would deny every call');
        expect(error.instead).toContain("per: 'user'");
        // registered once the tools are wrapped: refused too
        const interventions = createInterventions();
        interventions.wrapTools(tools);
        await refusal(() => interventions.use(handler()));
        expect(interventions.handlers).toEqual([]);
        // through the wrappers each call is a run: the budget counts
        const counted = createInterventions({ handlers: [handler()] });
        const model = scriptedModel(step(toolCall('c1', 'a', {})), step(text('done')));
        await counted.generateText({ model, tools, stopWhen: isStepCount(3), prompt: 'go' });
        expect(ran).toEqual(['a']);
      },
    );

    it("should count per user on tools guarded without a run (per: 'user' with the request's runtimeContext)", async () => {
      const ran: string[] = [];
      const tools = { a: tool({ inputSchema: z.object({}), execute: async () => (ran.push('a'), 'ok') }) };
      const interventions = createInterventions({ handlers: [callBudget({ per: 'user', maxToolCalls: 1 })] });
      const guarded = interventions.wrapTools(tools, { runtimeContext: { userId: 'alice' } });
      const model = scriptedModel(step(toolCall('c1', 'a', {}), toolCall('c2', 'a', {})), step(text('done')));
      await generateText({ model, tools: guarded, stopWhen: isStepCount(3), prompt: 'go' });
      expect(ran).toEqual(['a']);
      expect(JSON.stringify(toolResultsSent(model, 1))).toContain(
        'Tool-call budget exhausted: this user has used all of their 1 tool calls.',
      );
    });
  });

  describe('a model wrapped with interventions.middleware given to the same runtime again', () => {
    /** A runtime that denies `wipe` and counts what each guard saw: model requests (a preRequest hook) and decisions. */
    function counted() {
      const seen = { requests: 0, decided: 0 };
      const interventions = createInterventions({
        handlers: [
          {
            name: 'no-wipe',
            beforeToolCall: ({ toolCall: call }) => {
              seen.decided++;
              return call.toolName === 'wipe' ? InterventionActions.deny('No wiping.') : proceed();
            },
          },
        ],
        hooks: { preRequest: () => void seen.requests++ },
      });
      const ran: string[] = [];
      const tools = {
        wipe: tool({ inputSchema: z.object({}), execute: async () => (ran.push('wipe'), 'wiped') }),
        lookup: tool({ inputSchema: z.object({}), execute: async () => (ran.push('lookup'), 'found') }),
      };
      const model = scriptedModel(step(toolCall('c1', 'wipe', {}), toolCall('c2', 'lookup', {})), step(text('done')));
      return { interventions, seen, ran, tools, model };
    }

    it.each([
      [
        'wrapped with it',
        (model: ReturnType<typeof scriptedModel>, middleware: LanguageModelMiddleware) => wrapLanguageModel({ model, middleware }),
      ],
      [
        'wrapped with it, then with another middleware',
        (model: ReturnType<typeof scriptedModel>, middleware: LanguageModelMiddleware) =>
          wrapLanguageModel({
            model: wrapLanguageModel({ model, middleware }),
            middleware: defaultSettingsMiddleware({ settings: { temperature: 0 } }),
          }),
      ],
    ] as const)('should guard a run of interventions.generateText once, with the model %s (never refused)', async (_, wrap) => {
      const { interventions, seen, ran, tools, model } = counted();
      const result = await interventions.generateText({
        model: wrap(model, interventions.middleware),
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
      });
      expect(result.text).toBe('done');
      expect(ran).toEqual(['lookup']);
      // each model request and each call met the guards once, as without the middleware
      expect(seen).toEqual({ requests: 2, decided: 2 });
      expect(result.interventions.decisions.map((record) => [record.toolName, record.action])).toEqual([
        ['wipe', 'deny'],
        ['lookup', 'proceed'],
      ]);
      expect(JSON.stringify(toolResultsSent(model, 1))).toContain('No wiping.');
    });

    it('should guard a run once when its steps are given a model wrapped with it, first read while the run goes on', async () => {
      const { interventions, seen, ran, tools, model } = counted();
      // the run starts before anything reads interventions.middleware: its requests are told apart from then on
      const result = await interventions.generateText({
        model,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
        prepareStep: () => ({ model: wrapLanguageModel({ model, middleware: interventions.middleware }) }),
      });
      expect(result.text).toBe('done');
      expect(ran).toEqual(['lookup']);
      expect(seen).toEqual({ requests: 2, decided: 2 });
    });

    it('should guard a run of interventions.streamText once, with the model wrapped with it (never refused)', async () => {
      const { interventions, seen, ran, tools, model } = counted();
      const result = interventions.streamText({
        model: wrapLanguageModel({ model, middleware: interventions.middleware }),
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
      });
      expect(await result.text).toBe('done');
      expect(ran).toEqual(['lookup']);
      expect(seen).toEqual({ requests: 2, decided: 2 });
      expect(JSON.stringify(toolResultsSent(model, 1))).toContain('No wiping.');
    });

    it('should guard an agent built with agentSettings once, with the model wrapped with it (never refused)', async () => {
      const { interventions, seen, ran, tools, model } = counted();
      const agent = new ToolLoopAgent(
        interventions.agentSettings({
          model: wrapLanguageModel({ model, middleware: interventions.middleware }),
          tools,
          stopWhen: isStepCount(3),
        }),
      );
      const result = await agent.generate({ prompt: 'go' });
      expect(result.text).toBe('done');
      expect(ran).toEqual(['lookup']);
      expect(seen).toEqual({ requests: 2, decided: 2 });
    });

    it('should guard a plain call once with the middleware applied twice', async () => {
      const { interventions, seen, ran, tools, model } = counted();
      const middleware = interventions.middleware;
      const result = await generateText({
        model: wrapLanguageModel({ model, middleware: [middleware, middleware] }),
        tools: interventions.wrapTools(tools),
        stopWhen: isStepCount(3),
        prompt: 'go',
      });
      expect(result.text).toBe('done');
      expect(ran).toEqual(['lookup']);
      expect(seen).toEqual({ requests: 2, decided: 2 });
    });

    it("should still apply another runtime's middleware inside a run", async () => {
      const { interventions, ran, tools, model } = counted();
      const other = { requests: 0 };
      const outer = createInterventions({ hooks: { preRequest: () => void other.requests++ } });
      await interventions.generateText({
        model: wrapLanguageModel({ model, middleware: outer.middleware }),
        tools,
        stopWhen: isStepCount(3),
        prompt: 'go',
      });
      expect(ran).toEqual(['lookup']);
      expect(other.requests).toBe(2);
    });
  });

  it('should name a rejected model call through the middleware, with the tool that is not wrapped', async () => {
    const interventions = createInterventions({ handlers: [{ name: 'policy', tools: 'lookup', beforeToolCall: proceed }] });
    const error = await rejectionOf(
      generateText({
        model: wrapLanguageModel({ model: scenarioModel(), middleware: interventions.middleware }),
        tools: scenarioTools(),
        prompt: 'go',
      }),
    );
    expect(error).toMatchObject({ code: 'guard-not-enforced', path: 'middleware', guard: 'beforeToolCall of handler "policy"' });
    expect((error as Error).message).toContain('the tool "lookup" of this call is not wrapped');
    // a scope by annotations may take in any tool (the middleware sees names, not hints): refused too
    const byHints = createInterventions({
      handlers: [{ name: 'read-only', tools: { annotations: { readOnlyHint: true } }, beforeToolCall: proceed }],
    });
    const hinted = await rejectionOf(
      generateText({
        model: wrapLanguageModel({ model: scenarioModel(), middleware: byHints.middleware }),
        tools: trustToolAnnotations(scenarioTools()),
        prompt: 'go',
      }),
    );
    expect(hinted).toMatchObject({ code: 'guard-not-enforced', guard: 'beforeToolCall of handler "read-only"' });
    // a handler scoped to other tools leaves those tools alone
    const scoped = createInterventions({ handlers: [{ name: 'policy', tools: 'elsewhere', beforeToolCall: proceed }] });
    const result = await generateText({
      model: wrapLanguageModel({ model: scenarioModel(), middleware: scoped.middleware }),
      tools: scenarioTools(),
      stopWhen: isStepCount(4),
      prompt: 'go',
    });
    expect(result.text).toBe('done SECRET');
  });
});
