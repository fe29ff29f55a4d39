import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as dclint from 'dclint';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import {
  GATEWAY_TEMPLATE,
  type GatewaySettings,
  renderGatewayConfig,
  UPLOAD_FRAMING_BYTES,
  traceSampling,
} from '../src/gateway-config.js';
import { kustomizationYaml, manifestYaml } from '../src/k8s/manifest-yaml.js';
import {
  DEFAULT_MANIFEST_OPTIONS,
  GATEWAY_SCRIPTS,
  GATEWAY_ENVIRONMENT,
  GATEWAY_RENDERED_CONFIG,
  kubernetesManifests,
  kustomization,
  migrationJobName,
  SECRET_KEYS,
  SECRET_NAME,
} from '../src/k8s/manifests.js';
import { REPO_ROOT } from './run-cli.js';

const COMPOSE_FILE = join(REPO_ROOT, 'deploy/compose.yaml');

/**
 * The nginx image's entrypoint writes /etc/nginx/templates/X.template to NGINX_ENVSUBST_OUTPUT_DIR/X; the
 * gateway must start nginx with exactly that file.
 */
function renderedConfigMatchesCommand(
  container: { args?: string[]; env?: { name: string; value?: string }[] } | undefined,
) {
  const outputDir = container?.env?.find((variable) => variable.name === 'NGINX_ENVSUBST_OUTPUT_DIR')?.value;
  const rendered = join(outputDir ?? '/etc/nginx/conf.d', basename(GATEWAY_TEMPLATE, '.template'));
  const args = container?.args ?? [];
  return rendered === GATEWAY_RENDERED_CONFIG && args[args.indexOf('-c') + 1] === rendered;
}
const K8S_DIR = join(REPO_ROOT, 'deploy/k8s');

interface LintMessage {
  rule: string;
  message: string;
  line: number;
}

// dclint's type declarations do not resolve under nodenext (extensionless imports); the part used here.
const dclintModule: unknown = dclint;
const { DCLinter } = dclintModule as {
  DCLinter: new (config: object) => {
    lintFiles(files: string[], recursive: boolean): { messages: LintMessage[] }[];
  };
};

/** The deployment units of the platform's images: the app's built config module and its loader. */
const UNIT_CONFIG = {
  'import-service': ['apps/import-service/dist/config.js', 'loadImportConfig'],
  'import-worker': ['apps/import-service/dist/config.js', 'loadImportWorkerConfig'],
  'calc-service': ['apps/calc-service/dist/config.js', 'loadCalcConfig'],
  'broker-service': ['apps/broker-service/dist/config.js', 'loadBrokerConfig'],
  'admin-service': ['apps/admin-service/dist/config.js', 'loadAdminConfig'],
} as const;
type Unit = keyof typeof UNIT_CONFIG;
const UNITS = Object.keys(UNIT_CONFIG) as Unit[];

/** Runs the unit's own configuration check on `env` in a fresh process: its error text, '' when it boots. */
function configurationErrors(unit: Unit, env: Record<string, string | undefined>): string {
  const [module, loader] = UNIT_CONFIG[unit];
  const probe = spawnSync(
    process.execPath,
    ['-e', `require(${JSON.stringify(join(REPO_ROOT, module))}).${loader}()`],
    { env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env }, encoding: 'utf8' },
  );
  return probe.status === 0 ? '' : `${unit}: ${probe.stderr}`;
}

/**
 * The gateway's variables after its image's entrypoint sourced deploy/gateway/15-admin-allowed-cidrs.envsh (as the
 * nginx image does before it renders the templates): ADMIN_ALLOWED_CIDRS turned into ADMIN_ALLOWED_GEO.
 */
