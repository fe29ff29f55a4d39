/**
 * Development data (README: "Demo credentials (development only)"). Every record has a natural key,
 * so seeding twice finds the first run's rows and changes nothing.
 */
export const DEMO_TENANT = { code: 'demo', name: 'Demo Maklerpool' };

export interface DemoBroker {
  number: string;
  name: string;
  parent?: string;
  blocked?: boolean;
  city: string;
}

export const DEMO_BROKERS: DemoBroker[] = [
  { number: 'V1000', name: 'Muster Makler GmbH', city: 'Köln' },
  { number: 'V1001', name: 'Nord Versicherungsmakler', parent: 'V1000', city: 'Hamburg' },
  { number: 'V1002', name: 'Süd Finanzberatung', parent: 'V1000', city: 'München' },
  { number: 'V1003', name: 'Hafen Assekuranz', parent: 'V1001', city: 'Bremen' },
  { number: 'V1900', name: 'Gesperrte Makler AG', blocked: true, city: 'Berlin' },
  { number: 'V2000', name: 'Andere Makler KG', city: 'Stuttgart' },
];

export const DEMO_EMPLOYEES = [
  { broker: 'V1000', code: '01_01', name: 'Erika Mustermann', email: 'erika@muster-makler.example' },
  { broker: 'V2000', code: '02_01', name: 'Max Andermann', email: 'max@andere-makler.example' },
];

export const DEMO_API_CLIENTS = [
  { broker: 'V1000', apiId: 'demo-api', apiKey: 'demo-api-key' },
  { broker: 'V2000', apiId: 'other-api', apiKey: 'other-api-key' },
  { broker: 'V1900', apiId: 'blocked-api', apiKey: 'blocked-api-key' },
];

/**
 * The portals' service accounts at the development login provider (area A's client-credentials grant, at the
 * gateway's development token endpoint): each acts for its broker. Their secrets are no secret: development only.
 */
export const DEMO_IMPORT_CLIENTS = [
  { clientId: 'demo-v1000', clientSecret: 'demo-v1000-secret', tenant: 'demo', brokerId: 'V1000' },
  { clientId: 'demo-v2000', clientSecret: 'demo-v2000-secret', tenant: 'demo', brokerId: 'V2000' },
];

/** Insurers, including every VU number in the GDV sample files. */
export const DEMO_COMPANIES = [
  { vuNumber: '9999', name: 'XXX Versicherung AG' },
  { vuNumber: '5512', name: 'HDI-Gerling Firmen und Privat' },
  { vuNumber: '4001', name: 'Pfefferminzia a.G.' },
  { vuNumber: '1107', name: 'Allgemeine Haftpflicht VVaG' },
  { vuNumber: '1234', name: 'Beispiel Lebensversicherung AG' },
  { vuNumber: '1335', name: 'Muster Sachversicherung AG' },
  { vuNumber: '9090', name: 'Rheinland Versicherung AG' },
  { vuNumber: '9095', name: 'Nordsee Versicherung AG' },
];

/** Agreements of brokers with insurers (beside the insurers of their contracts). */
export const DEMO_COMPANY_AGREEMENTS = [
  { broker: 'V1000', company: '9090', agencyNumber: 'AG-1000-01' },
  { broker: 'V1000', company: '1107', agencyNumber: 'AG-1000-02' },
  { broker: 'V1001', company: '9095', agencyNumber: 'AG-1001-01' },
];

export const DEMO_CALC_USER = { tenant: 'demo', username: 'demo', password: 'Tarif Kiesel Abendrot' };

export interface DemoCustomer {
  key: string;
  broker: string;
  userName?: string;
  salutation: string;
  personType: 'natuerlich' | 'juristisch';
  firstName?: string;
  lastName?: string;
  birthDate?: string;
  companyName?: string;
  contactPerson?: string;
  address: { street: string; postalCode: string; city: string };
  contacts: { context: string; type: string; value: string; standard: boolean }[];
  contracts: {
    company: string;
    lineOfBusiness: string;
    policyNumber: string;
    status: string;
    startDate: string;
    paymentMode: string;
    netCents: number;
    grossCents: number;
  }[];
  details?: Record<string, string | number | boolean>;
}

