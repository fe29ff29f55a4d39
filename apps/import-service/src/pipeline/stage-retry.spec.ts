import { afterFailedTry, OTHER_FAULT_TRIES, type StageRetrySettings } from './stage-retry.js';

const SETTINGS: StageRetrySettings = { outageBudgetMs: 10 * 60_000, maxDelayMs: 30_000 };
/** What node-postgres raises for a server that is down, and for a killed backend. */
const REFUSED = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const ADMIN_SHUTDOWN = Object.assign(new Error('terminating connection due to administrator command'), {
  code: '57P01',
});
const OUR_FAULT = new Error('the handler broke');

describe('afterFailedTry (the stage retry policy)', () => {
  it('waits out a database outage for the whole budget, the wait doubling from 1 s up to the cap', () => {
    let faults = afterFailedTry(undefined, REFUSED, 0, SETTINGS);
    const delays: number[] = [];
    let now = 0;
    while (faults) {
      delays.push(faults.delayMs);
      now += faults.delayMs;
      faults = afterFailedTry(faults, now % 2 ? REFUSED : ADMIN_SHUTDOWN, now, SETTINGS);
    }
    expect(delays.slice(0, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(now).toBeGreaterThanOrEqual(SETTINGS.outageBudgetMs);
    expect(now).toBeLessThan(SETTINGS.outageBudgetMs + SETTINGS.maxDelayMs);
  });

  it('gives up on any other fault after the fifth try, as before', () => {
    let faults = afterFailedTry(undefined, OUR_FAULT, 0, SETTINGS);
    let tries = 1;
    while (faults) {
      faults = afterFailedTry(faults, OUR_FAULT, tries * 1_000, SETTINGS);
      tries += 1;
    }
    expect(tries).toBe(OTHER_FAULT_TRIES);
  });

  it('counts an outage from its first failure, and afresh after the database answered again', () => {
    const outage = afterFailedTry(undefined, REFUSED, 1_000, SETTINGS);
    expect(outage).toMatchObject({ outageSince: 1_000, otherFaults: 0 });
    const answered = afterFailedTry(outage, OUR_FAULT, 5_000, SETTINGS);
    expect(answered).toMatchObject({ otherFaults: 1, tries: 2 });
    expect(answered?.outageSince).toBeUndefined();
    expect(afterFailedTry(answered, REFUSED, 700_000, SETTINGS)).toMatchObject({ outageSince: 700_000 });
    expect(afterFailedTry(outage, REFUSED, 1_000 + SETTINGS.outageBudgetMs, SETTINGS)).toBeUndefined();
  });
});
