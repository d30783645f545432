/**
 * A scope that matches no tool of a run is never silently empty: the docs
 * write `delete_file`, the AI SDK's docs name the tool `deleteFile`, and the
 * handler (or the built-in's rule) applies to nothing. It is reported once
 * (an `InterventionsWarning` with the scope, the handler and the closest
 * tool names, and an `onStatus` warning), and it is an `InvalidHandlerError`
 * with `strictScopes: true`, on every path that knows the run's tools.
 */
import { generateText, isStepCount, type ModelMessage, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInterventions,
  defineHandler,
  flowPolicy,
  forTool,
  guardTools,
  humanApproval,
  InterventionActions,
  type InterventionHandlerLike,
  InterventionsWarning,
  InvalidHandlerError,
  loopGuard,
  type OnStatusContext,
  rateLimit,
  toolPolicy,
  truncateToolResult,
} from '../../src/index.ts';
import { processWarnings } from '../helpers/process-warnings.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const { warnings, settled } = processWarnings();
const scopeWarnings = () =>
  warnings.filter(
    (warning): warning is InterventionsWarning => InterventionsWarning.isInstance(warning) && warning.code === 'scope-matches-no-tool',
  );

/** The AI SDK's naming: camelCase tools. What ran is recorded. */
function appTools(ran: string[]) {
  return {
    deleteFile: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (ran.push(`deleteFile ${path}`), 'deleted'),
    }),
    readFile: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'contents' }),
  };
}

const deleteCall = () => scriptedModel(step(toolCall('c1', 'deleteFile', { path: '/srv' })), step(text('done')));
const messages: ModelMessage[] = [{ role: 'user', content: 'clean up' }];
let unique = 0;
/** Warnings are emitted once per process and scope: each test names its handler anew. */
const named = (base: string) => `${base}-${++unique}`;

