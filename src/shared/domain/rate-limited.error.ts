// The errors moved to errors.ts (the one file of shared errors); kept for imports inside auth until its split.
export { RateLimitedError } from './errors';
