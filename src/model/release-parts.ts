import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { isDeepEqual } from '../util/is-deep-equal.ts';
import type { CollectedStream } from './collect-stream.ts';
import { FRAME } from './collect-stream.ts';
import { contentToParts } from './content-to-parts.ts';

/**
 * The parts to stream for a held response once it is decided: the
 * provider's own parts, unchanged (ids, deltas, provider metadata, raw
 * chunks, order), where the final response kept a content item as it was;
 * parts synthesized from the final response only for the items a hook,
 * handler or redactor changed (and for the finish, when its usage or reason
 * changed).
 */
export function releaseParts(
  collected: Extract<CollectedStream, { ok: true }>,
  final: LanguageModelV4GenerateResult,
): readonly LanguageModelV4StreamPart[] {
  if (final === collected.response) return collected.parts;
  const before = collected.response.content;
  const after = final.content;
  const kept = before.map((item, index) => index < after.length && isDeepEqual(item, after[index]));
  const released: LanguageModelV4StreamPart[] = [];
  const replaced = new Set<number>();

  collected.parts.forEach((part, position) => {
    const owner = collected.owners[position] ?? FRAME;
    if (owner === FRAME) {
      if (part.type === 'finish') {
        // items the final response added come last
        for (let index = before.length; index < after.length; index++) {
          released.push(...contentToParts(after[index] as LanguageModelV4Content, `ai-interventions-${index}`));
        }
        released.push(finishOf(part, final));
        return;
      }
      released.push(part);
      return;
    }
    if (kept[owner] === true) {
      released.push(part);
      return;
    }
    if (replaced.has(owner)) return;
    replaced.add(owner);
    const item = after[owner];
    if (item !== undefined) released.push(...contentToParts(item, 'id' in part ? String(part.id) : `ai-interventions-${owner}`));
  });
  return released;
}

/** The provider's finish part, or one with the final response's reason, usage and metadata. */
function finishOf(
  part: Extract<LanguageModelV4StreamPart, { type: 'finish' }>,
  final: LanguageModelV4GenerateResult,
): LanguageModelV4StreamPart {
  if (
    isDeepEqual(part.finishReason, final.finishReason) &&
    isDeepEqual(part.usage, final.usage) &&
    isDeepEqual(part.providerMetadata, final.providerMetadata)
  ) {
    return part;
  }
  return {
    type: 'finish',
    finishReason: final.finishReason,
    usage: final.usage,
    ...(final.providerMetadata ? { providerMetadata: final.providerMetadata } : {}),
  };
}