describe('scope report', () => {
  describe('when a handler scope names no tool of the run', () => {
    it('should warn once, naming the scope, the handler and the closest tool names, and tell onStatus once', async () => {
      const ran: string[] = [];
      const name = named('no-deletes');
      const statuses: OnStatusContext[] = [];
      const interventions = createInterventions({
        handlers: [defineHandler({ name, tools: 'delete_file', beforeToolCall: () => InterventionActions.deny('no deleting') })],
        hooks: { onStatus: (context) => void statuses.push(context) },
      });
      const tools = appTools(ran);
      await interventions.generateText({ model: deleteCall(), tools, stopWhen: isStepCount(3), messages });
      await interventions.generateText({ model: deleteCall(), tools: appTools(ran), stopWhen: isStepCount(3), messages });
      await settled();

      // the scope matched nothing: the delete ran, but not silently
      expect(ran).toEqual(['deleteFile /srv', 'deleteFile /srv']);
      const [warning, ...more] = scopeWarnings();
      expect(more).toEqual([]);
      expect(warning).toMatchObject({
        name: 'AIInterventionsWarning',
        code: 'scope-matches-no-tool',
        handlerName: name,
        option: 'tools',
        scope: 'delete_file',
        closestTools: ['deleteFile'],
      });
      expect(warning?.message).toContain('did you mean "deleteFile"?');
      const told = statuses.filter((context) => context.status.type === 'warning');
      expect(told).toHaveLength(1);
      expect(told[0]?.status).toMatchObject({ code: 'scope-matches-no-tool', message: warning?.message });
    });

    it("should say that an annotation selector reads only the tools whose annotations the app trusts (an 'allow read-only' rule over tools it does not trust)", async () => {
      const ran: string[] = [];
      const name = named('read-only');
      const readOnly = tool({ inputSchema: z.object({}), execute: async () => 'rows', metadata: { annotations: { readOnlyHint: true } } });
      const interventions = createInterventions({
        handlers: [toolPolicy({ name, rules: [{ allow: { annotations: { readOnlyHint: true } } }], default: 'deny' })],
      });
      await interventions.generateText({
        model: deleteCall(),
        tools: { ...appTools(ran), readRows: readOnly },
        stopWhen: isStepCount(3),
        messages,
      });
      await settled();
      const warning = scopeWarnings().find((entry) => entry.handlerName === name);
      expect(warning?.option).toBe('rules[0].allow');
      expect(warning?.message).toContain('matches no tool of this run, so it applies to nothing here. The run');
      expect(warning?.message).toContain('the tools whose annotations you trust (trustToolAnnotations)');
    });

    it('should make it an InvalidHandlerError with strictScopes: true, before any tool runs', async () => {
      const ran: string[] = [];
      const name = named('no-deletes');
      const interventions = createInterventions({
        strictScopes: true,
        handlers: [defineHandler({ name, tools: ['delete_file'], beforeToolCall: () => InterventionActions.deny('no deleting') })],
      });
      const error = await rejectionOf(
        interventions.generateText({ model: deleteCall(), tools: appTools(ran), stopWhen: isStepCount(3), messages }),
      );
      expect(InvalidHandlerError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'scope-matches-no-tool', handlerName: name, key: 'tools' });
      expect((error as Error).message).toContain('"deleteFile"');
      expect(ran).toEqual([]);
      expect(() => interventions.streamText({ model: deleteCall(), tools: appTools(ran), messages })).toThrow(/matches no tool/);
    });

    it('should not report a scope that matches a tool, or one of negations only (every tool except those)', async () => {
      const interventions = createInterventions({
        strictScopes: true,
        handlers: [
          defineHandler({ name: named('deletes'), tools: ['delete*', 'wipe_disk'], beforeToolCall: () => InterventionActions.proceed() }),
          defineHandler({ name: named('but-polls'), tools: '!poll_*', beforeToolCall: () => InterventionActions.proceed() }),
        ],
      });
      await interventions.generateText({ model: deleteCall(), tools: appTools([]), stopWhen: isStepCount(3), messages });
      await settled();
      expect(scopeWarnings()).toEqual([]);
    });
  });

  describe("when a built-in's scope names no tool of the run", () => {
    const cases: ReadonlyArray<readonly [string, (name: string) => InterventionHandlerLike, string]> = [
      [
        'toolPolicy',
        (name) => toolPolicy({ name, rules: [{ allow: 'readFile' }, { deny: 'delete_file' }], default: 'allow' }),
        'rules[1].deny',
      ],
      ['humanApproval', (name) => humanApproval({ name, tools: ['delete_file'] }), 'tools'],
      ['flowPolicy', (name) => flowPolicy({ name, sinks: ['delete_file'] }), 'sinks'],
      ['rateLimit', (name) => rateLimit({ name, limit: 1, windowMs: 60_000, per: 'tool', tools: 'delete_file' }), 'tools'],
      ['loopGuard', (name) => loopGuard({ name, tools: 'delete_file' }), 'tools'],
      ['truncateToolResult', (name) => truncateToolResult({ name, maxChars: 1_000, tools: 'delete_file' }), 'tools'],
      [
        'forTool',
        (name) =>
          forTool({ delete_file: appTools([]).deleteFile }, 'delete_file', { name, beforeToolCall: () => InterventionActions.deny('no') }),
        'tools',
      ],
    ];
    it.each(cases)('%s: should report it with the option it was given as', async (_label, make, option) => {
      const name = named('built-in');
      const interventions = createInterventions({ handlers: [make(name)] });
      await interventions.generateText({ model: deleteCall(), tools: appTools([]), stopWhen: isStepCount(3), messages });
      await settled();
      expect(scopeWarnings()).toMatchObject([{ handlerName: name, option, closestTools: ['deleteFile'] }]);
    });

    it.each(cases)('%s: should throw with strictScopes: true', async (_label, make, option) => {
      const name = named('built-in');
      const interventions = createInterventions({ strictScopes: true, handlers: [make(name)] });
      const error = await rejectionOf(
        interventions.generateText({ model: deleteCall(), tools: appTools([]), stopWhen: isStepCount(3), messages }),
      );
      expect(error).toMatchObject({ code: 'scope-matches-no-tool', handlerName: name, key: option });
    });
  });

  describe('on the paths that know the tools before a run', () => {
    it('should check tools guarded without a run when they are wrapped, and a handler registered after them', () => {
      const handler = defineHandler({
        name: named('no-deletes'),
        tools: 'delete_file',
        beforeToolCall: () => InterventionActions.deny('no'),
      });
      expect(() => guardTools(appTools([]), { strictScopes: true, handlers: [handler] })).toThrow(/did you mean "deleteFile"\?/);

      const interventions = createInterventions({ strictScopes: true });
      const guarded = interventions.wrapTools(appTools([]));
      // the wrapped tools read the live registry: a handler added now applies to them, so it is checked against them
      expect(() => interventions.use(handler)).toThrow(InvalidHandlerError);
      expect(interventions.handlers).toEqual([]);
      expect(Object.keys(guarded)).toEqual(['deleteFile', 'readFile']);
    });

    it("should check an agent's tools at each call", async () => {
      const ran: string[] = [];
      const interventions = createInterventions({
        strictScopes: true,
        handlers: [
          defineHandler({ name: named('no-deletes'), tools: 'delete_file', beforeToolCall: () => InterventionActions.deny('no') }),
        ],
      });
      const agent = new ToolLoopAgent(interventions.agentSettings({ model: deleteCall(), tools: appTools(ran), stopWhen: isStepCount(3) }));
      const error = await rejectionOf(agent.generate({ prompt: 'clean up' }));
      expect(error).toMatchObject({ code: 'scope-matches-no-tool' });
      expect(ran).toEqual([]);
      // the plain SDK with the raw tools is not the runtime's business
      await generateText({ model: deleteCall(), tools: appTools(ran), stopWhen: isStepCount(3), prompt: 'x' });
      expect(ran).toEqual(['deleteFile /srv']);
    });
  });
});
