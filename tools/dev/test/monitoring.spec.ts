import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { parse } from 'yaml';
import { REPO_ROOT } from './run-cli.js';

const MONITORING = path.join(REPO_ROOT, 'deploy/monitoring');

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string; description?: string };
}

interface Dashboard {
  uid: string;
  title: string;
  panels: { title: string; datasource: { uid: string }; targets: { expr: string }[] }[];
}

/** Every .ts file below `dir` (build output and dependencies left out). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'test'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/**
 * The series the processes serve at /metrics: Node's defaults (prom-client), and every metric the sources register
 * with prom-client, a histogram's as its _bucket, _sum and _count series.
 */
function servedSeries(): Set<string> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const names = new Set(registry.getMetricsAsArray().map((metric) => metric.name));
  for (const file of ['apps', 'libs'].flatMap((dir) => sourceFiles(path.join(REPO_ROOT, dir)))) {
    const source = readFileSync(file, 'utf8');
    if (!source.includes("from 'prom-client'")) continue;
    for (const [, kind, name] of source.matchAll(
      /new (Counter|Gauge|Histogram)\(\{\s*name: '([a-z_:][a-z0-9_:]*)'/g,
    ))
      for (const series of kind === 'Histogram'
        ? ['_bucket', '_sum', '_count'].map((end) => name + end)
        : [name])
        names.add(series);
  }
  return names;
}

/** The metric names a PromQL expression selects, or the text of its first syntax error. */
function readPromQl(expr: string): { metrics: string[]; error?: string } {
  const tree = parser.parse(expr);
  const metrics: string[] = [];
  let error: string | undefined;
  tree.iterate({
    enter: (node) => {
      if (node.type.isError)
        error ??= `syntax error at ${node.from}: ${expr.slice(node.from, node.from + 20)}`;
      if (node.name === 'VectorSelector') {
        const identifier = node.node.getChild('Identifier');
        if (identifier) metrics.push(expr.slice(identifier.from, identifier.to));
      }
    },
  });
  return { metrics, error };
}

describe('deploy/monitoring', () => {
  const served = servedSeries();

  it('knows the series the services serve (the check below cannot pass on an empty list)', () => {
    for (const series of [
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'import_stage_failures_total',
      'import_queue_jobs',
      'webhook_endpoints',
      'outbox_messages_pending',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(served).toContain(series);
    expect(readPromQl('sum(rate(x_total[5m]) >').error).toBeDefined();
    expect(readPromQl('max(no_such_series)').metrics).toEqual(['no_such_series']);
  });

  describe('alert-rules.yaml', () => {
    const document = parse(readFileSync(path.join(MONITORING, 'alert-rules.yaml'), 'utf8')) as {
      groups: { name: string; rules: AlertRule[] }[];
    };
    const rules = document.groups.flatMap((group) => group.rules);

    it('alerts on failed imports, a growing queue, failing webhook endpoints and the outbox backlog', () => {
      const selected = rules.flatMap((rule) => readPromQl(rule.expr).metrics);
      for (const metric of [
        'import_stage_failures_total',
        'import_queue_jobs',
        'webhook_endpoints',
        'outbox_oldest_pending_seconds',
      ])
        expect(selected).toContain(metric);
    });

    it.each(rules.map((rule) => [rule.alert, rule] as const))(
      '%s: valid PromQL on served series, a severity, a summary and a duration Prometheus reads',
      (_name, rule) => {
        const { metrics, error } = readPromQl(rule.expr);
        expect(error).toBeUndefined();
        expect(metrics.length).toBeGreaterThan(0);
        for (const metric of metrics) expect(served).toContain(metric);
        expect(['info', 'warning', 'critical']).toContain(rule.labels?.severity);
        expect(rule.annotations?.summary).toBeTruthy();
        if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smhd]$/);
      },
    );

    it('names every alert once', () => {
      const names = rules.map((rule) => rule.alert);
      expect(new Set(names).size).toBe(names.length);
    });
  });

  describe('grafana-dashboard.json', () => {
    const dashboard = JSON.parse(
      readFileSync(path.join(MONITORING, 'grafana-dashboard.json'), 'utf8'),
    ) as Dashboard;

    it.each(dashboard.panels.map((panel) => [panel.title, panel] as const))(
      '%s: queries served series with valid PromQL through the imported data source',
      (_title, panel) => {
        expect(panel.datasource.uid).toBe('${DS_PROMETHEUS}');
        expect(panel.targets.length).toBeGreaterThan(0);
        for (const { expr } of panel.targets) {
          const { metrics, error } = readPromQl(expr);
          expect({ expr, error }).toEqual({ expr, error: undefined });
          for (const metric of metrics) expect(served).toContain(metric);
        }
      },
    );

    it('shows requests, latency, overload refusals, import stages and queue depths', () => {
      const selected = dashboard.panels.flatMap((panel) =>
        panel.targets.flatMap((target) => readPromQl(target.expr).metrics),
      );
      for (const metric of [
        'http_requests_total',
        'http_request_duration_seconds_bucket',
        'http_overload_refusals_total',
        'import_stage_duration_seconds_bucket',
        'import_queue_jobs',
      ])
        expect(selected).toContain(metric);
      expect(dashboard.uid).toBe('broker-platform');
    });
  });
});
