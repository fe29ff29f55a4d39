import { openAsBlob, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { SAMPLE_FILES, SAMPLES_DIR } from '../src/sample-files.js';
import { type RunningProcess, startProcesses } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

interface Report {
  status: string;
  counts: Record<string, number>;
}

/** examples/: the sample files of the README's "Try an import", imported by the real API and worker. */
describe('the sample import files (examples/)', () => {
  let environment: SuiteEnvironment;
  let services: Record<'api' | 'worker', RunningProcess>;

  beforeAll(async () => {
    environment = await createSuiteEnvironment({ LOG_LEVEL: 'warn' });
    await insertBrokerFixture(String(environment.env.DATABASE_URL));
    services = await startProcesses({
      api: { script: 'apps/import-service/dist/main.js', env: environment.env },
      worker: { script: 'apps/import-service/dist/worker.js', env: environment.env },
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    await environment?.cleanup();
  });

  it('are what the project’s writer makes (regenerate with pnpm samples)', async () => {
    for (const [name, make] of Object.entries(SAMPLE_FILES))
      expect({ name, equal: readFileSync(path.join(SAMPLES_DIR, name)).equals(await make()) }).toEqual({
        name,
        equal: true,
      });
  });

  it.each([
    ['bestand.gdv', { customersCreated: 6, contractsCreated: 12 }],
    ['kunden.csv', { customersCreated: 2, contractsCreated: 3 }],
  ])(
    '%s imports to processed',
    async (name, counts) => {
      const authorization = `Bearer ${await environment.importToken()}`;
      const form = new FormData();
      form.append('companies[0]', '9999');
      form.append('file', await openAsBlob(path.join(SAMPLES_DIR, name)), name);
      const upload = await fetch(`${services.api.baseUrl}/api/v1/import`, {
        method: 'POST',
        headers: { Authorization: authorization },
        body: form,
      });
      expect(upload.status).toBe(200);
      const { process_id: processId } = (await upload.json()) as { process_id: string };
      const report = await waitFor(async () => {
        const answer = await fetch(`${services.api.baseUrl}/api/v1/processes/${processId}/report`, {
          headers: { Authorization: authorization },
        });
        const body = (await answer.json()) as Report;
        return ['processed', 'failed'].includes(body.status) ? body : undefined;
      }, 60_000);
      expect(report.status).toBe('processed');
      expect(report.counts).toMatchObject(counts);
    },
    90_000,
  );
});
