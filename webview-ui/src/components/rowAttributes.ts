/** The data attributes every message row carries (tests and the benchmark find messages by them). */
export type RowAttributes = Record<string, string>;
