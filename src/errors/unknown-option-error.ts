import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_UnknownOptionError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * An options object has a key the function does not know: a misspelt option
 * (`handler` for `handlers`, `tool` for `tools`) would otherwise be ignored,
 * and what it was meant to configure (a list of guards, a scope, a fail-closed
 * `onError`) silently not applied. Thrown by `createInterventions`,
 * `guardTools`, `guardTool` and every built-in when it is called, naming the
 * function (`owner`), the key (`option`) and the closest known key
 * (`suggestion`, when one is close).
 *
 * @example
 * ```ts
 * try {
 *   createInterventions({ handler: [new ToolGuard(['delete_file'])] } as InterventionsOptions);
 * } catch (error) {
 *   if (UnknownOptionError.isInstance(error)) console.error(error.option, error.suggestion); // 'handler' 'handlers'
 * }
 * ```
 */
export class UnknownOptionError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** What was given the options: `createInterventions`, `toolPolicy "tool-policy"`, `toolPolicy "tool-policy" rule 2`. */
  readonly owner: string;
  /** The unknown key. */
  readonly option: string;
  /** The known key closest to it, when one is close enough to be what was meant. */
  readonly suggestion: string | undefined;
  /** Every key the options take. */
  readonly known: readonly string[];

  constructor({
    owner,
    option,
    suggestion,
    known,
  }: {
    owner: string;
    option: string;
    suggestion: string | undefined;
    known: readonly string[];
  }) {
    super({
      name,
      code: 'unknown-option',
      message:
        `${owner} has no option ${JSON.stringify(option)}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}: ` +
        `it would be ignored. Its options are ${known.join(', ')}.`,
    });
    this.owner = owner;
    this.option = option;
    this.suggestion = suggestion;
    this.known = known;
  }

  static override isInstance(error: unknown): error is UnknownOptionError {
    return InterventionsError.hasMarker(error, marker);
  }
}
