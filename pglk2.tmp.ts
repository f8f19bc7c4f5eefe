import { PGlite } from '@electric-sql/pglite';
const t = Date.now();
const db = await PGlite.create('/tmp/pgl-k');
console.log('opened in', Date.now() - t);
console.log((await db.query('select count(*)::int as n from x')).rows);
await db.close();
