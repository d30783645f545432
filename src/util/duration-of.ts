/** A remaining time, rounded up: `1 second`, `42 seconds`, `3 minutes`, `5 hours`, `3 days`. */
export function durationOf(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1_000));
  const [count, unit] =
    seconds < 120
      ? [seconds, 'second']
      : seconds < 7_200
        ? [Math.ceil(seconds / 60), 'minute']
        : seconds < 172_800
          ? [Math.ceil(seconds / 3_600), 'hour']
          : [Math.ceil(seconds / 86_400), 'day'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
