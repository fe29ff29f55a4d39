import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findWorkspaceRoot } from '@broker/local-services';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import type { ISecurityContext } from 'kubernetes-models/v1/SecurityContext';
import {
  ADMIN_MAX_BODY_BYTES,
  GATEWAY_TEMPLATE,
  type GatewaySettings,
  UPLOAD_FRAMING_BYTES,
} from '../gateway-config.js';

/** Where the images come from; the committed manifests use the defaults, a release renders its own. */
export interface ManifestOptions {
  registry: string;
  tag: string;
}

export const NAMESPACE = 'broker-platform';
/** Made outside these manifests (kubectl create secret, or an external-secrets operator); never committed. */
export const SECRET_NAME = 'broker-platform-secrets';
/** The keys SECRET_NAME must hold. */
export const SECRET_KEYS = [
  'DATABASE_URL',
  'REDIS_URL',
  'API_KEY_ENCRYPTION_KEY',
  'IMPORT_WEBHOOK_ENCRYPTION_KEY',
  'CALC_JWT_PRIVATE_KEY',
  'SMTP_URL',
] as const;
type SecretKey = (typeof SECRET_KEYS)[number];

const CONFIG_NAME = 'platform-config';
const GATEWAY_TEMPLATE_NAME = 'gateway-template';
/**
 * The scripts the gateway image's entrypoint sources before it renders the template: ADMIN_ALLOWED_CIDRS as the
 * template's geo entries, OTEL_TRACES_SAMPLER as the sampling of the traces the gateway starts.
 */
export const GATEWAY_SCRIPTS = ['15-admin-allowed-cidrs.envsh', '16-trace-sampling.envsh'].map((script) =>
  path.join(path.dirname(GATEWAY_TEMPLATE), script),
);
const GATEWAY_SCRIPTS_NAME = 'gateway-scripts';
/** The services' sampler, which the gateway reads from the same ConfigMap so that the two cannot drift apart. */
const SAMPLER_VARIABLES = ['OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG'] as const;
const IMPORT_FILES = 'import-files';
const IMPORT_STORAGE_DIR = '/var/lib/broker-imports';
const IMPORT_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
const APP_PORT = 3000;
const GATEWAY_PORT = 8080;
const MIGRATE_ENTRY = 'node_modules/@broker/db/dist/migrate-main.js';

type KubernetesObject =
  | Namespace
  | ConfigMap
  | PersistentVolumeClaim
  | Job
  | Deployment
  | Service
  | PodDisruptionBudget
  | HorizontalPodAutoscaler
  | NetworkPolicy;

/** The manifests by file name in deploy/k8s. */
export type ManifestFiles = Record<string, KubernetesObject[]>;

const labelsOf = (component: string) => ({
  'app.kubernetes.io/name': component,
  'app.kubernetes.io/part-of': 'broker-platform',
});

const metadata = (name: string) => ({ name, namespace: NAMESPACE, labels: labelsOf(name) });

const fromSecret = (key: SecretKey): IEnvVar => ({
  name: key,
  valueFrom: { secretKeyRef: { name: SECRET_NAME, key } },
});

const resources = (cpu: [string, string], memory: [string, string]): IResourceRequirements => ({
  requests: { cpu: cpu[0], memory: memory[0] },
  limits: { cpu: cpu[1], memory: memory[1] },
});

