import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { text } from '@gatehouse/contract';
import { f, registerResource, type ResourceDef } from '../src/resource/index.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp, type TestAppOptions } from './testApp.ts';
import type { DB } from '../src/platform/db/schema.ts';

/**
 * A small resource declared only for the framework's own tests: widgets (org-scoped) with one
 * field of every type the framework has, a foreign key and a many-to-many to tags. Its tables
 * are created by the test app, so nothing here depends on users, assets or any module.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- the test tables are not in the schema types */
type AnyDb = Kysely<any>;
const T = (name: string) => name as keyof DB & string;
/* eslint-enable @typescript-eslint/no-explicit-any */

export const WIDGETS = '/api/v1/fw/widgets/';

export const widgetDef: ResourceDef = {
  model: 'widget',
  app: 'fw',
  url: WIDGETS,
  table: T('fw_widget'),
  label: text('Widget', '部件', 'ウィジェット'),
  orgScoped: true,
  defaultOrder: ['name'],
  dateRangeField: 'starts_at',
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(text('Name', '名称', '名前'), { required: true, maxLength: 64, search: true, order: true }),
    code: f.string(text('Code', '编码', 'コード'), { maxLength: 16, search: true, filter: true, unique: true }),
    size: f.int(text('Size', '尺寸', 'サイズ'), { filter: true, order: true, minValue: 0, maxValue: 1000, default: 1 }),
    is_active: f.bool(text('Active', '激活', 'アクティブ'), { filter: true, default: true }),
    kind: f.choice(
      text('Kind', '种类', '種類'),
      [
        { value: 'small', label: text('Small', '小', '小') },
        { value: 'large', label: text('Large', '大', '大') },
      ],
      { filter: true, default: 'small' },
    ),
    level: {
      type: 'choice',
      label: text('Level', '级别', 'レベル'),
      choices: [
        { value: 'low', label: text('Low', '低', '低') },
        { value: 'high', label: text('High', '高', '高') },
      ],
      default: 'low',
    },
    starts_at: f.datetime(text('Starts at', '开始时间', '開始日時'), { order: true }),
    category: f.fk(text('Category', '类别', 'カテゴリ'), { table: T('fw_tag') }, { filter: true }),
    tags: f.m2m(text('Tags', '标签', 'タグ'), {
      table: T('fw_tag'),
      through: { table: T('fw_widget_tags'), left: 'widget_id', right: 'tag_id' },
    }),
    meta: f.json(text('Meta', '元数据', 'メタ'), { default: {} }),
    aliases: f.list(text('Aliases', '别名', '別名')),
    contact: f.email(text('Contact', '联系人', '連絡先')),
    secret: f.string(text('Secret', '密钥', 'シークレット'), { writeOnly: true, noExport: true }),
    summary: f.computed('string', text('Summary', '摘要', '概要'), (row) => `${row.name}#${row.size}`),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
};

async function createTables(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('fw_tag')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('fw_widget')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('code', 'varchar(16)')
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(sql.lit(true)))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('level', 'varchar(16)', (c) => c.notNull())
    .addColumn('starts_at', 'varchar(32)')
    .addColumn('category_id', 'varchar(36)')
    .addColumn('meta', 'text')
    .addColumn('aliases', 'text')
    .addColumn('contact', 'varchar(128)')
    .addColumn('secret', 'varchar(128)')
    .addColumn('comment', 'text')
    .addColumn('created_by', 'varchar(128)')
    .addColumn('date_created', 'varchar(32)')
    .addColumn('date_updated', 'varchar(32)')
    .execute();
  await createLinkTable(db);
}

/** The widget-tag link table (tests drop and recreate it to make a write fail half-way). */
export async function createLinkTable(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('fw_widget_tags')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('widget_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('tag_id', 'varchar(36)', (c) => c.notNull())
    .execute();
}

export interface WidgetApp {
  t: TestApp;
  admin: SessionClient;
  db: AnyDb;
  /** Tag ids by name (red, green, blue). */
  tags: Record<string, string>;
}

/** A test app with the widget resource registered beside the real modules, and the admin signed in. */
export async function widgetApp(opts: Pick<TestAppOptions, 'before'> = {}): Promise<WidgetApp> {
  const t = await createTestApp(
    {},
    {
      ...opts,
      beforeBuild: (deps) => createTables(deps.database.db as unknown as AnyDb),
      extend: (app) => registerResource(app, widgetDef),
    },
  );
  const db = t.deps.database.db as unknown as AnyDb;
  const tags: Record<string, string> = {};
  for (const name of ['red', 'green', 'blue']) {
    tags[name] = randomUUID();
    await db.insertInto('fw_tag').values({ id: tags[name], name }).execute();
  }
  return { t, admin: await adminClient(t.app), db, tags };
}

/** Creates widgets through the API (in the default org) and returns their ids in order. */
export async function makeWidgets(w: WidgetApp, items: Record<string, unknown>[]): Promise<string[]> {
  const res = await w.admin.post(WIDGETS, items);
  if (res.statusCode !== 201) throw new Error(`widgets not created: ${res.body}`);
  return (res.json() as { id: string }[]).map((r) => r.id);
}
