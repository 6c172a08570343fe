/**
 * Loaded (`--require`) into every test file's process by tools/stack/test.ts. node:test (Node 20) charges an uncaught
 * exception to the test it came from by following every async resource with an async hook that has a `destroy`
 * callback, which makes each promise many times dearer: 2,000,000 awaits took 5.2 s of CPU under it, 0.3 s without.
 * A test runs the app, its worker and the driver, which await a great deal. node:test's hook is replaced here by one
 * without `destroy`, marking each new resource with the test it descends from, as AsyncLocalStorage propagates its
 * store; when an exception is uncaught, node:test is told the test of the context it came from, and charges it.
 */
import asyncHooks, { executionAsyncId, executionAsyncResource, type AsyncHook, type HookCallbacks } from 'node:async_hooks';

const TEST = Symbol('offerops.test');
/** A resource, marked with the node:test Test (an AsyncResource) it runs for. */
type Marked = { [TEST]?: { asyncId(): number } };

const createHook = asyncHooks.createHook;

/** The hook in place of node:test's, whose `init` records a resource as a test's. */
function markingHook(harness: HookCallbacks): AsyncHook {
  // Before node:test's own listeners, added after it makes its hook: record the context of the error as its test's.
  const charge = () => {
    const test = (executionAsyncResource() as Marked)[TEST];
    if (test) harness.init?.(executionAsyncId(), 'offerops.uncaught', test.asyncId(), {});
  };
  process.on('uncaughtException', charge);
  process.on('unhandledRejection', charge);
  return createHook({
    init(asyncId, type, triggerAsyncId, resource: Marked) {
      if (type === 'Test') {
        harness.init?.(asyncId, type, triggerAsyncId, resource);
        resource[TEST] = resource as { asyncId(): number };
        return;
      }
      const test = (executionAsyncResource() as Marked)[TEST];
      if (test) resource[TEST] = test;
    },
  });
}

Object.defineProperty(asyncHooks, 'createHook', {
  value: (callbacks: HookCallbacks): AsyncHook =>
    callbacks.init && callbacks.destroy && new Error().stack?.includes('internal/test_runner/harness')
      ? markingHook(callbacks)
      : createHook(callbacks),
});
