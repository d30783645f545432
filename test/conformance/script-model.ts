import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { FALLBACK_TURN, generateResultOf, type Turn } from './script.ts';

/** The error a provider stream (or call) fails with in a script. */
export class ScriptedProviderError extends Error {
  override readonly name = 'ScriptedProviderError';
}

/** How long a stalled call waits for an abort signal that never comes (a script bug, not a hang). */
const STALL_LIMIT_MS = 1_000;

/**
 * A `MockLanguageModelV4` playing a script: its n-th call (generate or
 * stream) answers with the n-th turn (past the end: a fallback text). It
 * behaves like a real provider around aborts: a call whose abort signal has
 * fired rejects with the signal's reason, an open stream errors with it.
 */
export function scriptModel({
  turns,
  abort,
  onCall,
}: {
  turns: readonly Turn[];
  /** Fires the caller's AbortController. */
  abort: () => void;
  /** Told about every call, when it is made, with the options the model received. */
  onCall: (kind: 'doGenerate' | 'doStream', options: LanguageModelV4CallOptions) => void;
}): MockLanguageModelV4 {
  let calls = 0;
  const next = (): Turn => turns[calls++] ?? FALLBACK_TURN;

  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      onCall('doGenerate', options);
      const turn = next();
      const { fault } = turn;
      if (fault?.kind === 'reject') throw new ScriptedProviderError('the provider rejected the call');
      if (fault?.kind === 'throw') throw new ScriptedProviderError('the provider stream failed');
      if (fault?.kind === 'abort') {
        abort();
        options.abortSignal?.throwIfAborted();
      }
      if (fault?.kind === 'stall') await abortOf(options);
      const result = generateResultOf(structuredClone(turn.parts));
      if ('error' in result) throw result.error;
      return result;
    },
    doStream: async (options) => {
      onCall('doStream', options);
      const turn = next();
      const { fault } = turn;
      if (fault?.kind === 'reject') throw new ScriptedProviderError('the provider rejected the call');
      const parts = structuredClone(turn.parts) as LanguageModelV4StreamPart[];
      let index = 0;
      let closed = false;
      const signal = options.abortSignal;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            // like a fetch body: the stream errors when its signal fires
            signal?.addEventListener(
              'abort',
              () => {
                if (closed) return;
                closed = true;
                controller.error(signal.reason);
              },
              { once: true },
            );
          },
          async pull(controller) {
            if (closed) return;
            if (fault !== undefined && fault.at === index) {
              if (fault.kind === 'throw') {
                closed = true;
                controller.error(new ScriptedProviderError('the provider stream failed'));
                return;
              }
              if (fault.kind === 'abort') abort();
              if (fault.kind === 'stall') {
                try {
                  await abortOf(options);
                } catch (error) {
                  if (!closed) {
                    closed = true;
                    controller.error(error);
                  }
                }
                return;
              }
              if (closed) return;
            }
            const part = parts[index++];
            if (part === undefined) {
              closed = true;
              controller.close();
              return;
            }
            controller.enqueue(part);
          },
        }),
      };
    },
  });
}

/** Resolves never; rejects with the call's abort reason when its signal fires. */
function abortOf(options: LanguageModelV4CallOptions): Promise<never> {
  return new Promise<never>((_, reject) => {
    const signal = options.abortSignal;
    const limit = setTimeout(() => reject(new ScriptedProviderError('stalled: the call has no abort signal that fires')), STALL_LIMIT_MS);
    if (signal === undefined) return;
    const fire = () => {
      clearTimeout(limit);
      reject(signal.reason);
    };
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}
