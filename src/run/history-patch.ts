import type { ModelMessage } from 'ai';
import { isThenable } from '../util/is-thenable.ts';

type StepMessages = ReadonlyArray<{ readonly stepNumber: number; readonly response: { readonly messages: readonly ModelMessage[] } }>;

/**
 * What a run changes in the history the SDK keeps, so that what the model is
 * sent next and what the caller persists never differ:
 *
 * - a changed tool error text (an `onToolCallError` rewrite of a call the
 *   SDK rejected) is written into the SDK's own error object (`rewriteError`),
 *   so the next request, `steps`, `responseMessages`, `onMessage` and the UI
 *   stream all carry it;
 * - messages the run injects (steering, follow-up) reach the next request
 *   through the SDK's steering, and `result.responseMessages` through
 *   `attachTo`, at the place they were injected.
 */
export class HistoryPatch {
  private readonly injections: Array<{ readonly afterStep: number; readonly messages: readonly ModelMessage[] }> = [];
  private result: object | undefined;
  private attached = false;

  /** Makes `error` read as `text` wherever the SDK turns it into text (`toString()`). */
  rewriteError(error: unknown, text: string): void {
    if (!(error instanceof Error)) return;
    Object.defineProperty(error, 'toString', { value: () => text, configurable: true, writable: true });
  }

  /** Records messages injected after step `afterStep` (-1: before step 0). */
  inject(afterStep: number, messages: readonly ModelMessage[]): void {
    this.injections.push({ afterStep, messages });
    if (this.result !== undefined) this.install(this.result);
  }

  /** `responseMessages` with the injected messages where they were injected. */
  applyTo(responseMessages: readonly ModelMessage[], steps: StepMessages): ModelMessage[] {
    if (this.injections.length === 0) return [...responseMessages];
    const injected = (afterStep: number) =>
      this.injections.filter((injection) => injection.afterStep === afterStep).flatMap((injection) => injection.messages);
    let offset = responseMessages.length - steps.reduce((count, step) => count + step.response.messages.length, 0);
    const merged = [...responseMessages.slice(0, offset), ...injected(-1)];
    for (const step of steps) {
      merged.push(...responseMessages.slice(offset, offset + step.response.messages.length), ...injected(step.stepNumber));
      offset += step.response.messages.length;
    }
    return merged;
  }

  /**
   * Makes a result's `responseMessages` (a value or a promise) include the
   * injected messages, once there are any (a result the run injected nothing
   * into is left as the SDK made it).
   */
  attachTo(result: object): void {
    this.result = result;
    if (this.injections.length > 0) this.install(result);
  }

  private install(result: object): void {
    if (this.attached) return;
    this.attached = true;
    const prototype: object | null = Object.getPrototypeOf(result);
    const patch = this;
    Object.defineProperty(result, 'responseMessages', {
      configurable: true,
      enumerable: false,
      get() {
        const original: unknown = prototype === null ? undefined : Reflect.get(prototype, 'responseMessages', result);
        const steps: unknown = Reflect.get(result, 'steps');
        if (isThenable<readonly ModelMessage[]>(original)) {
          // the SDK's own rejection, if any, comes first
          return Promise.resolve(original).then((messages) =>
            Promise.resolve(steps as PromiseLike<StepMessages>).then((all) => patch.applyTo(messages, all)),
          );
        }
        return patch.applyTo(original as readonly ModelMessage[], steps as StepMessages);
      },
    });
  }
}
