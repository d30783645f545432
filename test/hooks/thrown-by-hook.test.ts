import { isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, InvalidHookError, thrownByHook } from '../../src/index.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const fetch_weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });

describe('thrownByHook', () => {
  describe('when a hook throws', () => {
    it('should end the call with the same error (seed 004), and name the hook on it', async () => {
      const notPermitted = new Error('Not permitted');
      const seenByOnChatError: unknown[] = [];
      const interventions = createInterventions({
        hooks: { onChatError: ({ error }) => void seenByOnChatError.push(thrownByHook(error)) },
      });
      interventions.addHook('preToolCall', function checkPermissions() {
        throw notPermitted;
      });
      const model = scriptedModel(step(toolCall('c1', 'fetch_weather', { city: 'Paris' })), step(text('never')));

      const error = await rejectionOf(
        interventions.generateText({ model, tools: { fetch_weather }, stopWhen: isStepCount(3), prompt: 'weather?' }),
      );

      expect(error).toBe(notPermitted);
      expect(thrownByHook(error)).toBe('preToolCall hook "checkPermissions"');
      expect(seenByOnChatError).toEqual(['preToolCall hook "checkPermissions"']);
      // the message and the JSON are the error's own
      expect((error as Error).message).toBe('Not permitted');
      expect(JSON.stringify(error)).toBe('{}');
    });

    it('should name an anonymous hook by its event and position, for observers and interceptors, in streamText too', async () => {
      const boom = new Error('boom');
      const interventions = createInterventions({
        hooks: { onChatStart: [() => undefined, () => Promise.reject(boom)] },
      });
      const reported: unknown[] = [];
      const result = interventions.streamText({
        model: scriptedModel(step(text('never'))),
        prompt: 'hi',
        onError: ({ error }) => void reported.push(error),
      });
      await result.consumeStream();
      // the stream reports it as the SDK reports any failure before the first output
      const [error] = reported;
      expect(error).toBe(boom);
      expect(thrownByHook(error)).toBe('onChatStart hook #2');
    });

    it('should keep the innermost hook when the error passes through another one', async () => {
      const original = new Error('tool failed');
      const interventions = createInterventions({
        hooks: {
          onResponse: function audit() {
            throw original;
          },
        },
      });
      interventions.addHook('onChatError', () => {
        // an observer that rethrows is swallowed; the first mark stays
        throw original;
      });
      const error = await rejectionOf(interventions.generateText({ model: scriptedModel(step(text('x'))), prompt: 'hi' }));
      expect(thrownByHook(error)).toBe('onResponse hook "audit"');
    });

    it('should leave a thrown primitive or a frozen error as it is (they cannot carry the mark)', async () => {
      for (const thrown of ['a string', Object.freeze(new Error('frozen'))]) {
        const interventions = createInterventions({
          hooks: {
            preRequest: () => {
              throw thrown;
            },
          },
        });
        const error = await rejectionOf(interventions.generateText({ model: scriptedModel(step(text('x'))), prompt: 'hi' }));
        expect(error).toBe(thrown);
        expect(thrownByHook(error)).toBeUndefined();
      }
    });
  });

  it('should be undefined for errors no hook threw', async () => {
    const error = await rejectionOf(createInterventions().generateText({ model: scriptedModel(), prompt: 'hi' }));
    expect(thrownByHook(error)).toBeUndefined();
    expect(thrownByHook(undefined)).toBeUndefined();
  });
});

describe('addHook', () => {
  describe('when the event name is misspelt', () => {
    it('should suggest the hook that was meant', () => {
      const interventions = createInterventions();
      expect(() => interventions.addHook('preToolcall' as 'preToolCall', () => undefined)).toThrow(
        'Unknown hook event "preToolcall" (did you mean preToolCall?); expected one of',
      );
    });

    it('should say that a lifecycle name belongs on a handler', () => {
      expect(() => createInterventions({ hooks: { beforeToolCall: () => undefined } as never })).toThrow(InvalidHookError);
      expect(() => createInterventions({ hooks: { beforeToolCall: () => undefined } as never })).toThrow(
        '(beforeToolCall is a handler lifecycle method: put it on a handler, see defineHandler)',
      );
    });
  });
});
