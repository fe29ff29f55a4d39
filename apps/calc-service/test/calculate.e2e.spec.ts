import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { LoginTokenService } from '@broker/auth';
import { refusedByRule } from '@broker/testing';
import { type CalcTestApp, startCalcTestApp } from './calc-test-app.js';

/** The engine's hand-checked test catalog (libs/tariff-engine/test/fixtures), so premiums here are known. */
const GOLDEN_CATALOG = join(
  __dirname,
  '..',
  '..',
  '..',
  'libs',
  'tariff-engine',
  'test',
  'fixtures',
  'golden-catalog.json',
);
const PATH = '/api/v1/calculate/private-liability';
/** 1985-04-20: 26–59 years old until 2044, the same age band of every product of the test catalog. */
const BORN_1985 = 482_803_200;

const singleRequest = (extra: Record<string, unknown> = {}) => ({
  policyholder: { birthdate: BORN_1985, sex: 'female', name: 'Muster' },
  subject_matter: { policyholder: { civil_servant: false }, include_children: false },
  previous_insurance_exists: false,
  previous_damages_exist: false,
  desired_payment_mode: 'yearly',
  ...extra,
});

describe('POST /api/v1/calculate/private-liability', () => {
  let calc: CalcTestApp;
  let token: string;
  const calculate = (body: unknown, auth = `Bearer ${token}`) =>
    request(calc.server())
      .post(PATH)
      .set('Authorization', auth)
      .send(body as object);

  beforeAll(async () => {
    calc = await startCalcTestApp({ CALC_PRIVATE_LIABILITY_CATALOG: GOLDEN_CATALOG });
    token = await calc.token();
  });
  afterAll(() => calc?.close());

  describe('bearer token', () => {
    const unauthorized = (message: string) => ({
      name: 'AuthenticationFailed',
      message,
      code: 1101,
      status: 401,
    });

    it('refuses a request without a token', async () => {
      const response = await request(calc.server()).post(PATH).send(singleRequest()).expect(401);
      expect(response.body).toEqual(unauthorized('A bearer token is required'));
      expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    });

    it('refuses an expired token, saying so', async () => {
      const past = new Date(Date.now() - 2 * 3600 * 1000);
      const expired = await calc.tokens.issue({ userId: '1', username: 'Rechner', tenant: 'demo' }, past);
      const response = await calculate(singleRequest(), `Bearer ${expired.token}`).expect(401);
      expect(response.body).toEqual(unauthorized('The token has expired; log in again'));
    });

    it('refuses a tampered token and one signed with another key', async () => {
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const raised = Buffer.from(JSON.stringify({ ...claims, tenant: 'other' })).toString('base64url');
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      const foreign = new LoginTokenService({
        privateKeyPem: generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
        keyId: calc.config.CALC_JWT_KEY_ID,
        issuer: calc.config.CALC_JWT_ISSUER,
        ttlSeconds: 600,
      });
      const foreignToken = (await foreign.issue({ userId: '1', username: 'Rechner', tenant: 'demo' })).token;
      for (const bad of [
        `${header}.${raised}.${signature}`,
        `${header}.${payload}.${flipped}`,
        foreignToken,
      ]) {
        const response = await calculate(singleRequest(), `Bearer ${bad}`).expect(401);
        expect(response.body).toEqual(unauthorized('The token is not valid'));
      }
    });

    it('refuses other schemes', async () => {
      await calculate(singleRequest(), `Basic ${Buffer.from('Rechner:x').toString('base64')}`).expect(401);
      await calculate(singleRequest(), token).expect(401);
    });

    it('accepts the token in the misspelled Authorisation header of the spec example', async () => {
      const response = await request(calc.server())
        .post(PATH)
        .set('Authorisation', `Bearer ${token}`)
        .send(singleRequest())
        .expect(200);
      expect(
        (response.body as { calculation_result: { success: unknown[] } }).calculation_result.success,
      ).toHaveLength(3);
    });
  });

  describe('validation (400, the failing field named)', () => {
    const { policyholder, subject_matter: subject } = singleRequest();
    const occupationMessage =
      'civil_service_occupation is required when include_civil_service_liability is true and must be one of: lehrer,';
    it.each([
      [
        'birthdate missing',
        { policyholder: { sex: 'female' } },
        'policyholder.birthdate is required and must be an integer number of seconds since 1970-01-01T00:00:00Z',
      ],
      [
        'birthdate a numeric string',
        { policyholder: { birthdate: '482803200' } },
        'policyholder.birthdate is required and must be an integer',
      ],
      [
        'birthdate a fraction',
        { policyholder: { birthdate: 482803200.5 } },
        'policyholder.birthdate is required and must be an integer',
      ],
      [
        'birthdate null',
        { policyholder: { birthdate: null } },
        'policyholder.birthdate is required and must be an integer',
      ],
      [
        'birthdate in the future',
        { policyholder: { birthdate: Math.floor(Date.now() / 1000) + 86_400 * 30 } },
        'policyholder.birthdate must not be in the future',
      ],
      [
        'birthdate before 1900',
        { policyholder: { birthdate: -2_300_000_000 } },
        'policyholder.birthdate must not be before 1900-01-01',
      ],
      ['policyholder missing', { policyholder: undefined }, 'policyholder is required and must be an object'],
      [
        'sex not known',
        { policyholder: { ...policyholder, sex: 'unknown' } },
        'policyholder.sex must be one of the following values: female, male, diverse',
      ],
      [
        'subject_matter missing',
        { subject_matter: undefined },
        'subject_matter is required and must be an object',
      ],
      [
        'policyholder as insured person missing',
        { subject_matter: { include_children: true } },
        'subject_matter.policyholder is required and must be an object',
      ],
      [
        'civil_servant of the policyholder missing',
        { subject_matter: { policyholder: {} } },
        'subject_matter.policyholder.civil_servant is required and must be a boolean',
      ],
      [
        'civil_servant as a string',
        { subject_matter: { policyholder: { civil_servant: 'true' } } },
        'subject_matter.policyholder.civil_servant is required and must be a boolean',
      ],
      [
        'civil_servant of the partner missing',
        { subject_matter: { ...subject, partner: { birthdate: BORN_1985 } } },
        'subject_matter.partner.civil_servant is required and must be a boolean',
      ],
      [
        'partner birthdate not a number',
        { subject_matter: { ...subject, partner: { civil_servant: true, birthdate: 'gestern' } } },
        'subject_matter.partner.birthdate must be an integer number of seconds',
      ],
      [
        'service liability without occupation',
        { subject_matter: { policyholder: { civil_servant: true, include_civil_service_liability: true } } },
        `subject_matter.policyholder.${occupationMessage}`,
      ],
      [
        'service liability with an unknown occupation',
        {
          subject_matter: {
            policyholder: {
              civil_servant: true,
              include_civil_service_liability: true,
              civil_service_occupation: 'pilot',
            },
          },
        },
        `subject_matter.policyholder.${occupationMessage}`,
      ],
      [
        'partner service liability without occupation',
        {
          subject_matter: {
            ...subject,
            partner: { civil_servant: true, include_civil_service_liability: true },
          },
        },
        `subject_matter.partner.${occupationMessage}`,
      ],
      [
        'include_children not a boolean',
        { subject_matter: { ...subject, include_children: 'ja' } },
        'subject_matter.include_children must be a boolean value',
      ],
      [
        'previous_damages_exist not a boolean',
        { previous_damages_exist: 1 },
        'previous_damages_exist must be a boolean value',
      ],
      [
        'payment mode not known',
        { desired_payment_mode: 'weekly' },
        'desired_payment_mode must be one of: yearly, half_yearly, quarterly, monthly, jaehrlich, jährlich, halbjaehrlich, halbjährlich, vierteljaehrlich, vierteljährlich, monatlich',
      ],
      [
        'payment mode with blanks',
        { desired_payment_mode: ' monthly' },
        'desired_payment_mode must be one of',
      ],
      ['an unknown field', { discount_code: 'X' }, 'property discount_code should not exist'],
    ])('%s', async (_case, change, message) => {
      // Some rules (a birthdate in the past, an occupation with the service liability) go beyond the document.
      const response = await refusedByRule(calculate(singleRequest(change))).expect(400);
      expect(response.body).toEqual({
        name: 'ValidationFailed',
        message: expect.stringContaining(message),
        code: 1000,
        status: 400,
      });
    });

    it('names every failing field at once', async () => {
      const response = await calculate({
        policyholder: {},
        subject_matter: { policyholder: {} },
        desired_payment_mode: 'täglich',
      }).expect(400);
      const { message } = response.body as { message: string };
      for (const field of [
        'policyholder.birthdate',
        'subject_matter.policyholder.civil_servant',
        'desired_payment_mode',
      ])
        expect(message).toContain(field);
    });

    it('refuses a request sent again just as the first time (refusals are not remembered)', async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await calculate(singleRequest({ desired_payment_mode: 'weekly' })).expect(400);
        expect(response.body).toMatchObject({ name: 'ValidationFailed', status: 400 });
      }
    });

    it('refuses a request without a body (400) and a body that is not JSON (415), calculating nothing', async () => {
      await request(calc.server()).post(PATH).set('Authorization', `Bearer ${token}`).expect(400);
      const text = await calculate(JSON.stringify(singleRequest()))
        .set('Content-Type', 'text/plain')
        .expect(415);
      expect(text.body).toEqual({
        name: 'UnsupportedMediaType',
        message: 'The body has Content-Type text/plain; this operation takes application/json',
        code: expect.any(Number),
        status: 415,
      });
    });

    it('refuses a body that is not a JSON object', async () => {
      await calculate('[1,2]').set('Content-Type', 'application/json').expect(400);
      await calculate('{"policyholder":').set('Content-Type', 'application/json').expect(400);
    });
  });

  describe('payment modes', () => {
    it.each([
      ['monthly', 'monthly'],
      ['monatlich', 'monthly'],
      ['Monatlich', 'monthly'],
      ['quarterly', 'quarterly'],
      ['vierteljaehrlich', 'quarterly'],
      ['vierteljährlich', 'quarterly'],
      ['half_yearly', 'half_yearly'],
      ['halbjaehrlich', 'half_yearly'],
      ['halbjährlich', 'half_yearly'],
      ['yearly', 'yearly'],
      ['jaehrlich', 'yearly'],
      ['jährlich', 'yearly'],
    ])('understands %s as %s', async (sent, understood) => {
      const response = await calculate(singleRequest({ desired_payment_mode: sent })).expect(200);
      const body = response.body as CalculationBody;
      expect(body.calculation_parameters.desired_payment_mode).toBe(understood);
      for (const offer of body.calculation_result.success)
        expect(offer.products[0].fees[0].payment_mode).toBe(understood);
    });
  });

  it('answers a full calculation in the structure of the spec, field by field', async () => {
    const response = await calculate(singleRequest({ desired_payment_mode: 'monatlich' })).expect(200);
    const body = response.body as CalculationBody;
    const parameters = {
      policyholder: {
        birthdate: BORN_1985,
        sex: 'female',
        name: 'Muster',
        first_name: null,
        last_name: null,
      },
      subject_matter: {
        policyholder: {
          civil_servant: false,
          include_civil_service_liability: false,
          civil_service_occupation: null,
        },
        partner: null,
        include_children: false,
      },
      previous_insurance: { damage_free: true, pre_insured: false },
      desired_payment_mode: 'monthly',
    };
    expect(body.calculation_parameters).toEqual(parameters);
    expect(Object.keys(body)).toEqual(['calculation_parameters', 'calculation_result']);

    // Hand-checked against the test catalog (26–59 single, monthly): goldtest-komfort 5000 + 5 % = 5250,
    // + 19 % tax (997.50 → 998) = 6248, / 12 = 520.67 → 5.21; probus-premium 6789 + 0 % + 19 % (1289.91 → 1290)
    // = 8079, / 12 = 673.25 → 6.73. goldtest-basis offers no monthly payment; probus-start no one over 35.
    const offer = (
      id: string,
      providerName: string,
      providerId: string,
      name: string,
      line: string,
      coverage: number,
      amount: string,
    ) => ({
      name,
      provider: { name: providerName, origin_id: providerId },
      duration: null,
      contract_commencement: null,
      policyholder: {
        birthdate: BORN_1985,
        first_name: null,
        last_name: 'Muster',
        sex: 'female',
        postal_address: null,
      },
      products: [
        {
          subject_matter: {
            policyholder: parameters.subject_matter.policyholder,
            children: false,
            partner: null,
          },
          previous_insurance: false,
          previous_damage: false,
          name,
          provider: { name: providerName, origin_id: providerId },
          duration: null,
          fees: [
            {
              amount: { amount, currency: 'EUR' },
              payment_mode: 'monthly',
              taxes: [{ type: 'percent', amount: 19 }],
            },
          ],
          product_attributes: {
            product_line: line,
            household: 'single',
            coverage_sum_eur: coverage,
            deductible_eur: 0,
            benefits: expect.any(Object),
            civil_service_liability: null,
          },
          origin_id: id,
          insurance_commencement: null,
        },
      ],
    });
    const { success, errors } = body.calculation_result;
    expect(success).toEqual([
      offer(
        'goldtest-komfort',
        'Goldtest Versicherung AG',
        'goldtest',
        'Golden Komfort',
        'komfort',
        20_000_000,
        '5.21',
      ),
      offer(
        'probus-premium',
        'Probus Assekuranz AG',
        'probus',
        'Probus Premium',
        'premium',
        50_000_000,
        '6.73',
      ),
    ]);
    for (const benefit of Object.values(success[0].products[0].product_attributes.benefits))
      expect(Object.keys(benefit).sort()).toEqual(['covered', 'sum_eur']);
    for (const entry of errors) {
      expect(entry).toEqual({
        title: expect.any(String),
        sub_title: expect.any(String),
        product: 'Privathaftpflicht',
        id: expect.any(String),
        messages: [expect.any(String)],
      });
    }
    expect(errors[0].messages[0]).toMatch(/monthly/i);
    expect(errors[1].messages[0]).toMatch(/age/i);
    expect(body.calculation_result.catalog_version).toEqual(expect.any(String));
  });

  it('completes a minimal request with defaults and echoes the partner and the add-on', async () => {
    const response = await calculate({
      policyholder: { birthdate: BORN_1985 },
      subject_matter: {
        policyholder: {
          civil_servant: true,
          include_civil_service_liability: true,
          civil_service_occupation: 'lehrer',
        },
        partner: { civil_servant: false, birthdate: BORN_1985 },
      },
    }).expect(200);
    const body = response.body as CalculationBody;
    expect(body.calculation_parameters).toEqual({
      policyholder: { birthdate: BORN_1985, sex: null, name: null, first_name: null, last_name: null },
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
          birthdate: BORN_1985,
        },
        include_children: false,
      },
      previous_insurance: { damage_free: true, pre_insured: false },
      desired_payment_mode: 'yearly',
    });
    // goldtest-komfort couple 6000 − 10 % civil servant = 5400, + school add-on 3000 = 8400, + 19 % = 9996.
    const komfort = body.calculation_result.success.find(
      (offer) => offer.products[0].origin_id === 'goldtest-komfort',
    )!;
    expect(komfort.products[0].fees[0].amount.amount).toBe('99.96');
    expect(komfort.products[0].product_attributes.civil_service_liability).toMatchObject({
      insured: [{ person: 'policyholder', occupation: 'lehrer', school_key_loss: true }],
    });
    expect(komfort.products[0].subject_matter.partner).toEqual(
      body.calculation_parameters.subject_matter.partner,
    );
  });

  it('answers a request sent again with the same bytes, and only with a valid token', async () => {
    const first = await calculate(singleRequest({ desired_payment_mode: 'quarterly' })).expect(200);
    const again = await calculate(singleRequest({ desired_payment_mode: 'quarterly' })).expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    await calculate(singleRequest({ desired_payment_mode: 'quarterly' }), 'Bearer x.y.z').expect(401);
  });

  it('lists a product that needs underwriting for prior damages under errors, saying why', async () => {
    const response = await calculate(
      singleRequest({ previous_damages_exist: true, previous_insurance_exists: true }),
    ).expect(200);
    const body = response.body as CalculationBody;
    expect(body.calculation_parameters.previous_insurance).toEqual({ damage_free: false, pre_insured: true });
    const premium = body.calculation_result.errors.find((entry) => entry.id === 'probus-premium');
    expect(premium?.messages.join(' ')).toMatch(/underwriting/);
    for (const offer of body.calculation_result.success) {
      expect(offer.products[0]).toMatchObject({ previous_insurance: true, previous_damage: true });
    }
  });
});

interface CalculationBody {
  calculation_parameters: {
    desired_payment_mode: string;
    previous_insurance: object;
    subject_matter: { partner: object | null };
  };
  calculation_result: {
    success: {
      products: {
        origin_id: string;
        fees: { amount: { amount: string }; payment_mode: string }[];
        product_attributes: { benefits: Record<string, object>; civil_service_liability: object | null };
        subject_matter: { partner: object | null };
      }[];
    }[];
    errors: { id: string; messages: string[] }[];
    catalog_version: string;
  };
}
