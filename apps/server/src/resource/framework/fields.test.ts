import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE } from '@gatehouse/contract';
import { WIDGETS, makeWidgets, widgetApp, type WidgetApp } from '../../../test-support/widgets.ts';

/** Validation messages (in the caller's language), serialization of every field type, and OPTIONS metadata. */
let w: WidgetApp;

beforeAll(async () => {
  w = await widgetApp();
}, 60_000);
afterAll(async () => w.t.close());

const ZH = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' };
const create = (body: unknown, headers: Record<string, string> = {}) => w.admin.post(WIDGETS, body, headers);

async function errorsOf(body: unknown, headers: Record<string, string> = {}) {
  const res = await create(body, headers);
  expect(res.statusCode, res.body).toBe(400);
  return res.json();
}

describe('validation messages', () => {
  it('names each wrong field with the DRF message, in English by default', async () => {
    expect(
      await errorsOf({
        code: 'x'.repeat(17),
        size: 'ten',
        is_active: 'perhaps',
        kind: 'huge',
        level: 'medium',
        starts_at: 'tomorrow',
        meta: '{not json',
        aliases: 'one',
        category: true,
        tags: 'red',
        contact: 'not-an-address',
      }),
    ).toEqual({
      name: ['This field is required.'],
      code: ['Ensure this field has no more than 16 characters.'],
      size: ['A valid integer is required.'],
      is_active: ['Must be a valid boolean.'],
      kind: ['"huge" is not a valid choice.'],
      level: ['"medium" is not a valid choice.'],
      starts_at: [expect.stringMatching(/^Datetime has wrong format/)],
      meta: ['Not a valid json format'],
      aliases: ['Expected a list of items but got type "str".'],
      category: ['Incorrect type. Expected pk value, received bool.'],
      tags: ['Expected a list of items but got type "str".'],
      contact: ['Enter a valid email address.'],
    });
  });

  it('checks blank, null, bounds, object types and unknown relations', async () => {
    expect(await errorsOf({ name: '  ', size: -1 })).toEqual({
      name: ['This field may not be blank.'],
      size: ['Ensure this value is greater than or equal to 0.'],
    });
    expect(await errorsOf({ name: null, size: 1001, tags: [{}] })).toEqual({
      name: ['This field may not be null.'],
      size: ['Ensure this value is less than or equal to 1000.'],
      tags: ['Incorrect type. Expected pk value, received dict.'],
    });
    expect(await errorsOf({ name: ['a'], category: 'missing' })).toEqual({
      name: ['Incorrect type. Expected pk value, received list.'],
      category: ['Invalid pk "missing" - object does not exist.'],
    });
  });

  it('speaks Chinese from Accept-Language, and the language cookie wins over the header', async () => {
    expect(await errorsOf({ size: 'ten', kind: 'huge', code: 'x'.repeat(17) }, ZH)).toEqual({
      name: ['该字段是必填项。'],
      code: ['请确保这个字段不能超过 16 个字符。'],
      size: ['请填写合法的整数值。'],
      kind: ['“huge” 不是合法选项。'],
    });
    w.admin.jar.values.set(LANGUAGE_COOKIE, 'zh-hans');
    try {
      expect(await errorsOf({}, { 'accept-language': 'en' })).toEqual({ name: ['该字段是必填项。'] });
    } finally {
      w.admin.jar.values.delete(LANGUAGE_COOKIE);
    }
    w.admin.jar.values.set(LANGUAGE_COOKIE, 'en');
    try {
      expect(await errorsOf({}, ZH)).toEqual({ name: ['This field is required.'] });
    } finally {
      w.admin.jar.values.delete(LANGUAGE_COOKIE);
    }
  });

  it('refuses a body that is not an object, in the caller’s language', async () => {
    expect(await errorsOf(JSON.stringify('just text'), { 'content-type': 'application/json' })).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary, but got str.'],
    });
    expect((await errorsOf([1], ZH))[0]).toEqual({ non_field_errors: ['无效数据。期待为字典类型，得到的是 int 。'] });
    const bulk = await w.admin.request({ method: 'PATCH', url: WIDGETS, payload: { id: 'x' }, headers: ZH });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual({ non_field_errors: ['期望为一个包含物件的列表，得到的类型是“dict”。'] });
  });
});

