/**
 * Validation against a tool's or a context's schema, as the AI SDK
 * validates: the same values accepted (zod transforms included), the same
 * refusals with the same `TypeValidationError` text, for zod, another
 * Standard Schema, `jsonSchema` with and without a validator, and lazy
 * schemas.
 */
import { safeValidateTypes as sdkSafeValidate, validateTypes as sdkValidate } from '@ai-sdk/provider-utils';
import { type FlexibleSchema, jsonSchema, TypeValidationError } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { safeValidateTypes, validateTypes } from '../../src/util/validate-types.ts';

/** A Standard Schema that is not zod: accepts even numbers. */
const evenNumber: FlexibleSchema<number> = {
  '~standard': {
    version: 1,
    vendor: 'hand-made',
    validate: (value: unknown) =>
      typeof value === 'number' && value % 2 === 0 ? { value } : { issues: [{ message: 'expected an even number' }] },
  },
} as FlexibleSchema<number>;

const schemas: [string, FlexibleSchema<unknown>, unknown[]][] = [
  ['zod', z.object({ path: z.string().trim() }), [{ path: ' /tmp ' }, { path: 3 }, 'nope']],
  ['a zod transform', z.string().transform((text) => text.length), ['four', 4]],
  ['another Standard Schema', evenNumber, [2, 3, 'x']],
  ['jsonSchema without a validator', jsonSchema({ type: 'object' }), [{ any: 'thing' }, 12]],
  [
    'jsonSchema with a throwing validator',
    jsonSchema<{ a: number }>(
      { type: 'object' },
      {
        validate: (value) => {
          if (typeof value !== 'object') throw new Error('not an object');
          return { success: true, value: value as { a: number } };
        },
      },
    ),
    [{ a: 1 }, 'text'],
  ],
  [
    'a lazy schema',
    () =>
      jsonSchema(
        { type: 'string' },
        { validate: (value) => ({ success: typeof value === 'string', value, error: new Error('not a string') }) as never },
      ),
    ['ok', 1],
  ],
];

const context = { field: 'tool context', entityName: 'search' };

describe('safeValidateTypes', () => {
  describe.each(schemas)('when the schema is %s', (_, schema, values) => {
    it.each(values.map((value) => [JSON.stringify(value), value] as const))(
      'should accept or refuse %s as the SDK does',
      async (_, value) => {
        const ours = await safeValidateTypes({ value, schema, context });
        const sdk = await sdkSafeValidate({ value, schema, context });
        expect(ours.success).toBe(sdk.success);
        if (ours.success && sdk.success) expect(ours.value).toEqual(sdk.value);
        if (!ours.success && !sdk.success) {
          expect(TypeValidationError.isInstance(ours.error)).toBe(true);
          expect(ours.error.message).toBe(sdk.error.message);
        }
      },
    );
  });
});

describe('validateTypes', () => {
  it("should return the validated value, and throw the SDK's TypeValidationError on a refusal", async () => {
    const schema = z.object({ n: z.coerce.number() });
    await expect(validateTypes({ value: { n: '4' }, schema })).resolves.toEqual({ n: 4 });
    const ours = await validateTypes({ value: { n: 'x' }, schema, context }).catch((error: unknown) => error);
    const sdk = await sdkValidate({ value: { n: 'x' }, schema, context }).catch((error: unknown) => error);
    expect(TypeValidationError.isInstance(ours)).toBe(true);
    expect((ours as Error).message).toBe((sdk as Error).message);
  });
});
