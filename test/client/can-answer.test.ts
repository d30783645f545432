import { describe, expect, it } from 'vitest';
import { approvalOf, canAnswer, type InterventionData } from '../../src/client/index.ts';

const decision = (approval: InterventionData['approval'], action: InterventionData['action'] = 'confirm'): InterventionData => ({
  toolCallId: 'c1',
  toolName: 'deploy',
  action,
  records: [],
  ...(approval === undefined ? {} : { approval }),
});

describe('approvalOf', () => {
  it("should merge what one call's decisions say, later ones over earlier ones, and say nothing when none does", () => {
    const asked = decision({ askedBy: 'sam', mayAnswer: 'a manager', approvers: [{ roles: ['manager'] }] });
    const held = decision({ askedBy: 'sam', answeredBy: 'sam', status: 'not-allowed', mayAnswer: 'a manager' });
    const approved = decision({ askedBy: 'sam', answeredBy: 'morgan', status: 'approved', approvedBy: ['morgan'] }, 'proceed');
    expect(approvalOf([asked, held, decision(undefined, 'proceed'), approved])).toEqual({
      askedBy: 'sam',
      mayAnswer: 'a manager',
      approvers: [{ roles: ['manager'] }],
      answeredBy: 'morgan',
      status: 'approved',
      approvedBy: ['morgan'],
    });
    expect(approvalOf([decision(undefined, 'proceed')])).toBeUndefined();
    expect(approvalOf([])).toBeUndefined();
  });
});

describe('canAnswer', () => {
  const sam = { userId: 'sam', role: 'developer' };
  const morgan = { userId: 'morgan', roles: ['manager', 'oncall'] };

  it('should let anyone answer a request without terms, and tell a rule by user id or role as the server does', () => {
    expect(canAnswer(undefined, sam)).toBe(true);
    expect(canAnswer({ askedBy: 'sam' }, {})).toBe(true);
    const managers = { mayAnswer: 'a manager', approvers: [{ roles: ['manager'] }] };
    expect(canAnswer(managers, morgan)).toBe(true);
    expect(canAnswer(managers, { userId: 'ann', role: 'manager' })).toBe(true);
    expect(canAnswer(managers, sam)).toBe(false);
    expect(canAnswer(managers, {})).toBe(false);
    const named = { mayAnswer: 'user sam or a manager', approvers: [{ userIds: ['sam'], roles: ['manager'] }] };
    expect(canAnswer(named, sam)).toBe(true);
    expect(canAnswer(named, { userId: 'lee', role: 'developer' })).toBe(false);
  });

  it('should need every rule to admit the person, and keep the asker out of a two-person rule', () => {
    const twoPerson = { askedBy: 'morgan', mayAnswer: 'a manager other than you', approvers: [{ roles: ['manager'], excludeAsker: true }] };
    expect(canAnswer(twoPerson, morgan)).toBe(false);
    expect(canAnswer(twoPerson, { userId: 'ann', role: 'manager' })).toBe(true);
    expect(canAnswer(twoPerson, { role: 'manager' })).toBe(false);
    const both = { mayAnswer: 'a manager, and user morgan', approvers: [{ roles: ['manager'] }, { userIds: ['morgan'] }] };
    expect(canAnswer(both, morgan)).toBe(true);
    expect(canAnswer(both, { userId: 'ann', role: 'manager' })).toBe(false);
  });

  it("should leave to the server what only it can tell: the app's own test, or who may answer said only in words", () => {
    const custom = { mayAnswer: 'someone the app allows', approvers: [{ allow: true }] };
    expect(canAnswer(custom, sam)).toBeUndefined();
    expect(canAnswer({ mayAnswer: 'a manager or someone the app allows', approvers: [{ roles: ['manager'], allow: true }] }, morgan)).toBe(
      true,
    );
    expect(canAnswer({ mayAnswer: 'a manager' }, morgan)).toBeUndefined();
  });

  it('should not offer an answer to someone a quorum already counted', () => {
    const quorum = { mayAnswer: 'a manager', approvers: [{ roles: ['manager'] }], quorum: 2, status: 'awaiting-quorum' as const };
    expect(canAnswer({ ...quorum, approvedBy: ['morgan'] }, morgan)).toBe(false);
    expect(canAnswer({ ...quorum, approvedBy: ['ann'] }, morgan)).toBe(true);
  });

  it('should offer no answer to anyone once someone who may answer refused: the refusal is final', () => {
    const refused = { mayAnswer: 'a manager', approvers: [{ roles: ['manager'] }], quorum: 2, status: 'refused' as const };
    expect(canAnswer(refused, morgan)).toBe(false);
    expect(canAnswer({ status: 'refused' }, morgan)).toBe(false);
  });
});