/** The restricted Pod Security Standard. */
const RESTRICTED: ISecurityContext = {
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

interface AppProcess {
  image: string;
  command?: string[];
  secrets: SecretKey[];
  resources: IResourceRequirements;
  /** How long a stop may take to finish the work in hand (SHUTDOWN_TIMEOUT_MS). */
  drainSeconds: number;
  /** Behind a Service: on stop it first waits for the endpoints to drop it. */
  servesTraffic: boolean;
  volumes?: { name: string; mountPath: string; source: NonNullable<IPodSpec['volumes']>[number] }[];
}

/** The endpoints drop a stopping pod within a few seconds; until then it keeps answering. */
const ENDPOINT_DELAY_SECONDS = 5;

/** A platform process: port 3000, probes on its health endpoints, the shared configuration, its secrets. */
function appContainer(name: string, spec: AppProcess): IContainer {
  return {
    name,
    image: spec.image,
    command: spec.command,
    ports: [{ name: 'http', containerPort: APP_PORT }],
    envFrom: [{ configMapRef: { name: CONFIG_NAME } }],
    env: [
      ...spec.secrets.map(fromSecret),
      { name: 'SHUTDOWN_TIMEOUT_MS', value: String(spec.drainSeconds * 1000) },
    ],
    readinessProbe: {
      httpGet: { path: '/health/ready', port: 'http' },
      periodSeconds: 5,
      failureThreshold: 3,
    },
    livenessProbe: {
      httpGet: { path: '/health/live', port: 'http' },
      periodSeconds: 10,
      failureThreshold: 3,
    },
    startupProbe: { httpGet: { path: '/health/live', port: 'http' }, periodSeconds: 2, failureThreshold: 30 },
    lifecycle: spec.servesTraffic ? { preStop: { sleep: { seconds: ENDPOINT_DELAY_SECONDS } } } : undefined,
    resources: spec.resources,
    securityContext: RESTRICTED,
    volumeMounts: [
      { name: 'tmp', mountPath: '/tmp' },
      ...(spec.volumes ?? []).map(({ name, mountPath }) => ({ name, mountPath })),
    ],
  };
}

/** One container; `graceSeconds` covers its whole stop, after which the kubelet kills it. */
function podSpec(container: IContainer, graceSeconds: number, volumes: IPodSpec['volumes'] = []): IPodSpec {
  return {
    containers: [container],
    // No <SERVICE>_PORT variables injected: they would collide with the processes' own (GATEWAY_PORT, ...).
    enableServiceLinks: false,
    securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 },
    terminationGracePeriodSeconds: graceSeconds,
    volumes: [{ name: 'tmp', emptyDir: {} }, ...volumes],
  };
}

function appPod(name: string, spec: AppProcess): IPodSpec {
  const graceSeconds = ENDPOINT_DELAY_SECONDS + spec.drainSeconds + 10;
  return podSpec(
    appContainer(name, spec),
    graceSeconds,
    (spec.volumes ?? []).map((volume) => volume.source),
  );
}

interface DeploymentOptions {
  /** Left out where an autoscaler owns the count, so applying the manifests does not reset it. */
  replicas?: number;
  /** Prometheus scrapes the pods' /metrics. */
  scraped: boolean;
}

function deployment(name: string, pod: IPodSpec, options: DeploymentOptions): Deployment {
  return new Deployment({
    metadata: metadata(name),
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: labelsOf(name) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: {
          labels: labelsOf(name),
          annotations: options.scraped
            ? { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(APP_PORT) }
            : undefined,
        },
        spec: pod,
      },
    },
  });
}

function service(name: string): Service {
  return new Service({
    metadata: metadata(name),
    spec: {
      type: 'ClusterIP',
      selector: labelsOf(name),
      ports: [{ name: 'http', port: 80, targetPort: 'http' }],
    },
  });
}

/** At most one pod of the component away at a time for node drains. */
function disruptionBudget(name: string): PodDisruptionBudget {
  return new PodDisruptionBudget({
    metadata: metadata(name),
    spec: { maxUnavailable: 1, selector: { matchLabels: labelsOf(name) } },
  });
}

function autoscaler(
  name: string,
  replicas: [number, number],
  metrics: NonNullable<HorizontalPodAutoscaler['spec']>['metrics'],
): HorizontalPodAutoscaler {
  return new HorizontalPodAutoscaler({
    metadata: metadata(name),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: replicas[0],
      maxReplicas: replicas[1],
      metrics,
    },
  });
}

