/**
 * Options checked at run time, for JavaScript callers (and casts): an
 * unknown key of `createInterventions`, `guardTools`, `guardTool` or any
 * built-in is an `UnknownOptionError` naming the function, the key and the
 * closest known key, never an option silently ignored.
 */
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { telemetry } from '../../src/builtins/telemetry.ts';
import {
  cache,
  callBudget,
  createInterventions,
  createRedactionHandler,
  createRedactor,
  defineToolGate,
  flowPolicy,
  forTool,
  guardTool,
  guardTools,
  humanApproval,
  InterventionActions,
  InterventionsError,
  llmSteering,
  loopGuard,
  rateLimit,
  redactPii,
  redactSecrets,
  toolPolicy,
  truncateToolResult,
  UnknownOptionError,
} from '../../src/index.ts';
import { scriptedModel } from '../helpers/scripted-model.ts';

const search = tool({ inputSchema: z.object({ q: z.string() }), execute: async () => [] });
const proceed = () => InterventionActions.proceed();

/** The error `make` throws. */
function thrownBy(make: () => unknown): UnknownOptionError {
  try {
    make();
  } catch (error) {
    if (UnknownOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an UnknownOptionError');
}

describe('knownOptions', () => {
  describe('when createInterventions is given an unknown option', () => {
    it('should throw, naming it and the option meant (handler for handlers registered nothing, silently)', () => {
      const error = thrownBy(() => createInterventions({ handler: [toolPolicy({ rules: [], default: 'deny' })] } as never));
      expect(InterventionsError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        name: 'AIInterventions_UnknownOptionError',
        code: 'unknown-option',
        owner: 'createInterventions',
        option: 'handler',
        suggestion: 'handlers',
      });
      expect(error.message).toContain('createInterventions has no option "handler" (did you mean handlers?)');
    });

    it('should check the wording too', () => {
      expect(thrownBy(() => createInterventions({ wording: { deniedCall: () => 'no' } as never }))).toMatchObject({
        owner: 'createInterventions: wording',
        option: 'deniedCall',
        suggestion: 'deniedToolCall',
      });
    });

    it('should suggest nothing for a key close to none', () => {
      expect(thrownBy(() => createInterventions({ colour: 'blue' } as never)).suggestion).toBeUndefined();
    });
  });

  describe('when tools are guarded with an unknown option', () => {
    it('should throw from guardTools, guardTool and wrapTools', () => {
      expect(thrownBy(() => createInterventions().wrapTools({ search }, { runtimeContxt: {} } as never))).toMatchObject({
        owner: 'wrapTools',
        suggestion: 'runtimeContext',
      });
      expect(thrownBy(() => guardTools({ search }, { handler: [] } as never))).toMatchObject({
        owner: 'guardTools',
        suggestion: 'handlers',
      });
      expect(thrownBy(() => guardTool(search, { name: 'search', guard: [] } as never))).toMatchObject({
        owner: 'guardTool',
        suggestion: 'guards',
      });
    });
  });

  describe('when a built-in is given an unknown option', () => {
    const model = scriptedModel();
    it.each([
      ['toolPolicy', () => toolPolicy({ rules: [], default: 'deny', onerror: 'proceed' } as never), 'toolPolicy "tool-policy"', 'onError'],
      [
        'a toolPolicy rule',
        () => toolPolicy({ rules: [{ deny: 'x', reson: 'no' }], default: 'allow' } as never),
        'toolPolicy "tool-policy" rule 0',
        'reason',
      ],
      [
        'a toolPolicy default',
        () => toolPolicy({ rules: [], default: { action: 'deny', reasn: 'no' } } as never),
        'toolPolicy "tool-policy" default',
        'reason',
      ],
      ['humanApproval', () => humanApproval({ tool: ['x'] } as never), 'humanApproval "human-approval"', 'tools'],
      [
        'humanApproval remember',
        () => humanApproval({ tools: 'x', remember: { stor: undefined } } as never),
        'humanApproval "human-approval" remember',
        'store',
      ],
      ['flowPolicy', () => flowPolicy({ sink: ['send_email'] } as never), 'flowPolicy "flow-policy"', 'sinks'],
      ['rateLimit', () => rateLimit({ limit: 1, windowMs: 1000, per: 'tool', tool: 'x' } as never), 'rateLimit "rate-limit"', 'tools'],
      ['loopGuard', () => loopGuard({ maxRepeat: 2 } as never), 'loopGuard "loop-guard"', 'maxRepeats'],
      ['truncateToolResult', () => truncateToolResult({ maxChar: 10 } as never), 'truncateToolResult "truncate-tool-result"', 'maxChars'],
      ['callBudget', () => callBudget({ per: 'run', maxToolCall: 2 } as never), 'callBudget "call-budget"', 'maxToolCalls'],
      ['llmSteering', () => llmSteering({ model, instructions: 'x', onn: [] } as never), 'llmSteering "llm-steering"', 'on'],
      ['cache', () => cache({ ttl: 1000 } as never), 'cache', 'ttlMs'],
      ['telemetry', () => telemetry({ decisionAs: 'events' } as never), 'telemetry', 'decisionsAs'],
      ['redactPii', () => redactPii({ kind: ['email'] } as never), 'redactPii "redact-pii"', 'kinds'],
      ['redactSecrets', () => redactSecrets({ pattern: [] } as never), 'redactSecrets "redact-secrets"', 'patterns'],
      ['createRedactor', () => createRedactor({ name: 'r', rule: [] } as never), 'createRedactor "r"', 'rules'],
      [
        'a redaction rule',
        () => createRedactor({ name: 'r', rules: [{ pattern: /x/, replace: 'y' }] } as never),
        'createRedactor "r" rule',
        'replacement',
      ],
      [
        'createRedactionHandler',
        () => createRedactionHandler({ name: 'r', rules: [], sensitiveKey: /x/ } as never),
        'createRedactionHandler "r"',
        'sensitiveKeys',
      ],
      [
        'defineToolGate',
        () => defineToolGate({ name: 'g', gate: () => ({ allow: true }), onerror: 'deny' } as never),
        'defineToolGate "g"',
        'onError',
      ],
      ['forTool', () => forTool({ search }, 'search', { name: 'f', beforeToolcall: proceed } as never), 'forTool "f"', 'beforeToolCall'],
    ])('%s: should throw, naming the built-in and the option meant', (_label, make, owner, suggestion) => {
      expect(thrownBy(make)).toMatchObject({ code: 'unknown-option', owner, suggestion });
    });
  });
});
