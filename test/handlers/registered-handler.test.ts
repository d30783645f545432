import { describe, expect, it } from 'vitest';
import { registerHandler } from '../../src/handlers/registered-handler.ts';
import {
  type BeforeToolCallEvent,
  createInterventions,
  defineHandler,
  guardTools,
  InterventionActions,
  InterventionHandler,
  InterventionsError,
  InvalidHandlerError,
  redactPii,
} from '../../src/index.ts';

const proceed = () => InterventionActions.proceed();

/** The error `createInterventions` throws for `handlers`, as an object to match. */
function registrationError(...handlers: unknown[]): InvalidHandlerError {
  try {
    createInterventions({ handlers: handlers as never });
  } catch (error) {
    if (InvalidHandlerError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected createInterventions to throw');
}

describe('registerHandler', () => {
  describe('when a handler has a method that looks like a lifecycle method but is not one', () => {
    it('should reject an own property typo, naming the handler and the key, and suggest the valid name', () => {
      const error = registrationError({ name: 'no-deletes', beforeToolcall: proceed });
      expect(InterventionsError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        name: 'AIInterventions_InvalidHandlerError',
        code: 'unknown-lifecycle',
        handlerName: 'no-deletes',
        key: 'beforeToolcall',
      });
      expect(error.message).toBe(
        'Intervention handler "no-deletes" has a method "beforeToolcall", which is not a lifecycle method, so it would never be called. ' +
          'Did you mean beforeToolCall? The lifecycle methods are beforeInvocation, beforeModelCall, afterModelCall, beforeToolCall or afterToolCall.',
      );
    });

    it('should reject a class method typo anywhere on the prototype chain below InterventionHandler', () => {
      class BaseGuard extends InterventionHandler {
        readonly name: string = 'base-guard';
        afterToolcal() {
          return InterventionActions.proceed();
        }
      }
      class StrictGuard extends BaseGuard {
        override readonly name = 'strict-guard';
        override beforeToolCall(_event: BeforeToolCallEvent) {
          return InterventionActions.proceed();
        }
      }
      expect(registrationError(new StrictGuard())).toMatchObject({
        code: 'unknown-lifecycle',
        handlerName: 'strict-guard',
        key: 'afterToolcal',
        message: expect.stringContaining('Did you mean afterToolCall?'),
      });
    });

    it('should suggest the closest lifecycle for a before… / after… name that is far from all of them', () => {
      const error = registrationError({ name: 'gate', beforeToolExecute: proceed });
      expect(error.message).toContain('has a method "beforeToolExecute"');
      expect(error.message).toContain('Did you mean beforeToolCall?');
    });

    it('should say that a hook name is a hook, and how to register it', () => {
      const error = registrationError({ name: 'cache', beforeModelCall: proceed, preRequest: () => undefined });
      expect(error).toMatchObject({ code: 'unknown-lifecycle', key: 'preRequest' });
      expect(error.message).toContain(
        "preRequest is a hook, not a handler method: register it with interventions.addHook('preRequest', …) or createInterventions({ hooks: { preRequest } }).",
      );
    });

    it('should leave other methods and fields alone (a class keeps its own helpers)', () => {
      class Redactor extends InterventionHandler {
        readonly name = 'redactor';
        readonly pattern = /\d{3}-\d{2}-\d{4}/g;
        format(text: string) {
          return text.replace(this.pattern, '[SSN]');
        }
        override afterToolCall() {
          return InterventionActions.proceed();
        }
      }
      expect(() => createInterventions({ handlers: [new Redactor()] })).not.toThrow();
    });
  });

  describe('when a handler written as a plain object has a key no handler has', () => {
    it('should reject an unknown method beside a valid one, naming it: it would never be called', () => {
      const error = registrationError({ name: 'audit', beforeToolCall: proceed, onToolResult: proceed });
      expect(error).toMatchObject({ code: 'unknown-key', handlerName: 'audit', key: 'onToolResult' });
      expect(error.message).toContain('"onToolResult"');
    });

    it.each([
      ['tool', 'tools', 'delete_file'],
      ['timeout', 'timeoutMs', 5],
      ['onerror', 'onError', 'deny'],
    ])('should reject a misspelt setting %j and suggest %j', (key, suggestion, value) => {
      const error = registrationError({ name: 'strict', beforeToolCall: proceed, [key]: value });
      expect(error).toMatchObject({ code: 'unknown-key', handlerName: 'strict', key });
      expect(error.message).toContain(`did you mean ${suggestion}?`);
    });

    it('should reject it where it is written too: defineHandler, use, guardTools', () => {
      const handler = { name: 'js-caller', beforeToolCall: proceed, onerror: 'deny' };
      expect(() => defineHandler(handler as never)).toThrow(/did you mean onError\?/);
      expect(() => createInterventions().use(handler as never)).toThrow(/did you mean onError\?/);
      expect(() => guardTools({}, [handler as never])).toThrow(/did you mean onError\?/);
    });

    it("should accept a redaction handler's own keys (its redactor, redactToolError)", () => {
      expect(() => createInterventions({ handlers: [redactPii()] })).not.toThrow();
    });
  });

  describe('when a handler has no lifecycle method', () => {
    it('should reject it: it would never run', () => {
      class Forgotten extends InterventionHandler {
        readonly name = 'forgotten';
      }
      expect(registrationError(new Forgotten())).toMatchObject({
        code: 'no-lifecycle',
        handlerName: 'forgotten',
        message:
          'Intervention handler "forgotten" has no lifecycle method, so it would never be called: ' +
          'define beforeInvocation, beforeModelCall, afterModelCall, beforeToolCall or afterToolCall.',
      });
    });
  });

  describe('when a handler has no name', () => {
    it('should say which entry it is, and what it is', () => {
      expect(() => registerHandler({ beforeToolCall: proceed }, 'handlers[2]')).toThrow(
        'The intervention handler handlers[2] (an object with beforeToolCall) has no name: give it a unique, non-empty string `name`',
      );
      class Unnamed extends InterventionHandler {
        readonly name = '';
        override beforeToolCall() {
          return InterventionActions.proceed();
        }
      }
      expect(registrationError(new Unnamed())).toMatchObject({
        code: 'invalid-handler',
        handlerName: undefined,
        message: expect.stringContaining('(an instance of Unnamed) has no name'),
      });
    });

    it('should name a named handler by its name alone in the other messages', () => {
      expect(() => registerHandler({ name: 'slow', timeoutMs: -1, beforeToolCall: proceed }, 'handlers[0]')).toThrow(
        'Intervention handler "slow" has an invalid timeoutMs -1',
      );
    });
  });
});