const cpuTarget = (percent: number) => ({
  type: 'Resource' as const,
  resource: { name: 'cpu', target: { type: 'Utilization' as const, averageUtilization: percent } },
});

/** Everything but secrets: one ConfigMap for every process (each reads only its own variables). */
function platformConfig(): ConfigMap {
  return new ConfigMap({
    metadata: metadata(CONFIG_NAME),
    data: {
      LOG_LEVEL: 'info',
      IMPORT_STORAGE_DIR,
      IMPORT_MAX_UPLOAD_BYTES: String(IMPORT_MAX_UPLOAD_BYTES),
      IMPORT_OAUTH_ISSUER: 'https://login.example.com/',
      IMPORT_OAUTH_AUDIENCE: 'broker-platform-import',
      IMPORT_OAUTH_JWKS_URL: 'https://login.example.com/.well-known/jwks.json',
      IMPORT_WORKER_CONCURRENCY: '4',
      ADMIN_OAUTH_ISSUER: 'https://login.example.com/',
      ADMIN_OAUTH_AUDIENCE: 'broker-platform-admin',
      ADMIN_OAUTH_JWKS_URL: 'https://login.example.com/.well-known/jwks.json',
      CALC_TOKEN_TTL_SECONDS: '3600',
      // The gateway's pods: the only proxies whose X-Forwarded-For is believed. The cluster's pod network (kubeadm
      // with flannel: 10.244.0.0/16); name yours, or the gateway pods' own range.
      TRUSTED_PROXIES: '10.244.0.0/16',
      CUSTOMER_BASE_URL: 'https://broker.example.com',
      MAIL_FROM: 'Maklerportal <no-reply@example.com>',
      SMS_GATEWAY_URL: 'https://sms.example.com/send',
      // Traces go to an OTLP collector once this names it, e.g. http://otel-collector.observability:4318 (empty: off).
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      // The gateway samples the traces it starts alike (SAMPLER_VARIABLES).
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      OTEL_TRACES_SAMPLER_ARG: '1',
    },
  });
}

const importFilesVolume = {
  name: IMPORT_FILES,
  mountPath: IMPORT_STORAGE_DIR,
  source: { name: IMPORT_FILES, persistentVolumeClaim: { claimName: IMPORT_FILES } },
};

/** The API takes uploads of up to 200 MiB, so a stop lets a running upload finish (the gateway allows 300 s). */
function importService(image: string): KubernetesObject[] {
  const name = 'import-service';
  const pod = appPod(name, {
    image,
    secrets: ['DATABASE_URL', 'REDIS_URL', 'IMPORT_WEBHOOK_ENCRYPTION_KEY'],
    resources: resources(['250m', '1'], ['256Mi', '512Mi']),
    drainSeconds: 300,
    servesTraffic: true,
    volumes: [importFilesVolume],
  });
  return [deployment(name, pod, { replicas: 2, scraped: true }), service(name), disruptionBudget(name)];
}

/**
 * Workers scale on the queue's waiting jobs and on CPU. Every worker reports the same queue, so the Prometheus
 * adapter serves the HPA `max(import_queue_jobs{state="waiting"})` as the external metric (deploy/README.md).
 * A stopping worker finishes the stage in hand.
 */
function importWorker(image: string): KubernetesObject[] {
  const name = 'import-worker';
  const pod = appPod(name, {
    image,
    command: ['node', 'dist/worker.js'],
    secrets: ['DATABASE_URL', 'REDIS_URL', 'IMPORT_WEBHOOK_ENCRYPTION_KEY'],
    resources: resources(['500m', '2'], ['512Mi', '1Gi']),
    drainSeconds: 110,
    servesTraffic: false,
    volumes: [importFilesVolume],
  });
  const queueDepth = {
    type: 'External' as const,
    external: {
      metric: { name: 'import_queue_jobs', selector: { matchLabels: { state: 'waiting' } } },
      target: { type: 'AverageValue' as const, averageValue: '4' },
    },
  };
  return [
    deployment(name, pod, { scraped: true }),
    disruptionBudget(name),
    autoscaler(name, [2, 12], [queueDepth, cpuTarget(75)]),
  ];
}

