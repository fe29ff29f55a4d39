import 'reflect-metadata';
import { PrivateLiabilityCalculationRequest } from '@broker/contracts';
import { createValidationPipe } from '@broker/errors';
import { CIVIL_SERVICE_OCCUPATIONS, PAYMENT_MODE_SPELLINGS } from '@broker/tariff-engine';
import { calculationParameters } from './calculation-parameters';
import { plainlyValidRequest } from './plainly-valid-request';

const pipe = createValidationPipe();

/** What the validation pipe makes of the body: the request, or undefined when it answers 400. */
async function pipeRequest(body: unknown): Promise<PrivateLiabilityCalculationRequest | undefined> {
  try {
    return (await pipe.transform(body, {
      type: 'body',
      metatype: PrivateLiabilityCalculationRequest,
    })) as PrivateLiabilityCalculationRequest;
  } catch {
    return undefined;
  }
}

/** The plain check must accept exactly what the pipe accepts, and understand it the same way. */
async function expectSameVerdict(body: unknown): Promise<void> {
  const plain = plainlyValidRequest(body);
  const validated = await pipeRequest(body);
  expect({ body, plain: plain && calculationParameters(plain) }).toEqual({
    body,
    plain: validated && calculationParameters(validated),
  });
}

const NOW_SECONDS = Math.floor(Date.now() / 1000);

const fullRequest = () => ({
  policyholder: {
    birthdate: 482_803_200,
    sex: 'female',
    name: 'Muster',
    first_name: 'Erika',
    last_name: 'M',
  },
  subject_matter: {
    policyholder: {
      civil_servant: true,
      include_civil_service_liability: true,
      civil_service_occupation: 'lehrer',
    },
    partner: {
      civil_servant: false,
      include_civil_service_liability: false,
      civil_service_occupation: null,
      birthdate: 347_155_200,
    },
    include_children: true,
  },
  previous_insurance_exists: true,
  previous_damages_exist: false,
  desired_payment_mode: 'Monatlich',
});

/** Values put in place of a field: right and wrong types, edge values, texts the pipe refuses. */
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1.5,
  -2_208_988_800,
  -2_208_988_801,
  NOW_SECONDS + 3600,
  2 ** 53,
  '',
  'x',
  '482803200',
  'a\u0000b',
  'a\ud800b',
  '\udc00',
  'x'.repeat(200),
  'x'.repeat(201),
  '😀'.repeat(100),
  'female',
  'diverse',
  'lehrer',
  'pilot',
  ' monthly',
  'HALBJÄHRLICH',
  'half_yearly',
  'weekly',
  [],
  [1],
  {},
  { civil_servant: true },
  { civil_servant: false, birthdate: 0 },
  { civil_servant: true, include_civil_service_liability: true },
  { civil_servant: true, include_civil_service_liability: true, civil_service_occupation: 'zoll' },
  { birthdate: 0 },
];

/** Every path to an object or a field of the full request, plus a field no DTO has at each level. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const own = Object.entries(value).flatMap(([key, child]) => paths(child, [...prefix, key]));
  return [prefix, ...own, [...prefix, 'discount_code']];
}

function replaced(body: object, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy: Record<string, unknown> = structuredClone(body) as Record<string, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path[path.length - 1];
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** A small deterministic generator (mulberry32), so a failure can be reproduced. */
function randomNumbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('plainlyValidRequest', () => {
  it('accepts the full and the minimal request as the pipe does', async () => {
    await expectSameVerdict(fullRequest());
    await expectSameVerdict({
      policyholder: { birthdate: 0 },
      subject_matter: { policyholder: { civil_servant: false } },
    });
    expect(plainlyValidRequest(fullRequest())?.desired_payment_mode).toBe('monthly');
  });

  it('agrees with the pipe on every field replaced by every test value', async () => {
    const body = fullRequest();
    for (const path of paths(body))
      for (const replacement of REPLACEMENTS) await expectSameVerdict(replaced(body, path, replacement));
  });

  it('agrees with the pipe on requests with several fields replaced at random', async () => {
    const random = randomNumbers(20261122);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
    const values = [...REPLACEMENTS, ...CIVIL_SERVICE_OCCUPATIONS, ...PAYMENT_MODE_SPELLINGS];
    for (let round = 0; round < 2000; round++) {
      let body: unknown = fullRequest();
      for (let change = 1 + Math.floor(random() * 3); change > 0; change--) {
        if (typeof body !== 'object' || body === null) break;
        body = replaced(body, pick(paths(body)), pick(values));
      }
      await expectSameVerdict(body);
    }
  });

  it('leaves the body as it was', () => {
    const body = fullRequest();
    plainlyValidRequest(body);
    expect(body).toEqual(fullRequest());
  });

  it('leaves a name of 200 characters but more UTF-16 units to the pipe, which accepts it', async () => {
    const body = { ...fullRequest(), policyholder: { birthdate: 0, name: '😀'.repeat(101) } };
    expect(plainlyValidRequest(body)).toBeUndefined();
    expect(await pipeRequest(body)).toBeDefined();
  });
});
