/**
 * Answer admission: random sequences of answers to one confirm request
 * (alice, an employee, asks for `refund { amount: 50 }`), judged against the
 * oracle in `answer-oracle.ts`. The confirm's terms are random (approvers:
 * none, a role, user ids, or anyone but the asker, with or without a role;
 * a quorum of 1 to 3; an expiry or none), asked by a handler returning
 * `InterventionActions.confirm` or by `humanApproval` with `remember`. Each
 * answer is someone's (alice herself, a manager, another employee, someone
 * without a user id): an approval, a refusal with a reason, or an approval
 * with an edit, typed with `approvalAnswer` (remember once, session or
 * always), after time passes or not. Every answer is sent on the history
 * that asked (what a UI sends while the request is pending; once it was
 * answered, the history from before that answer sent again), and a step
 * may send the previous answer's request again as it was (a replay).
 * Through `interventions.generateText` and `streamText`, with an
 * `approvalSecret` and a memory approval ledger:
 *
 * - the refund runs at most once, only when the rules hold (admitted, not
 *   expired, no final refusal before, a quorum of distinct approvers of the
 *   same arguments), with the arguments approved, as alice;
 * - an answer held (someone who may not answer, or short of the quorum)
 *   calls no model and runs nothing;
 * - the runtime's records of each answer say what became of it;
 * - `humanApproval` remembers only from an admitted answer that completed
 *   its quorum: a new refund by alice is asked again otherwise.
 *
 * `npm test` runs ANSWER_RUNS (default 30) scenarios per path; `npm run
 * test:guards` runs more. ANSWER_SEED overrides the fixed seed.
 */
import { isStepCount, type ModelMessage, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { approvalAnswer } from '../../src/client/index.ts';
import { createApprovalLedger, createInterventions, defineHandler, humanApproval, InterventionActions } from '../../src/index.ts';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';
import {
  AnswerOracle,
  ASKED_AMOUNT,
  approversOf,
  effectiveSteps,
  PEOPLE,
  type Scenario,
  type Status,
  scenarioArb,
} from './answer-oracle.ts';

const RUNS = Number(process.env.ANSWER_RUNS ?? 30);
const SEED = process.env.ANSWER_SEED === undefined ? 20261204 : Number(process.env.ANSWER_SEED);
const SECRET = 'a shared approval secret of at least 32 bytes';
/** The runtime's record of each outcome of an answer, by its handler. */
const RECORDED_BY: { readonly [STATUS in Status]: string } = {
  approved: 'approval-approvers',
  refused: 'approval-approvers',
  'not-allowed': 'approval-approvers',
  'awaiting-quorum': 'approval-quorum',
  expired: 'approval-expiry',
};

/** A runtime asking for every refund on the scenario's terms: what the refund ran with, and as whom (its preToolCall hook). */
function runtimeFor(scenario: Scenario) {
  const ran: Array<{ readonly amount: number; readonly as: unknown }> = [];
  const asWhom: unknown[] = [];
  const tools = {
    refund: tool({
      inputSchema: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        ran.push({ amount, as: asWhom.at(-1) });
        return `refunded ${amount}`;
      },
    }),
  };
  const approvers = approversOf(scenario.approvers);
  const terms = {
    ...(approvers === undefined ? {} : { approvers }),
    quorum: scenario.quorum,
    ...(scenario.expiresInMs === undefined ? {} : { expiresInMs: scenario.expiresInMs }),
  };
  const handler =
    scenario.via === 'confirm'
      ? defineHandler({ name: 'refunds', beforeToolCall: () => InterventionActions.confirm('Refund it?', terms) })
      : humanApproval({
          tools: ['refund'],
          ...(approvers === undefined ? {} : { approvers }),
          quorum: scenario.quorum,
          remember: { store: createMemoryStore() },
        });
  const interventions = createInterventions({
    approvalSecret: SECRET,
    approvalLedger: createApprovalLedger(),
    handlers: [handler],
    hooks: { preToolCall: [({ runtimeContext }) => void asWhom.push(runtimeContext.userId)] },
  });
  return { interventions, tools, ran };
}

