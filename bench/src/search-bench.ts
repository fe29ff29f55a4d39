import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { svcDigest } from '@broker/auth';
import { BrokerBench, type Fixture, percentile } from './broker-fixture.js';
import { cpuTimeMeter } from './cpu-time.js';

/**
 * searchKunden at scale: a fresh database with 1,000,000 synthetic customers (argument 1 changes the number),
 * each with a main address and most with an e-mail address and a phone number, spread over the brokers of the
 * test fixture; the built broker service as a child process; signed GET requests at a fixed concurrency for
 * several kinds of query, with latency percentiles, throughput and X-Svc-Total checked against SQL counts.
 * Finally the cost of the search triggers on a bulk write. Results in bench/README.md.
 */

const DEFAULT_CUSTOMERS = 1_000_000;
/** The extra batch written with the search triggers on, to show what they cost a bulk write. */
const TRIGGER_BATCH = 20_000;
const CONCURRENCY = 8;
const WARM_UP_REQUESTS = 40;
const MEASURED_REQUESTS = 400;
const EMPLOYEE = '01_01';
const API_CLIENT = { apiId: 'bench-api', apiKey: 'bench-api-key-0123456789' };

// ---------------------------------------------------------------------------------------------------------------
// Synthetic customers: deterministic per customer number, so each COPY stream regenerates the same customer.

/** Entries separated by `|`, fields by `:`. */
const table = (text: string) => text.split('|').map((entry) => entry.split(':'));
const list = (text: string) => text.split(' ');

/**
 * The 100 most frequent German surnames with their telephone-directory counts in thousands (Müller 256, Schmidt
 * 190, ...). They carry 12 % of the customers, which gives Müller about 0.8 % as in the population; the other
 * 88 % get one of about 19,000 compound surnames built below.
 */
