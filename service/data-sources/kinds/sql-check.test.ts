import { describe, expect, it } from 'vitest';
import { checkSqlQuery, checkSqlUrl, parseSqlUrl, readSqlQuery } from './sql-check';
import { exactNumber, jsonValue } from './sql-common';

describe('checkSqlUrl', () => {
  it('reads a database URL with its defaults', () => {
    expect(parseSqlUrl('postgres', 'postgres://reader@db.example.com/metrics')).toEqual({
      host: 'db.example.com',
      port: 5432,
      user: 'reader',
      database: 'metrics',
      ssl: 'disable',
    });
    expect(parseSqlUrl('mysql', 'mariadb://r%40x@[::1]:3307?sslmode=verify-full')).toEqual({
      host: '::1',
      port: 3307,
      user: 'r@x',
      database: null,
      ssl: 'verify-full',
    });
    expect(checkSqlUrl('postgres', 'postgresql://reader@10.0.0.5:6432/app')).toBeNull();
  });

  it('refuses a password in the URL, and says where it goes', () => {
    expect(checkSqlUrl('postgres', 'postgres://reader:hunter2@db/app')).toMatch(/password.*secret/);
    expect(checkSqlUrl('mysql', 'mysql://reader:hunter2@db/app')).toMatch(/password.*secret/);
  });

  it('refuses what is not the kind’s URL', () => {
    expect(checkSqlUrl('postgres', 'mysql://reader@db/app')).toMatch(/postgres:\/\//);
    expect(checkSqlUrl('mysql', 'https://reader@db/app')).toMatch(/mysql:\/\//);
    expect(checkSqlUrl('postgres', 'not a url')).toMatch(/must be a URL/);
    expect(checkSqlUrl('postgres', 'postgres://db/app')).toMatch(/user/);
    expect(checkSqlUrl('postgres', 'postgres://reader@db/app/more')).toMatch(/one database/);
    expect(checkSqlUrl('postgres', 'postgres://reader@db/app?sslmode=prefer')).toMatch(/sslmode/);
    expect(checkSqlUrl('postgres', 'postgres://reader@db/app?options=-c')).toMatch(/only.*sslmode/);
    expect(checkSqlUrl('json', 'https://example.com')).toMatch(/not a database kind/);
  });
});

describe('checkSqlQuery', () => {
  const ok = (kind: 'postgres' | 'mysql', query: string) =>
    expect(checkSqlQuery(kind, query, null)).toBeNull();

  it('takes one reading statement, a closing ";" and comments included', () => {
    ok('postgres', 'SELECT 1');
    ok('postgres', '  select 1;  -- done\n');
    ok('postgres', 'WITH a AS (SELECT 1) SELECT * FROM a');
    ok('postgres', '(SELECT 1) UNION (SELECT 2)');
    ok('postgres', "SELECT 'a;b', \"x;y\", $$c;d$$, $t$e;f$t$, E'g\\';h' /* i; /* j; */ k; */");
    ok('mysql', "SELECT 'a\\';b', `c;d`, \"e;f\" # g; h\n");
    ok('mysql', 'SHOW TABLES');
  });

  it('refuses an empty query, a second statement and a range', () => {
    expect(checkSqlQuery('postgres', '', null)).toMatch(/empty/);
    expect(checkSqlQuery('mysql', '  -- nothing\n', null)).toMatch(/empty/);
    expect(checkSqlQuery('postgres', 'SELECT 1; SELECT 2', null)).toMatch(/one statement/);
    expect(checkSqlQuery('postgres', 'SELECT 1;;', null)).toMatch(/one statement/);
    expect(checkSqlQuery('mysql', 'SELECT 1; DROP TABLE t', null)).toMatch(/one statement/);
    expect(checkSqlQuery('postgres', 'SELECT 1', { seconds: 60, step_seconds: 1 })).toMatch(
      /only a Prometheus source/,
    );
  });

  it('leans towards refusing what it cannot read for sure', () => {
    // MySQL's `--` needs a space after it to be a comment: here the `;` is real.
    expect(checkSqlQuery('mysql', 'SELECT 1--1; DROP TABLE t', null)).toMatch(/one statement/);
    expect(checkSqlQuery('mysql', 'SELECT /*! 1; DROP TABLE t */', null)).toMatch(/executable comments/);
    expect(checkSqlQuery('postgres', "SELECT 'open", null)).toMatch(/not closed/);
    expect(checkSqlQuery('postgres', 'SELECT /* open', null)).toMatch(/not closed/);
    expect(checkSqlQuery('postgres', "SELECT 'it\\'; DROP TABLE t; --'", null)).toMatch(/one statement/);
  });

  it('refuses statements that do not read', () => {
    for (const query of [
      'INSERT INTO t VALUES (1)',
      'update t set a = 1',
      'DELETE FROM t',
      'DROP TABLE t',
      'CREATE TABLE u (a int)',
      'CALL p()',
    ]) {
      expect(checkSqlQuery('postgres', query, null)).toMatch(/only reads/);
      expect(checkSqlQuery('mysql', query, null)).toMatch(/only reads/);
    }
    expect(checkSqlQuery('postgres', 'SHOW search_path', null)).toMatch(/only reads/);
    expect(checkSqlQuery('mysql', "SELECT 1 INTO OUTFILE '/tmp/x'", null)).toMatch(/OUTFILE/);
  });

  it('gives the statement without its closing ";"', () => {
    expect(readSqlQuery('postgres', 'SELECT 1 ; -- end')).toEqual({ statement: 'SELECT 1' });
    expect(readSqlQuery('mysql', "SELECT ';'")).toEqual({ statement: "SELECT ';'" });
  });
});

describe('JSON values', () => {
  it('gives exact numbers as numbers, and the rest as text', () => {
    expect(exactNumber('42')).toBe(42);
    expect(exactNumber('-0012.50')).toBe(-12.5);
    expect(exactNumber('0.1')).toBe(0.1);
    expect(exactNumber('9007199254740993')).toBe('9007199254740993');
    expect(exactNumber('12345678901234567890.5')).toBe('12345678901234567890.5');
    expect(exactNumber('0.30000000000000000001')).toBe('0.30000000000000000001');
    expect(exactNumber('NaN')).toBe('NaN');
    expect(exactNumber('-0')).toBe(0);
  });

  it('writes dates, bytes and bigints as JSON does', () => {
    expect(
      jsonValue({
        at: new Date('2026-01-02T03:04:05Z'),
        bytes: Buffer.from('hi'),
        big: 12n,
        huge: 2n ** 70n,
        list: [new Date(Number.NaN), Infinity],
      }),
    ).toEqual({
      at: '2026-01-02T03:04:05.000Z',
      bytes: 'aGk=',
      big: 12,
      huge: '1180591620717411303424',
      list: [null, 'Infinity'],
    });
  });
});
