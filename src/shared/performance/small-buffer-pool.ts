// Performance trick 3 of docs/adr/0013: the side-effect import main.ts must keep as its FIRST import.
// Imported first by main.ts, so that every slab after the first is cut at this size (buffer-pool.ts).
import { useSmallBufferPool } from './buffer-pool';

useSmallBufferPool();
