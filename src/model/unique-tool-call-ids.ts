import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4ToolCall } from '@ai-sdk/provider';

type Part = LanguageModelV4StreamPart;

/**
 * Gives every tool call of a response an id of its own. Providers may send
 * two calls with one id in a response (a hostile or broken endpoint does),
 * and the SDK keys a step's approvals, blocked calls and results by that id:
 * a denial of one would land on the other. The first call keeps the
 * provider's id; each later call repeating it gets a new one (`<id>-2`,
 * `<id>-3`, … unused in the response), which the history, the results and
 * the next request carry. The same response comes back when no id repeats.
 */
export function uniqueToolCallIds(response: LanguageModelV4GenerateResult): LanguageModelV4GenerateResult {
  const ids = new CallIds(idsOf(response.content));
  let content = response.content;
  response.content.forEach((part, index) => {
    if (part.type !== 'tool-call' || part.providerExecuted === true) return;
    const id = ids.assign(part.toolCallId);
    if (id === part.toolCallId) return;
    if (content === response.content) content = [...content];
    content[index] = { ...part, toolCallId: id };
  });
  return content === response.content ? response : { ...response, content };
}

/**
 * {@link uniqueToolCallIds} for a stream: a call's argument parts
 * (`tool-input-start` / `-delta` / `-end`) and its `tool-call` get the id
 * the call is given. A part passes unchanged unless its id repeats.
 */
export function uniqueToolCallIdsStream(): TransformStream<Part, Part> {
  // the ids of a stream are known only as they come: a new id is checked against those seen so far
  const ids = new CallIds(new Set());
  // the id given to each call whose arguments are streaming, by the provider's id
  const open = new Map<string, string>();
  return new TransformStream<Part, Part>({
    transform(part, controller) {
      switch (part.type) {
        case 'tool-input-start': {
          if (part.providerExecuted === true) {
            ids.note(part.id);
            break;
          }
          const id = ids.assign(part.id);
          open.set(part.id, id);
          controller.enqueue(id === part.id ? part : { ...part, id });
          return;
        }
        case 'tool-input-delta':
        case 'tool-input-end': {
          const id = open.get(part.id) ?? part.id;
          controller.enqueue(id === part.id ? part : { ...part, id });
          return;
        }
        case 'tool-call': {
          if (part.providerExecuted === true) {
            ids.note(part.toolCallId);
            break;
          }
          const streamed = open.get(part.toolCallId);
          open.delete(part.toolCallId);
          const id = streamed ?? ids.assign(part.toolCallId);
          controller.enqueue(id === part.toolCallId ? part : { ...part, toolCallId: id });
          return;
        }
        default:
          break;
      }
      controller.enqueue(part);
    },
  });
}

/** The ids a response already uses (a new id must not be one of them). */
function idsOf(content: LanguageModelV4GenerateResult['content']): Set<string> {
  const taken = new Set<string>();
  for (const part of content) if (part.type === 'tool-call') taken.add(part.toolCallId);
  return taken;
}

/** Hands out call ids: the provider's the first time it is seen, a new one after. */
class CallIds {
  private readonly given = new Set<string>();
  private readonly taken: Set<string>;

  constructor(taken: Set<string>) {
    this.taken = taken;
  }

  /** Notes an id used by a call that is not renamed (provider-executed). */
  note(id: string): void {
    this.given.add(id);
    this.taken.add(id);
  }

  assign(id: LanguageModelV4ToolCall['toolCallId']): string {
    if (!this.given.has(id)) {
      this.note(id);
      return id;
    }
    let n = 2;
    while (this.taken.has(`${id}-${n}`)) n++;
    const fresh = `${id}-${n}`;
    this.note(fresh);
    return fresh;
  }
}
