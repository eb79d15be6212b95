/**
 * Runs tasks with the same key one after another (in this process). The chat
 * pipeline computes a turn from the conversation's state before appending
 * it; two turns of one conversation computed at once would both be based on
 * the same state, so they queue. Across processes the conversation stream's
 * revision check still refuses the second (409). The token buckets queue
 * takes of one bucket likewise, so a burst does not spin on compare-and-set.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