const COMMON_SURNAMES = table(
  'Müller:256|Schmidt:190|Schneider:115|Fischer:98|Weber:85|Meyer:80|Wagner:79|Becker:70|Schulz:69|Hoffmann:67|' +
    'Schäfer:56|Koch:55|Bauer:55|Richter:53|Klein:52|Wolf:50|Schröder:47|Neumann:46|Schwarz:45|Zimmermann:44|' +
    'Braun:42|Krüger:41|Hofmann:41|Hartmann:40|Lange:39|Schmitt:38|Werner:37|Schmitz:37|Krause:36|Meier:35|' +
    'Lehmann:35|Schmid:34|Schulze:33|Maier:33|Köhler:32|Herrmann:31|König:31|Walter:30|Mayer:30|Huber:29|' +
    'Kaiser:29|Fuchs:28|Peters:28|Lang:27|Scholz:27|Möller:26|Weiß:26|Jung:25|Hahn:25|Schubert:24|Vogel:24|' +
    'Friedrich:24|Keller:23|Günther:23|Frank:23|Berger:22|Winkler:22|Roth:22|Beck:22|Lorenz:21|Baumann:21|' +
    'Franke:21|Albrecht:20|Schuster:20|Simon:20|Ludwig:20|Böhm:19|Winter:19|Kraus:19|Martin:19|Schumacher:18|' +
    'Krämer:18|Vogt:18|Stein:18|Jäger:18|Otto:17|Sommer:17|Groß:17|Seidel:17|Heinrich:17|Brandt:16|Haas:16|' +
    'Schreiber:16|Graf:16|Schulte:16|Dietrich:16|Ziegler:15|Kuhn:15|Kühn:15|Pohl:15|Engel:15|Horn:15|Busch:15|' +
    'Bergmann:15|Thomas:15|Voigt:14|Sauer:14|Arnold:14|Wolff:14|Pfeiffer:14',
).map(([name, weight]): [string, number] => [name ?? '', Number(weight)]);
const COMMON_SHARE = 0.12;
const SURNAME_STEMS = list(
  'Ahl Alt Bram Brink Buch Dahl Dorn Eck Eich Ell Falk Fels Frei Gold Grün Hag Hain Hell Hil Hol Horst Iser Kamp ' +
    'Kirch Kling Korn Kreutz Lamb Lind Lohr Lüt Mark Mers Mühl Nord Oster Pütt Quer Rad Rein Ried Rosen Ruh Sand ' +
    'Scharf Seel Sieg Sonn Spie Stef Tann Thal Trost Uhl Vahl Wald Wend West Wieg Wild Witt Zell',
);
const SURNAME_LINKS = ['', 'en', 'er', 'e', 's'];
const SURNAME_ENDINGS = list(
  'bach beck berg bruch brink dorf feld hagen hardt hausen heim hof holt horst kamp kötter land ling mann meier ' +
    'mund ner rath reuther rich rode sieker stedt stein thal wald wede wig winkel wirth zahn ecker inger ows ski ' +
    'sen ke ler ert ig isch kes lich nagel pohl rieder schläger schmied mayr huber gruber hammer rather brock ' +
    'kemper lage',
);
const FIRST_NAMES = list(
  'Anna Maria Ursula Monika Petra Elisabeth Sabine Renate Helga Karin Brigitte Ingrid Erika Andrea Gisela ' +
    'Claudia Susanne Gabriele Christa Christine Birgit Julia Barbara Stefanie Nicole Katrin Tanja Heike Anja ' +
    'Daniela Melanie Nadine Jessica Sandra Laura Lea Lena Hannah Sophie Emma Mia Marie Johanna Jana Franziska ' +
    'Jürgen Peter Michael Thomas Andreas Wolfgang Klaus Stefan Christian Uwe Werner Hans Frank Bernd Günter ' +
    'Horst Manfred Dieter Matthias Jörg Markus Sebastian Lukas Jonas Leon Finn Paul Felix Maximilian Alexander ' +
    'Tobias Florian Daniel Jan Tim Niklas Philipp Ralf Dirk Sven Holger Torsten Björn Sören Jens Kai René Özlem ' +
    'Ömer Ayşe Mehmet Zoë Chloé Małgorzata Dragan',
);
const COMPANY_FORMS = ['GmbH', 'AG', 'KG', 'GmbH & Co. KG', 'e.K.', 'OHG', 'UG (haftungsbeschränkt)', 'GbR'];
const COMPANY_TRADES = list(
  'Bau Elektro Sanitär Holz Metall Transporte Immobilien Consulting Gartenbau Bäckerei Autohaus Dachdeckerei ' +
    'Malerbetrieb Steuerberatung Software Logistik',
);
/** Frequent German street names (Hauptstraße, Schulstraße, ...); house numbers 1 to 150, some with a letter. */
const STREETS = (
  'Hauptstraße|Schulstraße|Gartenstraße|Bahnhofstraße|Dorfstraße|Bergstraße|Birkenweg|Lindenstraße|Kirchstraße|' +
  'Waldstraße|Ringstraße|Schillerstraße|Goethestraße|Mühlenweg|Wiesenweg|Amselweg|Jahnstraße|Buchenweg|' +
  'Rosenstraße|Friedhofstraße|Mozartstraße|Feldstraße|Finkenweg|Talstraße|Am Sportplatz|Eichenweg|Meisenweg|' +
  'Lerchenweg|Drosselweg|Parkstraße|Poststraße|Kastanienweg|Tannenweg|Blumenstraße|Industriestraße|' +
  'Mittelstraße|Brunnenstraße|Beethovenstraße|Erlenweg|Raiffeisenstraße|Ahornweg|Sonnenstraße|Lessingstraße|' +
  'Uhlandstraße|Friedrichstraße|Feldweg|Kiefernweg|Am Bach|Bachstraße|Breslauer Straße|Königsberger Straße|' +
  'Marktplatz|Am Markt|Schloßstraße|Weißdornweg|Hölderlinweg|Fröbelstraße|Kantstraße|Luisenstraße|' +
  'Wilhelmstraße|Kaiserstraße|Gutenbergstraße|Hochstraße|Neue Straße|Lange Straße|Kurze Straße|Steinweg|' +
  'Grabenstraße|Rathausstraße|Mühlenstraße|Am Anger|Auf der Höhe|Im Winkel|Zum Sportplatz'
).split('|');
/** The largest cities with their population in thousands and the first digits of their postal codes. */
const CITIES = table(
  'Berlin:3700:1|Hamburg:1900:2|München:1500:8|Köln:1080:5|Frankfurt am Main:760:6|Stuttgart:630:7|' +
    'Düsseldorf:620:4|Leipzig:600:04|Dortmund:590:44|Essen:580:45|Bremen:570:28|Dresden:560:01|Hannover:540:30|' +
    'Nürnberg:520:90|Duisburg:500:47|Bochum:360:44|Wuppertal:355:42|Bielefeld:335:33|Bonn:330:53|' +
    'Münster:318:48|Mannheim:310:68|Karlsruhe:308:76|Augsburg:300:86|Wiesbaden:280:65|Mönchengladbach:260:41|' +
    'Gelsenkirchen:260:45|Aachen:250:52|Braunschweig:250:38|Kiel:247:24|Chemnitz:245:09|Halle (Saale):240:06|' +
    'Magdeburg:237:39|Freiburg im Breisgau:232:79|Krefeld:227:47|Mainz:218:55|Lübeck:216:23|Erfurt:214:99|' +
    'Oberhausen:210:46|Rostock:209:18|Kassel:201:34|Hagen:189:58|Potsdam:183:14|Saarbrücken:180:66|Hamm:180:59|' +
    'Ludwigshafen am Rhein:172:67|Oldenburg:170:26|Mülheim an der Ruhr:170:45|Osnabrück:165:49|' +
    'Leverkusen:163:51|Heidelberg:160:69|Darmstadt:160:64|Solingen:159:42|Regensburg:153:93|Herne:156:44|' +
    'Paderborn:152:33|Neuss:152:41|Ingolstadt:138:85|Offenbach am Main:130:63|Fürth:129:90|Würzburg:127:97|' +
    'Ulm:126:89|Heilbronn:126:74|Pforzheim:125:75|Wolfsburg:124:38|Göttingen:118:37',
).map(([name, population, prefix]): [string, number, string] => [
  name ?? '',
  Number(population),
  prefix ?? '',
]);
/** The big cities hold 30 % of the customers (Berlin about 4.5 %); the rest live in about 8,000 smaller towns. */
const CITY_SHARE = 0.3;
const TOWN_PREFIXES = ['', '', '', 'Ober', 'Unter', 'Neu', 'Alt', 'Groß', 'Klein', 'Bad ', 'Hohen', 'Nieder'];
const TOWN_ROOTS = list(
  'Linden Eichen Buchen Rosen Wald Stein Sand Mühl Kirch Holz Bern Ebers Fried Gerns Harz Iffel Kalten Lauter ' +
    'Marien Nord Otten Pfaffen Reichen Schön Sulz Tauber Ulrichs Vilsen Weiden Zeitz Asch Bisch Dett Elm Fisch ' +
    'Gross Hoch Ilm Kron Lahn Mosel Nahe Oder Ruhr Saal Treb Unstrut Werra',
);
const TOWN_ENDINGS = list('dorf bach heim hausen feld berg burg stadt au ingen rode furt hagen kirchen');
const MOBILE_PREFIXES = list('0151 0152 0160 0162 0170 0171 0172 0173 0175 0176 0177 0178 0179');
const MAIL_DOMAINS = list('gmx.de web.de t-online.de gmail.com outlook.de yahoo.de posteo.de freenet.de');
/** Where the customers belong: the bench's client (V1000) sees V1000 to V1003, not V2000. */
const BROKER_SHARES: [string, number][] = [
  ['V1000', 0.4],
  ['V1001', 0.2],
  ['V1002', 0.15],
  ['V1003', 0.15],
  ['V2000', 0.1],
];

