import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create('/tmp/pgl-k');
await db.exec('create table if not exists x (id serial primary key, v text)');
const before = (await db.query<{ n: number }>('select count(*)::int as n from x')).rows[0]!.n;
console.log('rows at start', before);
if (process.argv[2] === 'write') {
  for (let i = 0; i < 50; i++) await db.query('insert into x (v) values ($1)', ['a' + i]);
  console.log('wrote 50, killing');
  process.kill(process.pid, 'SIGKILL');
}
