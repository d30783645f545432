/** Whether `value` can be iterated with `for await` (what a streaming tool returns). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value != null &&
    typeof value === 'object' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** The last value of an async iterable (a streaming tool's final result). */
export async function lastOf(iterable: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of iterable) last = value;
  return last;
}

/** `stream`, iterable with `for await` (Node's streams are; a polyfilled one may not be). */
export function asyncIterable<T>(stream: ReadableStream<T>): ReadableStream<T> & AsyncIterable<T> {
  if (typeof (stream as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function') {
    return stream as ReadableStream<T> & AsyncIterable<T>;
  }
  const iterate = async function* (): AsyncGenerator<T> {
    const reader = stream.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    } finally {
      reader.releaseLock();
    }
  };
  return Object.assign(stream, { [Symbol.asyncIterator]: iterate });
}
