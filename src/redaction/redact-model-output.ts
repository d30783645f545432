import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { Redactor } from './create-redactor.ts';
import { redactData } from './redact-data.ts';
import { originalsOf, type RedactedBlock, type RedactedOriginals } from './redacted-originals.ts';
import type { RedactionStream } from './redaction-stream.ts';

/** `text` redacted by every redactor in order. */
function redactText(redactors: readonly Redactor[], text: string): string {
  return redactors.reduce((value, redactor) => redactor.redact(value), text);
}

/**
 * The text and reasoning parts of a whole response, redacted by every
 * redactor in order. A part whose text changed loses its provider metadata:
 * it can point at the provider's stored, unredacted copy (an OpenAI
 * Responses item id is sent back as an `item_reference`); `onChanged` is
 * told the original, to give back to the provider (see `RedactedOriginals`).
 * The raw response body, when the provider returns one, is redacted as data.
 */
export function redactResponse(
  redactors: readonly Redactor[],
  response: LanguageModelV4GenerateResult,
  onChanged?: (block: RedactedBlock) => void,
): LanguageModelV4GenerateResult {
  if (redactors.length === 0) return response;
  let changed = false;
  const content = response.content.map((part) => {
    if (part.type !== 'text' && part.type !== 'reasoning') return part;
    const text = redactText(redactors, part.text);
    if (text === part.text) return part;
    changed = true;
    const { providerMetadata, ...rest } = part;
    if (providerMetadata !== undefined) onChanged?.({ kind: part.type, redacted: text, original: part.text, providerMetadata });
    return { ...rest, text };
  });
  const body = response.response?.body;
  const redactedBody = body === undefined ? undefined : redactData(body, (value) => redactText(redactors, value));
  if (!changed && redactedBody === body) return response;
  return {
    ...response,
    content: changed ? content : response.content,
    ...(redactedBody === body ? {} : { response: { ...response.response, body: redactedBody } }),
  };
}

/** A streamed text or reasoning block being redacted. */
interface Block {
  readonly kind: 'text' | 'reasoning';
  readonly id: string;
  readonly sessions: RedactionStream[];
  /** What the provider sent, and what was released. */
  received: string;
  released: string;
  /** The provider's metadata so far (a later part's replaces an earlier one's, as the SDK merges them). */
  providerMetadata: SharedV4ProviderMetadata | undefined;
}

/**
 * Redacts a provider stream's text and reasoning as they flow: each block
 * gets its own chain of redaction sessions; what they release is emitted as
 * deltas, the rest when the block ends.
 *
 * Whether a block changes is known only at its end, so its provider metadata
 * moves from the start (and deltas) to the end part: a block that did not
 * change ends with the metadata the SDK would have merged from the
 * provider's parts (the result, the response messages and the UI message
 * end up the same), a block that changed ends without it, and `onChanged`
 * is told the original (see `RedactedOriginals`). Raw chunks
 * (`includeRawChunks`) carry the provider's unredacted text and are not
 * passed on.
 */
export function redactStream(
  redactors: readonly Redactor[],
  onChanged?: (block: RedactedBlock) => void,
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  const blocks = new Map<string, Block>();
  const delta = ({ kind, id }: Block, text: string): LanguageModelV4StreamPart =>
    kind === 'text' ? { type: 'text-delta', id, delta: text } : { type: 'reasoning-delta', id, delta: text };
  const release = (block: Block, text: string, controller: TransformStreamDefaultController<LanguageModelV4StreamPart>) => {
    block.released += text;
    if (text.length > 0) controller.enqueue(delta(block, text));
  };
  const flush = (block: Block) => block.sessions.reduce((text, session) => session.push(text) + session.flush(), '');

  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start': {
          const { providerMetadata, ...start } = part;
          const kind = part.type === 'text-start' ? 'text' : 'reasoning';
          blocks.set(`${kind}:${part.id}`, {
            kind,
            id: part.id,
            sessions: redactors.map((redactor) => redactor.stream()),
            received: '',
            released: '',
            providerMetadata,
          });
          controller.enqueue(start);
          return;
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const block = blocks.get(`${part.type === 'text-delta' ? 'text' : 'reasoning'}:${part.id}`);
          if (block === undefined) break;
          block.providerMetadata = part.providerMetadata ?? block.providerMetadata;
          block.received += part.delta;
          release(
            block,
            block.sessions.reduce((text, session) => session.push(text), part.delta),
            controller,
          );
          return;
        }
        case 'text-end':
        case 'reasoning-end': {
          const key = `${part.type === 'text-end' ? 'text' : 'reasoning'}:${part.id}`;
          const block = blocks.get(key);
          if (block === undefined) break;
          blocks.delete(key);
          release(block, flush(block), controller);
          const { providerMetadata = block.providerMetadata, ...end } = part;
          // the metadata of a changed block may point at the provider's unredacted copy
          const changed = block.released !== block.received;
          if (changed && providerMetadata !== undefined) {
            onChanged?.({ kind: block.kind, redacted: block.released, original: block.received, providerMetadata });
          }
          controller.enqueue(!changed && providerMetadata !== undefined ? { ...end, providerMetadata } : end);
          return;
        }
        case 'raw':
          return;
      }
      controller.enqueue(part);
    },
    flush(controller) {
      for (const block of blocks.values()) release(block, flush(block), controller);
      blocks.clear();
    },
  });
}

/** What `onChange` of {@link redactResponse} / {@link redactStream} is for a run: each changed block kept in `holder` (`run.redactedOriginals`). */
export function keepOriginalsIn(holder: { redactedOriginals: RedactedOriginals | undefined }): (block: RedactedBlock) => void {
  return (block) => originalsOf(holder).note(block);
}
