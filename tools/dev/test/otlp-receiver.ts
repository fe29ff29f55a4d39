import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';
import { waitFor } from '@broker/testing';

/**
 * The part of OTLP's trace export (opentelemetry-proto, collector/trace/v1 and trace/v1) a test reads, with the
 * field numbers of the specification.
 */
const OTLP_TRACES_PROTO = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message InstrumentationScope { string name = 1; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5;
  int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; repeated Link links = 13;
}
message Link { bytes trace_id = 1; bytes span_id = 2; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
`;
const EXPORT_REQUEST = protobuf.parse(OTLP_TRACES_PROTO).root.lookupType('ExportTraceServiceRequest');

/** A span as received, whichever encoding carried it: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  /** W3C tracestate, as the span's context carries it. */
  traceState: string;
  name: string;
  scope: string;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  /** The attributes of the process that sent it (service.name, process.runtime.version, ...). */
  resource: Record<string, unknown>;
}

interface WireKeyValue {
  key: string;
  value?: Record<string, unknown>;
}
interface WireSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  attributes?: WireKeyValue[];
  links?: { traceId: string; spanId: string }[];
}
interface WireRequest {
  resourceSpans?: {
    resource?: { attributes?: WireKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: WireSpan[] }[];
  }[];
}

const valuesOf = (attributes: WireKeyValue[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [key, value === undefined ? undefined : Object.values(value)[0]]),
  );

/** Both encodings as one shape, ids in hex. */
function spansOf(request: WireRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = valuesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        traceState: span.traceState ?? '',
        name: span.name,
        scope: scopeSpans.scope?.name ?? '',
        attributes: valuesOf(span.attributes),
        links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
        resource,
      })),
    );
  });
}

const hex = (base64?: string) => Buffer.from(base64 ?? '', 'base64').toString('hex');

/** protobufjs gives bytes as base64: the ids in hex, as OTLP/JSON has them. */
function withHexIds(request: WireRequest): WireRequest {
  for (const resourceSpans of request.resourceSpans ?? [])
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const span of scopeSpans.spans ?? []) {
        Object.assign(span, {
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: hex(span.parentSpanId),
        });
        for (const link of span.links ?? [])
          Object.assign(link, { traceId: hex(link.traceId), spanId: hex(link.spanId) });
      }
  return request;
}

function decode(contentType: string, body: Buffer): WireRequest {
  if (contentType.startsWith('application/json')) return JSON.parse(body.toString('utf8')) as WireRequest;
  if (contentType.startsWith('application/x-protobuf'))
    return withHexIds(EXPORT_REQUEST.toObject(EXPORT_REQUEST.decode(body), { bytes: String, longs: String }));
  throw new Error(`an OTLP export of type ${contentType}`);
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT names. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** The content types of the exports received. */
  contentTypes: Set<string>;
  /** Waits until `found` picks a result from the spans received so far. */
  waitFor<Result>(found: (spans: ReceivedSpan[]) => Result | undefined, timeoutMs?: number): Promise<Result>;
  close(): Promise<void>;
}

/** A collector's OTLP/HTTP trace endpoint (POST /v1/traces) on a free port of this machine. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      contentTypes.add(contentType);
      spans.push(...spansOf(decode(contentType, Buffer.concat(chunks))));
      response.writeHead(200, { 'Content-Type': contentType }).end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitFor: (found, timeoutMs = 20_000) =>
      waitFor(
        () => found(spans),
        timeoutMs,
        () => `spans received: ${spans.map((span) => `${span.traceId} ${span.name}`).join('\n')}`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
