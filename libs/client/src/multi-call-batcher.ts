import { randomBytes } from 'node:crypto';
import { parseMultipart } from '@remix-run/multipart-parser';
import { type FetchFunction, withUrl } from './fetch-function.js';

/** The service's default limit of parts per multi-call (MULTICALL_MAX_PARTS). */
const DEFAULT_MAX_PARTS = 100;

interface QueuedCall {
  request: Request;
  resolve(response: Response): void;
  reject(error: unknown): void;
}

/**
 * Calls made in the same tick go to the service as one multi-call (`POST {base}`, multipart/related) and are
 * answered one by one: each caller gets the Response of its own part (`X-Svc-Status`, headers, body), so a part's
 * 404 is that call's 404. A call alone in its tick is sent as it is. The service runs the parts in order, reads
 * side by side and writes one at a time (broker-service README, "Multi-call"); more calls than `maxParts` go as
 * several multi-calls, one after the other, so they still run in the order they were made. A call whose signal
 * aborts before its batch is sent is left out of it.
 */
export class MultiCallBatcher {
  private readonly baseUrl: string;
  private queue: QueuedCall[] = [];

  constructor(
    /** The base the parts' paths are relative to, e.g. `https://gw.example.com/service/demo/employee/1.0/rest`. */
    baseUrl: string,
    private readonly maxParts = DEFAULT_MAX_PARTS,
  ) {
    this.baseUrl = new URL(baseUrl).href.replace(/\/$/, '');
  }

  fetch(send: FetchFunction): FetchFunction {
    return (request) => {
      if (!request.url.startsWith(`${this.baseUrl}/`)) return send(request);
      return new Promise((resolve, reject) => {
        const { signal } = request;
        if (signal.aborted) return reject(signal.reason as Error);
        const call: QueuedCall = { request, resolve, reject };
        signal.addEventListener(
          'abort',
          () => {
            this.queue = this.queue.filter((queued) => queued !== call);
            reject(signal.reason as Error);
          },
          { once: true },
        );
        if (this.queue.length === 0) setTimeout(() => void this.flush(send), 0);
        this.queue.push(call);
      });
    };
  }

  private async flush(send: FetchFunction): Promise<void> {
    const calls = this.queue;
    this.queue = [];
    for (let start = 0; start < calls.length; start += this.maxParts) {
      const batch = calls.slice(start, start + this.maxParts);
      try {
        const answers =
          batch.length === 1 ? [await send(batch[0].request)] : await this.sendBatch(batch, send);
        batch.forEach((call, index) => {
          const answer = answers[index];
          if (answer instanceof Error) call.reject(answer);
          else call.resolve(withUrl(answer, call.request.url));
        });
      } catch (error) {
        batch.forEach((call) => call.reject(error));
      }
    }
  }

  private async sendBatch(calls: QueuedCall[], send: FetchFunction): Promise<(Response | Error)[]> {
    const boundary = `batch-${randomBytes(12).toString('hex')}`;
    const parts = await Promise.all(calls.map((call, index) => this.part(call.request, index)));
    const response = await send(
      new Request(this.baseUrl, {
        method: 'POST',
        headers: {
          'Content-Type': `multipart/related; boundary=${boundary}; type="application/json"; start="<part-0>"`,
          Accept: 'multipart/related',
        },
        body: Buffer.concat([
          ...parts.flatMap((part) => [Buffer.from(`--${boundary}\r\n`), part]),
          Buffer.from(`--${boundary}--\r\n`),
        ]),
      }),
    );
    // Not authenticated (or not a multi-call answer): every call gets that answer.
    if (!(response.headers.get('Content-Type') ?? '').startsWith('multipart/related')) {
      const body = await response.arrayBuffer();
      return calls.map(() => new Response(body.slice(0), response));
    }
    return answersOf(response, calls.length);
  }

  /** One request part: its headers, a blank line, the body, and the CRLF that ends every part. */
  private async part(request: Request, index: number): Promise<Buffer> {
    const url = new URL(request.url);
    const lines = [
      `Content-ID: <part-${index}>`,
      `X-Svc-Method: ${request.method}`,
      `X-Svc-Path: ${url.href.slice(this.baseUrl.length)}`,
    ];
    for (const [name, value] of request.headers) {
      if (!BATCH_OWN_HEADERS.has(name)) lines.push(`${name}: ${value}`);
    }
    const body = Buffer.from(await request.arrayBuffer());
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body, Buffer.from('\r\n')]);
  }
}

/** Headers that describe the batch's own transfer, not a call. */
const BATCH_OWN_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
  'accept-encoding',
]);

/**
 * The answer's parts as Responses, in the order of the calls (matched by X-Svc-Request-ID); a call the answer
 * has no part for gets an Error of its own.
 */
async function answersOf(response: Response, count: number): Promise<(Response | Error)[]> {
  const boundary = /boundary="?([^";]+)"?/i.exec(response.headers.get('Content-Type') ?? '')?.[1];
  if (!boundary) throw new Error('The multi-call answer names no boundary');
  const answers = new Map<string, Response>();
  // The service's own answer: its parts may be as large as a single call's answer (a document, a long list).
  const limits = { boundary, maxFileSize: Infinity, maxTotalSize: Infinity };
  for (const part of parseMultipart(new Uint8Array(await response.arrayBuffer()), limits)) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(part.headers))
      if (value !== undefined) headers.set(name, value);
    // A part's call was the batch's request: its id is the one to quote.
    const batchRequestId = response.headers.get('X-Request-Id');
    if (batchRequestId && !headers.has('X-Request-Id')) headers.set('X-Request-Id', batchRequestId);
    const [status, ...reason] = (headers.get('X-Svc-Status') ?? '').split(' ');
    const code = Number(status);
    const body = code === 204 || code === 304 ? null : part.bytes;
    answers.set(
      headers.get('X-Svc-Request-ID') ?? '',
      new Response(body, { status: code, statusText: reason.join(' '), headers }),
    );
  }
  return Array.from(
    { length: count },
    (_, index) =>
      answers.get(`<part-${index}>`) ?? new Error(`The multi-call answer has no part for <part-${index}>`),
  );
}
