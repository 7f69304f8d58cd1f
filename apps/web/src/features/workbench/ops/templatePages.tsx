import { Input } from 'antd';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import type { ResourcePageParts } from '../../../resource/resourceRoute.tsx';
import { playbookWorkspacePath } from './opsPaths.ts';
import styles from './ops.module.css';

const code = () => <Input.TextArea className={styles.code} autoSize={{ minRows: 4, maxRows: 20 }} spellCheck={false} />;

export const ADHOC_COLUMNS = ['name', 'module', 'args', 'comment', 'date_created'];
export const PLAYBOOK_COLUMNS = ['name', 'create_method', 'comment', 'date_created'];

/** Saved commands (`ops/adhocs/`): name, module, the command, a comment. */
export const adhocPages: ResourcePageParts = {
  list: {
    name: 'AdhocList',
    columns: [...ADHOC_COLUMNS, 'actions'],
    columnsMeta: { args: { formatter: ({ value }) => <code className={styles.code}>{String(value ?? '')}</code> } },
  },
  form: {
    groups: [{ title: 'jobs.group.basic', fields: ['name', 'module', 'args', 'comment'] }],
    fieldsMeta: { module: { widget: 'select' }, args: { render: code } },
    initial: { module: 'shell' },
    successRoute: () => '/workbench/ops/templates?activeTab=adhoc',
  },
  detail: {
    tabs: [
      {
        name: 'AdhocDetail',
        title: 'jobs.tab.detail',
        render: (x, { meta }) => (
          <DetailCard title="jobs.card.basic" object={x} meta={meta} excludes={['creator', 'org_id']} />
        ),
      },
    ],
  },
};

/** Playbooks (`ops/playbooks/`): a blank one from this form (or a zip from the templates page); files in the workspace. */
export const playbookPages: ResourcePageParts = {
  list: { name: 'PlaybookList', columns: [...PLAYBOOK_COLUMNS, 'actions'] },
  form: {
    groups: [{ title: 'jobs.group.basic', fields: ['name', 'comment'] }],
    successRoute: (saved, ctx) =>
      ctx.isCreate ? playbookWorkspacePath(saved.id) : '/workbench/ops/templates?activeTab=playbook',
  },
  detail: {
    tabs: [
      {
        name: 'PlaybookDetail',
        title: 'jobs.tab.detail',
        render: (x, { meta }) => (
          <DetailCard title="jobs.card.basic" object={x} meta={meta} excludes={['creator', 'org_id', 'path']} />
        ),
      },
    ],
  },
};
