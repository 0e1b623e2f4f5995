/** "1 operation", "2 operations": a count with its noun agreeing. */
export function count(amount: number, noun: string, plural = `${noun}s`): string {
  return `${amount} ${amount === 1 ? noun : plural}`;
}