/** Plays a scenario's answers through `mode`, each judged by the oracle as it goes; then a new refund by alice. */
async function check(mode: Mode, scenario: Scenario) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.UTC(2026, 11, 4, 9));
  try {
    const { interventions, tools, ran } = runtimeFor(scenario);
    const oracle = new AnswerOracle(scenario);
    const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
    const first = await run(interventions, mode, {
      model: scriptedModel(step(toolCall('r1', 'refund', { amount: ASKED_AMOUNT }))),
      tools,
      stopWhen: isStepCount(3),
      messages: prompt,
      runtimeContext: PEOPLE.alice,
    });
    const [request] = approvalRequests(first.content);
    if (request === undefined) throw new Error('no approval request');
    const history = [...prompt, ...first.responseMessages];

    for (const [index, answer] of effectiveSteps(scenario.steps).entries()) {
      vi.setSystemTime(Date.now() + oracle.wait(answer));
      const expected = oracle.answer(answer);
      const { reply, who, remember } = answer;
      const typed = approvalAnswer({
        id: request.approvalId,
        approved: reply.type !== 'refuse',
        remember,
        ...(reply.type === 'refuse' ? { reason: 'not this one' } : {}),
        ...(reply.type === 'edit' ? { input: { amount: reply.amount } } : {}),
      });
      const model = scriptedModel(step(text('done')));
      const before = ran.length;
      const outcome = await run(interventions, mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: [...history, { role: 'tool', content: [{ type: 'tool-approval-response', ...typed, approvalId: typed.id }] }],
        runtimeContext: PEOPLE[who],
      });
      const at = `answer ${index} (${who} ${reply.type}${reply.type === 'edit' ? ` ${reply.amount}` : ''}): expected ${JSON.stringify(expected)}`;
      const now = ran.slice(before);
      if (expected.kind === 'replay') {
        expect(now, `${at}: ran again`).toEqual([]);
        continue;
      }
      const records = outcome.decisions
        .filter((record) => record.handler.startsWith('approval-') && record.approval?.status !== undefined)
        .map((record) => `${record.handler}: ${record.approval?.status}`);
      expect(records, `${at}: the records`).toEqual(
        expected.status === undefined ? [] : [`${RECORDED_BY[expected.status]}: ${expected.status}`],
      );
      if (expected.kind === 'held') {
        expect(now, `${at}: ran`).toEqual([]);
        expect(model.calls.length, `${at}: the model was called`).toBe(0);
        continue;
      }
      expect(now, `${at}: what ran`).toEqual(expected.runs === undefined ? [] : [{ amount: expected.runs, as: 'alice' }]);
      expect(model.calls.length, `${at}: the model was not called`).toBeGreaterThan(0);
    }
    expect(ran.length, 'the refund ran more than once').toBeLessThanOrEqual(1);

    // a new refund by alice: asked again, unless an admitted answer that completed its quorum remembered something
    const before = ran.length;
    const next = await run(interventions, mode, {
      model: scriptedModel(step(toolCall('r2', 'refund', { amount: 7000 })), step(text('done'))),
      tools,
      stopWhen: isStepCount(3),
      messages: [{ role: 'user', content: 'refund 7000' }],
      runtimeContext: PEOPLE.alice,
    });
    const asked = approvalRequests(next.content).length > 0;
    const came = asked ? 'asks' : ran.length > before ? 'runs' : 'denied';
    expect(came, 'a new refund by alice').toBe(oracle.next());
  } finally {
    vi.useRealTimers();
  }
}

describe('answer admission: an answer to a confirm is admitted in one order, and the call runs only when its rules hold', () => {
  for (const mode of MODES) {
    it(`through interventions.${mode} (${RUNS} random sequences of answers)`, async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb, (scenario) => check(mode, scenario)),
        { numRuns: RUNS, seed: SEED },
      );
    }, 600_000);
  }
});
