/**
 * Generated BIRD folders for perf/bird-eval.ts, deterministic by seed: a BIRD layout (dev.json,
 * dev_databases/<db_id>/<db_id>.sqlite) and a predictions file in BIRD's format. Two shapes:
 * - small: a GeoQuery-like database of ~64 kB and cheap lookups (the workload where start-up and
 *   per-question overhead decide);
 * - large: BIRD-scale databases (~100 MB each, indexes on the keys as BIRD's have) and analytical
 *   questions (joins, GROUP BY, subqueries, ORDER BY … LIMIT) where SQLite's own time decides;
 * - wide: the large databases, and questions whose results have tens to hundreds of thousands of
 *   rows (listings without a tight filter), where moving and comparing rows decides; predictions as
 *   a model's are, none the gold's own text (correct ones are the gold written another way).
 * Otherwise predictions mix gold-identical SQL, the gold re-typed (case, spacing, a trailing semicolon),
 * result-changing mutations (oracles/sql/mutate.ts) and queries that fail.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Rng } from '../core/random.ts';
import { sqlMutants } from '../oracles/sql/mutate.ts';
import { readSchema } from '../oracles/sql/schema.ts';

export interface Workload {
  dir: string;
  predictions: string;
  questions: number;
  databaseBytes: number;
  /** How many predictions of each kind. */
  mix: Record<PredictionKind, number>;
}

type PredictionKind = 'identical' | 'retyped' | 'rewritten' | 'mutated' | 'error';

interface Question {
  db_id: string;
  SQL: string;
  difficulty: 'simple' | 'moderate' | 'challenging';
}

const STATES = Array.from({ length: 50 }, (_, i) => `state_${i}`);

function createGeo(path: string, rng: Rng): void {
  const db = new Database(path);
  db.exec(`
    CREATE TABLE state (state_name TEXT PRIMARY KEY, population INTEGER, area REAL, capital TEXT, density REAL);
    CREATE TABLE city (city_name TEXT, state_name TEXT REFERENCES state(state_name), population INTEGER, PRIMARY KEY (city_name, state_name));
    CREATE TABLE river (river_name TEXT, length INTEGER, traverse TEXT REFERENCES state(state_name));
    CREATE TABLE border_info (state_name TEXT, border TEXT);
    CREATE TABLE highlow (state_name TEXT PRIMARY KEY, highest_elevation INTEGER, lowest_point TEXT);`);
  db.transaction(() => {
    const state = db.prepare('INSERT INTO state VALUES (?, ?, ?, ?, ?)');
    const city = db.prepare('INSERT INTO city VALUES (?, ?, ?)');
    const river = db.prepare('INSERT INTO river VALUES (?, ?, ?)');
    const border = db.prepare('INSERT INTO border_info VALUES (?, ?)');
    const highlow = db.prepare('INSERT INTO highlow VALUES (?, ?, ?)');
    for (const s of STATES) {
      const population = rng.between(500_000, 30_000_000);
      const area = rng.between(1_000, 600_000);
      state.run(s, population, area, `${s}_capital`, Math.round((population / area) * 100) / 100);
      highlow.run(s, rng.between(100, 6_000), `${s}_low`);
      for (let c = 0; c < 12; c++) city.run(`city_${rng.int(300)}_${c}`, s, rng.between(5_000, 3_000_000));
      for (let b = 0; b < 4; b++) border.run(s, rng.pick(STATES));
    }
    for (let r = 0; r < 120; r++) river.run(`river_${r % 60}`, rng.between(50, 3_700), rng.pick(STATES));
  })();
  db.close();
}

