import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { RedactionStream, Redactor } from './create-redactor.ts';

/** The text parts of a whole response, redacted by every redactor in order. */
export function redactResponse(
  redactors: readonly Redactor[],
  response: LanguageModelV4GenerateResult,
): LanguageModelV4GenerateResult {
  if (redactors.length === 0) return response;
  let changed = false;
  const content = response.content.map((part) => {
    if (part.type !== 'text') return part;
    const text = redactors.reduce((value, redactor) => redactor.redact(value), part.text);
    if (text === part.text) return part;
    changed = true;
    return { ...part, text };
  });
  return changed ? { ...response, content } : response;
}

/**
 * Redacts a provider stream's text as it flows: each text block gets its own
 * chain of redaction sessions; what they release is emitted as deltas, the
 * rest when the block ends.
 */
export function redactStream(
  redactors: readonly Redactor[],
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  const blocks = new Map<string, RedactionStream[]>();
  const push = (sessions: RedactionStream[], delta: string) =>
    sessions.reduce((text, session) => session.push(text), delta);
  const flush = (sessions: RedactionStream[]) =>
    sessions.reduce((text, session) => session.push(text) + session.flush(), '');

  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case 'text-start':
          blocks.set(part.id, redactors.map((redactor) => redactor.stream()));
          // provider metadata may reference the provider's stored, unredacted copy (OpenAI item ids)
          controller.enqueue({ type: 'text-start', id: part.id });
          return;
        case 'text-delta': {
          const sessions = blocks.get(part.id);
          if (sessions === undefined) break;
          const delta = push(sessions, part.delta);
          if (delta.length > 0) controller.enqueue({ type: 'text-delta', id: part.id, delta });
          return;
        }
        case 'text-end': {
          const sessions = blocks.get(part.id);
          if (sessions === undefined) break;
          blocks.delete(part.id);
          const delta = flush(sessions);
          if (delta.length > 0) controller.enqueue({ type: 'text-delta', id: part.id, delta });
          controller.enqueue({ type: 'text-end', id: part.id });
          return;
        }
      }
      controller.enqueue(part);
    },
    flush(controller) {
      for (const [id, sessions] of blocks) {
        const delta = flush(sessions);
        if (delta.length > 0) controller.enqueue({ type: 'text-delta', id, delta });
      }
      blocks.clear();
    },
  });
}
