/**
 * A `TransformStream` whose transformer is loaded when the stream starts
 * (the `import()` of code only a flowing stream needs): the chunks written
 * meanwhile wait, in order, and then go through it as through the
 * transformer itself.
 */
export function loadedTransform<I, O>(load: () => Promise<Transformer<I, O>>): TransformStream<I, O> {
  let transformer: Transformer<I, O> = {};
  return new TransformStream<I, O>({
    async start(controller) {
      transformer = await load();
      await transformer.start?.(controller);
    },
    transform: (chunk, controller) =>
      transformer.transform === undefined ? controller.enqueue(chunk as unknown as O) : transformer.transform(chunk, controller),
    flush: (controller) => transformer.flush?.(controller),
  });
}