export const DEMO_DETAIL_DEFINITIONS = [
  {
    broker: 'V1000',
    key: 'kundenstatus',
    name: 'Kundenstatus',
    type: 'auswahl',
    options: { A: 'A-Kunde', B: 'B-Kunde', C: 'C-Kunde' },
  },
  { broker: 'V1000', key: 'jahreseinkommen', name: 'Jahreseinkommen', type: 'betrag_2', options: null },
  { broker: 'V1000', key: 'newsletter', name: 'Newsletter', type: 'boolean', options: null },
  {
    broker: 'V2000',
    key: 'kundenstatus',
    name: 'Kundenstatus',
    type: 'auswahl',
    options: { gold: 'Gold', silber: 'Silber' },
  },
] as const;

export const DEMO_CUSTOMERS: DemoCustomer[] = [
  {
    key: 'seed-1',
    broker: 'V1000',
    userName: 'julia.mueller',
    salutation: 'frau',
    personType: 'natuerlich',
    firstName: 'Julia',
    lastName: 'Müller',
    birthDate: '1985-04-12',
    address: { street: 'Domstraße 12', postalCode: '50667', city: 'Köln' },
    contacts: [
      { context: 'privat', type: 'email', value: 'julia.mueller@example.com', standard: true },
      { context: 'privat', type: 'mobil', value: '+49 171 2345678', standard: true },
    ],
    contracts: [
      {
        company: '9999',
        lineOfBusiness: '040',
        policyNumber: 'PH-100001',
        status: 'aktiv',
        startDate: '2022-01-01',
        paymentMode: 'jaehrlich',
        netCents: 5462,
        grossCents: 6500,
      },
    ],
    details: { kundenstatus: 'A', jahreseinkommen: '54000.00', newsletter: true },
  },
  {
    key: 'seed-2',
    broker: 'V1000',
    salutation: 'herr',
    personType: 'natuerlich',
    firstName: 'Jürgen',
    lastName: 'Schmidt',
    birthDate: '1961-11-30',
    address: { street: 'Ringstraße 5', postalCode: '50674', city: 'Köln' },
    contacts: [{ context: 'privat', type: 'telefon', value: '+49 221 987654', standard: true }],
    contracts: [
      {
        company: '5512',
        lineOfBusiness: '030',
        policyNumber: 'UF-200002',
        status: 'aktiv',
        startDate: '2019-07-01',
        paymentMode: 'monatlich',
        netCents: 1681,
        grossCents: 2000,
      },
    ],
  },
  {
    key: 'seed-3',
    broker: 'V1003',
    salutation: 'firma',
    personType: 'juristisch',
    companyName: 'Weser Logistik GmbH',
    contactPerson: 'Frank Weber',
    address: { street: 'Hafenstraße 1', postalCode: '28195', city: 'Bremen' },
    contacts: [
      { context: 'geschaeftlich', type: 'email', value: 'info@weser-logistik.example', standard: true },
    ],
    contracts: [
      {
        company: '4001',
        lineOfBusiness: '050',
        policyNumber: 'KFZ-300003',
        status: 'aktiv',
        startDate: '2024-03-01',
        paymentMode: 'vierteljaehrlich',
        netCents: 29412,
        grossCents: 35000,
      },
    ],
  },
  {
    key: 'seed-4',
    broker: 'V2000',
    userName: 'anna.schulz',
    salutation: 'frau',
    personType: 'natuerlich',
    firstName: 'Anna',
    lastName: 'Schulz',
    birthDate: '1992-09-03',
    address: { street: 'Königstraße 40', postalCode: '70173', city: 'Stuttgart' },
    contacts: [{ context: 'privat', type: 'email', value: 'anna.schulz@example.com', standard: true }],
    contracts: [
      {
        company: '9999',
        lineOfBusiness: '040',
        policyNumber: 'PH-400004',
        status: 'aktiv',
        startDate: '2023-05-01',
        paymentMode: 'jaehrlich',
        netCents: 4202,
        grossCents: 5000,
      },
    ],
    details: { kundenstatus: 'gold' },
  },
];
