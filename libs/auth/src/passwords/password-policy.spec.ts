import { hash } from '@node-rs/argon2';
import { checkPasswordPolicy, hashPassword, passwordMatches } from './password-policy';

describe('passwordMatches', () => {
  const composed = 'Kiesel Mühle Abendrot';
  const decomposed = composed.normalize('NFD');

  it('matches a password typed decomposed against the NFC form the policy stored', async () => {
    const checked = checkPasswordPolicy(decomposed, { userName: null });
    if (!('password' in checked)) throw new Error('the test password must pass the policy');
    const stored = await hashPassword(checked.password);
    await expect(passwordMatches(stored, decomposed)).resolves.toBe(true);
    await expect(passwordMatches(stored, composed)).resolves.toBe(true);
    await expect(passwordMatches(stored, 'Kiesel Muhle Abendrot')).resolves.toBe(false);
  });

  it('still matches a hash made of the password as typed, before passwords were normalised', async () => {
    const legacy = await hash(decomposed);
    await expect(passwordMatches(legacy, decomposed)).resolves.toBe(true);
  });

  it('answers false for a hash it cannot read', async () => {
    await expect(passwordMatches('not a hash', composed)).resolves.toBe(false);
  });
});
