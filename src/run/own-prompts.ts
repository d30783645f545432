/**
 * The prompts of the model requests a runtime's runs and middleware send on
 * to the provider: the runtime's own `interventions.middleware` further in
 * lets such a request through as it is, so a model wrapped with it is
 * guarded once, also when given to the runtime's own wrappers or wrapped
 * twice (a middleware in between keeps the prompt). Another runtime's
 * middleware still guards them.
 *
 * Prompts are kept only once that middleware exists ({@link OwnPrompts.watch},
 * when `interventions.middleware` is first read): until then no model can be
 * wrapped with it, so no request needs telling apart, and a model call keeps
 * nothing (an entry in a `WeakSet` per model call costs the call and every
 * garbage collection after it).
 */
export class OwnPrompts {
  private prompts: WeakSet<object> | undefined;

  /** Keeps every prompt added from now on (the runtime's middleware exists). */
  watch(): void {
    this.prompts ??= new WeakSet();
  }

  /** Notes a prompt the runtime sends on, when something watches. */
  add(prompt: object): void {
    this.prompts?.add(prompt);
  }

  /** Whether the runtime sent this prompt on. */
  has(prompt: object): boolean {
    return this.prompts?.has(prompt) ?? false;
  }
}