/** A small fast PRNG (mulberry32), seeded per customer. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T>(entries: [T, number][]): (r: number) => T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  const bounds: number[] = [];
  let running = 0;
  for (const [, weight] of entries) bounds.push((running += weight / total));
  return (r) => {
    let low = 0;
    let high = bounds.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (r < (bounds[middle] ?? 1)) high = middle;
      else low = middle + 1;
    }
    return (entries[low] ?? entries[0])[0];
  };
}

const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)] ?? list[0];
const commonSurname = weighted(COMMON_SURNAMES);
const bigCity = weighted(CITIES.map((city): [(typeof CITIES)[number], number] => [city, city[1]]));
const brokerOf = weighted(BROKER_SHARES);

/** ä → ae, ö → oe, ü → ue, ß → ss, other accents dropped, lower case: how people type e-mail addresses. */
function asciiFold(text: string): string {
  return text
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/Ä/g, 'Ae')
    .replace(/Ö/g, 'Oe')
    .replace(/Ü/g, 'Ue')
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l')
    .replace(/ş/g, 's')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

interface SyntheticCustomer {
  broker: string;
  legal: boolean;
  salutation: string;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  contactPerson: string | null;
  birthDate: string | null;
  foundingDate: string | null;
  street: string;
  postalCode: string;
  city: string;
  email: string | null;
  phone: string | null;
  phoneType: 'telefon' | 'mobil';
}

