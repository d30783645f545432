import { describe, expect, it } from 'vitest';
import { loadedTransform } from '../../src/util/loaded-transform.ts';

/** The chunks of a stream of `chunks` through `transform`. */
async function through<I, O>(chunks: readonly I[], transform: TransformStream<I, O>): Promise<O[]> {
  const read: O[] = [];
  const source = new ReadableStream<I>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const chunk of source.pipeThrough(transform)) read.push(chunk);
  return read;
}

describe('loadedTransform', () => {
  describe('when the transformer loads after chunks were written', () => {
    it('should pass every chunk through it, in order, then flush it', async () => {
      let release!: () => void;
      const loaded = new Promise<void>((resolve) => {
        release = resolve;
      });
      const transform = loadedTransform<number, string>(async () => {
        await loaded;
        return {
          transform: (chunk, controller) => controller.enqueue(`n${chunk}`),
          flush: (controller) => controller.enqueue('end'),
        };
      });
      const reading = through([1, 2, 3], transform);
      release();
      expect(await reading).toEqual(['n1', 'n2', 'n3', 'end']);
    });
  });

  describe('when the transformer has no transform', () => {
    it('should pass the chunks as they are', async () => {
      expect(
        await through(
          [1, 2],
          loadedTransform<number, number>(async () => ({})),
        ),
      ).toEqual([1, 2]);
    });
  });

  describe('when loading fails', () => {
    it('should error the stream with the failure', async () => {
      const failing = loadedTransform<number, number>(() => Promise.reject(new Error('chunk missing')));
      await expect(through([1], failing)).rejects.toThrow('chunk missing');
    });
  });
});
