/**
 * Restate's SDK (1.17) calls `Promise.withResolvers` (ES2024), which Node has from version 22. On Node 20
 * it is defined here, with the standard's behaviour, before a handler runs; where it exists nothing changes.
 */
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const PromiseWithResolvers = Promise as unknown as { withResolvers?: unknown };

if (typeof PromiseWithResolvers.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    value: function withResolvers<T>(this: PromiseConstructor): Resolvers<T> {
      let resolve!: Resolvers<T>['resolve'];
      let reject!: Resolvers<T>['reject'];
      const promise = new this<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
    writable: true,
    configurable: true,
  });
}
