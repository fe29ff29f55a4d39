/**
 * Golden scenarios: fixed requests against the small test catalog `test/fixtures/golden-catalog.json`, with the
 * expected premium of every product worked out by hand from the catalog's rules (the comment above each row).
 * The engine is not used to produce any expected number.
 *
 * Rules (README "Pricing"): base (household × age band) → civil-servant discount → service-liability add-ons
 * → prior-damage surcharge → pre-insurance discount → payment-mode surcharge → 19 % tax → instalment.
 * Every percentage step is rounded half up to whole cents; so is the instalment (gross ÷ 12/4/2/1).
 *
 * The test catalog:
 *
 *   A goldtest-komfort   bands 18–25 single 4000 couple 4800 single_parent 4400 family 5200
 *                              26–59 single 5000 couple 6000 single_parent 5500 family 6500
 *                              60–99 single 4250 couple 5100 (single parent, family not offered)
 *                        civil servant −10 %; add-ons schule 3000 (school keys 30,000 EUR), vollzug 3500,
 *                        einsatz 2800, verwaltung 1990 (heilberufe not insurable); prior damages +20 %;
 *                        pre-insured −5 % only when damage-free; yearly 0, half-yearly 3 %, quarterly 4 %, monthly 5 %
 *   B goldtest-basis     band 18–59 single 3333 couple 3999 single_parent 3700 family 4450; civil servant −7.5 %;
 *                        no service liability; prior damages refused; no pre-insurance discount;
 *                        yearly 0, half-yearly 2.5 %, quarterly 3.5 %, monthly not offered
 *   C probus-premium     band 18–99 single 6789 couple 7999 single_parent 7333 family 8888; civil servant −12.5 %;
 *                        add-ons schule 3650 (school keys 50,000 EUR), vollzug 3900, einsatz 3100, verwaltung 2250,
 *                        heilberufe 4990; prior damages → underwriting; pre-insured −10 % only when damage-free;
 *                        yearly 0, half-yearly 2 %, quarterly 3 %, monthly 0
 *   D probus-start       bands 18–25 single 2990 couple 3590 single_parent 3290 (family not offered)
 *                              26–35 single 3490 couple 4190 single_parent 3790 family 4690
 *                        no civil-servant discount; no service liability; prior damages +25 %;
 *                        pre-insured −8 % also with prior damages; yearly 0, half-yearly 2 %, quarterly 4 %, monthly 6 %
 *
 * Occupation groups: schule = lehrer, erzieher; vollzug = polizei, justiz; einsatz = feuerwehr, bundeswehr;
 * verwaltung = verwaltung, finanzverwaltung; heilberufe = arzt. Other occupations (zoll, ...) are in no group.
 *
 * Calculation date 2025-06-15; birthdates are sent as epoch seconds of midnight UTC.
 * Notation below: "x % of n = exact → rounded"; amounts in cents.
 */
import { join } from 'node:path';

import { calculatePrivateLiability } from './calculate.js';
import { loadPrivateLiabilityCatalog } from './catalog.js';
import type { CivilServiceOccupation } from './occupations.js';
import { INSTALMENTS_PER_YEAR, type PaymentMode } from './payment-mode.js';
import type { InsuredAdult, PrivateLiabilityRequest } from './request.js';
import type { RefusalReason } from './result.js';

const GOLDEN_CATALOG_PATH = join(__dirname, '..', '..', 'test', 'fixtures', 'golden-catalog.json');
const CALCULATION_DATE = new Date('2025-06-15T10:00:00Z');
const PRODUCTS = ['goldtest-basis', 'goldtest-komfort', 'probus-premium', 'probus-start'];

interface Person {
  civil_servant?: boolean;
  /** Asks for the service-liability add-on with this occupation. */
  occupation?: CivilServiceOccupation;
}

interface Scenario {
  name: string;
  /** Policyholder's birthdate, YYYY-MM-DD. */
  born: string;
  policyholder?: Person;
  /** A co-insured partner. */
  partner?: Person;
  children?: boolean;
  preInsured?: boolean;
  priorDamages?: boolean;
  mode: PaymentMode;
  /** Calculable products in the expected order (cheapest per year first): instalment and yearly gross in cents. */
  tariffs: Record<string, { instalment: number; gross: number }>;
  refusals: Record<string, RefusalReason[]>;
}

const AGE = ['age_out_of_range'] as RefusalReason[];
const NO_SERVICE = ['civil_service_liability_not_offered'] as RefusalReason[];

