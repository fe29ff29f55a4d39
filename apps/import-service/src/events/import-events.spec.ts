import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { Redis } from 'ioredis';
import { createTestRedisNamespace, waitFor } from '@broker/testing';
import { ImportEvents } from './import-events.js';

/** Which request a callback runs for: a context value, as a trace's span is one. */
const REQUEST = createContextKey('request');

describe('ImportEvents with a trace context (one shared subscription, many streams)', () => {
  const namespace = createTestRedisNamespace();
  const contextManager = new AsyncLocalStorageContextManager();
  let redis: Redis;
  let events: ImportEvents;

  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    redis = new Redis(namespace.url);
    events = new ImportEvents(redis, { prefix: namespace.prefix });
  });
  afterAll(async () => {
    events.onApplicationShutdown();
    redis.disconnect();
    context.disable();
    await namespace.clear();
  });

  const inRequest = <Result>(name: string, work: () => Result) =>
    context.with(ROOT_CONTEXT.setValue(REQUEST, name), work);

  it('calls each listener in the context of the request that listened, not the one that opened the subscription', async () => {
    const heard: { listener: string; request: unknown }[] = [];
    const listenFor = (name: string, processId: string) =>
      inRequest(name, () =>
        events.listen(processId, () =>
          heard.push({ listener: name, request: context.active().getValue(REQUEST) }),
        ),
      );
    // The first stream opens the shared subscription; the second joins it.
    const stopFirst = listenFor('first', 'process-1');
    const stopSecond = listenFor('second', 'process-2');
    await waitFor(async () => {
      await inRequest('worker', () => events.statusChanged('process-1'));
      await inRequest('worker', () => events.statusChanged('process-2'));
      return heard.some((entry) => entry.listener === 'second') &&
        heard.some((entry) => entry.listener === 'first')
        ? true
        : undefined;
    });
    expect(heard.filter((entry) => entry.listener !== entry.request)).toEqual([]);
    stopFirst();
    stopSecond();
  });
});