function surname(random: () => number): string {
  if (random() < COMMON_SHARE) return commonSurname(random());
  return pick(SURNAME_STEMS, random()) + pick(SURNAME_LINKS, random()) + pick(SURNAME_ENDINGS, random());
}

function date(random: () => number, fromYear: number, years: number): string {
  const day = new Date(Date.UTC(fromYear, 0, 1) + Math.floor(random() * years * 365.25) * 86_400_000);
  return day.toISOString().slice(0, 10);
}

function customer(n: number): SyntheticCustomer {
  const random = prng(n * 2_654_435_761);
  const legal = random() < 0.05;
  const first = pick(FIRST_NAMES, random());
  const last = surname(random);
  let city: string;
  let postalCode: string;
  if (random() < CITY_SHARE) {
    const [name, , prefix] = bigCity(random());
    city = name;
    postalCode = (prefix + String(Math.floor(random() * 100_000)).padStart(5, '0')).slice(0, 5);
  } else {
    const town = Math.floor(random() * 8_000);
    city =
      TOWN_PREFIXES[town % TOWN_PREFIXES.length] +
      TOWN_ROOTS[Math.floor(town / TOWN_PREFIXES.length) % TOWN_ROOTS.length] +
      TOWN_ENDINGS[town % TOWN_ENDINGS.length];
    postalCode = String(10_000 + ((town * 7_919) % 89_000)).padStart(5, '0');
  }
  const houseNumber = `${1 + Math.floor(random() * 150)}${random() < 0.05 ? 'a' : ''}`;
  const company = legal ? `${last} ${pick(COMPANY_TRADES, random())} ${pick(COMPANY_FORMS, random())}` : null;
  const mailbox = legal
    ? `info@${asciiFold(last)}-${n}.de`
    : `${asciiFold(`${first}.${last}`)}${random() < 0.6 ? Math.floor(random() * 1000) : ''}@${pick(MAIL_DOMAINS, random())}`;
  const mobile = random() < 0.6;
  const mobilePrefix = pick(MOBILE_PREFIXES, random());
  const digits = String(Math.floor(random() * 9_000_000) + 1_000_000);
  const phone = mobile
    ? random() < 0.3
      ? `+49 ${mobilePrefix.slice(1)} ${digits}`
      : `${mobilePrefix} ${digits}`
    : `0${2 + Math.floor(random() * 8)}${Math.floor(random() * 100)} ${digits.slice(0, 6)}`;
  return {
    broker: brokerOf(random()),
    legal,
    salutation: legal ? 'firma' : random() < 0.5 ? 'frau' : 'herr',
    firstName: legal ? null : first,
    lastName: legal ? null : last,
    companyName: company,
    contactPerson: legal ? `${pick(FIRST_NAMES, random())} ${surname(random)}` : null,
    birthDate: legal ? null : date(random, 1935, 70),
    foundingDate: legal ? date(random, 1950, 70) : null,
    street: `${pick(STREETS, random())} ${houseNumber}`,
    postalCode,
    city,
    email: random() < 0.7 ? mailbox : null,
    phone: random() < 0.8 ? phone : null,
    phoneType: mobile ? 'mobil' : 'telefon',
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Database: fixture, seed by COPY, search table built by the migration's bulk path.

const copyValue = (value: string | number | boolean | null) => (value === null ? '\\N' : String(value));

/** COPY text rows for customers first..first+count-1, produced lazily in chunks. */
function copyRows(
  first: number,
  count: number,
  row: (n: number, data: SyntheticCustomer) => (string | number | boolean | null)[][],
): Readable {
  return Readable.from(
    (function* () {
      const chunk: string[] = [];
      for (let n = first; n < first + count; n += 1) {
        for (const values of row(n, customer(n))) chunk.push(`${values.map(copyValue).join('\t')}\n`);
        if (chunk.length >= 5_000) yield chunk.splice(0).join('');
      }
      if (chunk.length > 0) yield chunk.join('');
    })(),
  );
}

/** Customers first..first+count-1 with their main address and contacts, three COPY statements. */
async function copyCustomers(db: Client, fixture: Fixture, first: number, count: number): Promise<number[]> {
  const seconds: number[] = [];
  const timed = async (work: () => Promise<void>) => {
    const started = process.hrtime.bigint();
    await work();
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
  };
  const { rows } = await db.query<{ next: string }>(
    'SELECT coalesce(max(id), 0) + 1 AS next FROM broker.customer',
  );
  const firstId = Number(rows[0]?.next);
  await timed(() =>
    pipeline(
      copyRows(first, count, (_n, c) => [
        [
          fixture.tenantId,
          fixture.brokers[c.broker] ?? '',
          c.legal ? 'juristisch' : 'natuerlich',
          c.salutation,
          c.firstName,
          c.lastName,
          c.companyName,
          c.contactPerson,
          c.birthDate,
          c.foundingDate,
        ],
      ]),
      db.query(
        copyFrom(`COPY broker.customer (tenant_id, broker_id, person_type, salutation, first_name, last_name,
                   company_name, contact_person, birth_date, founding_date) FROM STDIN`),
      ),
    ),
  );
  // The identity hands out consecutive ids to one COPY on a database nobody else writes to.
  const check = await db.query<{ low: string; high: string }>(
    'SELECT min(id) AS low, max(id) AS high FROM broker.customer WHERE id >= $1',
    [firstId],
  );
  if (Number(check.rows[0]?.low) !== firstId || Number(check.rows[0]?.high) !== firstId + count - 1)
    throw new Error('customer ids are not consecutive');
  const idOf = (n: number) => firstId + (n - first);
  await timed(() =>
    pipeline(
      copyRows(first, count, (n, c) => [
        [fixture.tenantId, idOf(n), 0, 'hauptwohnsitz', c.street, c.postalCode, c.city, 'DE'],
      ]),
      db.query(
        copyFrom(`COPY broker.address (tenant_id, customer_id, address_no, address_type, street, postal_code,
                   city, country) FROM STDIN`),
      ),
    ),
  );
  await timed(() =>
    pipeline(
      copyRows(first, count, (n, c) => [
        ...(c.email ? [[fixture.tenantId, idOf(n), 'privat', 'email', c.email, true]] : []),
        ...(c.phone ? [[fixture.tenantId, idOf(n), 'privat', c.phoneType, c.phone, true]] : []),
      ]),
      db.query(
        copyFrom(
          'COPY broker.contact (tenant_id, customer_id, context, contact_type, value, is_standard) FROM STDIN',
        ),
      ),
    ),
  );
  return seconds;
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP: the built service, signed requests, a fixed number of requests in flight.

function signedHeaders(): Record<string, string> {
  const nonce = randomBytes(20).toString('hex');
  const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    'X-Svc-Api-Id': API_CLIENT.apiId,
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Nonce': nonce,
    'X-Svc-Digest': svcDigest(nonce, timestamp, API_CLIENT.apiKey),
  };
}

interface Answer {
  milliseconds: number;
  total: number;
  hits: number;
}

async function searchKunden(port: number, q: string): Promise<Answer> {
  const started = process.hrtime.bigint();
  const response = await fetch(
    `http://127.0.0.1:${port}/service/demo/employee/v1/rest/${EMPLOYEE}/kunden/_search?q=${encodeURIComponent(q)}`,
    { headers: signedHeaders() },
  );
  const body = (await response.json()) as unknown[];
  const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200)
    throw new Error(`searchKunden ${q}: ${response.status} ${JSON.stringify(body)}`);
  return { milliseconds, total: Number(response.headers.get('x-svc-total')), hits: body.length };
}

/** For comparison: an authenticated request that does no search (the enumeration of salutations). */
async function salutations(port: number): Promise<Answer> {
  const started = process.hrtime.bigint();
  const response = await fetch(`http://127.0.0.1:${port}/service/demo/employee/v1/rest/anreden`, {
    headers: signedHeaders(),
  });
  await response.arrayBuffer();
  const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200) throw new Error(`getAnreden: ${response.status}`);
  return { milliseconds, total: 0, hits: 0 };
}

