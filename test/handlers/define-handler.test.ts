/**
 * `defineHandler`'s types. The `@ts-expect-error` lines are checked by
 * `npm run typecheck`: each must be an error, or the typecheck fails.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type BeforeToolCallAction,
  createInterventions,
  defineHandler,
  InterventionActions,
  InvalidHandlerError,
  type ToolCallInfo,
} from '../../src/index.ts';

describe('defineHandler', () => {
  it('should type the lifecycle methods from the handler shape', () => {
    const handler = defineHandler({
      name: 'typed',
      onError: 'deny',
      beforeToolCall: ({ toolCall }) => {
        expectTypeOf(toolCall).toEqualTypeOf<ToolCallInfo>();
        return InterventionActions.proceed();
      },
    });
    expectTypeOf(handler.beforeToolCall).returns.toExtend<BeforeToolCallAction>();
    expectTypeOf(handler.name).toEqualTypeOf<string>();
  });

  it('should reject a key that is not part of a handler at compile time, and at registration', () => {
    const typo = () =>
      defineHandler({
        name: 'no-deletes',
        // @ts-expect-error `beforeToolcall` is not a lifecycle method (beforeToolCall is)
        beforeToolcall: () => InterventionActions.deny('No deletes.'),
      });
    // @ts-expect-error a hook is not a handler method
    const hook = () => defineHandler({ name: 'cache', beforeModelCall: () => InterventionActions.proceed(), preRequest: () => undefined });

    expect(() => createInterventions({ handlers: [typo()] })).toThrow(InvalidHandlerError);
    expect(() => createInterventions({ handlers: [hook()] })).toThrow(InvalidHandlerError);
  });
});
