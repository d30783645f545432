import type { LanguageModelV4CallOptions, LanguageModelV4Middleware, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * `interventions.middleware`: the model layer for plain calls, with what the
 * runtime checks and notes around it. `check` takes each request first (it
 * refuses a guard the call's tools cannot enforce, and gives the provider
 * the request as the app made it); `sawCall` is told each tool call of a
 * response passed on, so a tool the runtime wrapped knows its call came
 * through a wrapped model.
 */
export function runtimeMiddleware(
  inner: LanguageModelV4Middleware,
  {
    check,
    sawCall,
  }: { readonly check: (params: LanguageModelV4CallOptions) => LanguageModelV4CallOptions; readonly sawCall: (toolCallId: string) => void },
): LanguageModelV4Middleware {
  const tap = () =>
    new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
      transform(part, controller) {
        if (part.type === 'tool-call') sawCall(part.toolCallId);
        controller.enqueue(part);
      },
    });
  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => check(params),
    wrapGenerate: async (options) => {
      const result = await (inner.wrapGenerate?.(options) ?? options.doGenerate());
      for (const part of result.content) if (part.type === 'tool-call') sawCall(part.toolCallId);
      return result;
    },
    wrapStream: async (options) => {
      const result = await (inner.wrapStream?.(options) ?? options.doStream());
      return { ...result, stream: result.stream.pipeThrough(tap()) };
    },
  };
}
