/**
 * Turns what a call exposes into plain, comparable data, taken at the moment
 * it is observed (later mutations do not leak in). Only true nondeterminism
 * is normalized: dates created during the run (`<now>`), live objects that
 * cannot be compared by value (signals, streams, promises, functions,
 * schemas) become markers saying what they are. Everything else is kept,
 * including class names, getters on prototypes, hidden own properties of
 * class instances and key order.
 */

export interface NormalizeContext {
  /** The caller's tools, by object: they are reported by name, with whether the object is the caller's own. */
  readonly tools: ReadonlyMap<object, string>;
  /** The caller's models. */
  readonly models: ReadonlySet<object>;
  /** Dates at or after this time were created by the run. */
  readonly startedAt: number;
}

const MAX_DEPTH = 14;

/** Wall-clock durations (the SDK measures tool executions with the real clock; the handlers' records too). */
const TIMING_KEYS = new Set(['toolExecutionMs', 'durationMs']);

/** Ids the SDK draws without its `_internal.generateId` (a streamed model call's `responseId`). */
const SDK_RANDOM_ID = /^aitxt-[0-9A-Za-z]{24}$/;

/** A normalized tool: which caller tool it is (by name), whether it is that object, and what it carries. */
export interface ToolMarker {
  readonly $tool: string;
  readonly same: boolean;
  readonly properties: Record<string, unknown>;
}

export function normalize(value: unknown, context: NormalizeContext): unknown {
  return walk(value, context, 0, []);
}

/** The normalized form of an error. */
export function errorOf(error: unknown, context: NormalizeContext): unknown {
  return walk(error, context, 0, []);
}

function walk(value: unknown, context: NormalizeContext, depth: number, stack: object[]): unknown {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
      return SDK_RANDOM_ID.test(value) ? '$sdk-random-id' : value;
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : `$${String(value)}`;
    case 'bigint':
      return `$bigint:${value}`;
    case 'symbol':
      return `$${String(value)}`;
    case 'function':
      return '$function';
  }
  const object = value as object;
  if (depth > MAX_DEPTH) return '$too-deep';
  if (stack.includes(object)) return '$circular';
  const next = [...stack, object];

  if (object instanceof Date) {
    return Number.isNaN(object.getTime()) ? '$invalid-date' : object.getTime() >= context.startedAt ? '$now' : object.toISOString();
  }
  if (object instanceof AbortSignal) return { $signal: object.aborted ? 'aborted' : 'live' };
  if (object instanceof Uint8Array) return { $bytes: Buffer.from(object).toString('base64') };
  if (object instanceof ArrayBuffer) return { $bytes: Buffer.from(object).toString('base64') };
  if (object instanceof URL) return { $url: object.href };
  if (object instanceof ReadableStream) return '$stream';
  if (object instanceof Error) return walkError(object, context, depth, next);
  if (typeof (object as { then?: unknown }).then === 'function') return '$promise';
  if (Array.isArray(object)) return object.map((item) => walk(item, context, depth + 1, next));
  if (object instanceof Map) {
    return {
      $map: [...object.entries()].map(([key, item]) => [walk(key, context, depth + 1, next), walk(item, context, depth + 1, next)]),
    };
  }
  if (object instanceof Set) return { $set: [...object].map((item) => walk(item, context, depth + 1, next)) };
  if (isSchema(object)) return '$schema';
  if (context.models.has(object)) return { $model: 'caller' };
  if (isModel(object)) {
    const model = object as { provider: string; modelId: string };
    return { $model: 'other', provider: model.provider, modelId: model.modelId };
  }
  if (isGeneratedFile(object)) {
    // its own fields are caches its getters fill on first read: compare what it exposes
    const file = object as { mediaType: string; base64: string; filename?: string };
    return { $file: file.mediaType, base64: file.base64, ...(file.filename === undefined ? {} : { filename: file.filename }) };
  }
  const toolName = context.tools.get(object);
  if (toolName !== undefined || isTool(object)) return toolMarker(object, toolName, context, depth, next);
  return walkObject(object, context, depth, next);
}

