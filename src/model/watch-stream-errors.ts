/** Passes a stream through, telling `onError` (once, before the reader sees it) when it throws. */
export function watchStreamErrors<T>(stream: ReadableStream<T>, onError: (error: unknown) => Promise<void>): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      let next: ReadableStreamReadResult<T>;
      try {
        next = await reader.read();
      } catch (error) {
        await onError(error);
        controller.error(error);
        return;
      }
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
