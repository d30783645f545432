/**
 * Guard coverage: a call a handler stops never runs, whatever the provider
 * sends. Random handler sets (deny, guide, confirm, transform, proceed, a
 * throw; exact, glob and negated scopes; shadow mode; `onError`) meet random
 * provider turns (parallel calls, one id repeated in a turn, ids reused
 * across turns, unknown tools, arguments that are not JSON) through
 * `generateText`, `streamText` and `ToolLoopAgent`. What ran is recorded by
 * the tools themselves, and judged against an oracle written here (not the
 * library's matcher or reducer):
 *
 * - a call that an enforced handler in its scope denies, guides or asks
 *   about (or that throws with `onError: 'deny'`) never executes;
 * - an executed call ran once, with the arguments its transforms gave it;
 * - every tool call the model is sent back has exactly one result.
 *
 * `npm test` runs GUARD_RUNS (default 150) scenarios per wrapper;
 * `npm run test:guards` runs 10,000.
 */
import { isStepCount, type ModelMessage, ToolLoopAgent, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions, type InterventionHandlerLike } from '../../src/index.ts';
import { scriptedModel, step, text } from '../helpers/scripted-model.ts';

const RUNS = Number(process.env.GUARD_RUNS ?? 150);
const SEED = process.env.GUARD_SEED === undefined ? 20261124 : Number(process.env.GUARD_SEED);

const TOOLS = ['alpha', 'beta', 'bravo'] as const;
type Behaviour = 'deny' | 'guide' | 'confirm' | 'transform' | 'proceed' | 'throw';
type Scope =
  | { readonly kind: 'all' }
  | { readonly kind: 'exact'; readonly name: string }
  | { readonly kind: 'glob'; readonly prefix: string }
  | { readonly kind: 'not'; readonly prefix: string };

interface HandlerSpec {
  readonly behaviour: Behaviour;
  readonly scope: Scope;
  readonly mode: 'enforce' | 'shadow';
  readonly onError: 'deny' | 'proceed';
}

interface CallSpec {
  readonly id: string;
  readonly tool: string;
  readonly json: boolean;
  readonly tag: string;
}

/** The oracle's own scope matcher (names and prefix globs, as the generators write them). */
function inScope(scope: Scope, toolName: string): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'exact':
      return toolName === scope.name;
    case 'glob':
      return toolName.startsWith(scope.prefix);
    case 'not':
      return !toolName.startsWith(scope.prefix);
  }
}

function patternOf(scope: Scope): string | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'exact':
      return scope.name;
    case 'glob':
      return `${scope.prefix}*`;
    case 'not':
      return `!${scope.prefix}*`;
  }
}

/** Whether the handlers stop a call to `toolName` (an enforced deny, guide, confirm, or a throw failing closed). */
function stops(handlers: readonly HandlerSpec[], toolName: string): boolean {
  return handlers.some(
    (handler) =>
      handler.mode === 'enforce' &&
      inScope(handler.scope, toolName) &&
      (handler.behaviour === 'deny' ||
        handler.behaviour === 'guide' ||
        handler.behaviour === 'confirm' ||
        (handler.behaviour === 'throw' && handler.onError === 'deny')),
  );
}

/** How many transforms apply to a call to `toolName` (each appends `+t` to its tag). */
function transforms(handlers: readonly HandlerSpec[], toolName: string): number {
  return handlers.filter((handler) => handler.mode === 'enforce' && handler.behaviour === 'transform' && inScope(handler.scope, toolName))
    .length;
}

function handlerOf(spec: HandlerSpec, index: number): InterventionHandlerLike {
  const tools = patternOf(spec.scope);
  return defineHandler({
    name: `h${index}-${spec.behaviour}`,
    mode: spec.mode,
    onError: spec.onError,
    ...(tools === undefined ? {} : { tools: [tools] }),
    beforeToolCall: ({ toolCall }) => {
      switch (spec.behaviour) {
        case 'deny':
          return InterventionActions.deny(`no ${toolCall.toolName}`);
        case 'guide':
          return InterventionActions.guide(`try again, ${toolCall.toolName}`);
        case 'confirm':
          return InterventionActions.confirm(`run ${toolCall.toolName}?`);
        case 'transform':
          return InterventionActions.transform((draft) => {
            if (!('toolCall' in draft)) return;
            const input = draft.toolCall.input as { tag?: unknown };
            draft.toolCall.input = { tag: `${String(input.tag)}+t` };
          });
        case 'proceed':
          return InterventionActions.proceed();
        case 'throw':
          throw new Error(`h${index} failed`);
      }
    },
  });
}

