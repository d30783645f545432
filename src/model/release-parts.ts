import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isDeepEqual } from '../data/is-deep-equal.ts';
import type { CollectedStream } from './collect-stream.ts';
import { contentToParts } from './content-to-parts.ts';

/** Marks a part that belongs to no content item (stream-start, metadata, raw, finish…). */
const FRAME = -1;

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
  const owners = ownersOf(collected.parts);
  const kept = before.map((item, index) => index < after.length && isDeepEqual(item, after[index]));
  const released: LanguageModelV4StreamPart[] = [];
  const replaced = new Set<number>();

  collected.parts.forEach((part, position) => {
    const owner = owners[position] ?? FRAME;
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

/**
 * For each part, the index of the content item it belongs to (as
 * `collectStream` builds the content), or {@link FRAME}: a block's parts
 * belong to its item, a call's argument parts to the call that follows.
 */
function ownersOf(parts: readonly LanguageModelV4StreamPart[]): number[] {
  const owners: number[] = [];
  const blocks = new Map<string, number>();
  const toolInputs = new Map<string, number[]>();
  let items = 0;
  for (const part of parts) {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start':
        blocks.set(`${part.type}:${part.id}`, items);
        owners.push(items++);
        break;
      case 'text-delta':
      case 'text-end':
        owners.push(blocks.get(`text-start:${part.id}`) ?? FRAME);
        break;
      case 'reasoning-delta':
      case 'reasoning-end':
        owners.push(blocks.get(`reasoning-start:${part.id}`) ?? FRAME);
        break;
      case 'tool-input-start':
      case 'tool-input-delta':
      case 'tool-input-end': {
        const pending = toolInputs.get(part.id) ?? [];
        pending.push(owners.length);
        toolInputs.set(part.id, pending);
        owners.push(FRAME);
        break;
      }
      case 'stream-start':
      case 'response-metadata':
      case 'finish':
      case 'error':
      case 'ping':
      case 'raw':
        owners.push(FRAME);
        break;
      default:
        if (part.type === 'tool-call') {
          for (const position of toolInputs.get(part.toolCallId) ?? []) owners[position] = items;
          toolInputs.delete(part.toolCallId);
        }
        owners.push(items++);
    }
  }
  return owners;
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