describe('serialization', () => {
  it('outputs every field type in its contract shape', async () => {
    const [id] = await makeWidgets(w, [
      {
        name: 'shape',
        code: 'S1',
        size: '42',
        is_active: 'false',
        kind: { value: 'large' },
        level: 'high',
        starts_at: '2024/05/06 07:08:09 +0800',
        category: { pk: w.tags.green },
        tags: [w.tags.blue, { id: w.tags.red }, w.tags.blue],
        meta: '{"a":[1,2]}',
        aliases: ['one', 'two'],
        contact: 'ops@example.com',
        secret: 'hidden',
        comment: 'a note',
      },
    ]);
    const res = await w.admin.get(`${WIDGETS}${id}/`, { 'x-tz': 'Asia/Shanghai' });
    const body = res.json();
    expect(body).toEqual({
      id,
      name: 'shape',
      code: 'S1',
      size: 42,
      is_active: false,
      kind: { value: 'large', label: 'Large' },
      level: 'high',
      starts_at: '2024/05/06 07:08:09 +0800',
      category: { id: w.tags.green, name: 'green' },
      tags: [
        { id: w.tags.blue, name: 'blue' },
        { id: w.tags.red, name: 'red' },
      ],
      meta: { a: [1, 2] },
      aliases: ['one', 'two'],
      contact: 'ops@example.com',
      summary: 'shape#42',
      comment: 'a note',
      created_by: 'Administrator(admin)',
      date_created: expect.stringMatching(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \+0800$/),
      date_updated: expect.stringMatching(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \+0800$/),
      org_id: expect.any(String),
      org_name: 'DEFAULT',
    });
    expect(res.body).not.toContain('hidden');
    // Stored in UTC, shown in the caller's zone; choice labels in the caller's language.
    const utc = (await w.admin.get(`${WIDGETS}${id}/`, ZH)).json();
    expect(utc.starts_at).toBe('2024/05/05 23:08:09 +0000');
    expect(utc.kind).toEqual({ value: 'large', label: '大' });
  });

  it('outputs empty values as null, [] or the type’s empty value', async () => {
    const [id] = await makeWidgets(w, [{ name: 'empty', meta: null }]);
    const body = (await w.admin.get(`${WIDGETS}${id}/`)).json();
    expect(body).toMatchObject({ code: null, starts_at: null, category: null, tags: [], aliases: [], meta: null });
  });
});

describe('OPTIONS metadata', () => {
  it('describes each field for GET and for writes, in the caller’s language', async () => {
    const res = await w.admin.request({ method: 'OPTIONS', url: WIDGETS });
    expect(res.statusCode).toBe(200);
    const meta = res.json();
    expect(meta).toMatchObject({
      name: 'Widget',
      renders: ['application/json', 'text/csv', 'application/xlsx'],
      parses: ['application/json', 'text/csv', 'text/xlsx'],
    });
    expect(Object.keys(meta.actions)).toEqual(['GET', 'POST', 'PUT']);
    const get = meta.actions.GET;
    expect(get.id).toEqual({ type: 'string', required: false, read_only: true, label: 'ID', filter: true });
    expect(get.name).toEqual({ type: 'string', required: true, label: 'Name', max_length: 64, order: true });
    expect(get.size).toEqual({
      type: 'integer',
      required: false,
      default: 1,
      label: 'Size',
      min_value: 0,
      max_value: 1000,
      filter: true,
      order: true,
    });
    expect(get.kind).toMatchObject({
      type: 'labeled_choice',
      default: 'small',
      choices: [
        { value: 'small', label: 'Small' },
        { value: 'large', label: 'Large' },
      ],
    });
    expect(get.level.type).toBe('choice');
    expect(get.category).toMatchObject({ type: 'object_related_field', filter: true });
    expect(get.tags.type).toBe('m2m_related_field');
    expect(get.aliases).toMatchObject({ type: 'list', child: { type: 'string', required: true, read_only: false } });
    expect(get.meta.type).toBe('json');
    expect(get.contact).toMatchObject({ type: 'email', max_length: 128 });
    expect(get.secret).toMatchObject({ type: 'string', write_only: true });
    expect(get.summary).toMatchObject({ type: 'string', read_only: true, required: false });
    expect(get.org_name).toMatchObject({ read_only: true });
    expect(meta.actions.POST.name).not.toHaveProperty('order');
    expect(meta.actions.POST.code).not.toHaveProperty('filter');
    const zh = (await w.admin.request({ method: 'OPTIONS', url: `${WIDGETS}x/`, headers: ZH })).json();
    expect(zh.name).toBe('部件');
    expect(zh.actions.POST.kind.choices[1]).toEqual({ value: 'large', label: '大' });
  });
});