const scopeArb: fc.Arbitrary<Scope> = fc.oneof(
  fc.constant({ kind: 'all' } as const),
  fc.constantFrom(...TOOLS).map((name) => ({ kind: 'exact', name }) as const),
  fc.constantFrom('a', 'b', 'br').map((prefix) => ({ kind: 'glob', prefix }) as const),
  fc.constantFrom('a', 'b').map((prefix) => ({ kind: 'not', prefix }) as const),
);
const handlerArb: fc.Arbitrary<HandlerSpec> = fc.record({
  behaviour: fc.constantFrom<Behaviour>('deny', 'guide', 'confirm', 'transform', 'transform', 'proceed', 'throw'),
  scope: scopeArb,
  mode: fc.constantFrom<'enforce' | 'shadow'>('enforce', 'enforce', 'enforce', 'shadow'),
  onError: fc.constantFrom<'deny' | 'proceed'>('deny', 'proceed'),
});
/** One turn: 1–3 calls, ids drawn from a small pool (so one turn may repeat an id), tools known or not. */
const turnArb: fc.Arbitrary<CallSpec[]> = fc.array(
  fc.record({
    id: fc.constantFrom('call_0', 'call_1', 'call_2'),
    tool: fc.constantFrom('alpha', 'beta', 'bravo', 'ghost'),
    json: fc.constantFrom(true, true, true, false),
    tag: fc.constantFrom('x', 'y', 'z'),
  }),
  { minLength: 1, maxLength: 3 },
);
const scenarioArb = fc.record({
  handlers: fc.array(handlerArb, { minLength: 1, maxLength: 3 }),
  // ids reused across turns: a provider numbering calls call_0 every turn
  turns: fc.array(turnArb, { minLength: 1, maxLength: 2 }),
});

interface Ran {
  readonly tool: string;
  readonly tag: string;
}

async function play(wrapper: 'generateText' | 'streamText' | 'agent', handlers: readonly HandlerSpec[], turns: readonly CallSpec[][]) {
  const ran: Ran[] = [];
  const tools = Object.fromEntries(
    TOOLS.map((name) => [
      name,
      tool({
        inputSchema: z.object({ tag: z.string() }),
        execute: async ({ tag }) => {
          ran.push({ tool: name, tag });
          return `${name} ran with ${tag}`;
        },
      }),
    ]),
  );
  const responses = [
    ...turns.map((calls) =>
      step(
        ...calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.tool,
          input: call.json ? JSON.stringify({ tag: call.tag }) : `{"tag": ${call.tag}`,
        })),
      ),
    ),
    step(text('done')),
  ];
  const model = scriptedModel(...responses);
  const interventions = createInterventions({ handlers: handlers.map(handlerOf), handlerTimeoutMs: 5_000 });
  const options = { model, tools, stopWhen: isStepCount(turns.length + 1), prompt: 'go' };
  if (wrapper === 'generateText') await interventions.generateText(options);
  else if (wrapper === 'streamText') {
    const result = interventions.streamText(options);
    for await (const _ of result.fullStream) {
      // consume
    }
  } else {
    const agent = new ToolLoopAgent(interventions.agentSettings({ model, tools, stopWhen: isStepCount(turns.length + 1) }));
    await agent.generate({ prompt: 'go' });
  }
  return { ran, prompts: model.calls.map((call) => call.prompt) };
}

/** Every tool call in a request the model was sent has exactly one result. */
function expectEveryCallAnswered(prompt: readonly ModelMessage[] | undefined) {
  if (prompt === undefined) return;
  const calls: string[] = [];
  const results: string[] = [];
  for (const message of prompt as ModelMessage[]) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.push(part.toolCallId);
      if (part.type === 'tool-result') results.push(part.toolCallId);
    }
  }
  expect([...results].sort()).toEqual([...calls].sort());
}

describe('guard coverage: a call a handler stops never runs, whatever the provider sends', () => {
  for (const wrapper of ['generateText', 'streamText', 'agent'] as const) {
    it(`through ${wrapper === 'agent' ? 'a ToolLoopAgent' : `interventions.${wrapper}`} (${RUNS} random scenarios)`, async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb, async ({ handlers, turns }) => {
          const { ran, prompts } = await play(wrapper, handlers, turns);
          const sent = turns.flat();
          for (const execution of ran) {
            // it was a call the provider sent, to a tool the handlers let through
            expect(stops(handlers, execution.tool), `${execution.tool} ran though a handler stops it`).toBe(false);
            const suffix = '+t'.repeat(transforms(handlers, execution.tool));
            const sources = sent.filter((call) => call.tool === execution.tool && call.json && `${call.tag}${suffix}` === execution.tag);
            expect(sources.length, `${execution.tool}(${execution.tag}) is no call the provider sent, transformed`).toBeGreaterThan(0);
          }
          // no more executions than valid calls to tools the handlers let through (a call runs once, also
          // when the provider repeats its id in a turn or reuses it across turns)
          const allowed = sent.filter((call) => call.json && call.tool !== 'ghost' && !stops(handlers, call.tool));
          expect(ran.length).toBeLessThanOrEqual(allowed.length);
          for (const prompt of prompts.slice(1)) expectEveryCallAnswered(prompt);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }, 600_000);
  }
});
