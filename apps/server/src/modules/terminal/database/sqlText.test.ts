import { describe, expect, it } from 'vitest';
import { normaliseStatement, splitStatements } from './sqlText.ts';

const norms = (sql: string, d: 'mysql' | 'postgresql' = 'postgresql') =>
  splitStatements(sql, d).map((p) => p.normalised);

describe('SQL statements as the proxies read them', () => {
  it('splits at semicolons outside quotes and comments', () => {
    expect(norms("select 1; select ';' ; -- x;\nselect 2;")).toEqual(['select 1', "select ';'", 'select 2']);
    expect(norms('select "a;b" from t;select $$ ; $$, $q$;$q$')).toEqual([
      'select "a;b" from t',
      'select $$ ; $$, $q$;$q$',
    ]);
    expect(norms("select 'it''s;'; select 2")).toEqual(["select 'it''s;'", 'select 2']);
    expect(norms("select 'a\\';b'", 'mysql')).toEqual(["select 'a\\';b'"]);
    expect(norms('select `x;y` from t # c;\n;', 'mysql')).toEqual(['select `x;y` from t']);
    expect(norms('select $1, $2', 'postgresql')).toEqual(['select $1, $2']);
  });

  it('removes comments and collapses whitespace, so a statement split over lines reads as one', () => {
    expect(normaliseStatement('DROP\n  DATABASE\tx', 'postgresql')).toBe('DROP DATABASE x');
    expect(normaliseStatement('/* note */ DROP/**/DATABASE x', 'mysql')).toBe('DROP DATABASE x');
    expect(normaliseStatement('-- first\nDROP DATABASE x', 'postgresql')).toBe('DROP DATABASE x');
    expect(normaliseStatement('/* a /* nested */ still */ DROP DATABASE x', 'postgresql')).toBe('DROP DATABASE x');
    expect(normaliseStatement("select 'a  --  b'", 'postgresql')).toBe("select 'a  --  b'");
    expect(normaliseStatement('select 1--1', 'mysql')).toBe('select 1--1');
  });

  it("keeps MySQL's executable comments, which the server runs", () => {
    expect(normaliseStatement('/*!50000 DROP */ DATABASE x', 'mysql')).toBe('DROP DATABASE x');
    expect(normaliseStatement('/*M!100100 DROP DATABASE x */', 'mysql')).toBe('DROP DATABASE x');
  });

  it('drops empty statements and keeps the text as sent', () => {
    const p = splitStatements(';; /* only */ ;\nDROP\nDATABASE x ;', 'postgresql');
    expect(p).toEqual([{ text: 'DROP\nDATABASE x', normalised: 'DROP DATABASE x' }]);
  });
});
