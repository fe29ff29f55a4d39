import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TraceSink {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT names. */
  endpoint: string;
  /** Exports received and their bytes: shows that the traced rows did export. */
  received(): { exports: number; bytes: number };
  close(): void;
}

/** An OTLP/HTTP collector that accepts every trace export and keeps nothing but counts. */
export async function startTraceSink(): Promise<TraceSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      exports++;
      response.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ exports, bytes }),
    close: () => server.close(),
  };
}
