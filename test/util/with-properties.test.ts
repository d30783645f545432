/**
 * A guarded tool is a copy of the app's tool with its own `execute` (and the
 * fields the guard adds): every other field, its kind and the prototype are
 * the original's, whichever way the copy is made (a spread for a plain
 * object of plain fields, descriptors otherwise). Read through `guardTools`.
 */
import { generateText, isStepCount, type Tool, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardTools, InterventionActions } from '../../src/index.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const proceed = { name: 'audit', beforeToolCall: () => InterventionActions.proceed() };

/** The copy's own fields as descriptors, `execute` and the guard's additions left out. */
function fieldsBesideExecute(copy: object, original: object) {
  const fields = Object.getOwnPropertyDescriptors(copy) as Record<PropertyKey, PropertyDescriptor>;
  const added = Reflect.ownKeys(fields).filter((key) => !Reflect.ownKeys(original).includes(key));
  for (const key of ['execute', ...added]) delete fields[key];
  return { keys: Reflect.ownKeys(fields), fields };
}

function plainTool(ran: string[]): Tool {
  return tool({ description: 'Echo', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => (ran.push(text), text) });
}

describe('a guarded copy of a tool', () => {
  const SYMBOL = Symbol('app-field');

  const shapes: ReadonlyArray<readonly [string, (ran: string[]) => Tool]> = [
    ['a plain tool()', plainTool],
    ['a tool with a symbol-keyed field', (ran) => Object.assign(plainTool(ran), { [SYMBOL]: 'kept' })],
    [
      'a tool with a getter (never called while copying)',
      (ran) => {
        const original = plainTool(ran);
        let reads = 0;
        Object.defineProperty(original, 'description', { get: () => `read ${++reads} time(s)`, enumerable: true, configurable: true });
        return original;
      },
    ],
    ['a tool with a hidden field', (ran) => Object.defineProperty(plainTool(ran), 'secret', { value: 'kept hidden', enumerable: false })],
    ['a frozen tool', (ran) => Object.freeze(plainTool(ran))],
    [
      'a tool with its own prototype',
      (ran) => {
        class EchoTool {
          readonly inputSchema = z.object({ text: z.string() });
          get description() {
            return 'Echo, from the prototype';
          }
          async execute({ text }: { text: string }) {
            ran.push(text);
            return text;
          }
        }
        return new EchoTool() as unknown as Tool;
      },
    ],
  ];

  for (const [shape, make] of shapes) {
    it(`keeps every field of ${shape} as it is, and its prototype, and runs it guarded`, async () => {
      const ran: string[] = [];
      const original = make(ran);
      const before = fieldsBesideExecute(original, original);
      const { echo } = guardTools({ echo: original }, [proceed]);
      if (echo === undefined) throw new Error('no guarded tool');

      expect(echo).not.toBe(original);
      expect(Object.getPrototypeOf(echo)).toBe(Object.getPrototypeOf(original));
      const after = fieldsBesideExecute(echo, original);
      expect(after.keys).toEqual(before.keys);
      expect(after.fields).toEqual(before.fields);
      // the original is untouched
      expect(fieldsBesideExecute(original, original)).toEqual(before);

      const result = await generateText({
        model: scriptedModel(step(toolCall('c1', 'echo', { text: 'hi' })), step(text('done'))),
        tools: { echo },
        stopWhen: isStepCount(2),
        prompt: 'x',
      });
      expect(ran).toEqual(['hi']);
      expect(result.text).toBe('done');
    });
  }

  it('keeps a getter a getter: the copy reads the original getter at each read, never a value taken while copying', () => {
    let reads = 0;
    const original = plainTool([]);
    Object.defineProperty(original, 'description', { get: () => `read ${++reads}`, enumerable: true, configurable: true });
    const { echo } = guardTools({ echo: original }, [proceed]);
    expect(reads).toBe(0);
    expect(echo?.description).toBe('read 1');
    expect(echo?.description).toBe('read 2');
  });
});