const SCENARIOS: Scenario[] = [
  {
    name: '01 single, 30, yearly',
    born: '1995-03-10',
    mode: 'yearly',
    // B: 3333; tax 19 % of 3333 = 633.27 → 633; gross 3966; 1 instalment 3966
    // D: band 26–35 single 3490; tax 19 % of 3490 = 663.10 → 663; gross 4153
    // A: band 26–59 single 5000; tax 19 % of 5000 = 950.00 → 950; gross 5950
    // C: 6789; tax 19 % of 6789 = 1289.91 → 1290; gross 8079
    tariffs: {
      'goldtest-basis': { instalment: 3966, gross: 3966 },
      'probus-start': { instalment: 4153, gross: 4153 },
      'goldtest-komfort': { instalment: 5950, gross: 5950 },
      'probus-premium': { instalment: 8079, gross: 8079 },
    },
    refusals: {},
  },
  {
    name: '02 single, 30, monthly',
    born: '1995-03-10',
    mode: 'monthly',
    // D: 3490; monthly 6 % of 3490 = 209.40 → 209; 3699; tax 19 % = 702.81 → 703; gross 4402;
    //    4402 / 12 = 366.83 → 367 per month (paid 4404 a year)
    // A: 5000; monthly 5 % = 250; 5250; tax 19 % = 997.50 → 998; gross 6248; 6248 / 12 = 520.67 → 521 (6252)
    // C: 6789; monthly 0 %; tax 1290; gross 8079; 8079 / 12 = 673.25 → 673 (8076)
    // B: monthly not offered
    tariffs: {
      'probus-start': { instalment: 367, gross: 4402 },
      'goldtest-komfort': { instalment: 521, gross: 6248 },
      'probus-premium': { instalment: 673, gross: 8079 },
    },
    refusals: { 'goldtest-basis': ['payment_mode_not_offered'] },
  },
  {
    name: '03 single, 30, quarterly',
    born: '1995-03-10',
    mode: 'quarterly',
    // B: 3333; quarterly 3.5 % = 116.655 → 117; 3450; tax 655.50 → 656; gross 4106; / 4 = 1026.5 → 1027 (4108)
    // D: 3490; 4 % = 139.60 → 140; 3630; tax 689.70 → 690; gross 4320; / 4 = 1080 (4320)
    // A: 5000; 4 % = 200; 5200; tax 988; gross 6188; / 4 = 1547 (6188)
    // C: 6789; 3 % = 203.67 → 204; 6993; tax 1328.67 → 1329; gross 8322; / 4 = 2080.5 → 2081 (8324)
    tariffs: {
      'goldtest-basis': { instalment: 1027, gross: 4106 },
      'probus-start': { instalment: 1080, gross: 4320 },
      'goldtest-komfort': { instalment: 1547, gross: 6188 },
      'probus-premium': { instalment: 2081, gross: 8322 },
    },
    refusals: {},
  },
  {
    name: '04 single, 30, half-yearly',
    born: '1995-03-10',
    mode: 'half_yearly',
    // B: 3333; 2.5 % = 83.325 → 83; 3416; tax 649.04 → 649; gross 4065; / 2 = 2032.5 → 2033 (4066)
    // D: 3490; 2 % = 69.80 → 70; 3560; tax 676.40 → 676; gross 4236; / 2 = 2118 (4236)
    // A: 5000; 3 % = 150; 5150; tax 978.50 → 979; gross 6129; / 2 = 3064.5 → 3065 (6130)
    // C: 6789; 2 % = 135.78 → 136; 6925; tax 1315.75 → 1316; gross 8241; / 2 = 4120.5 → 4121 (8242)
    tariffs: {
      'goldtest-basis': { instalment: 2033, gross: 4065 },
      'probus-start': { instalment: 2118, gross: 4236 },
      'goldtest-komfort': { instalment: 3065, gross: 6129 },
      'probus-premium': { instalment: 4121, gross: 8241 },
    },
    refusals: {},
  },
  {
    name: '05 couple, 35, yearly',
    born: '1990-01-20',
    partner: {},
    mode: 'yearly',
    // B: couple 3999; tax 759.81 → 760; gross 4759
    // D: couple 4190; tax 796.10 → 796; gross 4986
    // A: couple 6000; tax 1140; gross 7140
    // C: couple 7999; tax 1519.81 → 1520; gross 9519
    tariffs: {
      'goldtest-basis': { instalment: 4759, gross: 4759 },
      'probus-start': { instalment: 4986, gross: 4986 },
      'goldtest-komfort': { instalment: 7140, gross: 7140 },
      'probus-premium': { instalment: 9519, gross: 9519 },
    },
    refusals: {},
  },
  {
    name: '06 single parent, 30, monthly',
    born: '1995-02-01',
    children: true,
    mode: 'monthly',
    // D: single_parent 3790; 6 % = 227.40 → 227; 4017; tax 763.23 → 763; gross 4780; / 12 = 398.33 → 398 (4776)
    // A: single_parent 5500; 5 % = 275; 5775; tax 1097.25 → 1097; gross 6872; / 12 = 572.67 → 573 (6876)
    // C: single_parent 7333; 0 %; tax 1393.27 → 1393; gross 8726; / 12 = 727.17 → 727 (8724)
    // B: monthly not offered
    tariffs: {
      'probus-start': { instalment: 398, gross: 4780 },
      'goldtest-komfort': { instalment: 573, gross: 6872 },
      'probus-premium': { instalment: 727, gross: 8726 },
    },
    refusals: { 'goldtest-basis': ['payment_mode_not_offered'] },
  },
  {
    name: '07 family, 42, quarterly',
    born: '1983-05-05',
    partner: {},
    children: true,
    mode: 'quarterly',
    // B: family 4450; 3.5 % = 155.75 → 156; 4606; tax 875.14 → 875; gross 5481; / 4 = 1370.25 → 1370 (5480)
    // A: family 6500; 4 % = 260; 6760; tax 1284.40 → 1284; gross 8044; / 4 = 2011 (8044)
    // C: family 8888; 3 % = 266.64 → 267; 9155; tax 1739.45 → 1739; gross 10894; / 4 = 2723.5 → 2724 (10896)
    // D: age 42 is outside 18–35
    tariffs: {
      'goldtest-basis': { instalment: 1370, gross: 5481 },
      'goldtest-komfort': { instalment: 2011, gross: 8044 },
      'probus-premium': { instalment: 2724, gross: 10894 },
    },
    refusals: { 'probus-start': AGE },
  },
  {
    name: '08 young adult single, 22, yearly',
    born: '2003-04-01',
    mode: 'yearly',
    // D: band 18–25 single 2990; tax 568.10 → 568; gross 3558
    // B: 3966 (as 01)
    // A: band 18–25 single 4000; tax 760; gross 4760
    // C: 8079 (as 01)
    tariffs: {
      'probus-start': { instalment: 3558, gross: 3558 },
      'goldtest-basis': { instalment: 3966, gross: 3966 },
      'goldtest-komfort': { instalment: 4760, gross: 4760 },
      'probus-premium': { instalment: 8079, gross: 8079 },
    },
    refusals: {},
  },
  {
    name: '09 young couple, 25 (26th birthday tomorrow), yearly',
    born: '1999-06-16',
    partner: {},
    mode: 'yearly',
    // age 25 on 2025-06-15: bands 18–25
    // D: couple 3590; tax 682.10 → 682; gross 4272
    // B: 4759 (as 05)
    // A: couple 4800; tax 912; gross 5712
    // C: 9519 (as 05)
    tariffs: {
      'probus-start': { instalment: 4272, gross: 4272 },
      'goldtest-basis': { instalment: 4759, gross: 4759 },
      'goldtest-komfort': { instalment: 5712, gross: 5712 },
      'probus-premium': { instalment: 9519, gross: 9519 },
    },
    refusals: {},
  },
  {
    name: '10 couple, 26 today, yearly',
    born: '1999-06-15',
    partner: {},
    mode: 'yearly',
    // age 26 on 2025-06-15 (birthday): bands 26–59 / 26–35, prices as 05
    tariffs: {
      'goldtest-basis': { instalment: 4759, gross: 4759 },
      'probus-start': { instalment: 4986, gross: 4986 },
      'goldtest-komfort': { instalment: 7140, gross: 7140 },
      'probus-premium': { instalment: 9519, gross: 9519 },
    },
    refusals: {},
  },
  {
    name: '11 senior single, 70, yearly',
    born: '1955-01-01',
    mode: 'yearly',
    // A: band 60–99 single 4250; tax 807.50 → 808; gross 5058
    // C: 8079 (age-neutral)
    // B: outside 18–59; D: outside 18–35
    tariffs: {
      'goldtest-komfort': { instalment: 5058, gross: 5058 },
      'probus-premium': { instalment: 8079, gross: 8079 },
    },
    refusals: { 'goldtest-basis': AGE, 'probus-start': AGE },
  },
  {
    name: '12 senior family, 65, yearly',
    born: '1960-03-03',
    partner: {},
    children: true,
    mode: 'yearly',
    // C: family 8888; tax 1688.72 → 1689; gross 10577
    // A: band 60–99 offers no family; B, D: age outside their range
    tariffs: { 'probus-premium': { instalment: 10577, gross: 10577 } },
    refusals: { 'goldtest-komfort': ['household_not_offered'], 'goldtest-basis': AGE, 'probus-start': AGE },
  },
  {
    name: '13 civil servant single without service liability, 30, yearly',
    born: '1995-03-10',
    policyholder: { civil_servant: true },
    mode: 'yearly',
    // B: 3333 − 7.5 % (249.975 → 250) = 3083; tax 585.77 → 586; gross 3669
    // D: no civil-servant discount: 3490 → 4153 (as 01)
    // A: 5000 − 10 % (500) = 4500; tax 855; gross 5355
    // C: 6789 − 12.5 % (848.625 → 849) = 5940; tax 1128.60 → 1129; gross 7069
    tariffs: {
      'goldtest-basis': { instalment: 3669, gross: 3669 },
      'probus-start': { instalment: 4153, gross: 4153 },
      'goldtest-komfort': { instalment: 5355, gross: 5355 },
      'probus-premium': { instalment: 7069, gross: 7069 },
    },
    refusals: {},
  },
  {
    name: '14 teacher (lehrer), civil servant, service liability, single, 40, yearly',
    born: '1985-03-10',
    policyholder: { civil_servant: true, occupation: 'lehrer' },
    mode: 'yearly',
    // A: 5000 − 500 = 4500; + schule 3000 = 7500; tax 1425; gross 8925 (school keys 30,000 EUR)
    // C: 6789 − 849 = 5940; + schule 3650 = 9590; tax 1822.10 → 1822; gross 11412 (school keys 50,000 EUR)
    // B: no service liability; D: age 40 outside 18–35 and no service liability
    tariffs: {
      'goldtest-komfort': { instalment: 8925, gross: 8925 },
      'probus-premium': { instalment: 11412, gross: 11412 },
    },
    refusals: { 'goldtest-basis': NO_SERVICE, 'probus-start': [...AGE, ...NO_SERVICE] },
  },
  {
    name: '15 police (polizei), couple, policyholder civil servant born 29 Feb, service liability, 45, monthly',
    born: '1980-02-29',
    policyholder: { civil_servant: true, occupation: 'polizei' },
    partner: {},
    mode: 'monthly',
    // A: couple 6000 − 10 % (600) = 5400; + vollzug 3500 = 8900; monthly 5 % = 445; 9345;
    //    tax 1775.55 → 1776; gross 11121; / 12 = 926.75 → 927 (11124)
    // C: couple 7999 − 12.5 % (999.875 → 1000) = 6999; + vollzug 3900 = 10899; monthly 0 %;
    //    tax 2070.81 → 2071; gross 12970; / 12 = 1080.83 → 1081 (12972)
    // B: monthly not offered and no service liability; D: age and no service liability
    tariffs: {
      'goldtest-komfort': { instalment: 927, gross: 11121 },
      'probus-premium': { instalment: 1081, gross: 12970 },
    },
    refusals: {
      'goldtest-basis': ['payment_mode_not_offered', 'civil_service_liability_not_offered'],
      'probus-start': [...AGE, ...NO_SERVICE],
    },
  },
  {
    name: '16 fire brigade (feuerwehr): civil-servant partner with service liability, family, 37, half-yearly',
    born: '1987-07-01',
    partner: { civil_servant: true, occupation: 'feuerwehr' },
    children: true,
    mode: 'half_yearly',
    // age 37 (38th birthday on 1 July); the partner's status gives the civil-servant discount
    // A: family 6500 − 650 = 5850; + einsatz 2800 = 8650; 3 % = 259.50 → 260; 8910;
    //    tax 1692.90 → 1693; gross 10603; / 2 = 5301.5 → 5302 (10604)
    // C: family 8888 − 12.5 % (1111) = 7777; + einsatz 3100 = 10877; 2 % = 217.54 → 218; 11095;
    //    tax 2108.05 → 2108; gross 13203; / 2 = 6601.5 → 6602 (13204)
    tariffs: {
      'goldtest-komfort': { instalment: 5302, gross: 10603 },
      'probus-premium': { instalment: 6602, gross: 13203 },
    },
    refusals: { 'goldtest-basis': NO_SERVICE, 'probus-start': [...AGE, ...NO_SERVICE] },
  },
  {
    name: '17 tax administration (finanzverwaltung), civil servant, single parent, 50, quarterly',
    born: '1975-01-15',
    policyholder: { civil_servant: true, occupation: 'finanzverwaltung' },
    children: true,
    mode: 'quarterly',
    // A: single_parent 5500 − 550 = 4950; + verwaltung 1990 = 6940; 4 % = 277.60 → 278; 7218;
    //    tax 1371.42 → 1371; gross 8589; / 4 = 2147.25 → 2147 (8588)
    // C: 7333 − 12.5 % (916.625 → 917) = 6416; + verwaltung 2250 = 8666; 3 % = 259.98 → 260; 8926;
    //    tax 1695.94 → 1696; gross 10622; / 4 = 2655.5 → 2656 (10624)
    tariffs: {
      'goldtest-komfort': { instalment: 2147, gross: 8589 },
      'probus-premium': { instalment: 2656, gross: 10622 },
    },
    refusals: { 'goldtest-basis': NO_SERVICE, 'probus-start': [...AGE, ...NO_SERVICE] },
  },
  {
    name: '18 physician (arzt), civil servant, service liability, single, 40, yearly',
    born: '1985-03-10',
    policyholder: { civil_servant: true, occupation: 'arzt' },
    mode: 'yearly',
    // C: 5940 + heilberufe 4990 = 10930; tax 2076.70 → 2077; gross 13007
    // A: heilberufe not priced → occupation not insurable
    tariffs: { 'probus-premium': { instalment: 13007, gross: 13007 } },
    refusals: {
      'goldtest-komfort': ['occupation_not_insurable'],
      'goldtest-basis': NO_SERVICE,
      'probus-start': [...AGE, ...NO_SERVICE],
    },
  },
  {
    name: '19 both partners with service liability (lehrer + polizei), civil servants, couple, 40, yearly',
    born: '1985-03-10',
    policyholder: { civil_servant: true, occupation: 'lehrer' },
    partner: { civil_servant: true, occupation: 'polizei' },
    mode: 'yearly',
    // A: 6000 − 600 = 5400; + 3000 + 3500 = 11900; tax 2261; gross 14161
    // C: 7999 − 1000 = 6999; + 3650 + 3900 = 14549; tax 2764.31 → 2764; gross 17313
    tariffs: {
      'goldtest-komfort': { instalment: 14161, gross: 14161 },
      'probus-premium': { instalment: 17313, gross: 17313 },
    },
    refusals: { 'goldtest-basis': NO_SERVICE, 'probus-start': [...AGE, ...NO_SERVICE] },
  },
  {
    name: '20 educator (erzieher) in public service, not a civil servant, service liability, single, 40, yearly',
    born: '1985-03-10',
    policyholder: { civil_servant: false, occupation: 'erzieher' },
    mode: 'yearly',
    // no civil-servant discount. A: 5000 + schule 3000 = 8000; tax 1520; gross 9520
    // C: 6789 + schule 3650 = 10439; tax 1983.41 → 1983; gross 12422
    tariffs: {
      'goldtest-komfort': { instalment: 9520, gross: 9520 },
      'probus-premium': { instalment: 12422, gross: 12422 },
    },
    refusals: { 'goldtest-basis': NO_SERVICE, 'probus-start': [...AGE, ...NO_SERVICE] },
  },
  {
    name: '21 customs (zoll, in no occupation group): every product refuses, single, 30, yearly',
    born: '1995-03-10',
    policyholder: { civil_servant: true, occupation: 'zoll' },
    mode: 'yearly',
    tariffs: {},
    refusals: {
      'goldtest-komfort': ['occupation_not_insurable'],
      'goldtest-basis': NO_SERVICE,
      'probus-premium': ['occupation_not_insurable'],
      'probus-start': NO_SERVICE,
    },
  },
  {
    name: '22 prior damages, single, 30, yearly',
    born: '1995-03-10',
    priorDamages: true,
    mode: 'yearly',
    // D: 3490 + 25 % (872.50 → 873) = 4363; tax 828.97 → 829; gross 5192
    // A: 5000 + 20 % (1000) = 6000; tax 1140; gross 7140
    // B: refuses prior damages; C: underwriting
    tariffs: {
      'probus-start': { instalment: 5192, gross: 5192 },
      'goldtest-komfort': { instalment: 7140, gross: 7140 },
    },
    refusals: { 'goldtest-basis': ['prior_damage_refused'], 'probus-premium': ['prior_damage_underwriting'] },
  },
  {
    name: '23 prior damages, civil servant, couple, 35, monthly',
    born: '1990-01-20',
    policyholder: { civil_servant: true },
    partner: {},
    priorDamages: true,
    mode: 'monthly',
    // D: 4190 (no discount) + 25 % (1047.50 → 1048) = 5238; 6 % = 314.28 → 314; 5552;
    //    tax 1054.88 → 1055; gross 6607; / 12 = 550.58 → 551 (6612)
    // A: 6000 − 600 = 5400; + 20 % (1080) = 6480; 5 % = 324; 6804; tax 1292.76 → 1293; gross 8097;
    //    / 12 = 674.75 → 675 (8100)
    tariffs: {
      'probus-start': { instalment: 551, gross: 6607 },
      'goldtest-komfort': { instalment: 675, gross: 8097 },
    },
    refusals: {
      'goldtest-basis': ['payment_mode_not_offered', 'prior_damage_refused'],
      'probus-premium': ['prior_damage_underwriting'],
    },
  },
  {
    name: '24 pre-insured, damage-free, single, 30, yearly',
    born: '1995-03-10',
    preInsured: true,
    mode: 'yearly',
    // D: 3490 − 8 % (279.20 → 279) = 3211; tax 610.09 → 610; gross 3821
    // B: no pre-insurance discount: 3966
    // A: 5000 − 5 % (250) = 4750; tax 902.50 → 903; gross 5653
    // C: 6789 − 10 % (678.90 → 679) = 6110; tax 1160.90 → 1161; gross 7271
    tariffs: {
      'probus-start': { instalment: 3821, gross: 3821 },
      'goldtest-basis': { instalment: 3966, gross: 3966 },
      'goldtest-komfort': { instalment: 5653, gross: 5653 },
      'probus-premium': { instalment: 7271, gross: 7271 },
    },
    refusals: {},
  },
  {
    name: '25 pre-insured with prior damages, family, 30, yearly',
    born: '1995-03-10',
    partner: {},
    children: true,
    preInsured: true,
    priorDamages: true,
    mode: 'yearly',
    // D: family 4690 + 25 % (1172.50 → 1173) = 5863; − 8 % (469.04 → 469; D does not require damage-free)
    //    = 5394; tax 1024.86 → 1025; gross 6419
    // A: family 6500 + 20 % (1300) = 7800; no pre-insurance discount (requires damage-free); tax 1482; gross 9282
    tariffs: {
      'probus-start': { instalment: 6419, gross: 6419 },
      'goldtest-komfort': { instalment: 9282, gross: 9282 },
    },
    refusals: { 'goldtest-basis': ['prior_damage_refused'], 'probus-premium': ['prior_damage_underwriting'] },
  },
  {
    name: '26 teacher, civil servant, pre-insured, family, 33 today, quarterly',
    born: '1992-06-15',
    policyholder: { civil_servant: true, occupation: 'lehrer' },
    partner: {},
    children: true,
    preInsured: true,
    mode: 'quarterly',
    // A: 6500 − 650 = 5850; + 3000 = 8850; − 5 % (442.50 → 443) = 8407; 4 % = 336.28 → 336; 8743;
    //    tax 1661.17 → 1661; gross 10404; / 4 = 2601 (10404)
    // C: 8888 − 1111 = 7777; + 3650 = 11427; − 10 % (1142.70 → 1143) = 10284; 3 % = 308.52 → 309; 10593;
    //    tax 2012.67 → 2013; gross 12606; / 4 = 3151.5 → 3152 (12608)
    tariffs: {
      'goldtest-komfort': { instalment: 2601, gross: 10404 },
      'probus-premium': { instalment: 3152, gross: 12606 },
    },
    refusals: { 'goldtest-basis': NO_SERVICE, 'probus-start': NO_SERVICE },
  },
  {
    name: '27 young family, 22, yearly',
    born: '2003-04-01',
    partner: {},
    children: true,
    mode: 'yearly',
    // B: family 4450; tax 845.50 → 846; gross 5296
    // A: band 18–25 family 5200; tax 988; gross 6188
    // C: family 8888 → 10577 (as 12)
    // D: band 18–25 offers no family
    tariffs: {
      'goldtest-basis': { instalment: 5296, gross: 5296 },
      'goldtest-komfort': { instalment: 6188, gross: 6188 },
      'probus-premium': { instalment: 10577, gross: 10577 },
    },
    refusals: { 'probus-start': ['household_not_offered'] },
  },
  {
    name: '28 minor, 17: every product refuses the age',
    born: '2008-01-01',
    mode: 'yearly',
    tariffs: {},
    refusals: { 'goldtest-basis': AGE, 'goldtest-komfort': AGE, 'probus-premium': AGE, 'probus-start': AGE },
  },
  {
    name: '29 full chain: judiciary (justiz) civil servant, prior damages, pre-insured, couple, 40, monthly',
    born: '1985-03-10',
    policyholder: { civil_servant: true, occupation: 'justiz' },
    partner: {},
    preInsured: true,
    priorDamages: true,
    mode: 'monthly',
    // A: 6000 − 600 = 5400; + vollzug 3500 = 8900; + 20 % (1780) = 10680; no pre-insurance discount
    //    (damages); 5 % = 534; 11214; tax 2130.66 → 2131; gross 13345; / 12 = 1112.08 → 1112 (13344)
    tariffs: { 'goldtest-komfort': { instalment: 1112, gross: 13345 } },
    refusals: {
      'goldtest-basis': [
        'payment_mode_not_offered',
        'civil_service_liability_not_offered',
        'prior_damage_refused',
      ],
      'probus-premium': ['prior_damage_underwriting'],
      'probus-start': [...AGE, ...NO_SERVICE],
    },
  },
];

