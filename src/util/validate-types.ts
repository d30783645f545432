import { asSchema, type FlexibleSchema, TypeValidationError } from 'ai';

/** What a failed validation names: the field and the entity it belongs to (the SDK's `TypeValidationError` context). */
export type ValidationContext = Parameters<typeof TypeValidationError.wrap>[0]['context'];

/** The outcome of {@link safeValidateTypes}: the validated value, or the SDK's `TypeValidationError`. */
export type Validation<T> =
  | { readonly success: true; readonly value: T }
  | { readonly success: false; readonly error: TypeValidationError };

/**
 * Validates `value` against a tool's or a context's schema the way the AI SDK
 * does (`safeValidateTypes` of `@ai-sdk/provider-utils`): the schema is read
 * with `ai`'s own `asSchema` (zod, any Standard Schema, `jsonSchema(…)`), a
 * schema without a validator accepts anything, and a refusal or a throwing
 * validator becomes a `TypeValidationError`. Written here on what `ai`
 * re-exports: `asSchema` from `@ai-sdk/provider-utils` would put that
 * package's zod 3 to JSON Schema converter into every bundle of this library
 * (scripts/size.ts).
 */
export async function safeValidateTypes<T>({
  value,
  schema,
  context,
}: {
  readonly value: unknown;
  readonly schema: FlexibleSchema<T>;
  readonly context?: ValidationContext;
}): Promise<Validation<T>> {
  const actual = asSchema(schema);
  try {
    if (actual.validate == null) return { success: true, value: value as T };
    const result = await actual.validate(value);
    return result.success
      ? { success: true, value: result.value }
      : { success: false, error: TypeValidationError.wrap({ value, cause: result.error, context }) };
  } catch (error) {
    return { success: false, error: TypeValidationError.wrap({ value, cause: error, context }) };
  }
}

/** {@link safeValidateTypes} that throws its `TypeValidationError` (`validateTypes` of the SDK). */
export async function validateTypes<T>(options: {
  readonly value: unknown;
  readonly schema: FlexibleSchema<T>;
  readonly context?: ValidationContext;
}): Promise<T> {
  const result = await safeValidateTypes(options);
  if (!result.success) throw result.error;
  return result.value;
}
