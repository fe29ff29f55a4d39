import { nextOutageTry, type StageRetrySettings } from './stage-retry.js';

const SETTINGS: StageRetrySettings = { outageBudgetMs: 10 * 60_000, maxDelayMs: 30_000 };

describe('nextOutageTry (the stage retry policy while the database is out of reach)', () => {
  it('waits out an outage for the whole budget, the wait doubling from 1 s up to the cap', () => {
    const delays: number[] = [];
    let now = 5_000;
    let next = nextOutageTry(undefined, now, SETTINGS);
    while (next) {
      delays.push(next.delayMs);
      expect(next.outage.since).toBe(5_000);
      now += next.delayMs;
      next = nextOutageTry(next.outage, now, SETTINGS);
    }
    expect(delays.slice(0, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(now - 5_000).toBeGreaterThanOrEqual(SETTINGS.outageBudgetMs);
    expect(now - 5_000).toBeLessThan(SETTINGS.outageBudgetMs + SETTINGS.maxDelayMs);
  });

  it('gives up once the budget counted from the first failure is spent', () => {
    const first = nextOutageTry(undefined, 0, SETTINGS);
    expect(first).toEqual({ outage: { since: 0, tries: 1 }, delayMs: 1_000 });
    expect(nextOutageTry(first?.outage, SETTINGS.outageBudgetMs - 1, SETTINGS)).toBeDefined();
    expect(nextOutageTry(first?.outage, SETTINGS.outageBudgetMs, SETTINGS)).toBeUndefined();
  });
});