function calcService(image: string): KubernetesObject[] {
  const name = 'calc-service';
  const pod = appPod(name, {
    image,
    secrets: ['DATABASE_URL', 'CALC_JWT_PRIVATE_KEY'],
    resources: resources(['250m', '1'], ['256Mi', '512Mi']),
    drainSeconds: 10,
    servesTraffic: true,
  });
  return [
    deployment(name, pod, { scraped: true }),
    service(name),
    disruptionBudget(name),
    autoscaler(name, [2, 10], [cpuTarget(70)]),
  ];
}

function brokerService(image: string): KubernetesObject[] {
  const name = 'broker-service';
  const pod = appPod(name, {
    image,
    secrets: ['DATABASE_URL', 'REDIS_URL', 'API_KEY_ENCRYPTION_KEY', 'SMTP_URL'],
    resources: resources(['250m', '1'], ['256Mi', '512Mi']),
    drainSeconds: 10,
    servesTraffic: true,
  });
  return [deployment(name, pod, { replicas: 2, scraped: true }), service(name), disruptionBudget(name)];
}

/** The administration (extension): light and rarely busy, two replicas for availability. */
function adminService(image: string): KubernetesObject[] {
  const name = 'admin-service';
  const pod = appPod(name, {
    image,
    secrets: ['DATABASE_URL', 'API_KEY_ENCRYPTION_KEY'],
    resources: resources(['100m', '500m'], ['192Mi', '384Mi']),
    drainSeconds: 30,
    servesTraffic: true,
  });
  return [
    deployment(name, pod, { replicas: 2, scraped: true }),
    service(name),
    disruptionBudget(name),
    onlyFromGateway(name),
  ];
}

/**
 * The administration is reached through the gateway, where ADMIN_ALLOWED_CIDRS applies, and scraped by Prometheus
 * (pods labelled app.kubernetes.io/name=prometheus in any namespace); no other pod of the cluster reaches it.
 */
function onlyFromGateway(name: string): NetworkPolicy {
  return new NetworkPolicy({
    metadata: metadata(name),
    spec: {
      podSelector: { matchLabels: labelsOf(name) },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [
            { podSelector: { matchLabels: labelsOf('gateway') } },
            {
              namespaceSelector: {},
              podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
            },
          ],
          ports: [{ protocol: 'TCP', port: APP_PORT }],
        },
      ],
    },
  });
}

/** A Job's pod cannot change, so each release gets its own Job, named after its tag. */
export const migrationJobName = (tag: string) =>
  `migrate-${tag.toLowerCase().replace(/[^a-z0-9.-]/g, '-')}`.slice(0, 63).replace(/[.-]+$/, '');

/** Applied and awaited before the Deployments of a release; migrations only expand, so old pods keep working. */
function migrationJob(image: string, tag: string): Job {
  const container: IContainer = {
    name: 'migrate',
    image,
    command: ['node', MIGRATE_ENTRY],
    env: [fromSecret('DATABASE_URL')],
    resources: resources(['100m', '500m'], ['128Mi', '256Mi']),
    securityContext: RESTRICTED,
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
  };
  return new Job({
    metadata: { ...metadata(migrationJobName(tag)), labels: labelsOf('migrate') },
    spec: {
      backoffLimit: 2,
      activeDeadlineSeconds: 900,
      ttlSecondsAfterFinished: 7 * 86_400,
      template: {
        metadata: { labels: labelsOf('migrate') },
        spec: { ...podSpec(container, 30), restartPolicy: 'Never' },
      },
    },
  });
}

