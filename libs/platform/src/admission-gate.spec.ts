import { settled } from '@broker/testing';
import { AdmissionGate, type ReleaseAdmission } from './admission-gate.js';

const settings = { inProgress: 2, maxWaiting: 2, maxWaitMs: 60_000 };

describe('AdmissionGate', () => {
  it('admits up to its limit at once and the next waiter, in arrival order, as places are given back', async () => {
    const gate = new AdmissionGate(settings);
    const first = await gate.enter();
    const second = await gate.enter();
    const third = gate.enter();
    const fourth = gate.enter();
    expect(await settled(third)).toBe(false);

    first!();
    const thirdRelease = await third;
    expect(thirdRelease).toBeInstanceOf(Function);
    expect(await settled(fourth)).toBe(false);

    second!();
    expect(await fourth).toBeInstanceOf(Function);
  });

  it('refuses a caller beyond the waiting limit at once', async () => {
    const gate = new AdmissionGate(settings);
    await gate.enter();
    await gate.enter();
    void gate.enter();
    void gate.enter();
    expect(await gate.enter()).toBeUndefined();
  });

  it('refuses a waiter once it has waited maxWaitMs, and keeps its place for the next', async () => {
    const gate = new AdmissionGate({ ...settings, inProgress: 1, maxWaitMs: 20 });
    const holder = await gate.enter();
    expect(await gate.enter()).toBeUndefined();

    holder!();
    expect(await gate.enter()).toBeInstanceOf(Function);
  });

  it('drops a waiter whose caller went away, without giving it a place', async () => {
    const gate = new AdmissionGate({ ...settings, inProgress: 1 });
    const holder = await gate.enter();
    const gone = new AbortController();
    const abandoned = gate.enter(gone.signal);
    const next = gate.enter();
    gone.abort();
    expect(await abandoned).toBeUndefined();

    holder!();
    expect(await next).toBeInstanceOf(Function);
    expect(await gate.enter(AbortSignal.abort())).toBeUndefined();
  });

  it('gives a place back once however often it is released', async () => {
    const gate = new AdmissionGate({ ...settings, inProgress: 1 });
    const holder = (await gate.enter()) as ReleaseAdmission;
    const waiting = gate.enter();
    holder();
    holder();
    expect(await waiting).toBeInstanceOf(Function);
    expect(await settled(gate.enter())).toBe(false);
  });
});