function epochSeconds(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

function adult(person: Person | undefined): InsuredAdult {
  return {
    civil_servant: person?.civil_servant ?? false,
    include_civil_service_liability: person?.occupation !== undefined,
    civil_service_occupation: person?.occupation ?? null,
  };
}

function requestOf(scenario: Scenario): PrivateLiabilityRequest {
  return {
    policyholder: { birthdate: epochSeconds(scenario.born) },
    subject_matter: {
      policyholder: adult(scenario.policyholder),
      partner: scenario.partner === undefined ? null : adult(scenario.partner),
      include_children: scenario.children ?? false,
    },
    previous_insurance: {
      pre_insured: scenario.preInsured ?? false,
      damage_free: !(scenario.priorDamages ?? false),
    },
    desired_payment_mode: scenario.mode,
  };
}

const catalog = loadPrivateLiabilityCatalog(GOLDEN_CATALOG_PATH);

describe('golden scenarios (hand-checked against test/fixtures/golden-catalog.json)', () => {
  it('has at least 25 scenarios, each accounting for every product exactly once', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(25);
    for (const scenario of SCENARIOS) {
      const ids = [...Object.keys(scenario.tariffs), ...Object.keys(scenario.refusals)].sort();
      expect({ scenario: scenario.name, ids }).toEqual({ scenario: scenario.name, ids: PRODUCTS });
    }
  });

  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s', (_name, scenario) => {
    const result = calculatePrivateLiability(catalog, requestOf(scenario), CALCULATION_DATE);
    const instalments = INSTALMENTS_PER_YEAR[scenario.mode];

    expect(result.success.map((tariff) => tariff.origin_id)).toEqual(Object.keys(scenario.tariffs));
    for (const tariff of result.success) {
      const expected = scenario.tariffs[tariff.origin_id];
      expect({
        id: tariff.origin_id,
        instalment: tariff.premium.instalment_cents,
        gross: tariff.premium.gross_cents,
      }).toEqual({
        id: tariff.origin_id,
        ...expected,
      });
      expect(tariff.premium.paid_per_year_cents).toBe(expected.instalment * instalments);
      expect(tariff.fees).toEqual([
        {
          amount: { amount: (expected.instalment / 100).toFixed(2), currency: 'EUR' },
          payment_mode: scenario.mode,
          taxes: [{ type: 'percent', amount: 19 }],
        },
      ]);
    }

    const refusals = Object.fromEntries(result.errors.map((refusal) => [refusal.id, refusal.reasons]));
    expect(refusals).toEqual(scenario.refusals);
    for (const refusal of result.errors) expect(refusal.messages).toHaveLength(refusal.reasons.length);
  });

  it('shows every step of the full chain (scenario 29, goldtest-komfort)', () => {
    const scenario = SCENARIOS.find((candidate) => candidate.name.startsWith('29 '));
    const result = calculatePrivateLiability(catalog, requestOf(scenario as Scenario), CALCULATION_DATE);
    expect(result.success[0]?.premium).toEqual({
      household: 'couple',
      policyholder_age: 40,
      age_band: { min_age: 26, max_age: 59 },
      base_net_cents: 6000,
      civil_servant_discount_bp: 1000,
      civil_servant_discount_cents: 600,
      civil_service_liability_cents: 3500,
      prior_damage_surcharge_bp: 2000,
      prior_damage_surcharge_cents: 1780,
      pre_insurance_discount_bp: 0,
      pre_insurance_discount_cents: 0,
      net_cents: 10680,
      payment_mode_surcharge_bp: 500,
      payment_mode_surcharge_cents: 534,
      taxable_net_cents: 11214,
      insurance_tax_bp: 1900,
      insurance_tax_cents: 2131,
      gross_cents: 13345,
      instalments_per_year: 12,
      instalment_cents: 1112,
      paid_per_year_cents: 13344,
    });
  });

  it('shows the pre-insurance step (scenario 26, probus-premium)', () => {
    const scenario = SCENARIOS.find((candidate) => candidate.name.startsWith('26 '));
    const result = calculatePrivateLiability(catalog, requestOf(scenario as Scenario), CALCULATION_DATE);
    expect(result.success.find((tariff) => tariff.origin_id === 'probus-premium')?.premium).toMatchObject({
      base_net_cents: 8888,
      civil_servant_discount_cents: 1111,
      civil_service_liability_cents: 3650,
      pre_insurance_discount_bp: 1000,
      pre_insurance_discount_cents: 1143,
      net_cents: 10284,
      payment_mode_surcharge_cents: 309,
      insurance_tax_cents: 2013,
      gross_cents: 12606,
      instalment_cents: 3152,
    });
  });

  it('states the service liability with the school-key loss sum for teachers (scenario 14)', () => {
    const scenario = SCENARIOS.find((candidate) => candidate.name.startsWith('14 '));
    const result = calculatePrivateLiability(catalog, requestOf(scenario as Scenario), CALCULATION_DATE);
    expect(result.success.map((tariff) => tariff.product_attributes.civil_service_liability)).toEqual([
      {
        coverage_sum_eur: 5000000,
        insured: [
          {
            person: 'policyholder',
            occupation: 'lehrer',
            occupation_group: 'schule',
            occupation_group_name: 'Lehr- und Erziehungsberufe',
            add_on_net_cents: 3000,
            school_key_loss: true,
            school_key_loss_sum_eur: 30000,
          },
        ],
      },
      {
        coverage_sum_eur: 10000000,
        insured: [
          {
            person: 'policyholder',
            occupation: 'lehrer',
            occupation_group: 'schule',
            occupation_group_name: 'Lehr- und Erziehungsberufe',
            add_on_net_cents: 3650,
            school_key_loss: true,
            school_key_loss_sum_eur: 50000,
          },
        ],
      },
    ]);
  });

  it('does not state a service liability for other groups with a school-key sum (scenario 15, police)', () => {
    const scenario = SCENARIOS.find((candidate) => candidate.name.startsWith('15 '));
    const result = calculatePrivateLiability(catalog, requestOf(scenario as Scenario), CALCULATION_DATE);
    const insured = result.success.flatMap(
      (tariff) => tariff.product_attributes.civil_service_liability?.insured ?? [],
    );
    expect(
      insured.map((entry) => [entry.occupation_group, entry.school_key_loss, entry.school_key_loss_sum_eur]),
    ).toEqual([
      ['vollzug', false, null],
      ['vollzug', false, null],
    ]);
  });

  it('explains refusals in words (scenarios 12, 29)', () => {
    const senior = calculatePrivateLiability(
      catalog,
      requestOf(SCENARIOS.find((candidate) => candidate.name.startsWith('12 ')) as Scenario),
      CALCULATION_DATE,
    );
    expect(senior.errors).toEqual([
      {
        title: 'Goldtest Versicherung AG',
        sub_title: 'Golden Basis',
        product: 'Privathaftpflicht',
        id: 'goldtest-basis',
        messages: ["The policyholder's age of 65 years is outside the product's range of 18 to 59 years."],
        reasons: ['age_out_of_range'],
      },
      {
        title: 'Goldtest Versicherung AG',
        sub_title: 'Golden Komfort',
        product: 'Privathaftpflicht',
        id: 'goldtest-komfort',
        messages: [
          'The household type "Familie mit Kindern" (family) is not offered for policyholders aged 60 to 99.',
        ],
        reasons: ['household_not_offered'],
      },
      {
        title: 'Probus Assekuranz AG',
        sub_title: 'Probus Start',
        product: 'Privathaftpflicht',
        id: 'probus-start',
        messages: ["The policyholder's age of 65 years is outside the product's range of 18 to 35 years."],
        reasons: ['age_out_of_range'],
      },
    ]);

    const chain = calculatePrivateLiability(
      catalog,
      requestOf(SCENARIOS.find((candidate) => candidate.name.startsWith('29 ')) as Scenario),
      CALCULATION_DATE,
    );
    expect(chain.errors.find((refusal) => refusal.id === 'goldtest-basis')?.messages).toEqual([
      'Payment mode monthly is not offered (offered: yearly, half_yearly, quarterly).',
      'Service liability (Diensthaftpflicht) is not offered in this product.',
      'Prior damages: the product does not accept applicants with prior damages.',
    ]);
    expect(chain.errors.find((refusal) => refusal.id === 'probus-premium')?.messages).toEqual([
      'Prior damages: acceptance only after individual underwriting (Annahme nur nach Risikoprüfung); no premium could be determined.',
    ]);
  });
});
