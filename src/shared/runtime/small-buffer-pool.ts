// Imported first by main.ts, so that every slab after the first is cut at this size (buffer-pool.ts).
import { useSmallBufferPool } from './buffer-pool';

useSmallBufferPool();
