/** The text the model reads for an error: the AI SDK's own, for every kind of value thrown. */
import { getErrorMessage as sdkErrorMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { getErrorMessage } from '../../src/util/get-error-message.ts';

class QuotaError extends Error {
  override name = 'QuotaError';
}

describe('getErrorMessage', () => {
  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a string', 'disk full'],
    ['an Error', new Error('boom')],
    ['a subclass', new QuotaError('over quota')],
    ['an object', { code: 42, detail: ['a'] }],
    ['a number', 7],
    ['false', false],
  ] as const)('should read %s as the SDK does', (_, value) => {
    expect(getErrorMessage(value)).toBe(sdkErrorMessage(value));
  });
});
