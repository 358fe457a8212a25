/**
 * A signal within one process: `tell()` calls every watcher. Process memory only ever wakes something up
 * sooner; what is due is decided by the database (several instances run against one).
 */
export interface InProcessSignal {
  tell(): void;
  /** `told` is called on each `tell()` until the returned function is called. */
  watch(told: () => void): () => void;
}

export function inProcessSignal(): InProcessSignal {
  const watchers = new Set<() => void>();
  return {
    tell: () => {
      for (const told of watchers) told();
    },
    watch: (told) => {
      watchers.add(told);
      return () => watchers.delete(told);
    },
  };
}
