/**
 * The answer-admission property's scenarios and its oracle: what each answer
 * to one confirm request should come to, worked out from the rules
 * (`docs/human-approval.md`, "The order every answer is admitted in") and
 * the scenario alone, never from the library's own matcher or ledger.
 */
import fc from 'fast-check';

/** The people of the company: an employee who asks, three managers, another employee, someone without a user id. */
export const PEOPLE = {
  alice: { userId: 'alice', role: 'employee', sessionId: 'chat-1' },
  bob: { userId: 'bob', role: 'manager' },
  carol: { userId: 'carol', roles: ['manager', 'auditor'] },
  dave: { userId: 'dave', role: 'manager' },
  erin: { userId: 'erin', role: 'employee', sessionId: 'chat-1' },
  anon: { role: 'manager' },
} as const satisfies Record<string, Readonly<Record<string, unknown>>>;
export type Person = keyof typeof PEOPLE;
const PERSONS = Object.keys(PEOPLE) as Person[];

/** The asked call: `refund { amount: 50 }`, by alice. */
export const ASKED_AMOUNT = 50;
export const EXPIRES_IN_MS = 60_000;

export type ApproversSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'roles' }
  | { readonly kind: 'userIds'; readonly ids: readonly string[] }
  | { readonly kind: 'excludeAsker'; readonly roles: boolean };

export type Remember = 'once' | 'session' | 'always';
export type Reply = { readonly type: 'approve' } | { readonly type: 'refuse' } | { readonly type: 'edit'; readonly amount: number };

/** One answer: who sends it, what it says, and what happens before it (time passes; or the previous answer is sent again). */
export interface Step {
  readonly who: Person;
  readonly reply: Reply;
  readonly remember: Remember;
  /** Time passing before the answer: a third of the expiry, or past it. */
  readonly wait: 'none' | 'within' | 'past';
  /** The previous answer's request sent again as it was (same person, same answer): `who`, `reply` and `remember` are ignored. */
  readonly replay: boolean;
}

export interface Scenario {
  /** A handler returning `InterventionActions.confirm`, or the built-in `humanApproval` (with `remember`, without an expiry). */
  readonly via: 'confirm' | 'humanApproval';
  readonly approvers: ApproversSpec;
  readonly quorum: number;
  readonly expiresInMs: number | undefined;
  readonly steps: readonly Step[];
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  // managers answer more often, so quorums complete
  who: fc.constantFrom<Person>(...PERSONS, 'bob', 'carol', 'dave'),
  reply: fc.oneof(
    { weight: 4, arbitrary: fc.constant({ type: 'approve' } as const) },
    { weight: 1, arbitrary: fc.constant({ type: 'refuse' } as const) },
    { weight: 2, arbitrary: fc.constantFrom(50, 70, 5000).map((amount) => ({ type: 'edit', amount }) as const) },
  ),
  remember: fc.constantFrom<Remember>('once', 'session', 'always'),
  wait: fc.constantFrom('none', 'none', 'none', 'within', 'past'),
  replay: fc.constantFrom(false, false, false, false, true),
});

export const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    via: fc.constantFrom('confirm', 'confirm', 'humanApproval'),
    approvers: fc.oneof(
      fc.constant({ kind: 'none' } as const),
      fc.constant({ kind: 'roles' } as const),
      fc.subarray(['alice', 'bob', 'carol', 'erin'], { minLength: 1 }).map((ids) => ({ kind: 'userIds', ids }) as const),
      fc.boolean().map((roles) => ({ kind: 'excludeAsker', roles }) as const),
    ),
    quorum: fc.constantFrom(1, 1, 2, 2, 3),
    expiresInMs: fc.constantFrom(undefined, EXPIRES_IN_MS),
    steps: fc.array(stepArb, { minLength: 1, maxLength: 7 }),
  })
  .map((scenario) => ({ ...scenario, expiresInMs: scenario.via === 'humanApproval' ? undefined : scenario.expiresInMs }));

/** The `approvers` option a scenario gives (`confirm` and `humanApproval` alike). */
export function approversOf(spec: ApproversSpec) {
  switch (spec.kind) {
    case 'none':
      return undefined;
    case 'roles':
      return { roles: ['manager'] };
    case 'userIds':
      return { userIds: spec.ids };
    default:
      return spec.roles ? { roles: ['manager'], excludeAsker: true } : { excludeAsker: true };
  }
}

/** Each step with a replay resolved to the answer it sends again. */
export function effectiveSteps(steps: readonly Step[]): Step[] {
  const resolved: Step[] = [];
  for (const step of steps) {
    const previous = resolved.at(-1);
    resolved.push(step.replay && previous !== undefined ? { ...previous, wait: step.wait, replay: true } : step);
  }
  return resolved;
}

export type Status = 'approved' | 'awaiting-quorum' | 'refused' | 'expired' | 'not-allowed';

/**
 * What one answer should come to:
 * - `held`: nothing runs, no model is called, the request stays pending (a record with `status`);
 * - `answered`: the model is called; `runs` the amount the refund runs with (or nothing), `status` the
 *   runtime's record of the answer (none for a refusal of a confirm that binds nobody);
 * - `replay`: the call ran before: nothing runs again (the answer is answered from the ledger).
 */
export type Expected =
  | { readonly kind: 'held'; readonly status: 'not-allowed' | 'awaiting-quorum' }
  | { readonly kind: 'answered'; readonly status: Status | undefined; readonly runs?: number }
  | { readonly kind: 'replay' };

