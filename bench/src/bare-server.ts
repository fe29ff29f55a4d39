import { readFileSync } from 'node:fs';
import http from 'node:http';

/**
 * The yardstick of bench/calc: a bare node:http server that reads each request body and answers with the
 * precomputed bytes of a real calculation response (file in BARE_RESPONSE_FILE), nothing else.
 */
const body = readFileSync(process.env.BARE_RESPONSE_FILE ?? '');
const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length };

http
  .createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, headers);
      response.end(body);
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