function walkError(error: Error, context: NormalizeContext, depth: number, stack: object[]): unknown {
  const normalized: Record<string, unknown> = {
    $error: error.constructor?.name ?? 'Error',
    name: error.name,
    message: error.message,
  };
  for (const key of Object.keys(error)) {
    if (key === 'stack' || key === 'name' || key === 'message') continue;
    normalized[key] = walk((error as unknown as Record<string, unknown>)[key], context, depth + 1, stack);
  }
  if ('cause' in error && error.cause !== undefined && !('cause' in normalized)) {
    normalized.cause = walk(error.cause, context, depth + 1, stack);
  }
  return normalized;
}

function walkObject(object: object, context: NormalizeContext, depth: number, stack: object[]): unknown {
  const prototype: object | null = Object.getPrototypeOf(object);
  const plain = prototype === Object.prototype || prototype === null;
  const normalized: Record<string, unknown> = {};
  if (!plain) normalized.$class = (prototype as { constructor?: { name?: string } }).constructor?.name ?? '?';
  const keys = plain ? Object.keys(object) : Object.getOwnPropertyNames(object);
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    const shown = !plain && descriptor?.enumerable === false ? `(hidden) ${key}` : key;
    normalized[shown] = TIMING_KEYS.has(key) ? timing((object as Record<string, unknown>)[key]) : read(object, key, context, depth, stack);
  }
  // getters of a class (a result, a step) are what callers read
  if (!plain) {
    for (let level = prototype; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level)) {
      for (const key of Object.getOwnPropertyNames(level)) {
        if (key === 'constructor' || key in normalized) continue;
        const descriptor = Object.getOwnPropertyDescriptor(level, key);
        if (descriptor?.get === undefined) continue;
        normalized[key] = read(object, key, context, depth, stack);
      }
    }
  }
  return normalized;
}

/** A duration (or a record of durations) with every number replaced by `$ms`. */
function timing(value: unknown): unknown {
  if (typeof value === 'number') return '$ms';
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, timing(item)]));
  }
  return value;
}

function read(object: object, key: string, context: NormalizeContext, depth: number, stack: object[]): unknown {
  try {
    return walk((object as Record<string, unknown>)[key], context, depth + 1, stack);
  } catch (error) {
    return { $thrown: walk(error, context, depth + 1, stack) };
  }
}

/** Every property a tool carries (own and inherited), functions as markers, schemas as `$schema`. */
function toolMarker(tool: object, name: string | undefined, context: NormalizeContext, depth: number, stack: object[]): ToolMarker {
  const properties: Record<string, unknown> = {};
  const names = new Set<string>();
  for (let level: object | null = tool; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level)) {
    for (const key of Object.getOwnPropertyNames(level)) if (key !== 'constructor') names.add(key);
  }
  for (const key of [...names].sort()) properties[key] = read(tool, key, context, depth, stack);
  return { $tool: name ?? '?', same: name !== undefined, properties };
}

/** An SDK GeneratedFile (`base64` and `uint8Array` are lazy getters over cached fields). */
function isGeneratedFile(object: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(object);
  if (prototype === null || prototype === Object.prototype || typeof prototype !== 'object') return false;
  const get = (key: string) => {
    for (let level: object | null = prototype as object; level !== null; level = Object.getPrototypeOf(level)) {
      const descriptor = Object.getOwnPropertyDescriptor(level, key);
      if (descriptor !== undefined) return descriptor.get !== undefined;
    }
    return false;
  };
  return get('base64') && get('uint8Array');
}

function isSchema(object: object): boolean {
  return '~standard' in object || '_zod' in object || ('jsonSchema' in object && 'validate' in object);
}

function isModel(object: object): boolean {
  return 'specificationVersion' in object && 'doGenerate' in object && 'doStream' in object;
}

function isTool(object: object): boolean {
  const schema: unknown = (object as { inputSchema?: unknown }).inputSchema;
  return schema !== null && typeof schema === 'object' && isSchema(schema);
}
