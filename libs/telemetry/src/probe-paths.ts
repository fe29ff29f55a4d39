/** Where every process serves its Prometheus metrics (scraped from inside the cluster, not through the gateway). */
export const METRICS_PATH = '/metrics';

/** The orchestrator's probes and Prometheus' scrape, every few seconds: neither traced nor logged. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/health/live', '/health/ready', METRICS_PATH]);

export const isProbePath = (url: string) => PROBE_PATHS.has(url.split('?', 1)[0] ?? url);
