/**
 * A confirm's options, checked at run time for JavaScript callers (and
 * casts): a misspelt key of `InterventionActions.confirm`, `humanApproval`
 * or `flowPolicy`'s `approval` would otherwise be ignored, and what it was
 * meant to require (who may answer, how many, how long) silently not asked.
 */
import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ConfirmOptions,
  createInterventions,
  defineHandler,
  flowPolicy,
  humanApproval,
  InterventionActions,
  InvalidActionError,
  InvalidOptionError,
  UnknownOptionError,
} from '../../src/index.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

/** A refund of 7000 asked by an employee, behind a handler that confirms it with `options`. */
async function refundConfirmedWith(options: unknown, { onError }: { readonly onError?: 'deny' | 'proceed' } = {}) {
  const refunds: unknown[] = [];
  const refund = tool({ inputSchema: z.object({ amount: z.number() }), execute: async (input) => (refunds.push(input), 'refunded') });
  const interventions = createInterventions({
    handlers: [
      defineHandler({
        name: 'refunds',
        ...(onError === undefined ? {} : { onError }),
        // what a JavaScript caller writes: the types would refuse it
        beforeToolCall: () => InterventionActions.confirm('Refund 7000?', options as ConfirmOptions),
      }),
    ],
  });
  const model = scriptedModel(step(toolCall('c1', 'refund', { amount: 7000 })), step(text('done')));
  const run = interventions.generateText({
    model,
    tools: { refund },
    stopWhen: isStepCount(3),
    prompt: 'refund order 42',
    runtimeContext: { userId: 'employee-1', roles: ['employee'] },
  });
  return { run, refunds, model };
}

