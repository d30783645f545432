import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APPROVAL_ANSWER_PREFIX, approvalAnswer, readApprovalAnswer } from '../../src/client/index.ts';

describe('approvalAnswer', () => {
  it('should give what addToolApprovalResponse takes, the answer in reason behind the prefix, and read back the same answer', () => {
    const sent = approvalAnswer({ id: 'a1', approved: true, reason: 'fine', remember: 'session', input: { path: '/b', tags: ['x'] } });
    expect(sent).toEqual({
      id: 'a1',
      approved: true,
      reason: expect.stringMatching(new RegExp(`^${APPROVAL_ANSWER_PREFIX.replace(/[/.@]/g, '\\$&')}`)),
    });
    expect(readApprovalAnswer(sent.reason, true)).toEqual({
      type: 'answer',
      answer: { approved: true, reason: 'fine', remember: 'session', input: { value: { path: '/b', tags: ['x'] } } },
    });
  });

  it("should default remember to 'once' and tell no edit from an edit to null", () => {
    expect(readApprovalAnswer(approvalAnswer({ id: 'a', approved: false }).reason, false)).toEqual({
      type: 'answer',
      answer: { approved: false, reason: undefined, remember: 'once', input: undefined },
    });
    const toNull = readApprovalAnswer(approvalAnswer({ id: 'a', approved: true, input: null }).reason, true);
    expect(toNull).toMatchObject({ type: 'answer', answer: { input: { value: null } } });
  });

  it('should refuse to encode an answer that makes no sense', () => {
    expect(() => approvalAnswer({ id: 'a', approved: false, input: { path: '/b' } })).toThrow('only an approval may edit the input');
    expect(() => approvalAnswer({ id: 'a', approved: true, remember: 'forever' as never })).toThrow(
      "`remember` must be 'once', 'session' or 'always'",
    );
    expect(() => approvalAnswer({ id: 'a', approved: true, input: { big: 1n } })).toThrow('the edited input is not JSON');
  });
});

describe('readApprovalAnswer', () => {
  it("should leave a person's own text alone", () => {
    expect(readApprovalAnswer('never', false)).toEqual({ type: 'plain' });
    expect(readApprovalAnswer(undefined, true)).toEqual({ type: 'plain' });
    expect(readApprovalAnswer(` ${APPROVAL_ANSWER_PREFIX}{}`, true)).toEqual({ type: 'plain' });
  });

  it.each([
    ['not JSON', `${APPROVAL_ANSWER_PREFIX}{`, 'what follows the prefix is not JSON'],
    ['not an object', `${APPROVAL_ANSWER_PREFIX}[true]`, 'the answer is not an object'],
    ['an unknown field', `${APPROVAL_ANSWER_PREFIX}{"approved":true,"forever":true}`, 'unknown field "forever"'],
    ['a wrong type', `${APPROVAL_ANSWER_PREFIX}{"approved":"yes"}`, '`approved` must be a boolean'],
    ['a refusal with an edit', `${APPROVAL_ANSWER_PREFIX}{"approved":false,"input":{}}`, 'only an approval may edit the input'],
    ['a contradiction', `${APPROVAL_ANSWER_PREFIX}{"approved":false}`, 'the answer says approved: false, the response approved: true'],
  ])('should report %s as malformed', (_name, reason, problem) => {
    expect(readApprovalAnswer(reason, true)).toEqual({ type: 'malformed', problem });
  });
});

describe('ai-interventions/client', () => {
  it('should import nothing at run time (a browser bundle pulls in no runtime)', () => {
    const dir = fileURLToPath(new URL('../../src/client/', import.meta.url));
    for (const file of readdirSync(dir)) {
      const source = readFileSync(`${dir}${file}`, 'utf8');
      const imports = [...source.matchAll(/^(?:import|export) (?!type\b)[^;]*? from '([^']+)'/gm)].map((match) => match[1]);
      expect(
        imports.every((specifier) => specifier?.startsWith('./')),
        `${file}: ${imports.join(', ')}`,
      ).toBe(true);
    }
  });
});
