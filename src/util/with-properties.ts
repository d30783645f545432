import type { Tool } from 'ai';

/**
 * `tool` with `replaced` properties (string or symbol keys): every other own
 * property (enumerable or not, getters included) and the prototype are kept,
 * so a class tool keeps its methods and the SDK finds every field it would on
 * the original.
 */
export function withProperties(tool: Tool, replaced: Readonly<Record<PropertyKey, unknown>>): Tool {
  const keys = Reflect.ownKeys(replaced);
  if (keys.length === 0) return tool;
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(tool);
  for (const key of keys) {
    descriptors[key] = { value: replaced[key], enumerable: true, writable: true, configurable: true };
  }
  return Object.create(Object.getPrototypeOf(tool) as object | null, descriptors) as Tool;
}