/** What a new refund by alice, asked after the sequence, should come to (`humanApproval` remembers). */
export type Next = 'asks' | 'runs' | 'denied';

const rolesOf = (person: Person): readonly string[] => {
  const context: { role?: string; roles?: readonly string[] } = PEOPLE[person];
  return [...(context.roles ?? []), ...(context.role === undefined ? [] : [context.role])];
};
const idOf = (person: Person): string | undefined => (PEOPLE[person] as { userId?: string }).userId;

/** The rules, as one request's state: every answer is judged in the documented order. */
export class AnswerOracle {
  private elapsed = 0;
  private ran = false;
  private refusedFinally = false;
  private readonly votes = new Map<string, Set<string>>();
  /** `humanApproval`'s pending request (what an answer can remember through) is there until an admitted answer is decided. */
  private pending = true;
  private memory: { readonly approved: boolean } | undefined;

  private readonly scenario: Scenario;

  constructor(scenario: Scenario) {
    this.scenario = scenario;
  }

  /** Whether the confirm binds its answer to people: approvers, or a quorum (a refusal by one of them is final). */
  get bindsPeople(): boolean {
    return this.scenario.approvers.kind !== 'none' || this.scenario.quorum > 1;
  }

  /** Whether the confirm's approvers admit `person` (someone without a user id only by a role, or where there are none). */
  admits(person: Person): boolean {
    const { approvers } = this.scenario;
    const id = idOf(person);
    const manager = rolesOf(person).includes('manager');
    return (
      approvers.kind === 'none' ||
      (approvers.kind === 'roles' && manager) ||
      (approvers.kind === 'userIds' && id !== undefined && approvers.ids.includes(id)) ||
      (approvers.kind === 'excludeAsker' && id !== undefined && id !== 'alice' && (!approvers.roles || manager))
    );
  }

  /** The time that passes before an answer, in ms (for the clock), counted against the expiry. */
  wait(step: Step): number {
    const { expiresInMs = EXPIRES_IN_MS } = this.scenario;
    const passes = step.wait === 'none' ? 0 : step.wait === 'past' ? expiresInMs + 1 : Math.floor(expiresInMs / 3);
    this.elapsed += passes;
    return passes;
  }

  get expired(): boolean {
    return this.scenario.expiresInMs !== undefined && this.elapsed >= this.scenario.expiresInMs;
  }

  /** Judges one answer (after its wait), and moves the request's state on. */
  answer(step: Step): Expected {
    if (this.ran) return { kind: 'replay' };
    const { reply, who } = step;
    if (reply.type === 'refuse') return this.refusal(step);
    if (this.expired) return { kind: 'answered', status: 'expired' };
    if (!this.mayAnswer(who)) return { kind: 'held', status: 'not-allowed' };
    if (this.refusedFinally) return { kind: 'answered', status: 'refused' };
    const amount = reply.type === 'edit' ? reply.amount : ASKED_AMOUNT;
    if (this.scenario.quorum > 1) {
      // the votes count for the arguments that will run: an edit starts a count of its own
      const key = reply.type === 'edit' ? `edit:${reply.amount}` : 'asked';
      const voters = this.votes.get(key) ?? new Set<string>();
      voters.add(idOf(who) ?? '');
      this.votes.set(key, voters);
      if (voters.size < this.scenario.quorum) return { kind: 'held', status: 'awaiting-quorum' };
    }
    // admitted and complete: only now does the handler decide again (as alice), remember, and the call run
    if (this.scenario.via === 'humanApproval') {
      if (this.pending) this.remember(step, true);
      else if (this.memory?.approved === false) return { kind: 'answered', status: 'approved' };
    }
    this.ran = true;
    return { kind: 'answered', status: 'approved', runs: amount };
  }

  private refusal(step: Step): Expected {
    // a refusal of a confirm that binds nobody stands as it is (nothing recorded, the request may be answered again)
    if (!this.bindsPeople) {
      this.rememberRefusal(step);
      return { kind: 'answered', status: undefined };
    }
    // too late: the request is over, recorded as expired (the refusal stands)
    if (this.expired) return { kind: 'answered', status: 'expired' };
    // the person who asked may always withdraw it: final, as an approver's refusal
    if (step.who !== 'alice' && !this.mayAnswer(step.who)) return { kind: 'held', status: 'not-allowed' };
    this.refusedFinally = true;
    this.rememberRefusal(step);
    return { kind: 'answered', status: 'refused' };
  }

  /** `humanApproval` remembers an admitted refusal for the person who asked (alice), whoever refused, as an approval. */
  private rememberRefusal(step: Step): void {
    if (this.scenario.via === 'humanApproval' && this.pending) this.remember(step, false);
  }

  /** Whether someone may answer at all: the approvers admit them, and under a quorum they are known (counted by user id). */
  private mayAnswer(who: Step['who']): boolean {
    return this.admits(who) && (this.scenario.quorum <= 1 || idOf(who) !== undefined);
  }

  /** `humanApproval` takes its pending request with the first admitted answer it decides on, and remembers what it asks. */
  private remember(step: Step, approved: boolean): void {
    this.pending = false;
    // alice is known and has a session: 'always' and 'session' both cover her next refund in this chat
    if (step.remember !== 'once') this.memory = { approved };
  }

  /** A new refund by alice after the sequence: asked again, unless an admitted, complete answer remembered something. */
  next(): Next {
    if (this.scenario.via !== 'humanApproval' || this.memory === undefined) return 'asks';
    return this.memory.approved ? 'runs' : 'denied';
  }
}
