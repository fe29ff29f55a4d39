import http, { type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { InProcessCallers, type SvcPrincipal } from '@broker/auth';
import { InProcessClient } from './in-process-client.js';

const CALLER: SvcPrincipal = {
  tenantId: '1',
  tenantCode: 'demo',
  brokerId: '7',
  brokerNumber: 'V1000',
  apiClientId: '3',
};

describe('InProcessClient', () => {
  const callers = new InProcessCallers();
  let server: Server;
  const serverSides: Duplex[] = [];

  beforeEach(() => {
    serverSides.length = 0;
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.setHeader('Content-Type', 'application/json');
        response.end(
          JSON.stringify({
            method: request.method,
            url: request.url,
            body: Buffer.concat(chunks).toString(),
            caller: callers.callerOf(request)?.brokerNumber ?? null,
          }),
        );
      });
    });
    server.on('connection', (side: Duplex) => serverSides.push(side));
  });

  const call = (path: string, body = '') => ({
    method: 'POST',
    path,
    headers: { 'content-type': 'text/plain' },
    body: Buffer.from(body),
  });

  it('sends each call through the server over one in-memory connection bound to the caller', async () => {
    const client = new InProcessClient(server, callers, CALLER, {
      maxConnections: 1,
      remoteAddress: '10.0.0.1',
    });
    const first = await client.send(call('/one?x=1', 'hello'));
    const second = await client.send(call('/two'));
    client.close();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body.toString())).toEqual({
      method: 'POST',
      url: '/one?x=1',
      body: 'hello',
      caller: 'V1000',
    });
    expect(JSON.parse(second.body.toString())).toMatchObject({ url: '/two', caller: 'V1000' });
    expect(serverSides).toHaveLength(1);
  });

  it('leaves nothing behind: no listener piles up over many calls, and the server side is closed', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const client = new InProcessClient(server, callers, CALLER, { maxConnections: 1 });
      for (let index = 0; index < 25; index++)
        expect((await client.send(call(`/part-${index}`))).status).toBe(200);
      client.close();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    expect(serverSides).toHaveLength(1);
    expect(serverSides[0].destroyed).toBe(true);
  });
});