function geoQuestion(rng: Rng): Question {
  const s = `'${rng.pick(STATES)}'`;
  const n = rng.between(100_000, 2_000_000);
  const templates: [Question['difficulty'], string][] = [
    ['simple', `SELECT population FROM state WHERE state_name = ${s}`],
    ['simple', `SELECT capital FROM state WHERE state_name = ${s}`],
    ['simple', `SELECT city_name FROM city WHERE state_name = ${s} AND population > ${n}`],
    ['simple', `SELECT COUNT(*) FROM city WHERE state_name = ${s}`],
    ['simple', `SELECT DISTINCT traverse FROM river WHERE length > ${rng.between(500, 3000)}`],
    ['moderate', `SELECT state_name FROM state ORDER BY population DESC LIMIT ${rng.between(1, 5)}`],
    ['moderate', `SELECT MAX(length) FROM river WHERE traverse = ${s}`],
    ['moderate', `SELECT border FROM border_info WHERE state_name = ${s}`],
    ['moderate', `SELECT highest_elevation FROM highlow WHERE state_name = ${s}`],
    [
      'challenging',
      `SELECT T1.city_name FROM city AS T1 JOIN state AS T2 ON T1.state_name = T2.state_name WHERE T2.area > ${rng.between(10_000, 500_000)} AND T1.population > ${n}`,
    ],
    [
      'challenging',
      `SELECT state_name FROM state WHERE population = (SELECT MAX(population) FROM state WHERE area < ${rng.between(50_000, 500_000)})`,
    ],
  ];
  const [difficulty, SQL] = rng.pick(templates);
  return { db_id: 'geo', SQL, difficulty };
}

/** A BIRD-scale database: customers, accounts, products and ~`rows` transactions, indexed like BIRD's. */
function createLedger(path: string, rows: number, rng: Rng): void {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`
    CREATE TABLE district (district_id INTEGER PRIMARY KEY, name TEXT, region TEXT, inhabitants INTEGER);
    CREATE TABLE client (client_id INTEGER PRIMARY KEY, gender TEXT, birth_year INTEGER, district_id INTEGER REFERENCES district(district_id));
    CREATE TABLE account (account_id INTEGER PRIMARY KEY, client_id INTEGER REFERENCES client(client_id), frequency TEXT, opened TEXT);
    CREATE TABLE product (product_id INTEGER PRIMARY KEY, category TEXT, price REAL);
    CREATE TABLE trans (trans_id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES account(account_id), product_id INTEGER REFERENCES product(product_id), date TEXT, type TEXT, amount REAL, balance REAL, note TEXT);`);
  const clients = Math.max(100, Math.round(rows / 40));
  const accounts = Math.round(clients * 1.3);
  const regions = ['north', 'south', 'east', 'west', 'central', 'coast'];
  db.transaction(() => {
    const district = db.prepare('INSERT INTO district VALUES (?, ?, ?, ?)');
    for (let d = 1; d <= 77; d++) district.run(d, `district_${d}`, rng.pick(regions), rng.between(1_000, 1_200_000));
    const client = db.prepare('INSERT INTO client VALUES (?, ?, ?, ?)');
    for (let c = 1; c <= clients; c++) client.run(c, rng.pick(['F', 'M']), rng.between(1930, 2005), rng.between(1, 77));
    const account = db.prepare('INSERT INTO account VALUES (?, ?, ?, ?)');
    for (let a = 1; a <= accounts; a++)
      account.run(a, rng.between(1, clients), rng.pick(['monthly', 'weekly', 'after transaction']), day(rng));
    const product = db.prepare('INSERT INTO product VALUES (?, ?, ?)');
    for (let p = 1; p <= 500; p++) product.run(p, `category_${p % 23}`, rng.between(100, 100_000) / 100);
    const trans = db.prepare('INSERT INTO trans VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (let t = 1; t <= rows; t++)
      trans.run(
        t,
        rng.between(1, accounts),
        rng.between(1, 500),
        day(rng),
        rng.pick(['credit', 'withdrawal', 'transfer']),
        rng.between(1, 5_000_000) / 100,
        rng.between(-100_000, 9_000_000) / 100,
        rng.chance(0.3) ? `memo ${rng.int(100_000)}` : null,
      );
  })();
  db.exec(`
    CREATE INDEX trans_account ON trans(account_id);
    CREATE INDEX trans_date ON trans(date);
    CREATE INDEX account_client ON account(client_id);
    CREATE INDEX client_district ON client(district_id);`);
  db.close();
}

const day = (rng: Rng) =>
  `${rng.between(1993, 2024)}-${String(rng.between(1, 12)).padStart(2, '0')}-${String(rng.between(1, 28)).padStart(2, '0')}`;

