import { Link } from 'react-router';
import { Card, Col, Row, Tree, Typography } from 'antd';
import { DatabaseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { COMMAND_COUNT_CAP, hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import type { ColumnOverride } from '../../../resource/columns.ts';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../resource/formatters.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import { commandInput, commandOutput, risk } from './sessionCells.tsx';
import { commandRoute } from './sessionRoutes.tsx';
import { replayUrl } from './sessionLinks.ts';
import { AUDIT_DETAIL, AUDIT_LIST } from '../auditList.ts';

/**
 * Commands across sessions: risk levels in colour, filters (user, asset, account, session, risk
 * level, date range) and a search on the input (served by the server's substring index), output
 * excerpts expandable in place, links to the session and to its replay at the command's moment,
 * export; the server counts up to COMMAND_COUNT_CAP ("10,000+" beyond). Beside the list the
 * command-storage tree of the original, with its one storage.
 */
export const commandListColumns = [
  'input',
  'risk_level',
  'output',
  'user',
  'asset',
  'account',
  'session',
  'replay',
  'timestamp_display',
];

function ReplayLink({ row }: { row: Record<string, unknown> }) {
  const { t } = useTranslation();
  const perms = useAppStore((s) => s.perms);
  if (!hasPermission(perms, 'terminal.view_sessionreplay')) return null;
  return (
    <a
      href={replayUrl(String(row.session), row.org_id, { ts: Number(row.timestamp) })}
      target="_blank"
      rel="noreferrer"
      data-testid="command-replay"
    >
      {t('audit.session.replayAt')}
    </a>
  );
}

const sessionLink: CellFormatter = ({ value }) =>
  value ? (
    <Link to={`/audit/sessions/sessions/${String(value)}`} data-testid="command-session">
      {String(value).slice(0, 8)}
    </Link>
  ) : (
    '-'
  );

export const commandColumnsMeta: Record<string, ColumnOverride> = {
  input: { formatter: commandInput },
  risk_level: { formatter: risk, width: 120 },
  output: { formatter: commandOutput, label: 'audit.session.output' },
  session: { formatter: sessionLink, width: 100 },
  replay: { formatter: ({ row }) => <ReplayLink row={row} />, label: 'audit.session.replay', width: 130 },
  actions: { has: false },
};

function StorageTree() {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('audit.session.storage')}>
      <Tree
        defaultExpandAll
        selectedKeys={['default']}
        showIcon
        treeData={[
          {
            key: 'default',
            title: t('audit.session.storageDefault'),
            icon: <DatabaseOutlined />,
          },
        ]}
      />
    </Card>
  );
}

export const commandPages: ResourcePagesConfig = {
  ...commandRoute,
  listPage: (cfg) => (
    <Row gutter={16} wrap={false}>
      <Col flex="180px">
        <StorageTree />
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <ResourceList url={cfg.url} urlQuery {...cfg.list} />
      </Col>
    </Row>
  ),
  list: {
    ...AUDIT_LIST,
    name: 'CommandList',
    columns: commandListColumns,
    columnsExtra: ['replay'],
    columnsShow: {
      default: ['input', 'risk_level', 'output', 'user', 'asset', 'session', 'replay', 'timestamp_display'],
      min: ['input', 'replay'],
    },
    columnsMeta: commandColumnsMeta,
    linkColumn: 'input',
    noSelection: true,
    countCap: COMMAND_COUNT_CAP,
  },
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'CommandDetail',
        title: 'audit.tab.Detail',
        render: (cmd, { meta }) => (
          <>
            <DetailCard
              title="audit.card.basic"
              object={cmd}
              meta={meta}
              fields={[
                'input',
                'risk_level',
                'user',
                'asset',
                'account',
                'session',
                'remote_addr',
                'timestamp_display',
              ]}
              formatters={{ input: commandInput, risk_level: risk, session: sessionLink }}
            />
            <Card size="small" style={{ marginTop: 16 }}>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', margin: 0 }}>
                {String(cmd.output ?? '')}
              </Typography.Paragraph>
              <ReplayLink row={cmd} />
            </Card>
          </>
        ),
      },
    ],
  },
};
