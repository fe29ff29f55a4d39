import { setTimeout as sleep } from 'node:timers/promises';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { BrokerApiError, retryAfterSeconds } from './api-error.js';
import type { FetchFunction } from './fetch-function.js';
import type { components } from './generated/import-api.js';

/** The data of every event of an import process's stream. */
export type ImportProcessEvent = components['schemas']['ImportProcessEvent'];

/** One event of the stream: a status change, progress within a stage, or the end (after which none come). */
export interface ImportEvent {
  type: 'status' | 'progress' | 'end';
  id: string;
  data: ImportProcessEvent;
}

export interface EventsOptions {
  /** Resume after this event (its `id`), as a reconnect does. */
  lastEventId?: string;
  signal?: AbortSignal;
}

/** Before a reconnect, unless the server said otherwise (`retry:`). */
const DEFAULT_RECONNECT_MS = 2_000;

/**
 * The events of an import process (GET /processes/{id}/events, Server-Sent Events) as an async iterator: every
 * status change from the start (or after `lastEventId`), progress events, and the end event, after which the
 * iteration ends. A connection that breaks is opened again with Last-Event-ID, so no event is missed or repeated;
 * a 503 waits for its Retry-After; any other refusal (401, 404) is thrown as a BrokerApiError. Leave early with
 * `break` or the signal.
 */
export async function* importEvents(
  send: FetchFunction,
  url: string,
  options: EventsOptions = {},
): AsyncGenerator<ImportEvent> {
  let lastEventId = options.lastEventId;
  let reconnectMs = DEFAULT_RECONNECT_MS;
  for (;;) {
    options.signal?.throwIfAborted();
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    const response = await send(new Request(url, { headers, signal: options.signal })).catch(
      (error: unknown) => {
        if (options.signal?.aborted) throw error;
        return undefined;
      },
    );
    if (response?.status === 204) return;
    if (response && !response.ok) {
      const retryAfter = response.status === 503 ? retryAfterSeconds(response) : null;
      if (retryAfter === null) throw new BrokerApiError(response.status, await bodyOf(response), response);
      await sleep(retryAfter * 1000, undefined, { signal: options.signal });
      continue;
    }
    if (response) {
      for await (const event of eventsOf(response, (ms) => (reconnectMs = ms))) {
        lastEventId = event.id;
        yield event;
        if (event.type === 'end') return;
      }
    }
    await sleep(reconnectMs, undefined, { signal: options.signal });
  }
}

/** The events of one connection, until it ends (or breaks). */
async function* eventsOf(response: Response, onRetry: (ms: number) => void): AsyncGenerator<ImportEvent> {
  const received: ImportEvent[] = [];
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      if (message.id && isEventType(message.event))
        received.push({
          type: message.event,
          id: message.id,
          data: JSON.parse(message.data) as ImportProcessEvent,
        });
    },
    onRetry,
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body ?? []) {
      parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      yield* received.splice(0);
    }
  } catch {
    // The connection broke: the caller reconnects after the last event received.
  }
  yield* received.splice(0);
}

function isEventType(type: string | undefined): type is ImportEvent['type'] {
  return type === 'status' || type === 'progress' || type === 'end';
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