/**
 * The gateway's variables inside the cluster: upstreams are the Services by their short names, which resolve in the
 * gateway's own namespace, so the same manifests serve another namespace; logs go to stdout. ADMIN_ALLOWED_CIDRS
 * becomes the template's ADMIN_ALLOWED_GEO and the services' sampler (OTEL_TRACES_SAMPLER and its argument, from
 * the platform's ConfigMap: SAMPLER_VARIABLES) its GATEWAY_TRACE_SAMPLING in the image's entrypoint (GATEWAY_SCRIPTS).
 */
export const GATEWAY_ENVIRONMENT: Omit<GatewaySettings, 'ADMIN_ALLOWED_GEO' | 'GATEWAY_TRACE_SAMPLING'> & {
  ADMIN_ALLOWED_CIDRS: string;
} = {
  GATEWAY_PORT: String(GATEWAY_PORT),
  GATEWAY_STATE_DIR: '/tmp',
  GATEWAY_ACCESS_LOG: '/dev/stdout',
  GATEWAY_RATE_PER_SECOND: '50',
  GATEWAY_RATE_BURST: '100',
  GATEWAY_MAX_BODY_BYTES: String(11 * 1024 * 1024),
  GATEWAY_MAX_UPLOAD_BYTES: String(IMPORT_MAX_UPLOAD_BYTES + UPLOAD_FRAMING_BYTES),
  GATEWAY_MAX_ADMIN_BODY_BYTES: String(ADMIN_MAX_BODY_BYTES),
  IMPORT_UPSTREAM: 'import-service:80',
  CALC_UPSTREAM: 'calc-service:80',
  BROKER_UPSTREAM: 'broker-service:80',
  ADMIN_UPSTREAM: 'admin-service:80',
  // The cluster's private networks: set the operators' own ranges (deploy/README.md, "The administration").
  ADMIN_ALLOWED_CIDRS: '10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7',
  IMPORT_HOST: 'import.example.com',
  CALC_HOST: 'calc.example.com',
  BROKER_HOST: 'broker.example.com',
};

/** The image's entrypoint renders /etc/nginx/templates/nginx.conf.template into this file before nginx starts. */
export const GATEWAY_RENDERED_CONFIG = '/tmp/nginx.conf';
/** How long a stopping gateway lets running requests finish: the longest is an upload (300 s). */
const GATEWAY_DRAIN_SECONDS = 300;

