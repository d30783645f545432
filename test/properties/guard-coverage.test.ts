/**
 * Guard coverage: a registered guard either acts or its registration was
 * refused, on every entry path, whatever the provider sends. Random
 * deciders (handlers: deny, guide, confirm, transform, proceed, a throw, a
 * hang past its timeout, with exact, glob, negated and annotation scopes,
 * shadow mode, `onError` deny / proceed / throw; `gateToolCalls` hooks; a
 * `preToolCall` hook answering some calls itself), random other guards of
 * every kind of the capability table (each records when it is called),
 * tools with MCP annotations the app trusts or not, meet random provider
 * turns (parallel calls, one id repeated in a turn, ids reused across
 * turns, unknown tools, a dynamic tool, a tool that throws, arguments that
 * are not JSON, calls the app repairs) and a person's answers (approve,
 * refuse, approve an edit; then the same resume again with other answers),
 * through `generateText`, `streamText`, `ToolLoopAgent`, an agent's UI
 * stream (answered as `useChat` answers), `guardTools` with plain
 * `generateText`, `wrapTools` with plain `streamText` (the model wrapped
 * with the middleware or not), and `interventions.middleware` with plain
 * `streamText` (the tools wrapped or not). What ran is recorded by the
 * tools themselves and judged against the oracle in `guard-oracle.ts`:
 *
 * - a registration or a path is refused only where `CAPABILITIES` says the
 *   path cannot enforce that kind of guard (then nothing runs), and a guard
 *   the path cannot enforce is never left registered without a refusal;
 * - every other registered guard is called when its event happens;
 * - a call whose decision is deny, guide, a failure failing closed, or an
 *   unanswered or refused confirm never executes, nor one the `preToolCall`
 *   hook answers;
 * - every other call the provider sent runs exactly once, with the
 *   arguments its transforms (or the person's edit) gave it, and a replayed
 *   approval never runs again;
 * - every stopped or asked call has an enforced record saying so;
 * - every tool call in a history the model is sent has exactly one result.
 *
 * `npm test` runs GUARD_RUNS (default 100) scenarios per path;
 * `npm run test:guards` runs 10,000.
 */
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES, type EntryPath, type GuardKind, GuardNotEnforcedError, InterventionsWarning } from '../../src/index.ts';
import { processWarnings } from '../helpers/process-warnings.ts';
import {
  type Answer,
  type CallSpec,
  effectiveCall,
  inScope,
  Judge,
  mustAct,
  type PhaseEvents,
  type Scenario,
  scenarioArb,
  TOOLS,
} from './guard-oracle.ts';
import { isPlain, layersOf, PATH_OF, type Phase, play, type Ran, WRAPPERS, type Wrapper } from './guard-play.ts';

// a random handler's scope may match no tool of its run: the runtime warns, and says nothing else (see expectScopeWarnings)
const { warnings } = processWarnings();

const RUNS = Number(process.env.GUARD_RUNS ?? 100);
const SEED = process.env.GUARD_SEED === undefined ? 20261126 : Number(process.env.GUARD_SEED);

/** What the turns a phase's model answered should come to: the runs, how many calls wait for a person, how many a hook answers. */
function expectedOf(judge: Judge, turns: readonly (readonly CallSpec[])[], repair: boolean, plain: boolean) {
  const runs: string[] = [];
  const stopped: string[] = [];
  let asked = 0;
  let blocked = 0;
  let throws = false;
  for (const calls of turns) {
    for (const call of calls) {
      const effective = effectiveCall(call, repair);
      if (effective === undefined) continue;
      throws ||= judge.mayThrow(effective.tool);
      const fate = judge.fateOf(effective, plain);
      if (fate === 'runs') runs.push(`${effective.tool}(${effective.tag}${judge.transformSuffix(effective.tool)})`);
      else if (fate === 'asks') asked += 1;
      else if (fate === 'blocked') blocked += 1;
      else stopped.push(effective.tool);
    }
    if (asked > 0) break; // the loop waits for the person
  }
  return { runs, stopped, asked, blocked, throws };
}
const show = (runs: readonly Ran[], phase: number) =>
  runs
    .filter((execution) => execution.phase === phase)
    .map((execution) => `${execution.tool}(${execution.tag})`)
    .sort();