/** A question whose result lists many rows of the ledger (10^4 to 10^5 and more). */
function listingQuestion(dbId: string, rng: Rng): Question {
  const year = rng.between(1993, 2010);
  const amount = rng.between(1_000, 30_000);
  const templates: [Question['difficulty'], string][] = [
    ['simple', `SELECT trans_id, account_id, amount FROM trans WHERE date >= '${year}-01-01'`],
    ['simple', `SELECT account_id, date, type FROM trans WHERE amount > ${amount}`],
    ['simple', `SELECT DISTINCT account_id FROM trans WHERE type = 'credit' AND date < '${year + 10}-01-01'`],
    [
      'moderate',
      `SELECT T1.trans_id, T2.client_id FROM trans AS T1 JOIN account AS T2 ON T1.account_id = T2.account_id WHERE T2.frequency = 'monthly' AND T1.amount > ${amount}`,
    ],
    ['moderate', `SELECT date, type, COUNT(*) FROM trans WHERE date >= '${year}-01-01' GROUP BY date, type`],
  ];
  const [difficulty, SQL] = rng.pick(templates);
  return { db_id: dbId, SQL, difficulty };
}

function ledgerQuestion(dbId: string, rng: Rng): Question {
  const year = rng.between(1995, 2022);
  const region = `'${rng.pick(['north', 'south', 'east', 'west', 'central', 'coast'])}'`;
  const amount = rng.between(1_000, 40_000);
  const k = rng.between(3, 10);
  const templates: [Question['difficulty'], string][] = [
    ['simple', `SELECT type, COUNT(*), SUM(amount) FROM trans WHERE date LIKE '${year}-%' GROUP BY type ORDER BY type`],
    ['simple', `SELECT COUNT(DISTINCT account_id) FROM trans WHERE amount > ${amount}`],
    [
      'moderate',
      `SELECT T3.region, SUM(T1.amount) FROM trans AS T1 JOIN account AS T2 ON T1.account_id = T2.account_id JOIN client AS T4 ON T2.client_id = T4.client_id JOIN district AS T3 ON T4.district_id = T3.district_id WHERE T1.date BETWEEN '${year}-01-01' AND '${year + 2}-12-31' GROUP BY T3.region ORDER BY 2 DESC`,
    ],
    [
      'moderate',
      `SELECT T2.category, AVG(T1.amount) FROM trans AS T1 JOIN product AS T2 ON T1.product_id = T2.product_id WHERE T1.type = 'withdrawal' GROUP BY T2.category ORDER BY AVG(T1.amount) DESC LIMIT ${k}`,
    ],
    [
      'moderate',
      `SELECT account_id, MAX(balance) FROM trans WHERE date >= '${year}-06-01' GROUP BY account_id ORDER BY MAX(balance) DESC LIMIT ${k}`,
    ],
    [
      'challenging',
      `SELECT T2.client_id FROM trans AS T1 JOIN account AS T2 ON T1.account_id = T2.account_id WHERE T1.amount > (SELECT AVG(amount) FROM trans WHERE type = 'credit') * 3 AND T1.date LIKE '${year}-%' GROUP BY T2.client_id HAVING COUNT(*) > 1 ORDER BY T2.client_id LIMIT 20`,
    ],
    [
      'challenging',
      `SELECT T1.name, COUNT(T4.trans_id) FROM district AS T1 JOIN client AS T2 ON T1.district_id = T2.district_id JOIN account AS T3 ON T2.client_id = T3.client_id JOIN trans AS T4 ON T3.account_id = T4.account_id WHERE T1.region = ${region} AND T2.gender = '${rng.pick(['F', 'M'])}' GROUP BY T1.name ORDER BY COUNT(T4.trans_id) DESC LIMIT ${k}`,
    ],
    [
      'challenging',
      `SELECT CAST(SUM(CASE WHEN type = 'credit' THEN amount ELSE 0 END) AS REAL) * 100 / SUM(amount) FROM trans WHERE account_id IN (SELECT account_id FROM account WHERE frequency = 'monthly' AND opened < '${year}-01-01')`,
    ],
  ];
  const [difficulty, SQL] = rng.pick(templates);
  return { db_id: dbId, SQL, difficulty };
}

