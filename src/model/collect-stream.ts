import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';

/** A model stream read to its end. */
export type CollectedStream =
  | { readonly ok: true; readonly response: LanguageModelV4GenerateResult }
  /** The stream carried an `error` part or did not finish: replay `parts` as they came. */
  | { readonly ok: false; readonly parts: readonly LanguageModelV4StreamPart[] };

/**
 * Reads a provider stream into the `LanguageModelV4GenerateResult` it
 * describes, so hooks that work on whole responses (`onResponse`,
 * `afterModelCall`) see the same shape for `generateText` and `streamText`.
 */
export async function collectStream(
  stream: ReadableStream<LanguageModelV4StreamPart>,
): Promise<CollectedStream> {
  const parts: LanguageModelV4StreamPart[] = [];
  const content: LanguageModelV4Content[] = [];
  const open = new Map<string, { text: string; index: number }>();
  const response: Partial<LanguageModelV4GenerateResult> = {};
  let failed = false;

  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      parts.push(part);
      switch (part.type) {
        case 'stream-start':
          response.warnings = part.warnings;
          break;
        case 'response-metadata': {
          const { type: _type, ...metadata } = part;
          response.response = metadata;
          break;
        }
        case 'text-start':
        case 'reasoning-start':
          open.set(`${part.type}:${part.id}`, { text: '', index: content.length });
          content.push({
            type: part.type === 'text-start' ? 'text' : 'reasoning',
            text: '',
            ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
          });
          break;
        case 'text-delta':
        case 'reasoning-delta': {
          const kind = part.type === 'text-delta' ? 'text-start' : 'reasoning-start';
          const block = open.get(`${kind}:${part.id}`);
          if (block === undefined) break;
          block.text += part.delta;
          (content[block.index] as { text: string }).text = block.text;
          break;
        }
        case 'text-end': {
          const block = open.get(`text-start:${part.id}`);
          if (block !== undefined && part.providerMetadata) {
            (content[block.index] as { providerMetadata?: unknown }).providerMetadata =
              part.providerMetadata;
          }
          break;
        }
        case 'finish':
          response.finishReason = part.finishReason;
          response.usage = part.usage;
          if (part.providerMetadata) response.providerMetadata = part.providerMetadata;
          break;
        case 'error':
          failed = true;
          break;
        case 'reasoning-end':
        case 'tool-input-start':
        case 'tool-input-delta':
        case 'tool-input-end':
        case 'ping':
        case 'raw':
          break;
        default:
          // tool-call, tool-result, tool-approval-request, file, source, custom, reasoning-file
          content.push(part);
      }
    }
  } finally {
    reader.releaseLock();
  }

  if (failed || response.finishReason === undefined || response.usage === undefined) {
    return { ok: false, parts };
  }
  return {
    ok: true,
    response: {
      content,
      finishReason: response.finishReason,
      usage: response.usage,
      warnings: response.warnings ?? [],
      ...(response.providerMetadata ? { providerMetadata: response.providerMetadata } : {}),
      ...(response.response ? { response: response.response } : {}),
    },
  };
}
