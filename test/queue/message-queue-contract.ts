/**
 * What every `MessageQueue` must do, as tests: run by the memory queue's and
 * the Redis queue's test files against their own queues.
 */
import type { UserModelMessage } from 'ai';
import { expect, it } from 'vitest';
import type { MessageQueue } from '../../src/queue/create-message-queue.ts';

export interface QueuesUnderTest {
  /** Where messages are pushed. */
  readonly producer: MessageQueue;
  /** Two consumers of the same queue (two instances, or the same object twice). */
  readonly consumers: readonly [MessageQueue, MessageQueue];
}

const texts = (messages: readonly UserModelMessage[]) => messages.map((message) => message.content);

export function messageQueueContract(make: (mode: 'all' | 'one-at-a-time') => QueuesUnderTest | Promise<QueuesUnderTest>): void {
  it('should drain everything pushed, in order, strings as user messages, then nothing', async () => {
    const {
      producer,
      consumers: [consumer],
    } = await make('all');
    expect(await consumer.drain()).toEqual([]);
    await producer.push('first', { role: 'user', content: [{ type: 'text', text: 'second' }] });
    await producer.push('third');
    await producer.push(); // nothing to add
    expect(await consumer.drain()).toEqual([
      { role: 'user', content: 'first' },
      { role: 'user', content: [{ type: 'text', text: 'second' }] },
      { role: 'user', content: 'third' },
    ]);
    expect(await consumer.drain()).toEqual([]);
  });

  it("should drain one message per drain in 'one-at-a-time' mode", async () => {
    const {
      producer,
      consumers: [consumer],
    } = await make('one-at-a-time');
    await producer.push('a', 'b', 'c');
    expect(texts(await consumer.drain())).toEqual(['a']);
    expect(texts(await consumer.drain())).toEqual(['b']);
    await producer.push('d');
    expect(texts(await consumer.drain())).toEqual(['c']);
    expect(texts(await consumer.drain())).toEqual(['d']);
    expect(await consumer.drain()).toEqual([]);
  });

  it('should drop every waiting message on clear', async () => {
    const {
      producer,
      consumers: [consumer],
    } = await make('all');
    await producer.push('stale', 'older');
    await consumer.clear();
    expect(await consumer.drain()).toEqual([]);
    await producer.push('fresh');
    expect(texts(await consumer.drain())).toEqual(['fresh']);
  });

  for (const mode of ['all', 'one-at-a-time'] as const) {
    it(`should deliver each of 300 messages exactly once to two consumers draining while they are pushed (${mode})`, async () => {
      const { producer, consumers } = await make(mode);
      const pushed = Array.from({ length: 300 }, (_, index) => `message ${index}`);
      const delivered: string[][] = [[], []];
      let pushing = true;
      const consume = async (index: 0 | 1) => {
        // keep draining until the producer is done and the queue is empty
        for (;;) {
          const wasPushing = pushing;
          const drained = await consumers[index].drain();
          delivered[index]?.push(...drained.map((message) => String(message.content)));
          if (drained.length === 0 && !wasPushing) return;
          await new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 4)));
        }
      };
      const produce = async () => {
        for (let start = 0; start < pushed.length; start += 3) {
          await producer.push(...pushed.slice(start, start + 3));
          await new Promise((resolve) => setTimeout(resolve, Math.random()));
        }
        pushing = false;
      };
      await Promise.all([produce(), consume(0), consume(1)]);
      const all = [...(delivered[0] ?? []), ...(delivered[1] ?? [])];
      expect(all).toHaveLength(300);
      expect(new Set(all)).toEqual(new Set(pushed));
      // both consumers took part; each got its messages in push order
      expect(
        delivered.map((got) => got.length > 0),
        JSON.stringify(delivered.map((got) => got.length)),
      ).toEqual([true, true]);
      for (const got of delivered) expect(got).toEqual([...got].sort((a, b) => pushed.indexOf(a) - pushed.indexOf(b)));
    });
  }
}