/** The gold re-typed as a person would: keywords lower-cased, spacing changed, a trailing semicolon. */
function retype(sql: string, rng: Rng): string {
  const lowered = sql.replace(/\b(SELECT|FROM|WHERE|JOIN|GROUP BY|ORDER BY|LIMIT|AND|AS|ON)\b/g, (w) =>
    w.toLowerCase(),
  );
  const spaced = lowered.replace(/ /g, () => (rng.chance(0.1) ? '\n  ' : ' '));
  return `${spaced}${rng.chance(0.5) ? ';' : ''}`;
}

/**
 * A prediction for `q`. `modelLike`: none is the gold's own text (as a model's are not): the
 * correct ones are the gold written another way, which only running it shows.
 */
function predict(
  q: Question,
  db: Database.Database,
  rng: Rng,
  { checkResults, modelLike }: { checkResults: boolean; modelLike: boolean },
): [PredictionKind, string] {
  const roll = rng.next();
  if (modelLike && roll < 0.45) return ['rewritten', `SELECT * FROM (${q.SQL}) AS answer`];
  if (!modelLike && roll < 0.3) return ['identical', q.SQL];
  if (!modelLike && roll < 0.45) return ['retyped', retype(q.SQL, rng)];
  if (roll < 0.85) {
    const gold = checkResults ? JSON.stringify(db.prepare(q.SQL).raw().all()) : '';
    for (const m of rng.shuffle(sqlMutants(q.SQL, readSchema(db)))) {
      try {
        const statement = db.prepare(m.sql);
        if (!checkResults || JSON.stringify(statement.raw().all()) !== gold) return ['mutated', m.sql];
      } catch {
        // a mutant SQLite rejects is no use here
      }
    }
  }
  return ['error', rng.chance(0.5) ? q.SQL.replace('SELECT', 'SELEC') : q.SQL.replace(/FROM (\w+)/, 'FROM $1_missing')];
}

export interface WorkloadOptions {
  kind: 'small' | 'large' | 'wide';
  questions: number;
  /** Databases of the large workload, and the transactions in each (~70 bytes a row with its indexes). */
  databases?: number;
  rows?: number;
  seed?: number;
}

/** Writes a BIRD folder and a predictions file for the workload into `dir`. */
export function generateWorkload(dir: string, options: WorkloadOptions): Workload {
  const rng = new Rng(options.seed ?? 7);
  const ids =
    options.kind === 'small' ? ['geo'] : Array.from({ length: options.databases ?? 1 }, (_, i) => `ledger_${i}`);
  const handles = new Map<string, Database.Database>();
  let databaseBytes = 0;
  for (const id of ids) {
    const folder = join(dir, 'dev_databases', id);
    mkdirSync(folder, { recursive: true });
    const path = join(folder, `${id}.sqlite`);
    if (options.kind === 'small') createGeo(path, rng.fork(id));
    else createLedger(path, options.rows ?? 1_400_000, rng.fork(id));
    const db = new Database(path, { readonly: true });
    databaseBytes +=
      (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    handles.set(id, db);
  }
  const questions = Array.from({ length: options.questions }, () =>
    options.kind === 'small'
      ? geoQuestion(rng)
      : options.kind === 'wide'
        ? listingQuestion(rng.pick(ids), rng)
        : ledgerQuestion(rng.pick(ids), rng),
  );
  const mix: Record<PredictionKind, number> = { identical: 0, retyped: 0, rewritten: 0, mutated: 0, error: 0 };
  const predictions: Record<string, string> = {};
  questions.forEach((q, i) => {
    // Executing every mutant on a 100 MB database would take longer than the benchmark: checked on the small one only.
    const [kind, sql] = predict(q, handles.get(q.db_id) as Database.Database, rng, {
      checkResults: options.kind === 'small',
      modelLike: options.kind === 'wide',
    });
    mix[kind]++;
    predictions[String(i)] = `${sql}\t----- bird -----\t${q.db_id}`;
  });
  for (const db of handles.values()) db.close();
  writeFileSync(
    join(dir, 'dev.json'),
    JSON.stringify(questions.map((q, i) => ({ question_id: i, question: `question ${i}`, evidence: '', ...q }))),
  );
  const file = join(dir, 'predict_dev.json');
  writeFileSync(file, JSON.stringify(predictions));
  return { dir, predictions: file, questions: questions.length, databaseBytes, mix };
}
