import type { Tool } from 'ai';

/**
 * `tool` with `replaced` properties (string or symbol keys): every other own
 * property (enumerable or not, getters included) and the prototype are kept,
 * so a class tool keeps its methods and the SDK finds every field it would on
 * the original.
 *
 * A plain object of plain fields (what `tool()` and MCP give) is copied by a
 * spread, which makes the very same object as the descriptors would at a
 * fraction of the cost (a run guards every tool of its set, called or not).
 */
export function withProperties(tool: Tool, replaced: Readonly<Record<PropertyKey, unknown>>): Tool {
  const keys = Reflect.ownKeys(replaced);
  if (keys.length === 0) return tool;
  if (Object.getPrototypeOf(tool) === Object.prototype && hasOnlyPlainFields(tool)) return { ...tool, ...replaced } as Tool;
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(tool);
  for (const key of keys) {
    descriptors[key] = { value: replaced[key], enumerable: true, writable: true, configurable: true };
  }
  return Object.create(Object.getPrototypeOf(tool) as object | null, descriptors) as Tool;
}

/** Whether every own property of `object` is a field a spread copies as it is: enumerable, writable and configurable, no getter. */
function hasOnlyPlainFields(object: object): boolean {
  for (const key of Reflect.ownKeys(object)) {
    const field = Object.getOwnPropertyDescriptor(object, key) as PropertyDescriptor;
    if (!('value' in field) || field.enumerable !== true || field.writable !== true || field.configurable !== true) return false;
  }
  return true;
}
