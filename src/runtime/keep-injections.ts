import type { ModelMessage, StepResult, ToolSet } from 'ai';
import { isThenable } from '../util/is-thenable.ts';
import type { InterventionsRun } from './interventions-run.ts';

/**
 * Makes `result.responseMessages` include the messages the run injected
 * (steering, follow-up) where they were injected: the AI SDK leaves them
 * out, and a caller persisting the conversation would lose them.
 */
export function keepInjections(result: object, run: InterventionsRun): void {
  const prototype: object | null = Object.getPrototypeOf(result);
  Object.defineProperty(result, 'responseMessages', {
    configurable: true,
    enumerable: false,
    get() {
      const original: unknown = prototype === null ? undefined : Reflect.get(prototype, 'responseMessages', result);
      const steps: unknown = Reflect.get(result, 'steps');
      if (isThenable<readonly ModelMessage[]>(original)) {
        return Promise.all([original, steps as PromiseLike<StepResult<ToolSet>[]>]).then(([messages, all]) =>
          run.withInjections(messages, all),
        );
      }
      return run.withInjections(original as readonly ModelMessage[], steps as StepResult<ToolSet>[]);
    },
  });
}
