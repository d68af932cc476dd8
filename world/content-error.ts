/** Content that does not load: every problem found, each naming file, entry and field. */
export class ContentError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `Invalid game content (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems
        .map((p) => `  - ${p}`)
        .join('\n')}`,
    );
    this.name = 'ContentError';
  }
}
