import { Card, Col, Descriptions, Empty, Progress, Row, Statistic, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';

/**
 * Settings › Terminal › Monitor: per component type the counts by load, then a card per instance
 * with its CPU load, memory and disk use and its sessions (`terminal/components/metrics/`, read
 * again every 10 s; the instances' heartbeats refresh the figures).
 */
interface Instance {
  id: string;
  name: string;
  remote_addr: string;
  is_alive: boolean;
  load: 'normal' | 'high' | 'critical' | 'offline';
  cpu_load: number;
  memory_used: number;
  disk_used: number;
  session_online: number;
}
type Metrics = Record<
  string,
  {
    total: number;
    normal: number;
    high: number;
    critical: number;
    offline: number;
    session_active: number;
    instances: Instance[];
  }
>;

const COLOURS = { normal: 'success', high: 'warning', critical: 'error', offline: 'default' } as const;
const percentColour = (p: number) => (p > 90 ? '#ff4d4f' : p > 80 ? '#faad14' : undefined);

export function MonitorTab() {
  const { t } = useTranslation();
  const metrics = useQuery({
    queryKey: ['/api/v1/terminal/components/metrics/'],
    queryFn: () => http.get<Metrics>('/api/v1/terminal/components/metrics/'),
    refetchInterval: 10_000,
  });
  const types = Object.entries(metrics.data ?? {});
  if (!metrics.isPending && !types.length) return <Empty />;
  return (
    <div data-testid="terminal-monitor">
      {types.map(([type, m]) => (
        <Card key={type} title={type} size="small" style={{ marginBottom: 16 }} loading={metrics.isPending}>
          <Row gutter={16} style={{ marginBottom: 16 }}>
            {(['total', 'normal', 'high', 'critical', 'offline', 'session_active'] as const).map((k) => (
              <Col key={k} span={4}>
                <Statistic title={t(`settingsTerminal.monitor.${k}`)} value={m[k]} />
              </Col>
            ))}
          </Row>
          <Row gutter={[16, 16]}>
            {m.instances.map((i) => (
              <Col key={i.id} xs={24} lg={12} xl={8}>
                <Card
                  size="small"
                  title={i.name}
                  extra={<Tag color={COLOURS[i.load]}>{t(`settingsTerminal.monitor.${i.load}`)}</Tag>}
                >
                  <Descriptions size="small" column={1}>
                    <Descriptions.Item label={t('settingsTerminal.monitor.address')}>
                      {i.remote_addr || '-'}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('settingsTerminal.monitor.cpu')}>
                      {i.cpu_load.toFixed(2)}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('settingsTerminal.monitor.memory')}>
                      <Progress percent={i.memory_used} size="small" strokeColor={percentColour(i.memory_used)} />
                    </Descriptions.Item>
                    <Descriptions.Item label={t('settingsTerminal.monitor.disk')}>
                      <Progress percent={i.disk_used} size="small" strokeColor={percentColour(i.disk_used)} />
                    </Descriptions.Item>
                    <Descriptions.Item label={t('settingsTerminal.monitor.sessions')}>
                      {i.session_online}
                    </Descriptions.Item>
                  </Descriptions>
                </Card>
              </Col>
            ))}
          </Row>
        </Card>
      ))}
    </div>
  );
}