/**
 * Every tool call in a request the model was sent has exactly one result.
 * `byId`: compare the ids only (the plain SDK's own history, when a provider
 * repeated an id in one response, keeps both calls and one result).
 */
function expectEveryCallAnswered(prompt: readonly ModelMessage[], byId = false) {
  const calls: string[] = [];
  const results: string[] = [];
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.push(part.toolCallId);
      if (part.type === 'tool-result') results.push(part.toolCallId);
    }
  }
  if (byId) expect(new Set(results)).toEqual(new Set(calls));
  else expect([...results].sort()).toEqual([...calls].sort());
}

/** Every stopped call has an enforced deny or guide record for its tool; every asked call an enforced confirm. */
function expectRecords(phase: Phase, stopped: readonly string[], asked: number) {
  for (const name of new Set(stopped)) {
    const records = phase.decisions.filter(
      (record) => record.enforced && record.toolName === name && (record.action === 'deny' || record.action === 'guide'),
    );
    expect(records.length, `${name} was stopped without an enforced record`).toBeGreaterThanOrEqual(
      stopped.filter((tool) => tool === name).length,
    );
  }
  const confirms = phase.decisions.filter((record) => record.enforced && record.action === 'confirm');
  expect(confirms.length).toBeGreaterThanOrEqual(asked);
}

/** Each execution is one of `allowed`, and none ran more often than it was allowed. */
function expectWithin(executions: readonly string[], allowed: readonly string[]) {
  const left = [...allowed];
  for (const execution of executions) {
    const at = left.indexOf(execution);
    expect(at, `${execution} ran, though it was not allowed (or not that often): ${JSON.stringify(allowed)}`).toBeGreaterThanOrEqual(0);
    left.splice(at, 1);
  }
}

/**
 * The run of an answered request: what the person approved (the arguments
 * shown, or their edit), or nothing (a refusal; the `preToolCall` hook
 * answering the call itself: `blocked`). A guide the confirm outranked does
 * not stop an approved call: the person saw its feedback.
 */
function approvedRun(
  judge: Judge,
  request: Phase['requests'][number],
  answer: Answer | undefined,
): { readonly run?: string; readonly blocked?: true } {
  const { toolName } = request.toolCall;
  // a person's approval counts: a guide the confirm outranked does not block the call on resume (a deny does)
  if (answer !== 'approve' && answer !== 'edit') return {};
  if (judge.blocks(toolName)) return { blocked: true };
  return { run: `${toolName}(${answer === 'edit' ? 'e' : (request.toolCall.input as { tag: string }).tag})` };
}

/**
 * The warnings a scenario's runs gave: each says that a handler's `tools` scope matches no tool of
 * the run, and only where the oracle's own matcher agrees (a warning is given once per process and
 * scope, so a later scenario with the same scope gets none).
 */
function expectScopeWarnings(scenario: Scenario, given: readonly Error[]) {
  for (const warning of given) {
    if (!InterventionsWarning.isInstance(warning)) throw new Error(`not a library warning: ${String(warning)}`);
    expect(warning.code, warning.message).toBe('scope-matches-no-tool');
    const handler = scenario.handlers[Number(/^h(\d+)-/.exec(warning.handlerName ?? '')?.[1])];
    if (handler === undefined) throw new Error(`a warning about "${warning.handlerName}", which the scenario does not have`);
    expect(TOOLS.filter((tool) => inScope(handler.scope, tool, scenario.annotations))).toEqual([]);
  }
}

/** Whether `path` may refuse a guard of `kind`: the table says it cannot enforce it, with the layers the call has. */
function refusable(path: EntryPath, kind: GuardKind, layers: { readonly model: boolean; readonly tools: boolean }): boolean {
  const capability = CAPABILITIES[path][kind];
  switch (capability.type) {
    case 'refused':
      return true;
    case 'with-middleware':
      return !layers.model;
    case 'with-wrapped-tools':
      return !layers.tools;
    default:
      return false;
  }
}

