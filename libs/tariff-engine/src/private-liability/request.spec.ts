import {
  assertValidRequest,
  civilServantInHousehold,
  householdOf,
  type PrivateLiabilityRequest,
  serviceLiabilityWishes,
} from './request.js';

function request(overrides: {
  partner?: PrivateLiabilityRequest['subject_matter']['partner'];
  children?: boolean;
  policyholder?: PrivateLiabilityRequest['subject_matter']['policyholder'];
}): PrivateLiabilityRequest {
  return {
    policyholder: { birthdate: 0 },
    subject_matter: {
      policyholder: overrides.policyholder ?? { civil_servant: false },
      partner: overrides.partner,
      include_children: overrides.children ?? false,
    },
    previous_insurance: { pre_insured: false, damage_free: true },
    desired_payment_mode: 'yearly',
  };
}

describe('request', () => {
  it('derives the household from the partner and children flags', () => {
    expect(householdOf(request({}))).toBe('single');
    expect(householdOf(request({ partner: null }))).toBe('single');
    expect(householdOf(request({ partner: { civil_servant: false } }))).toBe('couple');
    expect(householdOf(request({ children: true }))).toBe('single_parent');
    expect(householdOf(request({ partner: { civil_servant: false }, children: true }))).toBe('family');
  });

  it('grants the civil-servant status of either adult', () => {
    expect(civilServantInHousehold(request({}))).toBe(false);
    expect(civilServantInHousehold(request({ policyholder: { civil_servant: true } }))).toBe(true);
    expect(civilServantInHousehold(request({ partner: { civil_servant: true } }))).toBe(true);
  });

  it('lists the service-liability wishes, policyholder first, ignoring an occupation without the flag', () => {
    const both = request({
      policyholder: {
        civil_servant: true,
        include_civil_service_liability: true,
        civil_service_occupation: 'lehrer',
      },
      partner: {
        civil_servant: true,
        include_civil_service_liability: true,
        civil_service_occupation: 'polizei',
      },
    });
    expect(serviceLiabilityWishes(both)).toEqual([
      { person: 'policyholder', occupation: 'lehrer' },
      { person: 'partner', occupation: 'polizei' },
    ]);
    const flagOff = request({
      policyholder: {
        civil_servant: true,
        include_civil_service_liability: false,
        civil_service_occupation: 'lehrer',
      },
    });
    expect(serviceLiabilityWishes(flagOff)).toEqual([]);
  });

  it('throws a TypeError for requests the service must not pass on', () => {
    expect(() => assertValidRequest(request({}))).not.toThrow();
    expect(() => assertValidRequest({ ...request({}), desired_payment_mode: 'monatlich' as never })).toThrow(
      /desired_payment_mode "monatlich" is not a payment mode/,
    );
    expect(() =>
      assertValidRequest(
        request({
          policyholder: {
            civil_servant: true,
            include_civil_service_liability: true,
            civil_service_occupation: null,
          },
        }),
      ),
    ).toThrow(/subject_matter.policyholder.civil_service_occupation/);
    expect(() =>
      assertValidRequest(
        request({
          partner: {
            civil_servant: true,
            include_civil_service_liability: true,
            civil_service_occupation: 'pilot' as never,
          },
        }),
      ),
    ).toThrow(TypeError);
    expect(() => assertValidRequest(request({ partner: { civil_servant: undefined as never } }))).toThrow(
      /subject_matter.partner.civil_servant must be a boolean/,
    );
  });
});
