import type { UserModelMessage } from 'ai';

/**
 * A queue of user messages the caller feeds while a run is in flight, passed
 * as the `steering` or `followUp` option of `interventions.generateText` /
 * `streamText`. The run only pulls from it: once per turn right after the
 * turn's tool results (`steering`), or when the run would end with a final
 * answer (`followUp`). It is not drained while the run waits for a human's
 * approval, nor once the step cap is reached: those messages stay for the
 * next run.
 *
 * Any method may be async, so a queue can live outside the process:
 * {@link createMessageQueue} is in memory (the run and the code feeding it
 * share a process), {@link createRedisMessageQueue} is shared by every
 * instance using the same Redis key. `drain` must be atomic: a message is
 * handed to exactly one drain, however many consumers there are.
 *
 * @example
 * ```ts
 * const steering = createMessageQueue();
 * const result = interventions.streamText({ model, tools, messages, steering, maxSteps: 10 });
 * // later, while it streams:
 * steering.push('Use Paris, Texas instead.');
 * ```
 */
export interface MessageQueue {
  /** Adds messages at the end. */
  push(...messages: ReadonlyArray<string | UserModelMessage>): void | Promise<void>;
  /**
   * Removes and returns what the run should inject now: everything, or the
   * first message (`mode: 'one-at-a-time'`).
   */
  drain(): UserModelMessage[] | Promise<UserModelMessage[]>;
  /** Drops every waiting message. */
  clear(): void | Promise<void>;
}

/**
 * The in-memory {@link MessageQueue} of {@link createMessageQueue}: every
 * method is synchronous, and `size` says how many messages wait.
 *
 * @example
 * ```ts
 * const steering: MemoryMessageQueue = createMessageQueue();
 * steering.push('Stop after the first result.');
 * console.log(steering.size); // 1
 * ```
 */
export interface MemoryMessageQueue extends MessageQueue {
  push(...messages: ReadonlyArray<string | UserModelMessage>): void;
  drain(): UserModelMessage[];
  clear(): void;
  /** How many messages wait. */
  readonly size: number;
}

/**
 * Creates a {@link MessageQueue} in this process's memory.
 *
 * @param options How the queue hands out its messages.
 * @param options.mode `'all'` (default) hands every waiting message to the run at once;
 * `'one-at-a-time'` hands one per turn.
 *
 * @example
 * ```ts
 * const followUp = createMessageQueue({ mode: 'one-at-a-time' });
 * followUp.push('Now verify the changes.', 'Then summarise them.');
 * await interventions.generateText({ model, tools, prompt, followUp, maxSteps: 12 });
 * ```
 */
export function createMessageQueue({ mode = 'all' }: { readonly mode?: 'all' | 'one-at-a-time' } = {}): MemoryMessageQueue {
  let messages: UserModelMessage[] = [];
  return {
    push: (...added) => {
      messages.push(...added.map(toUserMessage));
    },
    drain: () => {
      if (mode === 'one-at-a-time') return messages.splice(0, 1);
      const taken = messages;
      messages = [];
      return taken;
    },
    get size() {
      return messages.length;
    },
    clear: () => {
      messages = [];
    },
  };
}

/** A pushed string is a user message with that text. */
export function toUserMessage(message: string | UserModelMessage): UserModelMessage {
  return typeof message === 'string' ? { role: 'user', content: message } : message;
}
