// A floor of bench/service's metric writes: what the embedded store itself allows on this disk.
// A raw node:sqlite loop on one file (WAL, synchronous=FULL, as service/db/embedded.ts opens its
// store) committing GROUP metric-shaped writes per sync, each in a savepoint of its own, as
// service/db/group-commit.ts does: read the flow by tag, store its data, log its event. Nothing
// else runs in its process. Plain Node runs this file as it is (node:sqlite only, no build).
// Usage: node bench/sqlite-floor.ts <file> <seconds>; prints {"writesPerS": n} on stdout.
import { DatabaseSync } from 'node:sqlite';

const [file, secondsArgument] = process.argv.slice(2);
if (!file || !secondsArgument) throw new Error('usage: node bench/sqlite-floor.ts <file> <seconds>');
const seconds = Number(secondsArgument);
/** Writes per commit: the group a busy store commits at once. */
const GROUP = 16;
const FLOWS = 100;

const db = new DatabaseSync(file);
db.exec('pragma journal_mode = wal; pragma synchronous = full;');
db.exec(`create table if not exists flows (
  id text primary key, tag text not null unique, variant text not null,
  data text not null, data_updated_at text);
create table if not exists events (
  id integer primary key autoincrement, type text not null, rooms text not null,
  payload text not null, created_at text not null)`);
const seed = db.prepare('insert or ignore into flows (id, tag, variant, data) values (?, ?, ?, ?)');
for (let n = 0; n < FLOWS; n++) seed.run(`flow-${n}`, `tag_${n}`, 'value', '{"value":0}');

const find = db.prepare('select id, tag, variant, data from flows where tag = ?');
const store = db.prepare('update flows set data = ?, data_updated_at = ? where id = ?');
const log = db.prepare('insert into events (type, rooms, payload, created_at) values (?, ?, ?, ?)');

let writes = 0;
const started = performance.now();
const end = started + seconds * 1000;
while (performance.now() < end) {
  db.exec('begin');
  for (let index = 0; index < GROUP; index++) {
    db.exec(`savepoint write_${index}`);
    const flow = find.get(`tag_${writes % FLOWS}`) as { id: string; tag: string };
    const data = JSON.stringify({ value: writes });
    const at = new Date().toISOString();
    store.run(data, at, flow.id);
    log.run(
      'metrics.changed',
      JSON.stringify([`flow:${flow.id}`]),
      JSON.stringify({ type: 'metrics.changed', flow_id: flow.id, flow_tag: flow.tag, data }),
      at,
    );
    db.exec(`release write_${index}`);
    writes += 1;
  }
  db.exec('commit');
}
db.close();
process.stdout.write(`${JSON.stringify({ writesPerS: (writes * 1000) / (performance.now() - started) })}\n`);
