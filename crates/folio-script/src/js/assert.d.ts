// env:assert — assertions for *.test.js scripts. A failure throws AssertionFailed.
export function equal(actual: any, expected: any, message?: string): void;
export function notEqual(actual: any, expected: any, message?: string): void;
export function deepEqual(actual: any, expected: any, message?: string): void;
export function ok(value: any, message?: string): void;
export function match(actual: string, pattern: RegExp | string, message?: string): void;
/** Returns what the function threw. */
export function throws(fn: () => any, pattern?: RegExp | string, message?: string): any;
/** Resolves to the rejection value. */
export function rejects(fn: (() => Promise<any>) | Promise<any>, pattern?: RegExp | string, message?: string): Promise<any>;
export function fail(message?: string): never;
