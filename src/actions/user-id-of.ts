/** A person's id in a trusted runtime context: `runtimeContext.userId`, as a string (`undefined`: none). */
export function userIdOf(runtimeContext: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const userId = runtimeContext?.userId;
  return typeof userId === 'string' || typeof userId === 'number' ? String(userId) : undefined;
}
