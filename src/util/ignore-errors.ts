/** Runs a caller's callback the way the AI SDK does: its errors are ignored. */
export async function ignoreErrors(work: () => unknown): Promise<void> {
  try {
    await work();
  } catch {
    // the SDK ignores callback errors; so do we
  }
}