/** The kinds of guard a scenario registers on a path: its deciders, the hooks it always has, its probes. */
function kindsOf(scenario: Scenario, registered: readonly GuardKind[]): readonly GuardKind[] {
  return ['beforeToolCall', 'preToolCall', 'onDecision', ...(scenario.gates.length > 0 ? (['gateToolCalls'] as const) : []), ...registered];
}

/** What a phase's probes' events were. */
function eventsOf(phase: Phase, index: number, ran: readonly Ran[], blocked: number): PhaseEvents {
  return {
    first: index === 0,
    ran: ran.filter((execution) => execution.phase === index).map((execution) => execution.tool),
    blocked,
    asked: phase.requests.length,
    modelCalls: phase.prompts.length,
    scripted: phase.scripted,
    failed: phase.error !== undefined,
  };
}

async function check(wrapper: Wrapper, scenario: Scenario) {
  const { turns, repair } = scenario;
  const judge = new Judge(scenario);
  const path = PATH_OF[wrapper];
  const layers = layersOf(wrapper, scenario);
  const plain = isPlain(wrapper);
  // tools wrapped for a plain call see the model layer only when the middleware was read first
  const layersAt = (at: EntryPath) => (at === 'plain-tools' ? { model: layers.model, tools: true } : layers);
  const warned = warnings.length;
  const { ran, phases, registered, refused } = await play(wrapper, scenario);
  expectScopeWarnings(scenario, warnings.slice(warned));
  // a refusal names a guard the path cannot enforce, and what to use instead
  const expectRefusal = (error: unknown) => {
    expect(GuardNotEnforcedError.isInstance(error), `not a refusal: ${String(error)}`).toBe(true);
    // the path the refusal names (a middleware call's tools are wrapped first: that path may refuse too)
    const { kind, instead, path: at } = error as GuardNotEnforcedError;
    const refusedAt = at as EntryPath;
    expect([path, 'plain-tools', 'agent'], `refused on ${at}`).toContain(refusedAt);
    expect(refusable(refusedAt, kind as GuardKind, layersAt(refusedAt)), `${at} refused ${kind}, which it enforces`).toBe(true);
    expect(instead.length).toBeGreaterThan(0);
  };
  for (const { error } of refused) expectRefusal(error);
  const [first, resume, replay] = phases;
  if (first === undefined) throw new Error('no first phase');
  if (GuardNotEnforcedError.isInstance(first.error)) {
    expectRefusal(first.error);
    expect(show(ran, 0)).toEqual([]);
    return;
  }
  // not refused: every guard registered is one the path enforces
  for (const kind of kindsOf(scenario, registered)) {
    expect(refusable(path, kind, layers), `${kind} was registered on ${path} without a refusal, which cannot enforce it`).toBe(false);
  }

  // With the plain SDK nothing renames an id a provider repeats in one response, and the SDK keys
  // approvals and results by id: there, what runs is bounded (no call runs that was not allowed or
  // approved, none twice), and an approved call may be refused as one its answer cannot be told apart from.
  // So too where a streamed step's calls are not held (every beforeToolCall handler declares toolCallActions
  // without transform, no gate, no trusted annotations): a second call with a repeated id is denied (fail closed).
  const unheld =
    (wrapper === 'streamText' || wrapper === 'agent-ui-stream') &&
    scenario.gates.length === 0 &&
    scenario.handlers.every((handler) => handler.declares && handler.behaviour !== 'transform') &&
    !registered.includes('beforeToolCall') &&
    !Object.values(scenario.annotations).some((annotation) => annotation.trusted);
  const plainRepeats = (plain || unheld) && turns.some((calls) => new Set(calls.map((call) => call.id)).size < calls.length);
  /** Every registered probe whose event happened in the phase was called. */
  const expectProbesActed = (phase: Phase, index: number, blocked: number) => {
    if (plainRepeats) return;
    const events = eventsOf(phase, index, ran, blocked);
    for (const kind of registered) {
      if (CAPABILITIES[path][kind].type === 'no-event') continue;
      if (!mustAct(kind, events, { modelLayer: layers.model, runLayer: !plain })) continue;
      expect(phase.acted.has(kind), `the registered ${kind} was not called in phase ${index} through ${wrapper}`).toBe(true);
    }
  };
  const expected = expectedOf(judge, turns.slice(0, first.prompts.length), repair, plain);
  if (first.error !== undefined) {
    // only a handler failing with onError: 'throw' may end the run, and what ran before it was allowed
    expect(expected.throws, `the run failed: ${String(first.error)}`).toBe(true);
    for (const execution of show(ran, 0)) expect(expected.runs).toContain(execution);
    expectProbesActed(first, 0, 0);
    return;
  }
  if (plainRepeats) {
    expectWithin(show(ran, 0), expected.runs);
    expect(first.requests.length).toBeLessThanOrEqual(expected.asked);
  } else {
    expect(show(ran, 0)).toEqual([...expected.runs].sort());
    expect(first.requests.length).toBe(expected.asked);
    expectRecords(first, expected.stopped, expected.asked);
  }
  expectProbesActed(first, 0, expected.blocked);
  for (const prompt of first.prompts.slice(1)) expectEveryCallAnswered(prompt, plainRepeats);
  if (resume === undefined) return;

  // the resume: each approved request runs once, as approved; the provider's later turns as before
  const later = turns.slice(first.prompts.length);
  const next = expectedOf(judge, later.slice(0, resume.prompts.length), repair, plain);
  const approved = first.requests.map((request, index) => approvedRun(judge, request, scenario.answers[index]));
  if (resume.error === undefined || !next.throws) {
    expect(resume.error, `the resume failed: ${String(resume.error)}`).toBeUndefined();
    const allowed = [...approved.flatMap((outcome) => (outcome.run === undefined ? [] : [outcome.run])), ...next.runs];
    if (plainRepeats) expectWithin(show(ran, 1), allowed);
    else expect(show(ran, 1)).toEqual(allowed.sort());
    expectProbesActed(resume, 1, next.blocked + approved.filter((outcome) => outcome.blocked).length);
    for (const prompt of resume.prompts) expectEveryCallAnswered(prompt, plainRepeats);
  }
  if (replay === undefined || resume.error !== undefined) return;

  // the replay: an approval that ran never runs again; one refused may run once, as approved now
  const again = first.requests.map((request, index) =>
    approved[index]?.run === undefined && approved[index]?.blocked === undefined
      ? approvedRun(judge, request, scenario.replay?.[index]).run
      : undefined,
  );
  if (replay.error === undefined || !next.throws) {
    expect(replay.error, `the replay failed: ${String(replay.error)}`).toBeUndefined();
    const replayed = show(ran, 2);
    for (const execution of replayed) {
      expect([...again, ...next.runs], `${execution} ran again on a replay`).toContain(execution);
    }
    for (const prompt of replay.prompts) expectEveryCallAnswered(prompt, plainRepeats);
  }
}

const NAMES: { readonly [WRAPPER in Wrapper]: string } = {
  generateText: 'interventions.generateText',
  streamText: 'interventions.streamText',
  agent: 'a ToolLoopAgent',
  'agent-ui-stream': "an agent's UI stream (interventions.createAgentUIStream)",
  guardTools: 'guardTools with plain generateText',
  'guardTools-stream': 'interventions.wrapTools with plain streamText (the model wrapped with the middleware or not)',
  middleware: 'interventions.middleware with plain streamText (the tools wrapped or not)',
};

describe('guard coverage: a registered guard acts or was refused, and a call it stops never runs, whatever the provider sends', () => {
  for (const wrapper of WRAPPERS) {
    it(`through ${NAMES[wrapper]} (${RUNS} random scenarios)`, async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb, (scenario) => check(wrapper, scenario)),
        { numRuns: RUNS, seed: SEED },
      );
    }, 600_000);
  }
});
