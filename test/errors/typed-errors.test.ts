import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AfterModelCallEvent,
  type BeforeToolCallEvent,
  createInterventions,
  defineHandler,
  HandlerTimeoutError,
  InterventionActions,
  InterventionHandler,
  InterventionHandlerError,
  InterventionsError,
  InvalidActionError,
  InvalidHandlerError,
  InvalidHookError,
  InvalidHookResultError,
  InvocationDeniedError,
  toolPolicy,
} from '../../src/index.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const tools = () => ({
  t: tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => 'ran' }),
});
const toolStep = () => step(toolCall('c1', 't', { tag: 'x' }));

describe('typed errors', () => {
  describe('when a lifecycle method returns an action it may not return', () => {
    it('should reject with InvalidActionError naming the handler and the lifecycle point', async () => {
      class ConfirmsResponses extends InterventionHandler {
        readonly name = 'confirms-responses';
        override afterModelCall(_event: AfterModelCallEvent) {
          // a JavaScript caller, or a cast, can return what the types forbid
          return InterventionActions.confirm('really?') as unknown as ReturnType<typeof InterventionActions.proceed>;
        }
      }
      const interventions = createInterventions({ handlers: [new ConfirmsResponses()] });
      const error = await rejectionOf(interventions.generateText({ model: scriptedModel(step(text('hi'))), prompt: 'x' }));
      expect(InvalidActionError.isInstance(error)).toBe(true);
      expect(InterventionsError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        name: 'AIInterventions_InvalidActionError',
        code: 'invalid-action',
        handlerName: 'confirms-responses',
        lifecycle: 'afterModelCall',
      });
      expect((error as Error).message).toContain('"confirms-responses" returned confirm from afterModelCall');
    });
  });

  describe('when a handler returns something that is not an action', () => {
    it('should reject with InvalidActionError naming the handler', async () => {
      const interventions = createInterventions({
        handlers: [defineHandler({ name: 'returns-a-string', beforeToolCall: () => 'deny' as never })],
      });
      const model = scriptedModel(toolStep(), step(text('ok')));
      const error = await rejectionOf(interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(3), prompt: 'x' }));
      expect(InvalidActionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ handlerName: 'returns-a-string', lifecycle: 'beforeToolCall', received: 'deny' });
    });

    it('should follow onError: a fail-closed handler that returns garbage denies', async () => {
      let ran = 0;
      const interventions = createInterventions({
        handlers: [defineHandler({ name: 'sloppy', onError: 'deny', beforeToolCall: () => ({ type: 'allow' }) as never })],
      });
      const model = scriptedModel(toolStep(), step(text('ok')));
      const result = await interventions.generateText({
        model,
        tools: { t: tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => (ran++, 'ran') }) },
        stopWhen: isStepCount(3),
        prompt: 'x',
      });
      expect(ran).toBe(0);
      expect(result.interventions.decisions[0]).toMatchObject({ handler: 'sloppy', action: 'deny' });
      expect(InvalidActionError.isInstance(result.interventions.decisions[0]?.error)).toBe(true);
    });
  });

  describe('issue 38 item 4: every error about an action, option or scope names what is allowed', () => {
    /** What a run with `handler` rejects with, its message. */
    const messageOf = async (handler: Parameters<typeof defineHandler>[0]) => {
      const interventions = createInterventions({ handlers: [defineHandler(handler)] });
      const model = scriptedModel(toolStep(), step(text('ok')));
      const error = await rejectionOf(interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(3), prompt: 'x' }));
      expect(InvalidActionError.isInstance(error)).toBe(true);
      return (error as InvalidActionError).message;
    };

    it('afterToolCall returning confirm: should list the actions afterToolCall supports', async () => {
      const message = await messageOf({
        name: 'asks-late',
        afterToolCall: () => InterventionActions.confirm('really?') as never,
      });
      expect(message).toBe(
        'Intervention handler "asks-late" returned confirm from afterToolCall, which does not support it; ' +
          'expected an action afterToolCall supports: proceed, deny (recorded with a warning, no effect) or transform, made by InterventionActions.',
      );
    });

    it('an object of an unknown type: should suggest the closest and list the supported ones', async () => {
      const message = await messageOf({ name: 'typo', beforeToolCall: () => ({ type: 'denied', reason: 'no' }) as never });
      expect(message).toContain('(type "denied"; did you mean deny?)');
      expect(message).toContain('expected an action beforeToolCall supports: proceed, deny, guide, confirm or transform');
    });

    it('an action without what it needs: should say how to make it', async () => {
      expect(await messageOf({ name: 'bare', beforeToolCall: () => ({ type: 'deny' }) as never })).toContain(
        'deny without a string reason from beforeToolCall; make it with InterventionActions.deny(reason).',
      );
    });

    it('a lifecycle method that is not a function, a toolPolicy without a list of rules: should say what they must be', () => {
      expect(() => createInterventions({ handlers: [{ name: 'x', beforeToolCall: 'deny' as never }] })).toThrow(
        'has a beforeToolCall that is not a function (received string): a lifecycle method takes its event and returns an action made by InterventionActions.',
      );
      expect(() => toolPolicy({ rules: { deny: 'x' } as never, default: 'allow' })).toThrow(
        'rules must be a list of rules, each { allow | deny | confirm: a tool scope, when?, reason? or prompt? }, received object',
      );
      expect(() => toolPolicy({ rules: [{ deny: 'x', when: true as never }], default: 'allow' })).toThrow(
        "rule 0's when must be a function (input, event) => boolean, received boolean",
      );
    });
  });

  describe('when two handlers share a name', () => {
    it('should throw InvalidHandlerError with code duplicate-handler', () => {
      const make = () => defineHandler({ name: 'guard', beforeToolCall: () => InterventionActions.proceed() });
      let error: unknown;
      try {
        createInterventions({ handlers: [make(), make()] });
      } catch (caught) {
        error = caught;
      }
      expect(InvalidHandlerError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'duplicate-handler', handlerName: 'guard' });
      const interventions = createInterventions({ handlers: [make()] });
      expect(() => interventions.use(make())).toThrow(/named "guard"/);
    });

    it('should accept the name again once the first handler is disposed', () => {
      const make = () => defineHandler({ name: 'guard', beforeToolCall: () => InterventionActions.proceed() });
      const interventions = createInterventions();
      const dispose = interventions.use(make());
      dispose();
      dispose();
      expect(() => interventions.use(make())).not.toThrow();
      expect(interventions.handlers.map((handler) => handler.name)).toEqual(['guard']);
    });
  });

  describe('when a handler has invalid settings', () => {
    it('should name what is wrong', () => {
      expect(() => createInterventions({ handlers: [{ name: '' }] })).toThrow(InvalidHandlerError);
      expect(() => createInterventions({ handlers: [{ name: 'x', onError: 'ignore' as never }] })).toThrow(/invalid onError "ignore"/);
      expect(() => createInterventions({ handlers: [{ name: 'x', timeoutMs: -1 }] })).toThrow(/"x" has an invalid timeoutMs -1/);
      expect(() => createInterventions({ handlers: [{ name: 'x', beforeToolCall: 'deny' as never }] })).toThrow(
        /beforeToolCall that is not a function/,
      );
    });
  });

  describe('when a handler does not settle within timeoutMs', () => {
    it('should reject with HandlerTimeoutError naming the handler (onError throw)', async () => {
      const interventions = createInterventions({
        handlers: [defineHandler({ name: 'slow-policy', timeoutMs: 20, beforeToolCall: () => new Promise<never>(() => {}) })],
      });
      const model = scriptedModel(toolStep(), step(text('ok')));
      const error = await rejectionOf(interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(3), prompt: 'x' }));
      expect(HandlerTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'handler-timeout', handlerName: 'slow-policy', lifecycle: 'beforeToolCall', timeoutMs: 20 });
    });

    it('should fail closed when onError is deny', async () => {
      let ran = 0;
      const interventions = createInterventions({
        handlers: [
          defineHandler({ name: 'slow-auth', timeoutMs: 20, onError: 'deny', beforeToolCall: () => new Promise<never>(() => {}) }),
        ],
      });
      const model = scriptedModel(toolStep(), step(text('ok')));
      await interventions.generateText({
        model,
        tools: { t: tool({ inputSchema: z.object({ tag: z.string() }), execute: async () => (ran++, 'ran') }) },
        stopWhen: isStepCount(3),
        prompt: 'x',
      });
      expect(ran).toBe(0);
      expect(JSON.stringify(model.calls[1]?.prompt.at(-1))).toContain('slow-auth');
    });
  });

  describe('when a handler throws', () => {
    it('should wrap the error in InterventionHandlerError with the original as cause', async () => {
      const cause = new Error('auth service down');
      const interventions = createInterventions({
        handlers: [
          defineHandler({
            name: 'critical-validator',
            beforeToolCall: () => {
              throw cause;
            },
          }),
        ],
      });
      const model = scriptedModel(toolStep(), step(text('ok')));
      const error = await rejectionOf(interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(3), prompt: 'x' }));
      expect(InterventionHandlerError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ handlerName: 'critical-validator', lifecycle: 'beforeToolCall', cause });
    });

    it('should treat a throwing transform apply as the handler failing', async () => {
      const interventions = createInterventions({
        handlers: [
          defineHandler({
            name: 'broken-redactor',
            beforeToolCall: () =>
              InterventionActions.transform<BeforeToolCallEvent>(() => {
                throw new Error('regex exploded');
              }),
          }),
        ],
      });
      const model = scriptedModel(toolStep(), step(text('ok')));
      const error = await rejectionOf(interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(3), prompt: 'x' }));
      expect(error).toMatchObject({ handlerName: 'broken-redactor', message: expect.stringContaining('regex exploded') });
    });
  });

  describe('when a beforeInvocation handler denies', () => {
    it('should reject with InvocationDeniedError before any model call', async () => {
      const interventions = createInterventions({
        handlers: [defineHandler({ name: 'moderation', beforeInvocation: () => InterventionActions.deny('Off-topic request') })],
      });
      const model = scriptedModel(step(text('never')));
      const error = await rejectionOf(interventions.generateText({ model, prompt: 'x' }));
      expect(InvocationDeniedError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ handlerName: 'moderation', reason: 'Off-topic request' });
      expect(model.calls).toHaveLength(0);
    });
  });

  describe('when a hook is invalid', () => {
    it('should reject an unknown event or a non-function at registration', () => {
      const interventions = createInterventions();
      expect(() => interventions.addHook('preToolcall' as 'preToolCall', () => {})).toThrow(InvalidHookError);
      expect(() => interventions.addHook('preToolCall', 42 as never)).toThrow(/must be a function/);
    });

    it('should reject a hook result its event does not accept, naming the hook', async () => {
      const interventions = createInterventions({
        hooks: {
          preToolCall: function checkPermissions() {
            return { response: 'nope' } as never;
          },
        },
      });
      const model = scriptedModel(toolStep(), step(text('ok')));
      const error = await rejectionOf(interventions.generateText({ model, tools: tools(), stopWhen: isStepCount(3), prompt: 'x' }));
      expect(InvalidHookResultError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ hook: 'preToolCall hook "checkPermissions"' });
    });
  });

  describe('isInstance', () => {
    it('should tell the error classes apart', () => {
      const error = new InvocationDeniedError({ handlerName: 'h', reason: 'r' });
      expect(InvocationDeniedError.isInstance(error)).toBe(true);
      expect(InterventionsError.isInstance(error)).toBe(true);
      expect(InvalidActionError.isInstance(error)).toBe(false);
      expect(InterventionsError.isInstance(new Error('plain'))).toBe(false);
      expect(InterventionsError.isInstance(null)).toBe(false);
    });
  });
});
