import { useTranslation } from 'react-i18next';
import { COMMAND_COUNT_CAP } from '@gatehouse/contract';
import { Button, Space } from 'antd';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import type { ResourceObject } from '../../../resource/types.ts';
import { TabPage } from '../../../resource/TabPage.tsx';
import { commandListColumns, commandColumnsMeta } from './commandPages.tsx';
import { bool, duration } from './sessionCells.tsx';
import { commandRoute, sessionRoute } from './sessionRoutes.tsx';
import { useSessionActions } from './useSessionActions.ts';
import { AUDIT_DETAIL } from '../auditList.ts';

/**
 * Sessions: online and offline tabs (`is_finished=0|1`) with the console's columns and actions
 * (online: monitor, pause/resume, terminate; offline: replay, download), and a detail with the
 * session's facts and actions, its commands and its join records.
 */
const COLUMNS = [
  'id',
  'user',
  'asset',
  'account',
  'remote_addr',
  'protocol',
  'command_amount',
  'date_start',
  'duration',
  'actions',
];

const INFO = [
  'id',
  'user',
  'asset',
  'account',
  'protocol',
  'login_from',
  'remote_addr',
  'is_success',
  'is_locked',
  'terminal_display',
  'command_amount',
  'date_start',
  'date_end',
  'comment',
];

const shortId: ResourcePagesConfig['list']['columnsMeta'] = {
  id: { label: 'audit.session.index', formatter: ({ value }) => String(value).slice(0, 8), width: 100 },
  duration: { label: 'audit.session.duration', formatter: duration },
};

function SessionTabs({ cfg }: { cfg: ResourcePagesConfig }) {
  const { t } = useTranslation();
  const a = useSessionActions();
  const list = (online: boolean) => (
    <ResourceList
      url={cfg.url}
      name={online ? 'SessionOnlineList' : 'SessionOfflineList'}
      extraQuery={{ is_finished: online ? '0' : '1' }}
      columns={COLUMNS}
      columnsExtra={['duration']}
      columnsShow={{ min: ['id', 'actions'] }}
      columnsMeta={shortId}
      linkColumn="id"
      hasDatePicker
      noSelection
      headerActions={{ hasCreate: false, hasBulkDelete: false, hasImport: false }}
      rowActions={{
        hasUpdate: false,
        hasDelete: false,
        hasClone: false,
        extra: online
          ? [
              { name: 'monitor', title: 'audit.session.monitor', has: a.may.monitor, onClick: a.monitor },
              {
                name: 'lock',
                title: 'audit.session.pause',
                has: (r) => a.may.terminate(r) && !r.is_locked,
                onClick: (r, reload) => a.toggleLock(r, reload),
              },
              {
                name: 'unlock',
                title: 'audit.session.resume',
                has: (r) => a.may.terminate(r) && Boolean(r.is_locked),
                onClick: (r, reload) => a.toggleLock(r, reload),
              },
              {
                name: 'terminate',
                title: 'audit.session.terminate',
                danger: true,
                has: a.may.terminate,
                onClick: (r, reload) => a.terminate(r, reload),
              },
            ]
          : [
              { name: 'replay', title: 'audit.session.replay', has: a.may.replay, onClick: a.replay },
              { name: 'download', title: 'audit.session.download', has: a.may.download, onClick: a.download },
            ],
      }}
    />
  );
  return (
    <TabPage
      items={[
        { name: 'online', title: t('audit.session.online'), render: () => list(true) },
        { name: 'offline', title: t('audit.session.offline'), render: () => list(false) },
      ]}
      defaultTab="online"
    />
  );
}

function SessionActionBar({ session, reload }: { session: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const a = useSessionActions();
  return (
    <Space wrap data-testid="session-actions" style={{ marginBottom: 16 }}>
      {a.may.monitor(session) && <Button onClick={() => a.monitor(session)}>{t('audit.session.monitor')}</Button>}
      {a.may.terminate(session) && (
        <Button onClick={() => a.toggleLock(session, reload)}>
          {t(session.is_locked ? 'audit.session.resume' : 'audit.session.pause')}
        </Button>
      )}
      {a.may.terminate(session) && (
        <Button danger onClick={() => a.terminate(session, reload)}>
          {t('audit.session.terminate')}
        </Button>
      )}
      {a.may.replay(session) && (
        <Button type="primary" onClick={() => a.replay(session)}>
          {t('audit.session.replay')}
        </Button>
      )}
      {a.may.download(session) && <Button onClick={() => a.download(session)}>{t('audit.session.download')}</Button>}
    </Space>
  );
}

export const sessionPages: ResourcePagesConfig = {
  ...sessionRoute,
  listPage: (cfg) => <SessionTabs cfg={cfg} />,
  list: { name: 'SessionList' },
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'SessionDetail',
        title: 'audit.tab.Detail',
        render: (session, { meta, reload }) => (
          <>
            <SessionActionBar session={session} reload={reload} />
            <DetailCard
              title="audit.card.basic"
              object={session}
              meta={meta}
              fields={INFO}
              formatters={{ is_success: bool }}
            />
          </>
        ),
      },
      {
        name: 'SessionCommands',
        title: 'audit.session.commands',
        render: (session) => (
          <ResourceList
            url={commandRoute.url}
            name="SessionCommandList"
            extraQuery={{ session_id: session.id, order: 'timestamp' }}
            columns={commandListColumns.filter((c) => !['user', 'asset', 'account', 'session'].includes(c))}
            columnsMeta={commandColumnsMeta}
            countCap={COMMAND_COUNT_CAP}
            paths={null}
            noSelection
            headerActions={{ hasCreate: false, hasBulkDelete: false, hasImport: false }}
            rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
          />
        ),
      },
      {
        name: 'SessionJoinRecords',
        title: 'audit.session.joinRecords',
        render: (session) => (
          <ResourceList
            url="/api/v1/terminal/session-join-records/"
            name="SessionJoinRecordList"
            extraQuery={{ session: session.id }}
            permissions={{ app: 'terminal', resource: 'session' }}
            columns={[
              'joiner_display',
              'action_permission',
              'remote_addr',
              'is_success',
              'reason',
              'is_finished',
              'date_joined',
              'date_left',
            ]}
            paths={null}
            noSelection
            headerActions={{ hasCreate: false, hasBulkDelete: false, hasImport: false }}
            rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
            columnsMeta={{ actions: { has: false } }}
          />
        ),
      },
    ],
  },
};
