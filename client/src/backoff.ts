/** The wait before reconnection attempt `attempt` (1, 2 ...): 0.5 s doubling to at most 10 s, give or take a tenth. */
export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.9 + random() * 0.2));
}
