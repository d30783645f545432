import { describe, expect, it } from 'vitest';
import { createMessageQueue } from '../../src/queue/create-message-queue.ts';
import { messageQueueContract } from './message-queue-contract.ts';

describe('createMessageQueue', () => {
  describe('the MessageQueue contract', () => {
    messageQueueContract((mode) => {
      const queue = createMessageQueue({ mode });
      return { producer: queue, consumers: [queue, queue] };
    });
  });

  it('should stay synchronous, with a size', () => {
    const queue = createMessageQueue();
    queue.push('a', 'b');
    expect(queue.size).toBe(2);
    const drained = queue.drain();
    expect(Array.isArray(drained)).toBe(true); // not a promise
    expect(drained).toHaveLength(2);
    expect(queue.size).toBe(0);
  });
});
