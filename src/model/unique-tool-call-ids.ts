import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { repeatsAnId } from './repeats-an-id.ts';

/**
 * Gives every tool call of a response an id of its own. Providers may send
 * two calls with one id in a response (a hostile or broken endpoint does),
 * and the SDK keys a step's approvals, blocked calls and results by that id:
 * a denial of one would land on the other. The first call keeps the
 * provider's id; each later call repeating it gets a new one (`<id>-2`,
 * `<id>-3`, … unused in the response), which the history, the results and
 * the next request carry. The same response comes back when no id repeats.
 * (A streamed step gets the same ids as its parts come: {@link StreamedCallIds}.)
 */
export function uniqueToolCallIds(response: LanguageModelV4GenerateResult): LanguageModelV4GenerateResult {
  if (!repeatsAnId(response.content)) return response;
  const given = new Set<string>();
  const taken = new Set<string>();
  for (const part of response.content) if (part.type === 'tool-call') taken.add(part.toolCallId);
  const content = response.content.map((part) => {
    if (part.type !== 'tool-call' || part.providerExecuted === true) return part;
    const id = claim(part.toolCallId, given, taken);
    return id === part.toolCallId ? part : { ...part, toolCallId: id };
  });
  return { ...response, content };
}

/**
 * {@link uniqueToolCallIds} for a stream, part by part (a stream's ids are
 * known only as they come): a call's argument parts (`tool-input-start` /
 * `-delta` / `-end`) and its `tool-call` get the id the call is given. A
 * part passes unchanged unless its id repeats.
 */
export class StreamedCallIds {
  /** Every id given so far, the provider's calls' included. */
  private readonly given = new Set<string>();
  /** The id given to each call whose arguments are streaming (its `tool-call` has not come yet), by the provider's id. */
  readonly streaming = new Map<string, string>();

  name(part: LanguageModelV4StreamPart): LanguageModelV4StreamPart {
    switch (part.type) {
      case 'tool-input-start': {
        if (part.providerExecuted === true) {
          this.given.add(part.id);
          return part;
        }
        const id = claim(part.id, this.given);
        this.streaming.set(part.id, id);
        return id === part.id ? part : { ...part, id };
      }
      case 'tool-input-delta':
      case 'tool-input-end': {
        const id = this.streaming.get(part.id) ?? part.id;
        return id === part.id ? part : { ...part, id };
      }
      case 'tool-call': {
        if (part.providerExecuted === true) {
          this.given.add(part.toolCallId);
          return part;
        }
        // a call whose arguments streamed has its id already; any other is given one now
        const id = this.streaming.get(part.toolCallId) ?? claim(part.toolCallId, this.given);
        this.streaming.delete(part.toolCallId);
        return id === part.toolCallId ? part : { ...part, toolCallId: id };
      }
      default:
        return part;
    }
  }
}

/** `id` if not given yet, else the first of `<id>-2`, `<id>-3`, … neither given nor `taken`; given from then on. */
function claim(id: string, given: Set<string>, taken: ReadonlySet<string> = given): string {
  let claimed = id;
  if (given.has(id)) {
    let n = 2;
    while (given.has(`${id}-${n}`) || taken.has(`${id}-${n}`)) n++;
    claimed = `${id}-${n}`;
  }
  given.add(claimed);
  return claimed;
}
