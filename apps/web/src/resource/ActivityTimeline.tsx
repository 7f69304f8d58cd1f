import { useState } from 'react';
import { Alert, Card, Empty, Spin, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../lib/http.ts';
import { DiffDialog } from './DiffDialog.tsx';
import { errorMessage } from './errorMessage.ts';

/** An activity of a resource (`activities/`). */
export interface Activity {
  id: string;
  timestamp: string;
  content: string;
  detail_url: string;
  /** O operate log (has a diff), S session, L login, T task. */
  r_type: string;
}

/** The last 30 days of a resource as a timeline; an operation opens its diff, a task its log. */
export function ActivityTimeline({ resourceId }: { resourceId: string }) {
  const { t } = useTranslation();
  const [diffUrl, setDiffUrl] = useState<string | null>(null);
  const activities = useQuery({
    queryKey: ['activities', resourceId],
    queryFn: () => http.get<Activity[]>('/api/v1/audits/activities/', { params: { resource_id: resourceId } }),
    staleTime: 0,
  });
  const open = (a: Activity) => {
    if (!a.detail_url) return;
    if (a.r_type === 'O') setDiffUrl(a.detail_url);
    else window.open(a.detail_url, '_blank', 'width=900,height=600');
  };
  return (
    <Card title={t('resource.activity.title')} data-testid="activity-timeline">
      {activities.isPending && <Spin />}
      {activities.error && <Alert type="error" showIcon title={errorMessage(activities.error, t)} />}
      {activities.data?.length === 0 && <Empty />}
      {activities.data && activities.data.length > 0 && (
        <Timeline
          items={activities.data.map((a) => ({
            key: a.id,
            content: (
              <>
                <Typography.Text type="secondary">{a.timestamp}</Typography.Text>
                <div>
                  {a.detail_url ? (
                    <Typography.Link onClick={() => open(a)} data-testid="activity-item">
                      {a.content}
                    </Typography.Link>
                  ) : (
                    <span data-testid="activity-item">{a.content}</span>
                  )}
                </div>
              </>
            ),
          }))}
        />
      )}
      <DiffDialog url={diffUrl} onClose={() => setDiffUrl(null)} />
    </Card>
  );
}
