/**
 * `createRedisMessageQueue` against a real `redis-server`: the queue
 * contract with two consumers on one key, what is stored, and two Node
 * processes (one streaming a run, one feeding its steering queue) sharing it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createRedisMessageQueue } from '../../src/queue/create-redis-message-queue.ts';
import { spawnChild } from '../helpers/child-process.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import { messageQueueContract } from './message-queue-contract.ts';
import type { SteeringChildCommand, SteeringChildMessage } from './redis-steering-child.ts';

describe.skipIf(!hasRedisServer)(redisTitle('createRedisMessageQueue on a real redis-server'), () => {
  const redis = useRedisServer();

  describe('the MessageQueue contract, two consumers on one key', () => {
    messageQueueContract((mode) => {
      const options = { client: redis.client, key: 'steering:chat-1', prefix: uniquePrefix(), mode };
      return {
        producer: createRedisMessageQueue(options),
        consumers: [createRedisMessageQueue(options), createRedisMessageQueue(options)],
      };
    });
  });

  it('should keep the queue as a list under the prefix, with a TTL restarted by each push, and count it', async () => {
    const { client } = redis;
    const prefix = uniquePrefix();
    const queue = createRedisMessageQueue({ client, key: 'steering:chat-2', prefix, ttlMs: 60_000 });
    await queue.push('one', 'two');
    expect(await client.lrange(`${prefix}steering:chat-2`, 0, -1)).toEqual([
      '{"role":"user","content":"one"}',
      '{"role":"user","content":"two"}',
    ]);
    expect(await queue.size()).toBe(2);
    await client.pexpire(`${prefix}steering:chat-2`, 1_000);
    await queue.push('three');
    expect(await client.pttl(`${prefix}steering:chat-2`)).toBeGreaterThan(55_000);
    await queue.drain();
    expect(await client.exists(`${prefix}steering:chat-2`)).toBe(0);
    expect(await queue.size()).toBe(0);
    expect(() => createRedisMessageQueue({ client, key: 'k', ttlMs: 0 })).toThrow(/ttlMs must be a positive number/);
  });

  it('should carry binary data as base64, push more than one script call holds, and skip entries that are not user messages', async () => {
    const { client } = redis;
    const prefix = uniquePrefix();
    const queue = createRedisMessageQueue({ client, key: 'q', prefix });
    await queue.push({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', image: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' },
        { type: 'file', data: Buffer.from('hello'), mediaType: 'text/plain' },
        { type: 'image', image: new URL('https://example.com/cat.png') },
      ],
    });
    expect(await queue.drain()).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', image: 'iVBORw==', mediaType: 'image/png' },
          { type: 'file', data: 'aGVsbG8=', mediaType: 'text/plain' },
          { type: 'image', image: 'https://example.com/cat.png' },
        ],
      },
    ]);

    const many = Array.from({ length: 2_500 }, (_, index) => `m${index}`);
    await queue.push(...many);
    expect((await queue.drain()).map((message) => message.content)).toEqual(many);

    await client.rpush(`${prefix}q`, 'not json', '{"role":"assistant","content":"x"}', '{"role":"user","content":"kept"}');
    expect(await queue.drain()).toEqual([{ role: 'user', content: 'kept' }]);
    await expect(createRedisMessageQueue({ client: { eval: async () => 'OK' }, key: 'q' }).drain()).rejects.toThrow(
      /createRedisMessageQueue: unexpected reply to drain: "OK"/,
    );
  });

  it('should deliver a steering message pushed by one process to the run streaming in another, exactly once', async () => {
    const prefix = uniquePrefix();
    const key = 'steering:chat-42';
    const spawn = (role: 'run' | 'feed') =>
      spawnChild<SteeringChildMessage, SteeringChildCommand>(new URL('./redis-steering-child.ts', import.meta.url), {
        args: [redis.server.port, prefix, key, role],
      });
    const runner = spawn('run');
    const feeder = spawn('feed');
    onTestFinished(async () => {
      await Promise.all([runner.kill(), feeder.kill()]);
    });
    await Promise.all([runner.receive('ready', { timeoutMs: 30_000 }), feeder.receive('ready', { timeoutMs: 30_000 })]);

    runner.send({ type: 'start' });
    await runner.receive('tool-started'); // the run is in flight, inside its first turn's tool call
    feeder.send({ type: 'push', text: 'Use Paris, Texas instead.' });
    await feeder.receive('pushed');
    runner.send({ type: 'release' });
    const finished = await runner.receive('finished');
    feeder.send({ type: 'drain' });
    const drained = await feeder.receive('drained');
    await Promise.all([runner.close(), feeder.close()]);

    expect(finished.text).toBe('Checked Paris, Texas.');
    expect(finished.prompts).toHaveLength(2);
    const [first, second] = finished.prompts;
    expect(occurrences(first, 'Use Paris, Texas instead.')).toBe(0);
    expect(occurrences(second, 'Use Paris, Texas instead.')).toBe(1);
    // right after the turn's tool result
    expect(second?.slice(-3).map((message) => message.role)).toEqual(['assistant', 'tool', 'user']);
    expect(second?.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'Use Paris, Texas instead.' }] });
    // nothing left for anyone else, nothing delivered twice
    expect(drained.messages).toEqual([]);
    expect(await redis.client.exists(`${prefix}${key}`)).toBe(0);
  }, 60_000);
});

function occurrences(prompt: readonly unknown[] | undefined, text: string): number {
  return JSON.stringify(prompt ?? []).split(text).length - 1;
}
