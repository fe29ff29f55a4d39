import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Synthetic customers for the search benches: deterministic per customer number, so each COPY stream regenerates
 * the same customer. German names, streets, cities, e-mail addresses and phone numbers with realistic
 * frequencies; which broker a customer belongs to is the caller's rule (`BrokerOf`).
 */

/** Entries separated by `|`, fields by `:`. */
const table = (text: string) => text.split('|').map((entry) => entry.split(':'));
const list = (text: string) => text.split(' ');

/**
 * The 100 most frequent German surnames with their telephone-directory counts in thousands (Müller 256, Schmidt
 * 190, ...). They carry 12 % of the customers, which gives Müller about 0.8 % as in the population; the other
 * 88 % get one of about 19,000 compound surnames built below.
 */
export const COMMON_SURNAMES = table(
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
/** A small fast PRNG (mulberry32), seeded per customer. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function weighted<T>(entries: [T, number][]): (r: number) => T {
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

export const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)] ?? list[0];
const commonSurname = weighted(COMMON_SURNAMES);
const bigCity = weighted(CITIES.map((city): [(typeof CITIES)[number], number] => [city, city[1]]));

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

export interface SyntheticCustomer {
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

/** Picks a customer's broker number from the customer's own random draw (uniform in [0, 1)). */
export type BrokerOf = (r: number) => string;

export function customer(n: number, brokerOf: BrokerOf): SyntheticCustomer {
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
// Writing them by COPY.

/** Where synthetic customers go: the tenant, the id of each broker number, and the rule that picks the number. */
export interface CustomerTarget {
  tenantId: string;
  brokerIds: Record<string, string>;
  brokerOf: BrokerOf;
}

const copyValue = (value: string | number | boolean | null) => (value === null ? '\\N' : String(value));

/** COPY text rows for customers first..first+count-1, produced lazily in chunks. */
function copyRows(
  first: number,
  count: number,
  brokerOf: BrokerOf,
  row: (n: number, data: SyntheticCustomer) => (string | number | boolean | null)[][],
): Readable {
  return Readable.from(
    (function* () {
      const chunk: string[] = [];
      for (let n = first; n < first + count; n += 1) {
        for (const values of row(n, customer(n, brokerOf)))
          chunk.push(`${values.map(copyValue).join('\t')}\n`);
        if (chunk.length >= 5_000) yield chunk.splice(0).join('');
      }
      if (chunk.length > 0) yield chunk.join('');
    })(),
  );
}

/**
 * Customers first..first+count-1 with their main address and contacts, three COPY statements (whatever triggers
 * the session lets fire); the seconds each took.
 */
export async function copyCustomers(
  db: Client,
  target: CustomerTarget,
  first: number,
  count: number,
): Promise<number[]> {
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
      copyRows(first, count, target.brokerOf, (_n, c) => [
        [
          target.tenantId,
          target.brokerIds[c.broker] ?? '',
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
      copyRows(first, count, target.brokerOf, (n, c) => [
        [target.tenantId, idOf(n), 0, 'hauptwohnsitz', c.street, c.postalCode, c.city, 'DE'],
      ]),
      db.query(
        copyFrom(`COPY broker.address (tenant_id, customer_id, address_no, address_type, street, postal_code,
                   city, country) FROM STDIN`),
      ),
    ),
  );
  await timed(() =>
    pipeline(
      copyRows(first, count, target.brokerOf, (n, c) => [
        ...(c.email ? [[target.tenantId, idOf(n), 'privat', 'email', c.email, true]] : []),
        ...(c.phone ? [[target.tenantId, idOf(n), 'privat', c.phoneType, c.phone, true]] : []),
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
