import 'reflect-metadata';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import { importProgress } from './import-progress.js';
import { streamPosition } from './process-event-stream.js';

describe('importProgress', () => {
  it('rises with every status and ends at 100 once processed', () => {
    const percents = IMPORT_PIPELINE_STATUSES.map((status) => importProgress(status).percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(new Set(percents.slice(0, IMPORT_PIPELINE_STATUSES.indexOf('processed'))).size).toBeGreaterThan(
      10,
    );
    expect(importProgress('uploaded')).toEqual({ stage: 'transmitted', done: null, total: null, percent: 0 });
    expect(importProgress('processed')).toEqual({
      stage: 'processed',
      done: null,
      total: null,
      percent: 100,
    });
    expect(importProgress('archived').percent).toBe(100);
  });

  it('moves within the decoding stage by the records read, between its status and the next', () => {
    const start = importProgress('received').percent;
    const next = importProgress('imported').percent;
    const half = importProgress('received', { done: 500, total: 1000 });
    expect(half).toMatchObject({ stage: 'imported', done: 500, total: 1000 });
    expect(half.percent).toBeGreaterThan(start);
    expect(half.percent).toBeLessThan(next);
    expect(importProgress('received', { done: 1200, total: 1000 })).toMatchObject({ done: 1000 });
    expect(importProgress('received', { done: 0, total: 0 }).percent).toBe(start);
  });

  it('keeps the percent a failed process had reached', () => {
    expect(importProgress('failed', undefined, 'customersDone')).toEqual({
      stage: 'failed',
      done: null,
      total: null,
      percent: importProgress('customersDone').percent,
    });
    expect(importProgress('failed').percent).toBe(0);
  });
});

describe('streamPosition (Last-Event-ID)', () => {
  it.each([
    [undefined, { changeId: '0', recordsAt: 0, ended: false }],
    ['', { changeId: '0', recordsAt: 0, ended: false }],
    ['1841', { changeId: '1841', recordsAt: 0, ended: false }],
    [' 1841.1795412345678 ', { changeId: '1841', recordsAt: 1795412345678, ended: false }],
    ['1853.end', { changeId: '1853', recordsAt: 0, ended: true }],
    ['abc', { changeId: '0', recordsAt: 0, ended: false }],
    ['12.x', { changeId: '0', recordsAt: 0, ended: false }],
    ['9'.repeat(30), { changeId: '0', recordsAt: 0, ended: false }],
  ])('reads %p', (lastEventId, position) => {
    expect(streamPosition(lastEventId)).toEqual(position);
  });
});
