import { describe, expect, it } from 'vitest';
import { mergeHooks } from '../../src/hooks/merge-hooks.ts';
import { createInterventions, type HooksConfig, InvalidHookError } from '../../src/index.ts';
import { scriptedModel, text } from '../../src/testing/index.ts';

describe('mergeHooks', () => {
  it("should concatenate each event's hooks in argument order, lists kept in order", async () => {
    const order: string[] = [];
    const log = (entry: string) => () => void order.push(entry);
    const merged = mergeHooks(
      { onChatStart: log('a1'), onChatDone: [log('a-done-1'), log('a-done-2')] },
      undefined,
      { onChatStart: [log('b1'), log('b2')] },
      { onChatDone: log('c-done') },
    );
    expect(Object.keys(merged).sort()).toEqual(['onChatDone', 'onChatStart']);

    const interventions = createInterventions({ hooks: merged });
    await interventions.generateText({ model: scriptedModel(text('ok')), prompt: 'hi' });
    expect(order).toEqual(['a1', 'b1', 'b2', 'a-done-1', 'a-done-2', 'c-done']);
  });

  it('should compose interceptors as a waterfall across the merged sets', async () => {
    const merged = mergeHooks(
      { onResponse: ({ response }) => ({ response: { ...response, content: [{ type: 'text', text: 'first' }] } }) },
      {
        onResponse: ({ response }) => {
          const [part] = response.content;
          return { response: { ...response, content: [{ type: 'text', text: `${part?.type === 'text' ? part.text : ''}+second` }] } };
        },
      },
    );
    const interventions = createInterventions({ hooks: merged });
    const result = await interventions.generateText({ model: scriptedModel(text('raw')), prompt: 'hi' });
    expect(result.text).toBe('first+second');
  });

  it('should not change its inputs, and return an empty config for none', () => {
    const hook = () => undefined;
    const a: HooksConfig = { onStatus: [hook] };
    const merged = mergeHooks(a, { onStatus: hook });
    expect(a.onStatus).toEqual([hook]);
    expect(merged.onStatus).toEqual([hook, hook]);
    expect(mergeHooks()).toEqual({});
  });

  it('should keep unknown events, so createInterventions reports them', () => {
    const typo = { onChatStrat: () => undefined } as unknown as HooksConfig;
    expect(() => createInterventions({ hooks: mergeHooks(typo) })).toThrow(InvalidHookError);
  });
});
