import { CachedActiveUsers } from './active-users.js';

describe('CachedActiveUsers', () => {
  let now = 1_000_000;
  let active = true;
  let lookups = 0;
  const users = new CachedActiveUsers(
    () => {
      lookups++;
      return Promise.resolve(active);
    },
    30_000,
    () => now,
  );
  const seconds = (ms: number) => Math.floor(ms / 1000);

  it('remembers a state for its time to live, for tokens of every age', async () => {
    expect(await users.isActive('1', seconds(now) - 60)).toBe(true);
    active = false;
    now += 10_000;
    expect(await users.isActive('1', seconds(now))).toBe(true);
    expect(lookups).toBe(1);
    now += 21_000;
    expect(await users.isActive('1', seconds(now) - 60)).toBe(false);
    expect(lookups).toBe(2);
  });

  it('reads a user remembered as disabled again for a token issued since, and only for such a token', async () => {
    active = true;
    const rememberedAt = now;
    now += 500;
    expect(await users.isActive('1', seconds(rememberedAt) - 1)).toBe(false);
    expect(lookups).toBe(2);
    expect(await users.isActive('1', seconds(now))).toBe(true);
    expect(lookups).toBe(3);
  });
});