function afterGatewayScripts(env: Record<string, string | undefined>): Record<string, string> {
  const sourcing = GATEWAY_SCRIPTS.map((script) => `. ${JSON.stringify(script)}`).join(' && ');
  const sourced = spawnSync('/bin/sh', ['-c', `${sourcing} && env`], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  if (sourced.status !== 0) throw new Error(sourced.stderr);
  return Object.fromEntries(
    sourced.stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** dclint: the Compose specification's JSON schema, then its rules; ordering rules off (the file reads top-down). */
function lintCompose(file: string) {
  const linter = new DCLinter({
    rules: {
      'services-alphabetical-order': 0,
      'service-keys-order': 0,
      'service-dependencies-alphabetical-order': 0,
      // Built images are tagged on purpose: the worker and the migration step run their service's image.
      'no-build-and-image': 0,
    },
    exclude: [],
    debug: false,
  });
  return linter.lintFiles([file], false).flatMap((result) => result.messages);
}

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}

/** What an operator puts in deploy/.env: the required variables and one of the import service's key sources. */
const OPERATOR_VALUES: Record<string, string> = {
  POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
  API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  IMPORT_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  CALC_JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----...',
  IMPORT_OAUTH_ISSUER: 'https://login.example.com/',
  IMPORT_OAUTH_AUDIENCE: 'broker-platform-import',
  IMPORT_OAUTH_JWKS_URL: 'https://login.example.com/.well-known/jwks.json',
  ADMIN_OAUTH_ISSUER: 'https://login.example.com/',
  ADMIN_OAUTH_AUDIENCE: 'broker-platform-admin',
  ADMIN_OAUTH_JWKS_URL: 'https://login.example.com/.well-known/jwks.json',
};

/** The file as compose reads it with OPERATOR_VALUES in deploy/.env: other `${X:-default}`s give the default. */
function composeWithDefaults(): { services: Record<string, ComposeService> } {
  const text = readFileSync(COMPOSE_FILE, 'utf8').replace(
    /\$\{([A-Z_]+):([-?])([^}]*)\}/g,
    (_match, name: string, kind: string, fallback: string) =>
      OPERATOR_VALUES[name] ?? (kind === '-' && fallback !== '' ? fallback : "''"),
  );
  return parse(text, { merge: true }) as { services: Record<string, ComposeService> };
}

describe('deploy/compose.yaml', () => {
  const { services } = composeWithDefaults();
  const PLATFORM = ['import-service', 'import-worker', 'calc-service', 'broker-service', 'admin-service'];

  it('is valid against the Compose specification and passes dclint', () => {
    expect(lintCompose(COMPOSE_FILE)).toEqual([]);
  });

  it('the same check refuses a file with a mistake', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compose-'));
    try {
      const broken = join(dir, 'compose.yaml');
      writeFileSync(
        broken,
        readFileSync(COMPOSE_FILE, 'utf8').replace(
          '    depends_on: *after-migration',
          '    depend_on: *after-migration',
        ),
      );
      expect(lintCompose(broken)).toEqual([expect.objectContaining({ rule: 'invalid-schema' })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs PostgreSQL, Redis, the migration step, the four services, the worker and the gateway', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'migrate', ...PLATFORM, 'gateway']),
    );
    expect(services.migrate.command).toEqual(['node', 'node_modules/@broker/db/dist/migrate-main.js']);
    expect(services['import-worker'].command).toEqual(['node', 'dist/worker.js']);
    expect(services['import-worker'].ports).toBeUndefined();
  });

  it('gives every unit a configuration its own check accepts', () => {
    expect(UNITS.map((unit) => configurationErrors(unit, services[unit].environment ?? {})).join('')).toBe(
      '',
    );
    expect(configurationErrors('broker-service', {})).toMatch(/DATABASE_URL/);
  });

  it('starts every platform process after the migration succeeded, the gateway once they are healthy', () => {
    for (const name of PLATFORM)
      expect(services[name].depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    expect(services.migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    for (const name of ['import-service', 'calc-service', 'broker-service', 'admin-service'])
      expect(services.gateway.depends_on?.[name]).toEqual({ condition: 'service_healthy' });
  });

  it('builds each app from its own Dockerfile and shares the upload directory between API and workers', () => {
    for (const app of ['import-service', 'calc-service', 'broker-service', 'admin-service']) {
      const built = Object.values(services).find(
        (service) => service.build?.dockerfile === `deploy/docker/${app}.Dockerfile`,
      );
      expect(built?.image).toBe(`broker/${app}:latest`);
    }
    expect(services['import-worker'].image).toBe(services['import-service'].image);
    const storage = services['import-service'].environment?.IMPORT_STORAGE_DIR;
    for (const name of ['import-service', 'import-worker'])
      expect(services[name].volumes).toContain(`import-files:${storage}`);
  });

  it('starts the gateway with the configuration its image renders from the template', () => {
    const { environment, command } = services.gateway;
    expect(
      renderedConfigMatchesCommand({
        args: command,
        env: Object.entries(environment ?? {}).map(([name, value]) => ({ name, value })),
      }),
    ).toBe(true);
    expect(services.gateway.volumes).toContain(
      `./gateway/${basename(GATEWAY_TEMPLATE)}:/etc/nginx/templates/${basename(GATEWAY_TEMPLATE)}:ro`,
    );
    for (const script of GATEWAY_SCRIPTS)
      expect(services.gateway.volumes).toContain(
        `./gateway/${basename(script)}:/docker-entrypoint.d/${basename(script)}:ro`,
      );
  });

  it('gives the gateway every template variable, the services as upstreams and the upload limit plus framing', () => {
    const gateway = afterGatewayScripts(services.gateway.environment ?? {}) as unknown as GatewaySettings;
    expect(() => renderGatewayConfig(gateway)).not.toThrow();
    expect([
      gateway.IMPORT_UPSTREAM,
      gateway.CALC_UPSTREAM,
      gateway.BROKER_UPSTREAM,
      gateway.ADMIN_UPSTREAM,
    ]).toEqual(['import-service:3000', 'calc-service:3000', 'broker-service:3000', 'admin-service:3000']);
    expect(gateway.ADMIN_ALLOWED_GEO).toBe(
      'default 0; 127.0.0.0/8 1; ::1 1; 10.0.0.0/8 1; 172.16.0.0/12 1; 192.168.0.0/16 1;',
    );
    const uploadLimit = Number(services['import-service'].environment?.IMPORT_MAX_UPLOAD_BYTES);
    expect(Number(gateway.GATEWAY_MAX_UPLOAD_BYTES)).toBe(uploadLimit + UPLOAD_FRAMING_BYTES);
  });
});

/** The classes of the kinds deploy/k8s uses, to check the committed YAML against the Kubernetes schemas. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

describe('deploy/k8s', () => {
  const files = kubernetesManifests(DEFAULT_MANIFEST_OPTIONS);
  const objects = Object.values(files).flat();
  const ofKind = <T>(model: new (...args: never[]) => T) =>
    objects.filter((object): object is T & typeof object => object instanceof model);
  const deployments = ofKind(Deployment);
  const podLabels = (deployment: Deployment) => deployment.spec?.template.metadata?.labels;

  it('holds exactly the generated files and their kustomization (regenerate with `pnpm deploy:k8s`)', () => {
    expect(readdirSync(K8S_DIR).sort()).toEqual([...Object.keys(files), 'kustomization.yaml'].sort());
    for (const [file, generated] of Object.entries(files))
      expect(readFileSync(join(K8S_DIR, file), 'utf8')).toBe(manifestYaml(generated));
    expect(readFileSync(join(K8S_DIR, 'kustomization.yaml'), 'utf8')).toBe(
      kustomizationYaml(kustomization(files)),
    );
  });

  it('every committed document is valid against the schema of its kind', () => {
    const documents = Object.keys(files).flatMap((file) =>
      parseAllDocuments(readFileSync(join(K8S_DIR, file), 'utf8')).map(
        (document) => document.toJS() as { apiVersion: string; kind: string },
      ),
    );
    expect(documents).toHaveLength(objects.length);
    for (const document of documents) {
      const Model = MODELS[`${document.apiVersion}/${document.kind}`];
      expect(Model).toBeDefined();
      expect(() => new Model(document as never).validate()).not.toThrow();
    }
  });

  it('the schema check refuses a wrong value', () => {
    const [deployment] = deployments;
    const broken = new Deployment({
      metadata: deployment.metadata,
      spec: { ...deployment.spec!, replicas: 'two' as never },
    });
    expect(() => broken.validate()).toThrow(/replicas/);
  });

  it('runs every container with readiness and liveness probes, requests and limits, as non-root', () => {
    expect(deployments.map((deployment) => deployment.metadata?.name).sort()).toEqual([
      'admin-service',
      'broker-service',
      'calc-service',
      'gateway',
      'import-service',
      'import-worker',
    ]);
    for (const container of deployments.flatMap(
      (deployment) => deployment.spec?.template.spec?.containers ?? [],
    )) {
      expect(container.readinessProbe?.httpGet?.path).toMatch(/^\/(health\/ready|gateway\/health)$/);
      expect(container.livenessProbe?.httpGet?.path).toMatch(/^\/(health\/live|gateway\/health)$/);
      for (const bound of ['requests', 'limits'] as const)
        expect(Object.keys(container.resources?.[bound] ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(container.securityContext).toMatchObject({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
      });
    }
  });

  it('gives every Deployment a disruption budget, and every Service pods of a Deployment with its named port', () => {
    for (const deployment of deployments)
      expect(
        ofKind(PodDisruptionBudget).some((budget) =>
          budget.spec?.selector?.matchLabels === undefined
            ? false
            : JSON.stringify(budget.spec.selector.matchLabels) === JSON.stringify(podLabels(deployment)),
        ),
      ).toBe(true);
    for (const service of ofKind(Service)) {
      const target = deployments.find(
        (deployment) => JSON.stringify(podLabels(deployment)) === JSON.stringify(service.spec?.selector),
      );
      const portNames = target?.spec?.template.spec?.containers.flatMap((container) =>
        container.ports?.map((port) => port.name),
      );
      expect(portNames).toContain(service.spec?.ports?.[0].targetPort);
    }
  });

  it('scales the calculation service on CPU and the worker on its queue depth', () => {
    const scaled = new Map(
      ofKind(HorizontalPodAutoscaler).map((hpa) => [hpa.spec?.scaleTargetRef.name ?? '', hpa.spec] as const),
    );
    expect([...scaled.keys()].sort()).toEqual(['calc-service', 'import-worker']);
    expect(scaled.get('import-worker')?.metrics).toContainEqual(
      expect.objectContaining({
        type: 'External',
        external: expect.objectContaining({
          metric: { name: 'import_queue_jobs', selector: { matchLabels: { state: 'waiting' } } },
        }) as unknown,
      }) as unknown,
    );
    for (const target of scaled.keys()) {
      const scaledDeployment = deployments.find((deployment) => deployment.metadata?.name === target);
      // A fixed count would reset the autoscaler's on every apply.
      expect(scaledDeployment?.spec).not.toHaveProperty('replicas');
    }
  });

  it('gives every unit a configuration its own check accepts, secrets given', () => {
    const configMap = ofKind(ConfigMap).find((config) => config.metadata?.name === 'platform-config');
    const secrets: Record<string, string> = {
      DATABASE_URL: 'postgres://broker@db.example.com:5432/broker_platform',
      REDIS_URL: 'redis://cache.example.com:6379',
      API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      IMPORT_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CALC_JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----...',
      SMTP_URL: 'smtp://relay.example.com:587',
    };
    const errors = UNITS.map((unit) => {
      const container = deployments.find((deployment) => deployment.metadata?.name === unit)?.spec?.template
        .spec?.containers[0];
      const env = Object.fromEntries(
        (container?.env ?? []).map((variable) => [
          variable.name,
          variable.value ?? secrets[variable.valueFrom?.secretKeyRef?.key ?? ''],
        ]),
      );
      return configurationErrors(unit, { ...configMap?.data, ...env });
    });
    expect(errors.join('')).toBe('');
  });

  it('only references secrets, all from one Secret with the documented keys', () => {
    const text = Object.values(files).map(manifestYaml).join('\n');
    const referenced = [...text.matchAll(/secretKeyRef:\n\s+name: (\S+)\n\s+key: (\S+)/g)];
    expect(new Set(referenced.map((match) => match[1]))).toEqual(new Set([SECRET_NAME]));
    expect(new Set(referenced.map((match) => match[2]))).toEqual(new Set(SECRET_KEYS));
    expect(text).not.toMatch(/^kind: Secret$/m);
    for (const key of SECRET_KEYS)
      for (const config of ofKind(ConfigMap)) expect(config.data).not.toHaveProperty(key);
  });

  it('migrates with a Job per release running the migration entry of an app image', () => {
    const [job] = ofKind(Job);
    expect(job.metadata?.name).toBe(migrationJobName(DEFAULT_MANIFEST_OPTIONS.tag));
    expect(migrationJobName('1.4.0_RC+build')).toBe('migrate-1.4.0-rc-build');
    expect(job.spec?.template.spec?.containers[0].command).toEqual([
      'node',
      'node_modules/@broker/db/dist/migrate-main.js',
    ]);
    expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
  });

  it('enters through the gateway: the template as a ConfigMap, every variable of it set, the Services as upstreams', () => {
    const template = ofKind(ConfigMap).find((config) => config.metadata?.name === 'gateway-template');
    expect(template?.data?.['nginx.conf.template']).toBe(readFileSync(GATEWAY_TEMPLATE, 'utf8'));
    expect(() =>
      renderGatewayConfig(afterGatewayScripts(GATEWAY_ENVIRONMENT) as unknown as GatewaySettings),
    ).not.toThrow();
    const scripts = ofKind(ConfigMap).find((config) => config.metadata?.name === 'gateway-scripts');
    for (const script of GATEWAY_SCRIPTS)
      expect(scripts?.data?.[basename(script)]).toBe(readFileSync(script, 'utf8'));
    const services = ofKind(Service).map((service) => service.metadata?.name);
    for (const upstream of [
      GATEWAY_ENVIRONMENT.IMPORT_UPSTREAM,
      GATEWAY_ENVIRONMENT.CALC_UPSTREAM,
      GATEWAY_ENVIRONMENT.BROKER_UPSTREAM,
      GATEWAY_ENVIRONMENT.ADMIN_UPSTREAM,
    ])
      expect(services).toContain(upstream.split(':')[0]);
    expect(ofKind(Service).find((service) => service.metadata?.name === 'gateway')?.spec).toMatchObject({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
    });
    const [gateway] = deployments.filter((deployment) => deployment.metadata?.name === 'gateway');
    expect(renderedConfigMatchesCommand(gateway.spec?.template.spec?.containers[0])).toBe(true);
  });

  it('lets only the gateway (and Prometheus) reach the administration, from private networks by default', () => {
    expect(afterGatewayScripts(GATEWAY_ENVIRONMENT).ADMIN_ALLOWED_GEO).toBe(
      'default 0; 10.0.0.0/8 1; 172.16.0.0/12 1; 192.168.0.0/16 1; fc00::/7 1;',
    );
    const policies = ofKind(NetworkPolicy);
    expect(policies.map((policy) => policy.metadata?.name)).toEqual(['admin-service']);
    const [admin] = deployments.filter((deployment) => deployment.metadata?.name === 'admin-service');
    const [gateway] = deployments.filter((deployment) => deployment.metadata?.name === 'gateway');
    expect(policies[0].spec?.podSelector.matchLabels).toEqual(admin.spec?.template.metadata?.labels);
    expect(policies[0].spec?.ingress?.[0].from?.[0]).toEqual({
      podSelector: { matchLabels: gateway.spec?.template.metadata?.labels },
    });
    expect(policies[0].spec?.ingress?.[0].ports).toEqual([
      { protocol: 'TCP', port: admin.spec?.template.spec?.containers[0].ports?.[0].containerPort },
    ]);
  });

  it('restricts the administration to ADMIN_ALLOWED_CIDRS, opens it only for any, and refuses empty or no range', () => {
    expect(
      afterGatewayScripts({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8, 192.168.1.0/24 fd00::/8' }).ADMIN_ALLOWED_GEO,
    ).toBe('default 0; 10.0.0.0/8 1; 192.168.1.0/24 1; fd00::/8 1;');
    expect(afterGatewayScripts({ ADMIN_ALLOWED_CIDRS: 'any' }).ADMIN_ALLOWED_GEO).toBe('default 1;');
    expect(() => afterGatewayScripts({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8; allow all' })).toThrow(
      /is not an address range/,
    );
    // A glob is not expanded against the gateway's files.
    expect(() => afterGatewayScripts({ ADMIN_ALLOWED_CIDRS: '/*' })).toThrow(/\/\* is not an address range/);
    for (const empty of [{}, { ADMIN_ALLOWED_CIDRS: '' }, { ADMIN_ALLOWED_CIDRS: ' , ' }])
      expect(() => afterGatewayScripts(empty)).toThrow(/ADMIN_ALLOWED_CIDRS is empty/);
  });
});

describe('the sampling of the traces the gateway starts', () => {
  const TRACE_SAMPLING_SCRIPT = GATEWAY_SCRIPTS.find((script) => script.endsWith('16-trace-sampling.envsh'))!;
  const sourced = (env: Record<string, string | undefined>) =>
    spawnSync(
      '/bin/sh',
      ['-c', `. ${JSON.stringify(TRACE_SAMPLING_SCRIPT)} && echo "$GATEWAY_TRACE_SAMPLING"`],
      {
        env: { PATH: process.env.PATH, ...env },
        encoding: 'utf8',
      },
    );

  type SamplerVariables = Partial<Record<'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG', string>>;

  it.each<[SamplerVariables, string]>([
    [{}, '* 01;'],
    [{ OTEL_TRACES_SAMPLER: 'always_off' }, '* 00;'],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, '* 00;'],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }, '10% 01; * 00;'],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.005' }, '0.5% 01; * 00;'],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, '* 00;'],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' }, '* 01;'],
  ])('follows the services’ sampler alike in the image and on this machine: %j', (env, entries) => {
    expect(traceSampling(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG)).toBe(entries);
    expect(sourced(env).stdout).toBe(`${entries}\n`);
  });

  it.each<[SamplerVariables, string]>([
    [{ OTEL_TRACES_SAMPLER: 'xray' }, 'OTEL_TRACES_SAMPLER: xray is not a sampler the gateway knows'],
    [
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' },
      'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1',
    ],
    [
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' },
      'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1',
    ],
  ])('refuses what the services would refuse: %j', (env, message) => {
    expect(() => traceSampling(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG)).toThrow(message);
    const result = sourced(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`${message}\n`);
  });
});