/** What `make` throws (`undefined` when it does not). */
function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('InterventionActions.confirm options', () => {
  describe('issue 36 finding 8: a misspelt confirm option is not silently ignored', () => {
    it.each([
      [
        'approver for approvers',
        { approver: { roles: ['manager'] } },
        '"approver" (did you mean approvers?)',
        'display, approvers, quorum, expiresInMs',
      ],
      [
        'role for approvers.roles',
        { approvers: { role: 'manager' } },
        '"approvers.role" (did you mean approvers.roles?)',
        'userIds, roles, allow, excludeAsker, label',
      ],
      [
        'expiresIn for expiresInMs',
        { expiresIn: 60_000 },
        '"expiresIn" (did you mean expiresInMs?)',
        'display, approvers, quorum, expiresInMs',
      ],
    ])('%s: an invalid action of the handler that returned it, and nothing runs or is asked', async (_label, options, named, allowed) => {
      const { run, refunds, model } = await refundConfirmedWith(options);
      const error = await rejectionOf(run);
      expect(InvalidActionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'invalid-action', handlerName: 'refunds', lifecycle: 'beforeToolCall' });
      const { message } = error as InvalidActionError;
      expect(message).toContain(`Intervention handler "refunds" returned confirm from beforeToolCall with an unknown option ${named}`);
      expect(message).toContain(allowed);
      expect(refunds).toEqual([]);
      // no approval request reached anyone: the model was asked once, and nothing more happened
      expect(model.calls).toHaveLength(1);
    });

    it('should deny the call when the handler fails closed (onError: deny), with the error on its record', async () => {
      const { run, refunds, model } = await refundConfirmedWith({ approver: { roles: ['manager'] } }, { onError: 'deny' });
      const result = await run;
      expect(refunds).toEqual([]);
      // nobody is asked: the deny is the SDK's automatic refusal
      const requests = result.steps.flatMap((each) => each.content).filter((part) => part.type === 'tool-approval-request');
      expect(requests.map((part) => part.isAutomatic)).toEqual([true]);
      expect(result.interventions.decisions[0]).toMatchObject({ handler: 'refunds', action: 'deny' });
      expect(InvalidActionError.isInstance(result.interventions.decisions[0]?.error)).toBe(true);
      expect(JSON.stringify(model.calls[1]?.prompt)).toContain('was blocked');
    });

    it.each([
      ['a misspelt option', { approver: { roles: ['manager'] } }],
      ['a value it cannot use', { quorum: 0 }],
    ])("should deny the call, never run it unasked, when the handler's onError is 'proceed' (%s)", async (_label, options) => {
      const { run, refunds } = await refundConfirmedWith(options, { onError: 'proceed' });
      const result = await run;
      expect(refunds).toEqual([]);
      expect(result.interventions.decisions[0]).toMatchObject({ handler: 'refunds', action: 'deny', enforced: true });
      expect(result.interventions.decisions[0]?.reason).toContain('cannot be carried out');
    });

    it('should refuse a value a confirm cannot use, saying what it must be', async () => {
      const { run } = await refundConfirmedWith({ approvers: { roles: 'manager' }, quorum: 2 });
      expect((await rejectionOf(run)) as Error).toMatchObject({
        message: expect.stringContaining('approvers.roles must be a list of roles (strings), received "manager"'),
      });
    });
  });

  describe('issue 36 finding 8: humanApproval and flowPolicy approval options, checked when they are created', () => {
    it.each([
      [
        'humanApproval approvers',
        () => humanApproval({ tools: ['refund'], approvers: { role: 'manager' } } as never),
        'humanApproval "human-approval" approvers',
        'role',
        'roles',
      ],
      [
        'humanApproval',
        () => humanApproval({ tools: ['refund'], expiresIn: 60_000 } as never),
        'humanApproval "human-approval"',
        'expiresIn',
        'expiresInMs',
      ],
      [
        'flowPolicy approval',
        () => flowPolicy({ onTainted: 'confirm', approval: { approver: { roles: ['security'] } } } as never),
        'flowPolicy "flow-policy" approval',
        'approver',
        'approvers',
      ],
      [
        'flowPolicy approval.approvers',
        () => flowPolicy({ onTainted: 'confirm', approval: { approvers: { userId: ['u1'] } } } as never),
        'flowPolicy "flow-policy" approval.approvers',
        'userId',
        'userIds',
      ],
      [
        'flowPolicy approval expiry',
        () => flowPolicy({ onTainted: 'confirm', approval: { expiresIn: 60_000 } } as never),
        'flowPolicy "flow-policy" approval',
        'expiresIn',
        'expiresInMs',
      ],
    ])('%s: an UnknownOptionError naming the key, the closest one and every known one', (_label, make, owner, option, suggestion) => {
      const error = thrownBy(make);
      expect(UnknownOptionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'unknown-option', owner, option, suggestion });
      expect((error as UnknownOptionError).message).toContain(`(did you mean ${suggestion}?)`);
      expect((error as UnknownOptionError).message).toContain(`Its options are ${(error as UnknownOptionError).known.join(', ')}.`);
    });

    it.each([
      ['a quorum of 0', () => humanApproval({ tools: ['refund'], quorum: 0 }), 'quorum', /quorum must be a whole number of at least 1/],
      [
        'roles as a string',
        () => humanApproval({ tools: ['refund'], approvers: { roles: 'manager' as never } }),
        'approvers.roles',
        /approvers\.roles must be a list of roles/,
      ],
      [
        'a negative expiry',
        () => humanApproval({ tools: ['refund'], expiresInMs: -1 }),
        'expiresInMs',
        /expiresInMs must be a positive number of milliseconds, received -1/,
      ],
      [
        'an approval expiry of 0',
        () => flowPolicy({ onTainted: 'confirm', approval: { expiresInMs: 0 } }),
        'approval.expiresInMs',
        /approval\.expiresInMs must be a positive number/,
      ],
    ])('%s: an InvalidOptionError naming the option and what it must be', (_label, make, option, message) => {
      const error = thrownBy(make);
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'invalid-option', option });
      expect((error as Error).message).toMatch(message);
    });
  });
});
