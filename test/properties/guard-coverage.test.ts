/**
 * Guard coverage: a call a handler stops never runs, whatever the provider
 * sends. Random handler sets (deny, guide, confirm, transform, proceed, a
 * throw, a hang past its timeout; exact, glob and negated scopes; shadow
 * mode; `onError` deny / proceed / throw) meet random provider turns
 * (parallel calls, one id repeated in a turn, ids reused across turns,
 * unknown tools, a dynamic tool, arguments that are not JSON, calls the app
 * repairs) and a person's answers (approve, refuse, approve an edit; then the
 * same resume again with other answers) through `generateText`,
 * `streamText`, `ToolLoopAgent` and `guardTools` with plain `generateText`
 * and `streamText`. What ran
 * is recorded by the tools themselves and judged against the oracle in
 * `guard-oracle.ts`:
 *
 * - a call whose decision is deny, guide, a failure failing closed, or an
 *   unanswered or refused confirm never executes;
 * - every other call the provider sent runs exactly once, with the
 *   arguments its transforms (or the person's edit) gave it, and a replayed
 *   approval never runs again;
 * - every stopped or asked call has an enforced record saying so;
 * - every tool call in a history the model is sent has exactly one result.
 *
 * `npm test` runs GUARD_RUNS (default 100) scenarios per wrapper;
 * `npm run test:guards` runs 10,000.
 */
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Answer,
  type CallSpec,
  effectiveCall,
  fateOf,
  guides,
  type HandlerSpec,
  mayThrow,
  type Scenario,
  scenarioArb,
  transformSuffix,
} from './guard-oracle.ts';
import { isPlain, type Phase, play, type Ran, WRAPPERS, type Wrapper } from './guard-play.ts';

const RUNS = Number(process.env.GUARD_RUNS ?? 100);
const SEED = process.env.GUARD_SEED === undefined ? 20261126 : Number(process.env.GUARD_SEED);

/** What the turns a phase's model answered should come to: the runs, and how many calls wait for a person. */
function expectedOf(handlers: readonly HandlerSpec[], turns: readonly (readonly CallSpec[])[], repair: boolean, plain: boolean) {
  const runs: string[] = [];
  const stopped: string[] = [];
  let asked = 0;
  let throws = false;
  for (const calls of turns) {
    for (const call of calls) {
      const effective = effectiveCall(call, repair);
      if (effective === undefined) continue;
      throws ||= mayThrow(handlers, effective.tool);
      const fate = fateOf(handlers, effective, plain);
      if (fate === 'runs') runs.push(`${effective.tool}(${effective.tag}${transformSuffix(handlers, effective.tool)})`);
      else if (fate === 'asks') asked += 1;
      else stopped.push(effective.tool);
    }
    if (asked > 0) break; // the loop waits for the person
  }
  return { runs, stopped, asked, throws };
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
 * shown, or their edit), or nothing (a refusal; a guide, which the handlers
 * deciding again on the approved call still give).
 */
function approvedRun(handlers: readonly HandlerSpec[], request: Phase['requests'][number], answer: Answer | undefined): string | undefined {
  if (guides(handlers, request.toolCall.toolName)) return undefined;
  if (answer === 'approve') return `${request.toolCall.toolName}(${(request.toolCall.input as { tag: string }).tag})`;
  if (answer === 'edit') return `${request.toolCall.toolName}(e)`;
  return undefined;
}

async function check(wrapper: Wrapper, scenario: Scenario) {
  const { handlers, turns, repair } = scenario;
  const { ran, phases } = await play(wrapper, scenario);
  // With the plain SDK nothing renames an id a provider repeats in one response, and the SDK keys
  // approvals and results by id: there, what runs is bounded (no call runs that was not allowed or
  // approved, none twice), and an approved call may be refused as one its answer cannot be told apart from.
  const plainRepeats = isPlain(wrapper) && turns.some((calls) => new Set(calls.map((call) => call.id)).size < calls.length);
  const [first, resume, replay] = phases;
  if (first === undefined) throw new Error('no first phase');
  const expected = expectedOf(handlers, turns.slice(0, first.prompts.length), repair, isPlain(wrapper));
  if (first.error !== undefined) {
    // only a handler failing with onError: 'throw' may end the run, and what ran before it was allowed
    expect(expected.throws, `the run failed: ${String(first.error)}`).toBe(true);
    for (const execution of show(ran, 0)) expect(expected.runs).toContain(execution);
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
  for (const prompt of first.prompts.slice(1)) expectEveryCallAnswered(prompt, plainRepeats);
  if (resume === undefined) return;

  // the resume: each approved request runs once, as approved; the provider's later turns as before
  const later = turns.slice(first.prompts.length);
  const next = expectedOf(handlers, later.slice(0, resume.prompts.length), repair, isPlain(wrapper));
  const approved = first.requests.map((request, index) => approvedRun(handlers, request, scenario.answers[index]));
  if (resume.error === undefined || !next.throws) {
    expect(resume.error, `the resume failed: ${String(resume.error)}`).toBeUndefined();
    const allowed = [...approved.filter((run) => run !== undefined), ...next.runs];
    if (plainRepeats) expectWithin(show(ran, 1), allowed);
    else expect(show(ran, 1)).toEqual(allowed.sort());
    for (const prompt of resume.prompts) expectEveryCallAnswered(prompt, plainRepeats);
  }
  if (replay === undefined || resume.error !== undefined) return;

  // the replay: an approval that ran never runs again; one refused may run once, as approved now
  const again = first.requests.map((request, index) =>
    approved[index] === undefined ? approvedRun(handlers, request, scenario.replay?.[index]) : undefined,
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

describe('guard coverage: a call a handler stops never runs, whatever the provider sends', () => {
  for (const wrapper of WRAPPERS) {
    const name =
      wrapper === 'agent'
        ? 'a ToolLoopAgent'
        : wrapper === 'guardTools'
          ? 'guardTools with plain generateText'
          : wrapper === 'guardTools-stream'
            ? 'guardTools with plain streamText'
            : `interventions.${wrapper}`;
    it(`through ${name} (${RUNS} random scenarios)`, async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb, (scenario) => check(wrapper, scenario)),
        { numRuns: RUNS, seed: SEED },
      );
    }, 600_000);
  }
});
