/** What the problem filter and the observation interceptor leave on `res.locals` for the counters. */
export interface ObservedLocals {
  problemCode?: string;
  replayed?: boolean;
}
