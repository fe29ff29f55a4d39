import 'reflect-metadata';
import type { DataSource, EntityManager } from 'typeorm';
import { createDataSource } from '@broker/db';
import { createTestDatabase, type TestDatabase, waitFor } from '@broker/testing';
import type { ImportProcessRecord } from './import-process-state.repository.js';
import { SqlStage } from './sql-stage.js';
import { StagingRepository } from './staging.repository.js';

const PROCESS = { id: 'probe-process' } as ImportProcessRecord;

/** A stage whose own work writes a row and whose work beside it is whatever the test gives it. */
class ProbeStage extends SqlStage {
  readonly from = 'contractsPrepared';
  ownWorkDone = false;

  constructor(
    db: DataSource,
    private readonly work: () => Promise<void>,
  ) {
    super(db, new StagingRepository());
  }

  protected override besides(): Promise<void> {
    return this.work();
  }

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await tx.query('INSERT INTO sql_stage_probe_rows (process_id) VALUES ($1)', [processId]);
    this.ownWorkDone = true;
  }
}

describe('SqlStage with work beside its transaction', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource({ url: database.url, applicationName: 'sql-stage-test' });
    await db.initialize();
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await db.query('DROP TABLE IF EXISTS sql_stage_probe_rows');
    await db.query('CREATE TABLE sql_stage_probe_rows (process_id text NOT NULL)');
  });

  const committedRows = async () =>
    (await db.query<{ count: number }[]>('SELECT count(*)::int AS count FROM sql_stage_probe_rows'))[0]
      ?.count;

  it('commits its own work only after the work beside it has finished', async () => {
    let finishBeside: () => void = () => undefined;
    const beside = new Promise<void>((resolve) => (finishBeside = resolve));
    const stage = new ProbeStage(db, () => beside);
    const running = stage.run(PROCESS);
    await waitFor(
      () => stage.ownWorkDone || undefined,
      10_000,
      () => 'the stage never did its own work',
    );
    expect(await committedRows()).toBe(0);
    finishBeside();
    await running;
    expect(await committedRows()).toBe(1);
  });

  it('rolls its own work back and fails with the error of the work beside it', async () => {
    const stage = new ProbeStage(db, () => Promise.reject(new Error('refresh failed')));
    await expect(stage.run(PROCESS)).rejects.toThrow('refresh failed');
    expect(await committedRows()).toBe(0);
  });

  it('ends only after the work beside it has settled, when its own work fails first', async () => {
    let besideSettled = false;
    const stage = new ProbeStage(db, () =>
      new Promise<void>((resolve) => setTimeout(resolve, 200)).then(() => void (besideSettled = true)),
    );
    await db.query('DROP TABLE sql_stage_probe_rows');
    await expect(stage.run(PROCESS)).rejects.toThrow(/sql_stage_probe_rows/);
    expect(besideSettled).toBe(true);
  });
});
