import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/** Every migration, in order. A new migration is appended here (no glob: the build stays explicit). */
export const MIGRATIONS = [InitialSchema1763800000000];
