import { useState } from 'react';
import { Button, Drawer, Empty, List, Modal, Pagination, Popconfirm, Spin, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useShellStore } from '../shellStore.ts';
import { useFlashError } from '../session/useHttpErrors.ts';
import { formatMessageDate, MESSAGE_PAGE_SIZE } from './messageFormat.ts';
import { sanitizeHtml } from './sanitizeHtml.ts';
import { fetchUnread, markAllAsRead, markAsRead, type SiteMessage } from './siteMessagesApi.ts';

const KEY = ['site-messages', 'unread'];

/**
 * The site-message drawer: unread messages, 15 a page; a message opens
 * in a dialog whose closing marks it read; each can be marked read from the list; all of them
 * after a confirmation. 380 px wide, 70% on narrow screens.
 */
export function MessageDrawer() {
  const { t } = useTranslation();
  const open = useShellStore((s) => s.messagesOpen);
  const setOpen = useShellStore((s) => s.setMessagesOpen);
  const device = useShellStore((s) => s.device);
  const unread = useShellStore((s) => s.unreadMessages);
  const queryClient = useQueryClient();
  const flash = useFlashError();
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<SiteMessage>();
  const list = useQuery({
    queryKey: [...KEY, page, unread],
    queryFn: () => fetchUnread((page - 1) * MESSAGE_PAGE_SIZE),
    enabled: open,
  });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEY });
  const read = async (ids: string[]) => {
    try {
      await markAsRead(ids);
      refresh();
    } catch (e) {
      flash(e);
    }
  };
  const readAll = async () => {
    try {
      await markAllAsRead();
      setPage(1);
      refresh();
    } catch (e) {
      flash(e);
    }
  };
  const closeDetail = () => {
    if (detail && !detail.has_read) void read([detail.id]);
    setDetail(undefined);
  };

  const rows = list.data?.results ?? [];
  return (
    <>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        size={device === 'mobile' ? '70%' : 380}
        title={t('messages.title')}
        extra={
          <Popconfirm
            title={t('messages.markAllConfirm')}
            okText={t('messages.ok')}
            cancelText={t('messages.cancel')}
            onConfirm={() => void readAll()}
            disabled={!rows.length}
          >
            <Button size="small" disabled={!rows.length} data-testid="messages-read-all">
              {t('messages.markAllRead')}
            </Button>
          </Popconfirm>
        }
        data-testid="message-drawer"
      >
        {list.isLoading && <Spin />}
        {list.isError && <Typography.Text type="danger">{t('messages.loadFailed')}</Typography.Text>}
        {list.data && !rows.length && <Empty description={t('messages.empty')} />}
        {rows.length > 0 && (
          <List
            dataSource={rows}
            rowKey="id"
            renderItem={(m) => (
              <List.Item
                data-testid="message-item"
                actions={[
                  <Button
                    key="read"
                    type="text"
                    size="small"
                    icon={<CheckOutlined />}
                    title={t('messages.markRead')}
                    aria-label={t('messages.markRead')}
                    onClick={() => void read([m.id])}
                  />,
                ]}
              >
                <List.Item.Meta
                  title={<a onClick={() => setDetail(m)}>{m.content.subject}</a>}
                  description={<span title={m.date_created}>{formatMessageDate(m.date_created)}</span>}
                />
              </List.Item>
            )}
          />
        )}
        {(list.data?.count ?? 0) > MESSAGE_PAGE_SIZE && (
          <Pagination
            size="small"
            simple
            current={page}
            pageSize={MESSAGE_PAGE_SIZE}
            total={list.data!.count}
            onChange={setPage}
            style={{ marginTop: 12, textAlign: 'center' }}
          />
        )}
      </Drawer>
      <Modal
        open={Boolean(detail)}
        title={detail?.content.subject}
        onCancel={closeDetail}
        footer={
          <Button type="primary" onClick={closeDetail}>
            {t('messages.close')}
          </Button>
        }
        data-testid="message-detail"
      >
        {detail && (
          <>
            <Typography.Text type="secondary">{formatMessageDate(detail.date_created)}</Typography.Text>
            <div
              className="site-message-body"
              style={{ marginTop: 12 }}
              dangerouslySetInnerHTML={{ __html: sanitizeHtml(detail.content.message) }}
            />
          </>
        )}
      </Modal>
    </>
  );
}
