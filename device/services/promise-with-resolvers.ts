// Promise.withResolvers (ES2024) where the runtime lacks it: tedious 20, the MS SQL client of the SQL
// test (sql-test.ts), calls it on every connection and declares Node 22, while the unit runs Node 20.
// The standard behaviour, installed once on import; a runtime that has it keeps its own.
const P = Promise as unknown as { withResolvers?: unknown };
if (typeof P.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (v: T | PromiseLike<T>) => void;
      let reject!: (e?: unknown) => void;
      const promise = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
export {};
