/**
 * What a run notices on the way (a file others may read, a choice made for the user, a fact
 * about the server): said once into the run's notes, wherever it is noticed, and shown at -v
 * after the summary, in the order said, the same way for every plugin (`lib/plugin/run.ts`).
 */
export class Notes {
  private readonly said: string[] = [];

  add(text: string): void {
    this.said.push(text);
  }

  /** The notes in the order they were said. */
  get all(): readonly string[] {
    return this.said;
  }
}
