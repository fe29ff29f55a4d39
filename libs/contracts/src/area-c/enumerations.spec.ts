import { createHash } from 'node:crypto';
import { ENUMERATIONS, ENUMERATIONS_LAST_MODIFIED } from './enumerations.js';

describe('enumeration lists', () => {
  it('move ENUMERATIONS_LAST_MODIFIED along whenever they change', () => {
    // When this fails after a change of the lists: set ENUMERATIONS_LAST_MODIFIED to the day of the change and
    // the digest below to the new one.
    const digest = createHash('sha256').update(JSON.stringify(ENUMERATIONS)).digest('hex');
    expect({ digest, lastModified: ENUMERATIONS_LAST_MODIFIED.toISOString() }).toEqual({
      digest: 'e94ed31f6232fde6bac26434ee0088bc9a367970a26b1e6a72066a98a1c23698',
      lastModified: '2026-11-21T00:00:00.000Z',
    });
  });
});
