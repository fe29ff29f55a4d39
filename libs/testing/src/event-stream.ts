import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One Server-Sent Event as received. */
export interface ReceivedEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface OpenEventStream {
  status: number;
  headers: Headers;
  /** The events as they arrive, until the server closes the stream or `close` is called. */
  events: AsyncGenerator<ReceivedEvent>;
  /** Comment lines received so far (`: keep-alive` heartbeats). */
  comments: string[];
  close(): void;
}

/**
 * A Server-Sent Events client on fetch streaming (eventsource-parser reads the stream), for tests that need to
 * see every event, its id and the heartbeats, and to leave and resume at a chosen event.
 */
export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<OpenEventStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { Accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const comments: string[] = [];
  const queue: ReceivedEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      queue.push({ id: message.id, event: message.event, data: message.data });
      wake?.();
    },
    onComment: (comment) => comments.push(comment),
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body ?? [])
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // Aborted by close(), or the connection ended.
    } finally {
      ended = true;
      wake?.();
    }
  })();
  async function* events(): AsyncGenerator<ReceivedEvent> {
    while (true) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    events: events(),
    comments,
    close: () => abort.abort(),
  };
}
