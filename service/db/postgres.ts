import pg from 'pg';
import type { Database } from './database';

// bigint (event ids, counts) as numbers: they stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle connection the server closes (restart, admin command) is dropped by the pool and the
  // next query opens another; without a listener the error would end the process.
  pool.on('error', () => undefined);
  // Fail at start, with the server's own words, rather than on the first request.
  await pool.query('select 1');
  return {
    kind: 'postgres',
    query: async (sql, params) => (await pool.query(sql, params as unknown[] | undefined)).rows,
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work({
          query: async (sql, params) => (await client.query(sql, params as unknown[] | undefined)).rows,
          exec: async (sql) => {
            await client.query(sql);
          },
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