/** The entry: nginx (unprivileged image) behind a LoadBalancer that keeps the client address for rate limits. */
function gateway(): KubernetesObject[] {
  const name = 'gateway';
  const container: IContainer = {
    name,
    image: 'nginxinc/nginx-unprivileged:1.28-bookworm',
    args: ['nginx', '-c', GATEWAY_RENDERED_CONFIG, '-g', 'daemon off;'],
    ports: [{ name: 'http', containerPort: GATEWAY_PORT }],
    env: [
      { name: 'NGINX_ENVSUBST_OUTPUT_DIR', value: path.dirname(GATEWAY_RENDERED_CONFIG) },
      ...(Object.keys(GATEWAY_ENVIRONMENT) as (keyof typeof GATEWAY_ENVIRONMENT)[]).map((key) => ({
        name: key,
        value: GATEWAY_ENVIRONMENT[key],
      })),
      ...SAMPLER_VARIABLES.map((key) => ({
        name: key,
        valueFrom: { configMapKeyRef: { name: CONFIG_NAME, key } },
      })),
    ],
    readinessProbe: { httpGet: { path: '/gateway/health', port: 'http' }, periodSeconds: 5 },
    livenessProbe: { httpGet: { path: '/gateway/health', port: 'http' }, periodSeconds: 10 },
    // SIGTERM would make nginx stop at once; a graceful quit lets uploads in flight finish.
    lifecycle: {
      preStop: {
        exec: {
          command: [
            '/bin/sh',
            '-c',
            `sleep ${ENDPOINT_DELAY_SECONDS}; nginx -c ${GATEWAY_RENDERED_CONFIG} -s quit; ` +
              'while [ -e /tmp/nginx.pid ]; do sleep 1; done',
          ],
        },
      },
    },
    resources: resources(['100m', '1'], ['64Mi', '256Mi']),
    securityContext: RESTRICTED,
    volumeMounts: [
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'template', mountPath: '/etc/nginx/templates', readOnly: true },
      ...GATEWAY_SCRIPTS.map((script) => ({
        name: 'scripts',
        mountPath: `/docker-entrypoint.d/${path.basename(script)}`,
        subPath: path.basename(script),
        readOnly: true,
      })),
    ],
  };
  const graceSeconds = ENDPOINT_DELAY_SECONDS + GATEWAY_DRAIN_SECONDS + 10;
  const pod = podSpec(container, graceSeconds, [
    { name: 'template', configMap: { name: GATEWAY_TEMPLATE_NAME } },
    { name: 'scripts', configMap: { name: GATEWAY_SCRIPTS_NAME, defaultMode: 0o755 } },
  ]);
  return [
    new ConfigMap({
      metadata: metadata(GATEWAY_TEMPLATE_NAME),
      data: { 'nginx.conf.template': readFileSync(GATEWAY_TEMPLATE, 'utf8') },
    }),
    new ConfigMap({
      metadata: metadata(GATEWAY_SCRIPTS_NAME),
      data: Object.fromEntries(
        GATEWAY_SCRIPTS.map((script) => [path.basename(script), readFileSync(script, 'utf8')]),
      ),
    }),
    deployment(
      name,
      { ...pod, securityContext: { runAsUser: 101, runAsGroup: 101 } },
      { replicas: 2, scraped: false },
    ),
    new Service({
      metadata: metadata(name),
      spec: {
        type: 'LoadBalancer',
        // The client's own address reaches nginx (per-client rate limits), not a node's.
        externalTrafficPolicy: 'Local',
        selector: labelsOf(name),
        ports: [{ name: 'http', port: 80, targetPort: 'http' }],
      },
    }),
    disruptionBudget(name),
  ];
}

export function kubernetesManifests(options: ManifestOptions): ManifestFiles {
  const image = (app: string) => `${options.registry}/${app}:${options.tag}`;
  return {
    'namespace.yaml': [
      new Namespace({
        metadata: {
          name: NAMESPACE,
          labels: { ...labelsOf(NAMESPACE), 'pod-security.kubernetes.io/enforce': 'restricted' },
        },
      }),
    ],
    'config.yaml': [platformConfig()],
    'import-files.yaml': [
      new PersistentVolumeClaim({
        metadata: metadata(IMPORT_FILES),
        spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '200Gi' } } },
      }),
    ],
    'migrate-job.yaml': [migrationJob(image('broker-service'), options.tag)],
    'import-service.yaml': importService(image('import-service')),
    'import-worker.yaml': importWorker(image('import-service')),
    'calc-service.yaml': calcService(image('calc-service')),
    'broker-service.yaml': brokerService(image('broker-service')),
    'admin-service.yaml': adminService(image('admin-service')),
    'gateway.yaml': gateway(),
  };
}

/** `kubectl apply -k deploy/k8s`: every file, and the namespace overlays can change. */
export function kustomization(files: ManifestFiles): Kustomization {
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    namespace: NAMESPACE,
    resources: Object.keys(files),
  };
}

export interface Kustomization {
  apiVersion: 'kustomize.config.k8s.io/v1beta1';
  kind: 'Kustomization';
  namespace: string;
  resources: string[];
}

/** The committed manifests' image source (deploy/k8s); a release renders with its registry and tag. */
export const DEFAULT_MANIFEST_OPTIONS: ManifestOptions = {
  registry: 'registry.example.com/broker',
  tag: (
    JSON.parse(readFileSync(path.join(findWorkspaceRoot(__dirname), 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version,
};
