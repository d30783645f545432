import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { CallOptions } from './call-options.ts';

/**
 * The `abortSignal` of a run that steers with a steering object of its own
 * (`experimental_createSteering()`, for the steering and follow-up queues
 * and the drain hooks). From `ai` 7.0.177 on, the SDK gives each model call
 * of a call that steers a signal of its own, which only a
 * `steer(message, { interrupt: true })` aborts (the runtime never asks one):
 * the provider gets it, and in `streamText` also `repairToolCall` and the
 * `experimental_download` function. Where the raw SDK would give them no
 * signal (the caller gave no `abortSignal`, and no `timeout` that makes one),
 * the run gives them none either: this returns the model middleware that
 * takes the signal off the provider's call options, and
 * {@link unsignalCallbacks} does the same for the callbacks. Otherwise it
 * returns `undefined`: the SDK's signal carries the caller's signal and
 * timers, and is passed as it is.
 */
export function steeringSignal(
  options: CallOptions,
  { streaming }: { readonly streaming: boolean },
): LanguageModelV4Middleware | undefined {
  const t = options.timeout as number | Partial<Record<'totalMs' | 'stepMs' | 'firstChunkMs' | 'chunkMs', number>> | null | undefined;
  // the timers the SDK merges into the signal (the chunk timers in streamText only)
  const timers = t === null || typeof t !== 'object' ? [t] : [t.totalMs, t.stepMs, ...(streaming ? [t.firstChunkMs, t.chunkMs] : [])];
  const signals = options.experimental_steering !== undefined || options.abortSignal !== undefined || timers.some((ms) => ms != null);
  return signals ? undefined : DROP_SIGNAL;
}

type Signalled = { readonly abortSignal?: AbortSignal };
const unsignal = <T extends Signalled>(options: T): T => ({ ...options, abortSignal: undefined });

const DROP_SIGNAL: LanguageModelV4Middleware = {
  specificationVersion: 'v4',
  transformParams: async ({ params }) => unsignal(params),
};

/** The callbacks of `composed` that the SDK gives a model call's signal, given `abortSignal: undefined` instead (see {@link steeringSignal}). */
export function unsignalCallbacks(composed: CallOptions): void {
  const options = composed as Record<string, ((...args: never[]) => unknown) | undefined>;
  for (const key of ['repairToolCall', 'experimental_repairToolCall'] as const) {
    const repair = options[key] as ((repairing: Signalled) => unknown) | undefined;
    if (repair !== undefined) options[key] = (repairing: Signalled) => repair(unsignal(repairing));
  }
  const download = options.experimental_download as ((requests: readonly Signalled[]) => unknown) | undefined;
  if (download !== undefined) options.experimental_download = (requests: readonly Signalled[]) => download(requests.map(unsignal));
}