interface KindResult {
  kind: string;
  /** X-Svc-Total per query. */
  totalOf: Map<string, number>;
  example: string;
  queries: number;
  totals: string;
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
}

/** `requests` searches, `CONCURRENCY` in flight, cycling through `queries`; totals must not vary per query. */
async function measure(
  port: number,
  kind: string,
  queries: string[],
  requests = MEASURED_REQUESTS,
  call: (port: number, q: string) => Promise<Answer> = searchKunden,
): Promise<KindResult> {
  const totals = new Map<string, number>();
  const run = async (requests: number, record: number[] | undefined) => {
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        const q = queries[next % queries.length] ?? '';
        next += 1;
        const answer = await call(port, q);
        const known = totals.get(q);
        if (known !== undefined && known !== answer.total)
          throw new Error(`X-Svc-Total of ${q} changed from ${known} to ${answer.total}`);
        if (answer.hits > answer.total) throw new Error(`${q}: more hits than X-Svc-Total`);
        totals.set(q, answer.total);
        record?.push(answer.milliseconds);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  await run(Math.min(WARM_UP_REQUESTS, requests), undefined);
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  await run(requests, latencies);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const counts = [...totals.values()].sort((a, b) => a - b);
  return {
    kind,
    totalOf: totals,
    example: queries[0] ?? '',
    queries: queries.length,
    totals:
      counts.length === 1
        ? String(counts[0])
        : `${counts[0]}-${counts[counts.length - 1]} (median ${percentile(counts, 0.5)})`,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    perSecond: requests / seconds,
  };
}

/** The V1000 subtree, independent of the search table. */
const VISIBLE = `WITH RECURSIVE visible(id) AS (
    SELECT id FROM broker.broker WHERE broker_number = 'V1000'
    UNION ALL SELECT b.id FROM broker.broker b JOIN visible v ON b.parent_id = v.id)`;

/** X-Svc-Total against counts computed from the inventory tables directly, not from the search table. */
async function checkTotals(db: Client, port: number, email: string): Promise<string[]> {
  const lines: string[] = [];
  const [byMail] = (
    await db.query<{ count: number }>(
      `${VISIBLE} SELECT count(DISTINCT k.customer_id)::int AS count
         FROM broker.contact k JOIN broker.customer c ON c.id = k.customer_id
        WHERE c.broker_id IN (SELECT id FROM visible) AND k.contact_type = 'email'
          AND position($1 IN lower(k.value)) > 0`,
      [email],
    )
  ).rows;
  const mail = await searchKunden(port, email);
  lines.push(`e-mail ${email}: X-Svc-Total ${mail.total}, SQL count ${byMail?.count}`);
  const [byName] = (
    await db.query<{ count: number }>(
      `${VISIBLE} SELECT count(*)::int AS count FROM broker.customer c
        WHERE c.broker_id IN (SELECT id FROM visible) AND (
          lower(concat_ws(' ', c.first_name, c.last_name, c.company_name, c.contact_person)) ~ '(müller|mueller)'
          OR EXISTS (SELECT 1 FROM broker.address a WHERE a.customer_id = c.id
                       AND lower(concat_ws(' ', a.street, a.city)) ~ '(müller|mueller)')
          OR EXISTS (SELECT 1 FROM broker.contact k WHERE k.customer_id = c.id AND k.contact_type = 'email'
                       AND lower(k.value) ~ '(müller|mueller)'))`,
    )
  ).rows;
  const name = await searchKunden(port, 'Müller');
  lines.push(`Müller: X-Svc-Total ${name.total}, SQL count ${byName?.count}`);
  // A prefix too short to match inside words: customers with a word beginning with it, several words counted once.
  // Words split as the search documents split them (migration 0008's word characters).
  const hasSchmWord = (text: string) =>
    `EXISTS (SELECT 1 FROM regexp_split_to_table(lower(${text}), '[^0-9a-z\\u00c0-\\uffff]+') word
              WHERE starts_with(word, 'schm'))`;
  const [byPrefix] = (
    await db.query<{ count: number }>(
      `${VISIBLE} SELECT count(*)::int AS count FROM broker.customer c
        WHERE c.broker_id IN (SELECT id FROM visible) AND (
          ${hasSchmWord(`concat_ws(' ', c.first_name, c.last_name, c.company_name, c.contact_person)`)}
          OR EXISTS (SELECT 1 FROM broker.address a WHERE a.customer_id = c.id
                       AND ${hasSchmWord(`concat_ws(' ', a.street, a.city)`)})
          OR EXISTS (SELECT 1 FROM broker.contact k WHERE k.customer_id = c.id AND k.contact_type = 'email'
                       AND lower(k.value) LIKE 'schm%'))`,
    )
  ).rows;
  const prefix = await searchKunden(port, 'Schm');
  lines.push(`Schm: X-Svc-Total ${prefix.total}, SQL count ${byPrefix?.count}`);
  if (mail.total !== byMail?.count || name.total !== byName?.count || prefix.total !== byPrefix?.count)
    throw new Error(lines.join('; '));
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const customers = Number(process.argv[2] ?? DEFAULT_CUSTOMERS);
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  const bench = await BrokerBench.open(API_CLIENT, EMPLOYEE);
  // SEARCH_BENCH_KEEP_DATABASE=1 keeps the seeded database for EXPLAIN (drop it by hand afterwards).
  const keepDatabase = process.env.SEARCH_BENCH_KEEP_DATABASE === '1';
  try {
    const { db, fixture } = bench;

    log(`seeding ${customers} customers by COPY (triggers off) ...`);
    const started = process.hrtime.bigint();
    await db.query('SET session_replication_role = replica');
    const copySeconds = await copyCustomers(db, fixture, 0, customers);
    await db.query('SET session_replication_role = DEFAULT');
    const rebuildStarted = process.hrtime.bigint();
    await db.query('SELECT broker.customer_search_rebuild()');
    const rebuildSeconds = Number(process.hrtime.bigint() - rebuildStarted) / 1e9;
    await db.query(
      'VACUUM ANALYZE broker.customer, broker.address, broker.contact, broker.customer_search, broker.customer_search_word, broker.customer_search_vocabulary',
    );
    const seedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const sizes = (
      await db.query<{ name: string; size: string }>(
        `SELECT c.relname AS name, pg_size_pretty(pg_relation_size(c.oid)) AS size FROM pg_class c
          WHERE c.relname LIKE 'customer_search%' AND c.relkind IN ('r', 'i')
          ORDER BY c.relname`,
      )
    ).rows;

    const service = await bench.startService();

    const sample = (count: number, value: (c: SyntheticCustomer) => string | null) => {
      const values: string[] = [];
      for (let n = 7; values.length < count && n < customers; n += 9_973) {
        const c = customer(n);
        const found = fixture.brokers[c.broker] && c.broker !== 'V2000' ? value(c) : null;
        if (found) values.push(found);
      }
      return values;
    };
    const kinds: [string, string[]][] = [
      ['name prefix', ['Schm', 'Schn', 'Fisch', 'Wagn', 'Beck', 'Hoffm', 'Richt', 'Zimm', 'Neum', 'Kraus']],
      ['full e-mail address', sample(100, (c) => c.email)],
      ['postal code', sample(100, (c) => c.postalCode)],
      [
        'rare term (a surname of the long tail)',
        sample(100, (c) =>
          c.lastName && !COMMON_SURNAMES.some(([name]) => name === c.lastName) ? c.lastName : null,
        ),
      ],
      ['very common term', ['Müller', 'Schmidt', 'Schneider']],
      ['name and first name', sample(100, (c) => (c.lastName ? `${c.firstName} ${c.lastName}` : null))],
      ['phone number, other spacing', sample(100, (c) => (c.phone ? c.phone.replace(/\s/g, '') : null))],
      ['city of 4.5 % of the customers (outside the target kinds)', ['Berlin']],
    ];
    const cpu = cpuTimeMeter();
    const results: KindResult[] = [
      await measure(
        service.port,
        'no search: getAnreden, for comparison',
        ['-'],
        MEASURED_REQUESTS,
        salutations,
      ),
    ];
    for (const [kind, queries] of kinds) {
      log(`measuring ${kind} ...`);
      results.push(await measure(service.port, kind, queries));
    }
    log('measuring one letter ...');
    results.push(await measure(service.port, 'one letter (outside the target kinds)', ['a'], 80));
    const cpuWhileMeasuring = cpu.read();
    const checks = await checkTotals(db, service.port, sample(1, (c) => c.email)[0] ?? '');

    log(`writing ${TRIGGER_BATCH} more customers with the search triggers on ...`);
    const triggered = await copyCustomers(db, fixture, customers, TRIGGER_BATCH);
    await db.query('SET session_replication_role = replica');
    const untriggered = await copyCustomers(db, fixture, customers + TRIGGER_BATCH, TRIGGER_BATCH);
    await db.query('SET session_replication_role = DEFAULT');
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

    const settings = (
      await db.query<{ version: string; shared_buffers: string; work_mem: string }>(
        "SELECT current_setting('server_version') AS version, current_setting('shared_buffers') AS shared_buffers, current_setting('work_mem') AS work_mem",
      )
    ).rows[0];
    const ms = (value: number) => value.toFixed(1);
    const lines = [
      `Machine: ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, PostgreSQL ${settings?.version} ` +
        `(shared_buffers ${settings?.shared_buffers}, work_mem ${settings?.work_mem}), Node ${process.version}. ` +
        `While the latencies were measured: ${cpuWhileMeasuring}.`,
      '',
      `Seeding ${customers} customers: COPY customers ${ms(copySeconds[0] ?? 0)} s, addresses ${ms(copySeconds[1] ?? 0)} s, ` +
        `contacts ${ms(copySeconds[2] ?? 0)} s; customer_search_rebuild() ${ms(rebuildSeconds)} s; total with VACUUM ANALYZE ${ms(seedSeconds)} s.`,
      `Sizes: ${sizes.map((row) => `${row.name} ${row.size}`).join(', ')}.`,
      '',
      `| kind | example q | distinct q | X-Svc-Total | p50 ms | p95 ms | p99 ms | requests/s |`,
      '|---|---|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.kind} | ${r.example} | ${r.queries} | ${r.kind.startsWith('no search') ? 'n/a' : r.totals} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.perSecond.toFixed(0)} |`,
      ),
      '',
      ...results
        .filter((r) => r.queries > 1 && r.queries <= 10)
        .map((r) => `- ${r.kind}: ${[...r.totalOf].map(([q, total]) => `${q} ${total}`).join(', ')}`),
      ...checks.map((line) => `- ${line}`),
      `- ${TRIGGER_BATCH} customers written by COPY with the search triggers on: ${triggered.map(ms).join(' + ')} s ` +
        `= ${ms(sum(triggered))} s; the same with triggers off: ${untriggered.map(ms).join(' + ')} s = ${ms(sum(untriggered))} s.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    if (keepDatabase) log(`kept database ${bench.database.name}`);
    await bench.close(keepDatabase);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
