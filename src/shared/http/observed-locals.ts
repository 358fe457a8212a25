/** What the problem filter and the observation interceptor leave on `res.locals` for the counters and the request log. */
export interface ObservedLocals {
  problemCode?: string;
  /** a problem answer's `errors` pointers (the developer console's request log, CONTRACT §15) */
  problemPointers?: string[];
  replayed?: boolean;
}
